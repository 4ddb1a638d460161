// The conformance vectors as C++ data (see tests/vectors/gen-cpp-table.mjs).
#ifndef UNPOOL_TESTS_CPP_GOLDEN_H_
#define UNPOOL_TESTS_CPP_GOLDEN_H_

#include <cstdint>
#include <string>
#include <vector>

// A size parameter: not given (null), an int, or a list; `none[i]` marks a
// null entry of a list (adaptive pooling: keep that input size).
struct GoldenArg {
  bool given = false;
  bool list = false;
  std::vector<int64_t> values;
  std::vector<bool> none;
};

// A ratio parameter (fractional pooling): not given, a number, or a list.
struct GoldenRatio {
  bool given = false;
  bool list = false;
  std::vector<double> values;
};

struct GoldenTensor {
  bool present = false;
  std::string dtype;
  std::vector<int64_t> shape;
  std::vector<double> data;  // exact values; NaN and +-inf included
  std::vector<uint16_t> bits;  // float16 / bfloat16: the exact bit patterns
  std::vector<int64_t> ints;  // integer dtypes (v3): the exact values
};

struct GoldenCase {
  std::string id, category, op;
  std::vector<std::string> tags;
  GoldenArg kernel, stride, padding, dilation;
  bool ceil_mode = false;
  GoldenArg output_size;
  GoldenRatio output_ratio;
  GoldenTensor x, random_samples, indices, grad_output;
  bool expect_error = false;
  std::string error_kind;
  GoldenTensor output, out_indices, grad_input;
};

const std::vector<GoldenCase>& golden_cases();

#endif  // UNPOOL_TESTS_CPP_GOLDEN_H_
