// Decodes a fuzzer's bytes into the arguments of adaptive max pooling,
// fractional max pooling or the unpool without kernel (fuzz_adaptive.cc).
// The layout (also written by tests/fuzz/make-seeds.mjs):
//
//   b0      op = b0 % 3 (0 adaptive, 1 fractional, 2 kernel-free unpool),
//           dims = (b0 / 3) % 3 + 1
//   b1      flags: 1 float64, 2 int64 indices, 4 batched, 8 sizes are lists,
//           16 wide sizes (int16 little-endian instead of int8), 32 channels
//           last (adaptive, unpool; fractional ignores it), 64 fractional: outputRatio instead of
//           outputSize, 128 extra: fractional gives both, unpool a stride
//   2+dims  N % 4, C % 4, spatial sizes % 24 (zeros on purpose: empty dims)
//   1       entry count: below 200 the natural one (dims, or 1 for a
//           scalar), else count % 6
//   3*dims  per dim: outputSize (signed), kernelSize (signed), outputRatio
//           (byte / 200; 254 is -0.5 and 255 NaN)
//   1       keep bits (adaptive: bit i keeps dim i)
//   1       padding (unpool, signed; PyTorch's form has 0)
//   1       randomSamples shape: % 8 of 5 drops a dim, 6 adds 1 to N, 7 to
//           the last dim; anything else is the right shape
//   rest    a plane range (two signed bytes), then tensor contents as in
//           fuzz_input.h; samples from a table of 16 (0, just below 1, 1,
//           -0, NaN, values outside [0, 1])
#ifndef UNPOOL_TESTS_FUZZ_FUZZ_WINDOW_INPUT_H_
#define UNPOOL_TESTS_FUZZ_FUZZ_WINDOW_INPUT_H_

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "fuzz_input.h"

namespace unpool_fuzz {

enum class WindowOp { kAdaptive = 0, kFractional = 1, kUnpool = 2 };

struct WindowArgs {
  WindowOp op = WindowOp::kAdaptive;
  int dims = 1;
  unpool::DType dtype = unpool::DType::kFloat32;
  unpool::IndexType itype = unpool::IndexType::kInt32;
  bool batched = false, lists = false, channels_last = false, ratio_form = false, extra = false;
  // Channels first: (N, C, spatial...) or (C, spatial...).
  unpool::Shape input;
  int32_t count = 1;
  int64_t out[3] = {}, kernel[3] = {};
  double ratio[3] = {};
  bool keep[3] = {};
  int64_t padding = 0;
  int samples_shape = 0;

  unpool::Layout layout() const {
    return channels_last ? unpool::Layout::kChannelsLast : unpool::Layout::kChannelsFirst;
  }
  int64_t planes() const { return batched ? input.dims[0] * input.dims[1] : input.dims[0]; }
  int64_t channels() const { return input.dims[batched ? 1 : 0]; }
  int64_t spatial(int i) const { return input.dims[input.rank - dims + i]; }
};

inline double read_ratio(Reader& r) {
  const uint8_t b = r.byte();
  if (b == 255) return std::numeric_limits<double>::quiet_NaN();
  if (b == 254) return -0.5;
  return b / 200.0;
}

inline WindowArgs read_window_args(Reader& r) {
  WindowArgs a;
  const uint8_t b0 = r.byte();
  a.op = static_cast<WindowOp>(b0 % 3);
  a.dims = (b0 / 3) % 3 + 1;
  const uint8_t f = r.byte();
  a.dtype = (f & 1) ? unpool::DType::kFloat64 : unpool::DType::kFloat32;
  a.itype = (f & 2) ? unpool::IndexType::kInt64 : unpool::IndexType::kInt32;
  a.batched = f & 4;
  a.lists = f & 8;
  const bool wide = f & 16;
  a.channels_last = (f & 32) && a.op != WindowOp::kFractional;
  a.ratio_form = f & 64;
  a.extra = f & 128;
  std::vector<int64_t> shape;
  const int64_t n = r.byte() % 4, c = r.byte() % 4;
  if (a.batched) shape.push_back(n);
  shape.push_back(c);
  for (int i = 0; i < a.dims; ++i) shape.push_back(r.byte() % 24);
  a.input.rank = static_cast<int32_t>(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) a.input.dims[i] = shape[i];
  const uint8_t count = r.byte();
  a.count = count < 200 ? (a.lists || a.op == WindowOp::kUnpool ? a.dims : 1) : count % 6;
  for (int i = 0; i < a.dims; ++i) {
    a.out[i] = r.size(wide);
    a.kernel[i] = r.size(wide);
    a.ratio[i] = read_ratio(r);
  }
  const uint8_t keep = r.byte();
  for (int i = 0; i < 3; ++i) a.keep[i] = (keep >> i) & 1;
  a.padding = static_cast<int8_t>(r.byte());
  a.samples_shape = r.byte() % 8;
  return a;
}

// A sample in T from a table that hits the edges of [0, 1].
template <typename T>
T read_sample(Reader& r) {
  switch (r.byte() & 15) {
    case 0:
      return T(0);
    case 1:
      return std::nextafter(T(1), T(0));
    case 2:
      return T(1);
    case 3:
      return -T(0);
    case 4:
      return std::numeric_limits<T>::quiet_NaN();
    case 5:
      return T(-0.25);
    case 6:
      return T(1.5);
    case 7:
      return T(0.999);
    case 8:
      return T(0.25);
    case 9:
      return T(0.75);
    case 10:
      return T(0.1);
    case 11:
      return T(0.9);
    case 12:
      return T(0.3333);
    case 13:
      return T(0.6180339887);
    case 14:
      return std::nextafter(T(0), T(1));
    default:
      return T(0.5);
  }
}

}  // namespace unpool_fuzz

#endif  // UNPOOL_TESTS_FUZZ_FUZZ_WINDOW_INPUT_H_
