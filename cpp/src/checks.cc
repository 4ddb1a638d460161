#include "checks.h"

#include <cstddef>
#include <cstring>

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

std::string format_g(double v, int significant) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  std::string out = (bits >> 63) ? "-" : "";
  const int biased = static_cast<int>((bits >> 52) & 0x7ff);
  uint64_t mant = bits & ((uint64_t{1} << 52) - 1);
  if (biased == 0x7ff) return out + (mant ? "nan" : "inf");
  if (biased == 0 && mant == 0) return out + "0";
  if (biased != 0) mant |= uint64_t{1} << 52;
  int e2 = (biased == 0 ? 1 : biased) - 1075;  // |v| = mant * 2^e2
  // |v| = digits * 10^e10 exactly: mant * 2^e2, or mant * 5^-e2 * 10^e2.
  // Base 10^9, least significant first: 2^53 * 5^1074 has 768 digits.
  uint32_t big[90];
  size_t n = 0;
  for (; mant != 0; mant /= 1000000000) big[n++] = static_cast<uint32_t>(mant % 1000000000);
  const int e10 = e2 < 0 ? e2 : 0;
  for (; e2 != 0; e2 += e2 > 0 ? -1 : 1) {
    const uint64_t f = e2 > 0 ? 2 : 5;
    uint64_t carry = 0;
    for (size_t i = 0; i < n; ++i) {
      const uint64_t t = big[i] * f + carry;
      big[i] = static_cast<uint32_t>(t % 1000000000);
      carry = t / 1000000000;
    }
    if (carry != 0) big[n++] = static_cast<uint32_t>(carry);
  }
  std::string digits = std::to_string(big[n - 1]);
  for (size_t i = n - 1; i-- > 0;) {
    const std::string limb = std::to_string(big[i]);
    digits += std::string(9 - limb.size(), '0') + limb;
  }
  int exp10 = static_cast<int>(digits.size()) - 1 + e10;
  const size_t p = static_cast<size_t>(significant < 1 ? 1 : significant);
  if (digits.size() > p) {
    const char next = digits[p];
    const bool rest = digits.find_first_not_of('0', p + 1) != std::string::npos;
    const bool up = next > '5' || (next == '5' && (rest || (digits[p - 1] - '0') % 2 == 1));
    digits.resize(p);
    if (up) {
      size_t i = p;
      while (i > 0 && digits[i - 1] == '9') digits[--i] = '0';
      if (i == 0) {
        digits.insert(digits.begin(), '1');
        digits.pop_back();
        ++exp10;
      } else {
        ++digits[i - 1];
      }
    }
  }
  const size_t last = digits.find_last_not_of('0');
  digits.resize(last + 1);
  if (exp10 < -4 || exp10 >= static_cast<int>(p)) {
    out += digits[0];
    if (digits.size() > 1) out += "." + digits.substr(1);
    const int a = exp10 < 0 ? -exp10 : exp10;
    return out + (exp10 < 0 ? "e-" : "e+") + (a < 10 ? "0" : "") + std::to_string(a);
  }
  if (exp10 < 0) return out + "0." + std::string(static_cast<size_t>(-exp10 - 1), '0') + digits;
  const size_t point = static_cast<size_t>(exp10) + 1;
  if (digits.size() <= point) return out + digits + std::string(point - digits.size(), '0');
  return out + digits.substr(0, point) + "." + digits.substr(point);
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

Check check_gradient_dtype(const char* op, DType dtype) {
  switch (dtype) {
    case DType::kFloat32:
    case DType::kFloat64:
    case DType::kFloat16:
    case DType::kBFloat16:
      return {};
    default:
      return fail(Status::kInvalidArgument,
                  Message() << op << ": gradOutput holds " << dtype_name(dtype)
                            << " values; a pool's gradient adds, and takes float32, float64, "
                               "float16 or bfloat16 values");
  }
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
