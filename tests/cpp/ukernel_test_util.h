// Helpers of the microkernel tests: type names for messages, bit identity,
// random data full of NaN (with sign and payload), ties, +-0 and +-inf, and
// the window kernels' window lists.
#ifndef UNPOOL_TESTS_CPP_UKERNEL_TEST_UTIL_H_
#define UNPOOL_TESTS_CPP_UKERNEL_TEST_UTIL_H_

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "ukernels/argmaxpool_windows.h"

namespace unpool_test {

template <typename T>
const char* type_name() {
  return sizeof(T) == 4 ? "f32" : "f64";
}
template <typename I>
const char* index_name() {
  return sizeof(I) == 4 ? "i32" : "i64";
}

template <typename T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// A NaN with the given sign and payload bit, so bit identity covers NaNs.
template <typename T>
T nan_with(bool negative, bool payload) {
  T v = std::numeric_limits<T>::quiet_NaN();
  unsigned char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  if (payload) b[0] |= 1;
  if (negative) b[sizeof(T) - 1] |= 0x80;
  std::memcpy(&v, b, sizeof(T));
  return v;
}

// Values of one of several flavours: all ties, few distinct values with
// specials sprinkled in, or distinct random values.
template <typename T>
std::vector<T> random_values(std::mt19937& rng, size_t n) {
  const T inf = std::numeric_limits<T>::infinity();
  const T specials[] = {T(0),
                        -T(0),
                        inf,
                        -inf,
                        nan_with<T>(false, false),
                        nan_with<T>(true, false),
                        nan_with<T>(false, true),
                        T(1),
                        T(-1)};
  std::uniform_int_distribution<int> flavour(0, 3), special(0, 8), small(-2, 2), rare(0, 15);
  std::uniform_real_distribution<double> real(-100, 100);
  const int f = flavour(rng);
  std::vector<T> v(n);
  for (auto& e : v) {
    if (f == 0) e = T(1);  // all ties
    else if (f == 1) e = rare(rng) == 0 ? specials[special(rng)] : T(small(rng));
    else if (f == 2) e = specials[special(rng)];
    else e = static_cast<T>(real(rng));
  }
  return v;
}

// Window lists along one dim, as the window kernels take them: adaptive
// ones of `in` to `out` (seed 0), or (seed != 0) windows of width `width`
// (at most `in`) at pseudo-random starts, as fractional pooling draws them.
struct WindowLists {
  std::vector<int64_t> start, end;
  unpool::ukernels::WindowList list() const {
    return {start.data(), end.data(), static_cast<int64_t>(start.size())};
  }
};
inline WindowLists window_lists(int64_t in, int64_t out, int64_t width, uint32_t seed) {
  WindowLists l;
  if (width > in) width = in;
  for (int64_t o = 0; o < out; ++o) {
    if (seed == 0) {
      l.start.push_back(o * in / out);
      l.end.push_back(((o + 1) * in + out - 1) / out);
    } else {
      seed = seed * 1664525u + 1013904223u;
      l.start.push_back(static_cast<int64_t>((seed >> 8) % static_cast<uint32_t>(in - width + 1)));
      l.end.push_back(l.start.back() + width);
    }
  }
  return l;
}

// The window kernels' cases, {D, H, W, out D, out H, out W, width}: windows
// that overlap, repeat, leave gaps and sit at uneven starts, narrow and wide
// (both of argmaxpool_windows__cols's second passes).
inline std::vector<std::array<int64_t, 7>> window_kernel_cases() {
  return {{1, 1, 7, 1, 1, 3, 2},  {1, 5, 5, 1, 3, 3, 2},       {1, 9, 11, 1, 4, 7, 3},
          {1, 4, 3, 1, 7, 9, 1},  {1, 112, 112, 1, 40, 40, 2}, {3, 5, 6, 2, 4, 4, 2},
          {2, 3, 4, 5, 6, 7, 1},  {1, 16, 17, 1, 16, 17, 1},   {1, 13, 29, 1, 5, 11, 3},
          {1, 5, 30, 1, 1, 1, 1}, {2, 6, 30, 1, 2, 2, 9}};
}

}  // namespace unpool_test

#endif  // UNPOOL_TESTS_CPP_UKERNEL_TEST_UTIL_H_
