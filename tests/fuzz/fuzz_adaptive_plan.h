// fuzz_adaptive.cc's planning: the args read from the bytes
// (fuzz_window_input.h) as the params of adaptive max pooling, fractional
// max pooling or the unpool without kernel, in the args' layout.
#ifndef UNPOOL_TESTS_FUZZ_FUZZ_ADAPTIVE_PLAN_H_
#define UNPOOL_TESTS_FUZZ_FUZZ_ADAPTIVE_PLAN_H_

#include <cstdint>
#include <string>

#include "fuzz_window_input.h"
#include "window_test_util.h"

namespace unpool_fuzz {

using unpool::Status;

inline unpool::SizeArg size_arg(bool list, int32_t count, const int64_t* v) {
  unpool::SizeArg s;
  s.list = list;
  s.count = count;
  for (int i = 0; i < 3; ++i) s.values[i] = v[i];
  return s;
}

inline unpool::Shape with_spatial(const WindowArgs& a, const int64_t out[3]) {
  unpool::Shape s = a.input;
  for (int i = 0; i < a.dims; ++i) s.dims[s.rank - a.dims + i] = out[3 - a.dims + i];
  return s;
}

inline unpool::Shape in_layout(const WindowArgs& a, const unpool::Shape& s) {
  return a.channels_last ? unpool_test::channels_last_shape(s, a.dims) : s;
}

// Plans `a` and returns the plan's status, with `out` its output shape.
inline Status plan(const WindowArgs& a, unpool::Plan* p, std::string* err) {
  const unpool::Shape in = in_layout(a, a.input);
  if (a.op == WindowOp::kAdaptive) {
    unpool::AdaptivePoolParams ap;
    ap.dims = a.dims;
    ap.output_size = size_arg(a.lists, a.count, a.out);
    for (int i = 0; i < 3; ++i) ap.keep[i] = a.keep[i];
    ap.layout = a.layout();
    return unpool::plan_adaptive_max_pool(ap, in, a.dtype, a.itype, p, err);
  }
  if (a.op == WindowOp::kFractional) {
    unpool::FractionalPoolParams fp;
    fp.dims = a.dims;
    fp.kernel = size_arg(a.lists, a.lists ? a.dims : 1, a.kernel);
    if (!a.ratio_form || a.extra) fp.output_size = size_arg(a.lists, a.count, a.out);
    if (a.ratio_form || a.extra) {
      fp.ratio_count = a.count;
      fp.ratio_list = a.lists;
      for (int i = 0; i < 3; ++i) fp.output_ratio[i] = a.ratio[i];
    }
    unpool::Shape samples;
    samples.rank = 3;
    samples.dims[0] = a.batched ? a.input.dims[0] : 1;
    samples.dims[1] = a.channels();
    samples.dims[2] = a.dims;
    if (a.samples_shape == 5) samples.rank = 2;
    if (a.samples_shape == 6) ++samples.dims[0];
    if (a.samples_shape == 7) ++samples.dims[2];
    return unpool::plan_fractional_max_pool(fp, a.input, samples, a.dtype, a.itype, p, err);
  }
  unpool::UnpoolParams up;
  up.dims = a.dims;
  if (a.extra) up.stride = size_arg(a.lists, a.lists ? a.dims : 1, a.kernel);
  const int64_t padding[3] = {a.padding, a.padding, a.padding};
  up.padding = size_arg(false, 1, padding);
  up.output_size_count = a.count;
  for (int i = 0; i < 5; ++i) up.output_size[i] = i < 3 ? a.out[i] : 1;
  up.layout = a.layout();
  return unpool::plan_max_unpool(up, in, a.dtype, a.itype, p, err);
}

}  // namespace unpool_fuzz

#endif  // UNPOOL_TESTS_FUZZ_FUZZ_ADAPTIVE_PLAN_H_
