// Helpers of the microkernel tests: type names for messages, bit identity,
// and random data full of NaN (with sign and payload), ties, +-0 and +-inf.
#ifndef UNPOOL_TESTS_CPP_UKERNEL_TEST_UTIL_H_
#define UNPOOL_TESTS_CPP_UKERNEL_TEST_UTIL_H_

#include <cstring>
#include <limits>
#include <random>
#include <vector>

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

}  // namespace unpool_test

#endif  // UNPOOL_TESTS_CPP_UKERNEL_TEST_UTIL_H_
