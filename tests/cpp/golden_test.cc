// Runs every conformance vector (PyTorch 1.13.1 reference) through the C++
// API and compares bit for bit, with both index types. Where unpool diverges
// from PyTorch on purpose (README: "Divergences from PyTorch") the case must
// fail or succeed in the documented way; the rules below say which, by rule,
// not by case id.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "golden.h"
#include "golden_params.h"
#include "test_util.h"

namespace unpool_test {
namespace {

using unpool::PoolParams;
using unpool::Status;
using unpool::UnpoolParams;

DType dtype_of(const GoldenTensor& t) {
  if (t.dtype == "float16") return DType::kFloat16;
  if (t.dtype == "bfloat16") return DType::kBFloat16;
  return t.dtype == "float64" ? DType::kFloat64 : DType::kFloat32;
}

// A tensor's values; 16-bit ones from their bit patterns (NaN payloads
// included).
Values values_of(DType dt, const GoldenTensor& t) {
  Values v(dt, t.data);
  if (Values::half(dt) && t.bits.size() == t.data.size()) {
    for (size_t i = 0; i < t.bits.size(); ++i) v.set_bits(i, t.bits[i]);
  }
  return v;
}

// Empty when `got` is `want` bit for bit (a NaN matches any NaN).
std::string diff_bits(const Values& got, const GoldenTensor& want) {
  if (!Values::half(got.type()) || want.bits.size() != got.size()) return "";
  for (size_t i = 0; i < got.size(); ++i) {
    const bool nan = std::isnan(got.get(i)) && std::isnan(want.data[i]);
    if (!nan && got.bits(i) != want.bits[i]) {
      return "element " + std::to_string(i) + ": bits " + std::to_string(got.bits(i)) + ", want " +
             std::to_string(want.bits[i]);
    }
  }
  return "";
}

std::vector<int64_t> as_ints(const std::vector<double>& v) {
  return std::vector<int64_t>(v.begin(), v.end());
}

// What the case expects from unpool (not from PyTorch).
enum class Expect { kMatch, kError, kSucceed };

Expect expectation(const GoldenCase& c, const OpInfo& op) {
  if (op.unpool) {
    // Divergence: unpool rejects kernel/stride <= 0 and negative padding.
    auto any = [](const GoldenArg& a, bool (*bad)(int64_t)) {
      return a.given && std::any_of(a.values.begin(), a.values.end(), bad);
    };
    if (any(c.kernel, [](int64_t v) { return v <= 0; }) ||
        any(c.stride, [](int64_t v) { return v <= 0; }) ||
        any(c.padding, [](int64_t v) { return v < 0; })) {
      return Expect::kError;
    }
    // Divergence: unbatched input accepts outputSize with dims + 1 entries.
    // Its spatial entries must still lie in the unpool's range.
    if (c.expect_error && c.error_kind == "output_size_length" && c.output_size.given &&
        static_cast<int>(c.output_size.values.size()) == op.dims + 1 &&
        static_cast<int>(c.x.shape.size()) == op.dims + 1) {
      const auto at = [](const GoldenArg& a, int i, int64_t fallback) {
        return !a.given ? fallback : a.list ? a.values[static_cast<size_t>(i)] : a.values[0];
      };
      for (int i = 0; i < op.dims; ++i) {
        const int64_t k = at(c.kernel, i, 1), st = at(c.stride, i, k), pad = at(c.padding, i, 0);
        const int64_t in = c.x.shape[c.x.shape.size() - static_cast<size_t>(op.dims - i)];
        const int64_t lo = (in - 1) * st - 2 * pad + k;
        const int64_t o = c.output_size.values[static_cast<size_t>(i + 1)];
        if (o < lo || o >= lo + st) return Expect::kError;
      }
      return Expect::kSucceed;
    }
  }
  if (c.category == "quirk") {
    // Divergences: an adaptive outputSize entry of 0 (PyTorch returns an
    // empty tensor) and a fractional kernel of 0 are errors.
    const auto zero = [](const GoldenArg& a) {
      return a.given && std::find(a.values.begin(), a.values.end(), 0) != a.values.end();
    };
    if ((op.kind == Kind::kAdaptive && zero(c.output_size)) ||
        (op.kind == Kind::kFractional && zero(c.kernel))) {
      return Expect::kError;
    }
  }
  return c.expect_error ? Expect::kError : Expect::kMatch;
}

// Runs the case with one index type. Returns the first failing status (ok
// when everything ran) and records mismatches with ADD_FAILURE.
Status run_case(const GoldenCase& c, const OpInfo& op, IndexType it, std::string* error) {
  const DType dt = dtype_of(c.x);
  const Shape in = make_shape(c.x.shape);
  Values x = values_of(dt, c.x);
  Shape out_shape;
  Status s;
  auto expect_values = [&](const char* what, const Values& got, const Shape& shape,
                           const GoldenTensor& want) {
    if (!want.present) return;
    EXPECT_EQ(shape_vec(shape), want.shape) << what << " shape";
    EXPECT_EQ(diff_values(got, want.data), "") << what;
    EXPECT_EQ(diff_bits(got, want), "") << what;
  };
  if (op.kind == Kind::kAdaptive || op.kind == Kind::kFractional) {
    unpool::Plan plan;
    Values samples = values_of(dt, c.random_samples);
    s = op.kind == Kind::kAdaptive
            ? unpool::plan_adaptive_max_pool(adaptive_params(c, op.dims), in, dt, it, &plan, error)
            : unpool::plan_fractional_max_pool(fractional_params(c, op.dims), in,
                                               make_shape(c.random_samples.shape), dt, it, &plan,
                                               error);
    if (s != Status::kOk) return s;
    out_shape = plan.output;
    Values y(dt, count(out_shape));
    Indices idx(it, count(out_shape));
    s = op.kind == Kind::kAdaptive
            ? unpool::run_adaptive_max_pool(plan, {}, x.data(), y.data(), idx.data(), error)
            : unpool::run_fractional_max_pool(plan, {}, x.data(), samples.data(), y.data(),
                                              idx.data(), error);
    if (s != Status::kOk) return s;
    expect_values("output", y, out_shape, c.output);
    if (c.out_indices.present) EXPECT_EQ(diff_indices(idx, as_ints(c.out_indices.data)), "");
    if (!op.backward) return s;
    Values go = values_of(dt, c.grad_output);
    Values gi(dt, count(in), -7.0);
    const Shape go_shape = make_shape(c.grad_output.shape);
    s = op.kind == Kind::kAdaptive
            ? unpool::plan_adaptive_max_pool_backward(op.dims, unpool::Layout::kChannelsFirst, in,
                                                      go_shape, dt, it, &plan, error)
            : unpool::plan_fractional_max_pool_backward(op.dims, in, go_shape, dt, it, &plan,
                                                        error);
    if (s == Status::kOk) {
      s = unpool::run_max_pool_backward(plan, {}, go.data(), idx.data(), gi.data(), error);
    }
    if (s == Status::kOk) expect_values("grad_input", gi, in, c.grad_input);
    return s;
  }
  if (!op.unpool) {
    const PoolParams p = pool_params(c, op.dims);
    if ((s = unpool::max_pool_shape(p, in, &out_shape, error)) != Status::kOk) return s;
    Values y(dt, count(out_shape));
    Indices idx(it, count(out_shape));
    s = unpool::max_pool(p, in, dt, x.data(), y.data(), it, idx.data(), error);
    if (s != Status::kOk) return s;
    expect_values("output", y, out_shape, c.output);
    if (c.out_indices.present) EXPECT_EQ(diff_indices(idx, as_ints(c.out_indices.data)), "");
    if (!op.backward) return s;
    Values go = values_of(dt, c.grad_output);
    Values gi(dt, count(in), -7.0);
    s = unpool::max_pool_backward(p, in, make_shape(c.grad_output.shape), dt, go.data(), it,
                                  idx.data(), gi.data(), error);
    if (s == Status::kOk) expect_values("grad_input", gi, in, c.grad_input);
    return s;
  }
  const UnpoolParams p = unpool_params(c, op.dims);
  if ((s = unpool::max_unpool_shape(p, in, &out_shape, error)) != Status::kOk) return s;
  Indices idx(it, as_ints(c.indices.data));
  Values y(dt, count(out_shape), -7.0);
  s = unpool::max_unpool(p, in, dt, x.data(), it, idx.data(), y.data(), error);
  if (s != Status::kOk) return s;
  if (c.output.present) {
    expect_values("output", y, out_shape, c.output);
  } else if (c.output_size.given) {  // a divergence that succeeds: check the shape
    const auto& o = c.output_size.values;
    for (int i = 0; i < op.dims; ++i) {
      EXPECT_EQ(out_shape.dims[out_shape.rank - op.dims + i], o[o.size() - op.dims + i]);
    }
  }
  if (!op.backward) return s;
  Values go = values_of(dt, c.grad_output);
  Values gi(dt, count(in), -7.0);
  s = unpool::max_unpool_backward(op.dims, unpool::Layout::kChannelsFirst,
                                  make_shape(c.grad_output.shape), in, dt, go.data(), it,
                                  idx.data(), gi.data(), error);
  if (s == Status::kOk) expect_values("grad_input", gi, in, c.grad_input);
  return s;
}

class Golden : public ::testing::TestWithParam<size_t> {};

TEST_P(Golden, MatchesReference) {
  const GoldenCase& c = golden_cases()[GetParam()];
  const OpInfo op = parse_op(c.op);
  // Integer values (v3) run in golden_int_test.cc.
  const bool float_values =
      is_float_dtype(c.x.dtype) && (!c.grad_output.present || is_float_dtype(c.grad_output.dtype));
  const bool int64_indices = !c.indices.present || c.indices.dtype == "int64";
  if (!float_values || !int64_indices) {
    GTEST_SKIP() << c.id << ": dtype " << c.x.dtype << "/" << c.indices.dtype
                 << " cannot be expressed in the C++ API (torch_specific)";
  }
  const Expect expect = expectation(c, op);
  for (IndexType it : {IndexType::kInt64, IndexType::kInt32}) {
    SCOPED_TRACE(c.id + (it == IndexType::kInt32 ? " (int32 indices)" : " (int64 indices)"));
    std::string error;
    const Status s = run_case(c, op, it, &error);
    if (expect == Expect::kError) {
      EXPECT_NE(s, Status::kOk) << "PyTorch: " << c.error_kind;
      EXPECT_FALSE(error.empty());
      EXPECT_EQ(error.rfind(op.name, 0), 0u) << "message must start with the op name: " << error;
    } else {
      EXPECT_EQ(s, Status::kOk) << error;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Vectors, Golden, ::testing::Range<size_t>(0, golden_cases().size()),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                           std::string name = golden_cases()[info.param].id;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace unpool_test
