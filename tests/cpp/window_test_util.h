// Helpers of the tests of adaptive and fractional max pooling and of the
// kernel-free unpool: argument builders, seeded data with ties and special
// values, typed copies for the references, and layout and plane slicing.
#ifndef UNPOOL_TESTS_CPP_WINDOW_TEST_UTIL_H_
#define UNPOOL_TESTS_CPP_WINDOW_TEST_UTIL_H_

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include "test_util.h"

namespace unpool_test {

inline unpool::SizeArg size_scalar(int64_t v) {
  unpool::SizeArg a;
  a.count = 1;
  a.values[0] = v;
  return a;
}

inline unpool::SizeArg size_list(std::initializer_list<int64_t> v) {
  unpool::SizeArg a;
  a.list = true;
  a.count = static_cast<int32_t>(v.size());
  int i = 0;
  for (int64_t e : v) {
    if (i < unpool::kMaxSpatialDims) a.values[i] = e;
    ++i;
  }
  return a;
}

inline unpool::SizeArg size_list(const std::vector<int64_t>& v) {
  unpool::SizeArg a;
  a.list = true;
  a.count = static_cast<int32_t>(v.size());
  for (size_t i = 0; i < v.size() && i < unpool::kMaxSpatialDims; ++i) a.values[i] = v[i];
  return a;
}

// "[2, 3, 4]", for traces.
inline std::string shape_text(const Shape& s) {
  std::string r = "[";
  for (int i = 0; i < s.rank; ++i) r += (i ? ", " : "") + std::to_string(s.dims[i]);
  return r + "]";
}

// Small integers (many ties), with -0, -inf, +inf and NaN now and then, from
// a fixed LCG.
inline std::vector<double> seeded_values(size_t n, uint32_t seed) {
  std::vector<double> v(n);
  uint32_t a = seed * 2654435761u + 1;
  for (size_t i = 0; i < n; ++i) {
    a = a * 1664525u + 1013904223u;
    const uint32_t r = a >> 8;
    double x = static_cast<double>(r % 7) - 3;
    if (r % 53 == 0) x = std::numeric_limits<double>::quiet_NaN();
    if (r % 41 == 0) x = -std::numeric_limits<double>::infinity();
    if (r % 43 == 0) x = std::numeric_limits<double>::infinity();
    if (r % 37 == 0) x = -0.0;
    v[i] = x;
  }
  return v;
}

// `v` as T, rounded as the library's float32 buffers round it.
template <typename T>
std::vector<T> as_type(const std::vector<double>& v) {
  return std::vector<T>(v.begin(), v.end());
}

template <typename T>
std::vector<double> as_doubles(const std::vector<T>& v) {
  return std::vector<double>(v.begin(), v.end());
}

inline std::vector<double> read_values(const Values& v) {
  std::vector<double> r(v.size());
  for (size_t i = 0; i < v.size(); ++i) r[i] = v.get(i);
  return r;
}

inline std::vector<int64_t> read_indices(const Indices& v) {
  std::vector<int64_t> r(v.size());
  for (size_t i = 0; i < v.size(); ++i) r[i] = v.get(i);
  return r;
}

// (batch, C, spatial) <-> (batch, spatial, C) of flat data.
template <typename V>
std::vector<V> to_channels_last(const std::vector<V>& v, int64_t batch, int64_t c,
                                int64_t spatial) {
  std::vector<V> r(v.size());
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t k = 0; k < c; ++k) {
      for (int64_t s = 0; s < spatial; ++s) {
        r[static_cast<size_t>((n * spatial + s) * c + k)] =
            v[static_cast<size_t>((n * c + k) * spatial + s)];
      }
    }
  }
  return r;
}

template <typename V>
std::vector<V> to_channels_first(const std::vector<V>& v, int64_t batch, int64_t c,
                                 int64_t spatial) {
  std::vector<V> r(v.size());
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t k = 0; k < c; ++k) {
      for (int64_t s = 0; s < spatial; ++s) {
        r[static_cast<size_t>((n * c + k) * spatial + s)] =
            v[static_cast<size_t>((n * spatial + s) * c + k)];
      }
    }
  }
  return r;
}

// The shape of a channels-first tensor in channels-last order.
inline Shape channels_last_shape(const Shape& s, int dims) {
  Shape r = s;
  const int c = s.rank - dims - 1;
  for (int i = 0; i < dims; ++i) r.dims[c + i] = s.dims[c + 1 + i];
  r.dims[s.rank - 1] = s.dims[c];
  return r;
}

// Elements [from, from + n) of `v`.
template <typename V>
std::vector<V> part(const std::vector<V>& v, int64_t from, int64_t n) {
  return std::vector<V>(v.begin() + from, v.begin() + from + n);
}

// A sweep case of the window-list ops: dims, batched or not, value and index
// types.
struct WindowCase {
  int dims;
  bool batched;
  DType dtype;
  IndexType itype;
};

// Every case from `first_dims` to 3 spatial dims.
inline std::vector<WindowCase> window_cases(int first_dims) {
  std::vector<WindowCase> v;
  for (int dims = first_dims; dims <= 3; ++dims) {
    for (bool batched : {false, true}) {
      for (DType t : {DType::kFloat32, DType::kFloat64}) {
        for (IndexType it : {IndexType::kInt32, IndexType::kInt64})
          v.push_back({dims, batched, t, it});
      }
    }
  }
  return v;
}

}  // namespace unpool_test

#endif  // UNPOOL_TESTS_CPP_WINDOW_TEST_UTIL_H_
