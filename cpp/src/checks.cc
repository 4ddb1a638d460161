#include "checks.h"

#include <cstddef>

#include "unpool/unpool.h"

namespace unpool {
namespace internal {

OpName::OpName(const char* base, int32_t dims) {
  const bool valid = dims >= 1 && dims <= kMaxSpatialDims;
  size_t n = 0;
  for (const char* c = base; *c != '\0' && n + 2 < sizeof(s_); ++c) {
    if (c[0] == '#' && c[1] == 'd') {
      if (valid) {
        s_[n++] = static_cast<char>('0' + dims);
        s_[n++] = 'd';
      }
      ++c;
    } else {
      s_[n++] = *c;
    }
  }
  s_[n] = '\0';
}

std::string shape_string(const Shape& s) {
  std::string r = "[";
  for (int i = 0; i < s.rank && i < kMaxRank; ++i) {
    if (i) r += ", ";
    r += std::to_string(s.dims[i]);
  }
  return r + "]";
}

Check check_dims_value(const char* op, int32_t dims) {
  if (dims >= 1 && dims <= kMaxSpatialDims) return {};
  return fail(Status::kInvalidArgument, Message()
                                            << op << ": dims=" << dims << " must be 1, 2 or 3");
}

Check check_layout(const char* op, Layout layout) {
  if (layout == Layout::kChannelsFirst || layout == Layout::kChannelsLast) return {};
  return fail(Status::kInvalidArgument, Message()
                                            << op << ": layout=" << static_cast<int>(layout)
                                            << " is not channels-first (0) or channels-last (1)");
}

Check check_rank(const char* op, const char* name, int32_t dims, const Shape& shape,
                 Layout layout) {
  if (shape.rank == dims + 1 || shape.rank == dims + 2) return {};
  static const char* const kSpatial[] = {"L", "H, W", "D, H, W"};
  const std::string sp = kSpatial[dims - 1];
  const std::string inner = layout == Layout::kChannelsLast ? sp + ", C" : "C, " + sp;
  Message m;
  m << op << ": " << name << " must have rank " << dims + 1 << " (" << inner << ") or " << dims + 2
    << " (N, " << inner << "), got rank " << shape.rank;
  if (shape.rank >= 0 && shape.rank <= kMaxRank) m << " " << shape_string(shape);
  return fail(Status::kInvalidShape, m);
}

namespace {

// "float32 or float64": the names of a list, for messages.
#define UNPOOL_NAME(e, code, name, ...) name,
constexpr const char* kDTypeNames[] = {UNPOOL_DTYPE_LIST(UNPOOL_NAME)};
constexpr const char* kIndexTypeNames[] = {UNPOOL_INDEX_TYPE_LIST(UNPOOL_NAME)};
#undef UNPOOL_NAME

template <size_t N>
Message& alternatives(Message& m, const char* const (&names)[N]) {
  for (size_t i = 0; i < N; ++i) m << (i == 0 ? "" : i + 1 == N ? " or " : ", ") << names[i];
  return m;
}

bool known(DType t) {
#define UNPOOL_IS(e, ...) t == DType::e ||
  return UNPOOL_DTYPE_LIST(UNPOOL_IS) false;
#undef UNPOOL_IS
}

bool known(IndexType t) {
#define UNPOOL_IS(e, ...) t == IndexType::e ||
  return UNPOOL_INDEX_TYPE_LIST(UNPOOL_IS) false;
#undef UNPOOL_IS
}

}  // namespace

Check check_types(const char* op, DType dtype, IndexType index_type, int64_t limit) {
  if (!known(dtype)) {
    Message m;
    m << op << ": dtype=" << static_cast<int>(dtype) << " is not ";
    return fail(Status::kInvalidArgument, alternatives(m, kDTypeNames));
  }
  if (!known(index_type)) {
    Message m;
    m << op << ": indexType=" << static_cast<int>(index_type) << " is not ";
    return fail(Status::kInvalidArgument, alternatives(m, kIndexTypeNames));
  }
  // `limit` is exclusive: int32 holds offsets up to INT32_MAX.
  if (index_type == IndexType::kInt32 && limit - 1 > INT32_MAX) {
    return fail(Status::kTooLarge, Message() << op << ": indexType int32 cannot hold offsets up to "
                                             << limit - 1 << "; use int64");
  }
  return {};
}

Check check_pool_index_limit(const char* op, int64_t limit) {
  if (sizeof(void*) > 4 || limit - 1 <= INT32_MAX) return {};
  return fail(Status::kTooLarge, Message() << op << ": offsets up to " << limit - 1
                                           << " exceed what the WebAssembly build computes "
                                              "(2147483647)");
}

Check check_fractional_dtype(const char* op, DType dtype) {
  if (dtype == DType::kFloat32 || dtype == DType::kFloat64) return {};
  return fail(Status::kInvalidArgument, Message() << op << ": dtype " << dtype_name(dtype)
                                                  << " is not supported: fractional max pooling "
                                                     "takes float32 or float64 values");
}

Check check_same_shape(const char* op, const char* name, const Shape& actual,
                       const Shape& expected) {
  bool same = actual.rank == expected.rank;
  for (int i = 0; same && i < actual.rank; ++i) {
    same = actual.dims[i] == expected.dims[i];
  }
  if (same) return {};
  return fail(Status::kInvalidShape,
              Message() << op << ": " << name << " shape " << shape_string(actual)
                        << " does not match the expected " << shape_string(expected));
}

Check index_error(const char* op, const char* name, int64_t pos, int64_t value,
                  const int64_t plane[3], int32_t dims, const char* what) {
  Message m;
  m << op << ": " << name << "[" << pos << "]=" << value << " is out of range for " << what
    << " plane ";
  for (int i = 3 - dims; i < 3; ++i) m << (i > 3 - dims ? "x" : "") << plane[i];
  m << " (" << plane[0] * plane[1] * plane[2] << " elements)";
  return fail(Status::kInvalidIndex, m);
}

}  // namespace internal
}  // namespace unpool
