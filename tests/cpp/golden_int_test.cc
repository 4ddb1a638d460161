// The conformance vectors with integer value tensors (format v3) through the
// C++ API, with both index types: integer results exactly (int64 as 64-bit
// integers, never through a double), float results (the mixed cases) bit
// for bit, errors where the vector expects one. The refused types (uint16,
// uint32, uint64, bool) have no C++ DType: the JavaScript suites test them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "golden.h"
#include "golden_params.h"
#include "test_util.h"

namespace unpool_test {
namespace {

using unpool::Status;

bool int_dtype(const std::string& d, DType* t) {
  static const struct {
    const char* name;
    DType type;
  } kTypes[] = {{"uint8", DType::kUint8},
                {"int8", DType::kInt8},
                {"int16", DType::kInt16},
                {"int32", DType::kInt32},
                {"int64", DType::kInt64}};
  for (const auto& k : kTypes) {
    if (d == k.name) {
      *t = k.type;
      return true;
    }
  }
  return false;
}

// A tensor of any value dtype the C++ API has, as bytes with guard bytes on
// both sides (a write outside it changes them).
class Raw {
 public:
  static constexpr size_t kGuard = 64;
  Raw(DType t, size_t n) : type_(t), n_(n), size_(unpool::element_size(t)) {
    bytes_.assign((n + 2 * kGuard) * size_, 0xa5);
  }
  Raw(DType t, const GoldenTensor& g) : Raw(t, g.data.size()) {
    for (size_t i = 0; i < n_; ++i) {
      if (t == DType::kFloat32) put(i, static_cast<float>(g.data[i]));
      else if (t == DType::kFloat64) put(i, g.data[i]);
      else set_int(i, g.ints[i]);
    }
  }
  void* data() { return bytes_.data() + kGuard * size_; }
  int64_t get_int(size_t i) const {
    switch (type_) {
      case DType::kUint8:
        return at<uint8_t>(i);
      case DType::kInt8:
        return at<int8_t>(i);
      case DType::kInt16:
        return at<int16_t>(i);
      case DType::kInt32:
        return at<int32_t>(i);
      default:
        return at<int64_t>(i);
    }
  }
  void set_int(size_t i, int64_t v) {
    switch (type_) {
      case DType::kUint8:
        put(i, static_cast<uint8_t>(v));
        break;
      case DType::kInt8:
        put(i, static_cast<int8_t>(v));
        break;
      case DType::kInt16:
        put(i, static_cast<int16_t>(v));
        break;
      case DType::kInt32:
        put(i, static_cast<int32_t>(v));
        break;
      default:
        put(i, v);
    }
  }
  double get_float(size_t i) const {
    return type_ == DType::kFloat32 ? at<float>(i) : at<double>(i);
  }
  bool guards_intact() const {
    for (size_t i = 0; i < kGuard * size_; ++i) {
      if (bytes_[i] != 0xa5 || bytes_[bytes_.size() - 1 - i] != 0xa5) return false;
    }
    return true;
  }
  size_t size() const { return n_; }

  // Empty when equal to `want` (its dtype's exact values), else the first
  // difference.
  std::string diff(const GoldenTensor& want) const {
    if (want.data.size() != n_) return "size " + std::to_string(n_);
    for (size_t i = 0; i < n_; ++i) {
      const bool same = want.ints.empty()
                            ? Values::same_bits(get_float(i), want.data[i]) ||
                                  (std::isnan(get_float(i)) && std::isnan(want.data[i]))
                            : get_int(i) == want.ints[i];
      if (!same) {
        return "element " + std::to_string(i) + ": got " +
               (want.ints.empty() ? std::to_string(get_float(i)) : std::to_string(get_int(i))) +
               ", want " +
               (want.ints.empty() ? std::to_string(want.data[i]) : std::to_string(want.ints[i]));
      }
    }
    return guards_intact() ? "" : "a write outside the buffer";
  }

 private:
  template <typename T>
  T at(size_t i) const {
    T v;
    std::memcpy(&v, bytes_.data() + (kGuard + i) * size_, sizeof(T));
    return v;
  }
  template <typename T>
  void put(size_t i, T v) {
    std::memcpy(bytes_.data() + (kGuard + i) * size_, &v, sizeof(T));
  }
  DType type_;
  size_t n_;
  size_t size_;
  std::vector<unsigned char> bytes_;
};

bool value_dtype(const std::string& d, DType* t) {
  if (d == "float32") *t = DType::kFloat32;
  else if (d == "float64") *t = DType::kFloat64;
  else return int_dtype(d, t);
  return true;
}

std::vector<int64_t> index_values(const GoldenTensor& t) {
  return std::vector<int64_t>(t.data.begin(), t.data.end());
}

// Runs the case with one index type; returns the first failing status.
Status run_case(const GoldenCase& c, const OpInfo& op, IndexType it, std::string* error) {
  DType dt = DType::kFloat32, gt = DType::kFloat32;
  value_dtype(c.x.dtype, &dt);
  if (c.grad_output.present) value_dtype(c.grad_output.dtype, &gt);
  const Shape in = make_shape(c.x.shape);
  Raw x(dt, c.x);
  Shape out_shape;
  Status s;
  if (op.unpool) {
    const UnpoolParams p = unpool_params(c, op.dims);
    if ((s = unpool::max_unpool_shape(p, in, &out_shape, error)) != Status::kOk) return s;
    Indices idx(it, index_values(c.indices));
    if (!op.backward) {
      Raw y(dt, count(out_shape));
      s = unpool::max_unpool(p, in, dt, x.data(), it, idx.data(), y.data(), error);
      if (s == Status::kOk && c.output.present) EXPECT_EQ(y.diff(c.output), "") << "output";
      return s;
    }
    Raw go(gt, c.grad_output), gi(gt, count(in));
    s = unpool::max_unpool_backward(op.dims, unpool::Layout::kChannelsFirst,
                                    make_shape(c.grad_output.shape), in, gt, go.data(), it,
                                    idx.data(), gi.data(), error);
    if (s == Status::kOk) EXPECT_EQ(gi.diff(c.grad_input), "") << "grad_input";
    return s;
  }
  unpool::Plan plan;
  if (op.kind == Kind::kAdaptive) {
    s = unpool::plan_adaptive_max_pool(adaptive_params(c, op.dims), in, dt, it, &plan, error);
  } else if (op.kind == Kind::kFractional) {
    s = unpool::plan_fractional_max_pool(fractional_params(c, op.dims), in,
                                         make_shape(c.random_samples.shape), dt, it, &plan, error);
  } else {
    s = unpool::plan_max_pool(pool_params(c, op.dims), in, dt, it, &plan, error);
  }
  if (s != Status::kOk) return s;
  Raw y(dt, count(plan.output));
  Indices idx(it, count(plan.output));
  Raw samples(dt, c.random_samples.data.size());
  s = op.kind == Kind::kAdaptive
          ? unpool::run_adaptive_max_pool(plan, {}, x.data(), y.data(), idx.data(), error)
      : op.kind == Kind::kFractional
          ? unpool::run_fractional_max_pool(plan, {}, x.data(), samples.data(), y.data(),
                                            idx.data(), error)
          : unpool::run_max_pool(plan, {}, x.data(), y.data(), idx.data(), error);
  if (s != Status::kOk) return s;
  if (c.output.present) EXPECT_EQ(y.diff(c.output), "") << "output";
  if (c.out_indices.present) EXPECT_EQ(diff_indices(idx, index_values(c.out_indices)), "");
  if (!op.backward) return s;
  const Shape go_shape = make_shape(c.grad_output.shape);
  if (op.kind == Kind::kAdaptive) {
    s = unpool::plan_adaptive_max_pool_backward(op.dims, unpool::Layout::kChannelsFirst, in,
                                                go_shape, gt, it, &plan, error);
  } else if (op.kind == Kind::kFractional) {
    s = unpool::plan_fractional_max_pool_backward(op.dims, in, go_shape, gt, it, &plan, error);
  } else {
    s = unpool::plan_max_pool_backward(pool_params(c, op.dims), in, go_shape, gt, it, &plan, error);
  }
  if (s != Status::kOk) return s;
  Raw go(gt, c.grad_output), gi(gt, count(in));
  s = unpool::run_max_pool_backward(plan, {}, go.data(), idx.data(), gi.data(), error);
  if (s == Status::kOk) EXPECT_EQ(gi.diff(c.grad_input), "") << "grad_input";
  return s;
}

bool integer_case(const GoldenCase& c) {
  DType t;
  return int_dtype(c.x.dtype, &t) || (c.grad_output.present && int_dtype(c.grad_output.dtype, &t));
}

std::vector<size_t> integer_cases() {
  std::vector<size_t> r;
  for (size_t i = 0; i < golden_cases().size(); ++i) {
    const GoldenCase& c = golden_cases()[i];
    if (c.id.rfind("pub3-", 0) == 0) r.push_back(i);
  }
  return r;
}

class GoldenInt : public ::testing::TestWithParam<size_t> {};

TEST_P(GoldenInt, MatchesReference) {
  const GoldenCase& c = golden_cases()[GetParam()];
  const OpInfo op = parse_op(c.op);
  DType t;
  const bool expressible = value_dtype(c.x.dtype, &t) &&
                           (!c.grad_output.present || value_dtype(c.grad_output.dtype, &t));
  if (!expressible || !integer_case(c)) {
    GTEST_SKIP() << c.id << ": dtype " << c.x.dtype
                 << " has no C++ DType (the JavaScript suites check its TypeError)";
  }
  for (IndexType it : {IndexType::kInt64, IndexType::kInt32}) {
    SCOPED_TRACE(c.id + (it == IndexType::kInt32 ? " (int32 indices)" : " (int64 indices)"));
    std::string error;
    const Status s = run_case(c, op, it, &error);
    const bool empty_output =
        std::find(c.tags.begin(), c.tags.end(), "empty_output") != c.tags.end();
    if (c.expect_error || (empty_output && s != Status::kOk)) {
      // (An empty-output unpool may match or fail: README, v3.)
      EXPECT_NE(s, Status::kOk) << "expected: " << c.error_kind;
      EXPECT_EQ(error.rfind(op.name, 0), 0u) << "message must start with the op name: " << error;
    } else {
      EXPECT_EQ(s, Status::kOk) << error;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Vectors, GoldenInt, ::testing::ValuesIn(integer_cases()),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                           std::string name = golden_cases()[info.param].id;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace unpool_test
