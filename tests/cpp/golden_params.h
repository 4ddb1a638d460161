// The parameters of a conformance vector as the C++ API takes them (shared
// by golden_test.cc and golden_int_test.cc).
#ifndef UNPOOL_TESTS_CPP_GOLDEN_PARAMS_H_
#define UNPOOL_TESTS_CPP_GOLDEN_PARAMS_H_

#include <string>

#include "golden.h"
#include "unpool/unpool.h"

namespace unpool_test {

using unpool::PoolParams;
using unpool::SizeArg;
using unpool::UnpoolParams;

inline bool is_float_dtype(const std::string& d) {
  return d == "float32" || d == "float64" || d == "float16" || d == "bfloat16";
}

enum class Kind { kPool, kUnpool, kAdaptive, kFractional };

struct OpInfo {
  Kind kind = Kind::kPool;
  bool unpool = false;
  bool backward = false;
  int dims = 0;
  const char* name = "maxPool";  // how its messages start
};

inline OpInfo parse_op(const std::string& op) {
  OpInfo o;
  o.unpool = op.find("unpool") != std::string::npos;
  o.kind = o.unpool                         ? Kind::kUnpool
           : op.rfind("adaptive", 0) == 0   ? Kind::kAdaptive
           : op.rfind("fractional", 0) == 0 ? Kind::kFractional
                                            : Kind::kPool;
  o.name = o.unpool                      ? "maxUnpool"
           : o.kind == Kind::kAdaptive   ? "adaptiveMaxPool"
           : o.kind == Kind::kFractional ? "fractionalMaxPool"
                                         : "maxPool";
  o.backward = op.find("_backward") != std::string::npos;
  o.dims = op[op.find_first_of("123")] - '0';
  return o;
}

inline SizeArg size_arg(const GoldenArg& a) {
  SizeArg s;
  if (!a.given) return s;
  s.list = a.list;
  s.count = static_cast<int32_t>(a.values.size());
  for (size_t i = 0; i < a.values.size() && i < 3; ++i) s.values[i] = a.values[i];
  return s;
}

inline PoolParams pool_params(const GoldenCase& c, int dims) {
  PoolParams p;
  p.dims = dims;
  p.kernel = size_arg(c.kernel);
  p.stride = size_arg(c.stride);
  p.padding = size_arg(c.padding);
  p.dilation = size_arg(c.dilation);
  p.ceil_mode = c.ceil_mode;
  return p;
}

inline UnpoolParams unpool_params(const GoldenCase& c, int dims) {
  UnpoolParams p;
  p.dims = dims;
  p.kernel = size_arg(c.kernel);
  p.stride = size_arg(c.stride);
  p.padding = size_arg(c.padding);
  if (c.output_size.given) {
    p.output_size_count = static_cast<int32_t>(c.output_size.values.size());
    for (size_t i = 0; i < c.output_size.values.size() && i < 5; ++i) {
      p.output_size[i] = c.output_size.values[i];
    }
  }
  return p;
}

inline unpool::AdaptivePoolParams adaptive_params(const GoldenCase& c, int dims) {
  unpool::AdaptivePoolParams p;
  p.dims = dims;
  p.output_size = size_arg(c.output_size);
  for (size_t i = 0; i < c.output_size.none.size() && i < 3; ++i) p.keep[i] = c.output_size.none[i];
  return p;
}

inline unpool::FractionalPoolParams fractional_params(const GoldenCase& c, int dims) {
  unpool::FractionalPoolParams p;
  p.dims = dims;
  p.kernel = size_arg(c.kernel);
  p.output_size = size_arg(c.output_size);
  if (c.output_ratio.given) {
    p.ratio_list = c.output_ratio.list;
    p.ratio_count = static_cast<int32_t>(c.output_ratio.values.size());
    for (size_t i = 0; i < c.output_ratio.values.size() && i < 3; ++i) {
      p.output_ratio[i] = c.output_ratio.values[i];
    }
  }
  return p;
}

}  // namespace unpool_test

#endif  // UNPOOL_TESTS_CPP_GOLDEN_PARAMS_H_
