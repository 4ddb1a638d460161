// Decodes a fuzzer's bytes into an op's arguments. The layout (also written
// by tests/fuzz/make-seeds.mjs for the seed corpora):
//
//   b0      dims = b0 % 3 + 1
//   b1      flags: 1 float64, 2 int64 indices, 4 ceil_mode, 8 batched,
//           16 outputSize given, 32 sizes are lists, 64 stride given,
//           128 wide sizes (int16 little-endian instead of int8)
//   4*dims  kernel, stride, padding, dilation per dim (signed)
//   2+dims  N % 4, C % 4, spatial sizes % 24 (zeros on purpose: empty dims)
//   1       outputSize entry count % 6, then that many signed sizes
//   rest    tensor contents: values from a table of 16 (ties, NaN, +-inf,
//           +-0), indices as int16 little-endian
#ifndef UNPOOL_TESTS_FUZZ_FUZZ_INPUT_H_
#define UNPOOL_TESTS_FUZZ_FUZZ_INPUT_H_

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#include "unpool/unpool.h"

// Aborts with the failed condition: the fuzzer reports it as a crash.
#define CHECK(cond)                                                                 \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                 \
    }                                                                               \
  } while (0)

namespace unpool_fuzz {

class Reader {
 public:
  Reader(const uint8_t* d, size_t n) : d_(d), n_(n) {}
  uint8_t byte() { return pos_ < n_ ? d_[pos_++] : 0; }
  int64_t size(bool wide) {
    if (!wide) return static_cast<int8_t>(byte());
    const uint8_t lo = byte();
    return static_cast<int16_t>(static_cast<uint16_t>(lo | (byte() << 8)));
  }
  double value() {
    static const double kTable[16] = {0.0, -0.0, 1.0, -1.0,     2.0,       2.0,  0.5,  -2.5,
                                      3.0, 3.0,  NAN, INFINITY, -INFINITY, 1e30, -7.0, 1.0};
    return kTable[byte() & 15];
  }
  int64_t index() { return size(true); }

 private:
  const uint8_t* d_;
  size_t n_;
  size_t pos_ = 0;
};

struct Args {
  int dims = 1;
  unpool::DType dtype = unpool::DType::kFloat32;
  unpool::IndexType itype = unpool::IndexType::kInt32;
  bool ceil = false, batched = false, has_output_size = false, lists = false, has_stride = false;
  int64_t kernel[3] = {}, stride[3] = {}, padding[3] = {}, dilation[3] = {};
  unpool::Shape input;
  int32_t output_size_count = -1;
  int64_t output_size[5] = {};

  unpool::SizeArg arg(const int64_t* v) const {
    unpool::SizeArg a;
    a.list = lists;
    a.count = lists ? dims : 1;
    for (int i = 0; i < a.count; ++i) a.values[i] = v[i];
    return a;
  }
  unpool::PoolParams pool() const {
    unpool::PoolParams p;
    p.dims = dims;
    p.kernel = arg(kernel);
    if (has_stride) p.stride = arg(stride);
    p.padding = arg(padding);
    p.dilation = arg(dilation);
    p.ceil_mode = ceil;
    return p;
  }
  unpool::UnpoolParams unpool() const {
    unpool::UnpoolParams p;
    p.dims = dims;
    p.kernel = arg(kernel);
    if (has_stride) p.stride = arg(stride);
    p.padding = arg(padding);
    p.output_size_count = output_size_count;
    for (int i = 0; i < 5; ++i) p.output_size[i] = output_size[i];
    return p;
  }
};

inline Args read_args(Reader& r) {
  Args a;
  a.dims = r.byte() % 3 + 1;
  const uint8_t f = r.byte();
  a.dtype = (f & 1) ? unpool::DType::kFloat64 : unpool::DType::kFloat32;
  a.itype = (f & 2) ? unpool::IndexType::kInt64 : unpool::IndexType::kInt32;
  a.ceil = f & 4;
  a.batched = f & 8;
  a.has_output_size = f & 16;
  a.lists = f & 32;
  a.has_stride = f & 64;
  const bool wide = f & 128;
  for (int i = 0; i < a.dims; ++i) {
    a.kernel[i] = r.size(wide);
    a.stride[i] = r.size(wide);
    a.padding[i] = r.size(wide);
    a.dilation[i] = r.size(wide);
  }
  std::vector<int64_t> shape;
  const int64_t n = r.byte() % 4, c = r.byte() % 4;
  if (a.batched) shape.push_back(n);
  shape.push_back(c);
  for (int i = 0; i < a.dims; ++i) shape.push_back(r.byte() % 24);
  a.input.rank = static_cast<int32_t>(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) a.input.dims[i] = shape[i];
  const int count = r.byte() % 6;
  if (a.has_output_size) {
    a.output_size_count = count;
    for (int i = 0; i < count; ++i) a.output_size[i] = r.size(wide);
  }
  return a;
}

// Largest tensor the harness allocates; bigger problems only run the shape
// functions (which must still answer without overflow).
constexpr int64_t kMaxElements = 1 << 16;

// A plane range from two signed bytes (-1 as end: the last plane), often
// invalid on purpose; `valid` tells whether it is a range of `planes`.
struct Range {
  unpool::PlaneRange r;
  bool valid = false;
  int64_t begin = 0, count = 0;  // when valid
};
inline Range read_range(Reader& r, int64_t planes) {
  Range out;
  out.r.begin = static_cast<int8_t>(r.byte());
  out.r.end = static_cast<int8_t>(r.byte());
  const int64_t end = out.r.end == -1 ? planes : out.r.end;
  out.valid = out.r.begin >= 0 && out.r.begin <= end && end <= planes;
  if (out.valid) {
    out.begin = out.r.begin;
    out.count = end - out.r.begin;
  }
  return out;
}

inline int64_t elements(const unpool::Shape& s) {
  const int64_t n = unpool::numel(s);
  return n < 0 || n > kMaxElements ? -1 : n;
}

// Integer values (issue 31). One value of T from the input: a small one
// (many ties), one of the type's ends, or any bits (the next bytes').
template <typename T>
T read_int(Reader& r) {
  const uint8_t b = r.byte();
  if (b < 64) return static_cast<T>(b % 4);
  if (b < 128) return b & 1 ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
  uint64_t u = 0;
  for (size_t k = 0; k < sizeof(T); ++k) u = u << 8 | r.byte();
  T v;
  std::memcpy(&v, &u, sizeof(T));
  return v;
}

// Calls fn(T{}, dtype) for the integer value type `pick` chooses (pick % 5).
template <typename F>
void with_int_type(uint8_t pick, F&& fn) {
  switch (pick % 5) {
    case 0:
      fn(uint8_t{}, unpool::DType::kUint8);
      break;
    case 1:
      fn(int8_t{}, unpool::DType::kInt8);
      break;
    case 2:
      fn(int16_t{}, unpool::DType::kInt16);
      break;
    case 3:
      fn(int32_t{}, unpool::DType::kInt32);
      break;
    default:
      fn(int64_t{}, unpool::DType::kInt64);
  }
}

// A tensor of integers with guard elements on both sides: a run must write
// inside it only.
template <typename T>
class IntBuffer {
 public:
  static constexpr size_t kGuard = 16;
  IntBuffer(size_t n, T fill) : n_(n), v_(n + 2 * kGuard, kCanary) {
    std::fill(v_.begin() + kGuard, v_.begin() + kGuard + n, fill);
  }
  explicit IntBuffer(const std::vector<T>& v) : IntBuffer(v.size(), T(0)) {
    std::copy(v.begin(), v.end(), v_.begin() + kGuard);
  }
  T* data() { return v_.data() + kGuard; }
  std::vector<T> values() const { return {v_.begin() + kGuard, v_.begin() + kGuard + n_}; }
  bool guards_intact() const {
    for (size_t i = 0; i < kGuard; ++i) {
      if (v_[i] != kCanary || v_[kGuard + n_ + i] != kCanary) return false;
    }
    return true;
  }
  // Whether every element still holds `fill` (a refused run wrote nothing).
  bool all(T fill) const {
    return std::all_of(v_.begin() + kGuard, v_.begin() + kGuard + n_,
                       [&](T v) { return v == fill; });
  }

 private:
  static constexpr T kCanary = static_cast<T>(0x5b);
  size_t n_;
  std::vector<T> v_;
};

}  // namespace unpool_fuzz

#endif  // UNPOOL_TESTS_FUZZ_FUZZ_INPUT_H_
