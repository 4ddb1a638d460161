// Every integer key conversion variant of ukernels/variants.inc (keys.h,
// keys_wasmsimd.h) against the exact keys and values, per pair (T, K): each
// type's lowest and highest values, 0, -1, their neighbours and random
// values, the key type's start (-inf, or 0 for uint8 keys) that a window
// wholly in padding leaves and that must come back as T's lowest value, at
// lengths around the SIMD steps (8 and 16 values: whole vectors, a tail,
// both, none) and 0. Nothing past n may change. Natively only the scalar
// variants exist; the same test built with em++ -msimd128 checks the
// wasmsimd ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "ukernel_test_util.h"
#include "ukernels/config.h"
#include "ukernels/ukernels.h"

namespace unpool_test {
namespace {

namespace uk = unpool::ukernels;

// A byte pattern past the n elements, which no variant may write.
constexpr unsigned char kGuard = 0x5a;

template <typename V>
std::vector<V> guarded(size_t n) {
  std::vector<V> v(n + 2);
  std::memset(v.data(), kGuard, v.size() * sizeof(V));
  return v;
}

template <typename V>
bool guard_kept(const std::vector<V>& v, size_t n) {
  const unsigned char* b = reinterpret_cast<const unsigned char*>(v.data() + n);
  return std::all_of(b, b + 2 * sizeof(V), [](unsigned char c) { return c == kGuard; });
}

template <typename T, typename K>
void check_keys(std::mt19937& rng, const std::string& pair) {
  constexpr bool kXor = std::is_same<K, uint8_t>::value;
  const T lo = std::numeric_limits<T>::lowest(), hi = std::numeric_limits<T>::max();
  // static_cast<T>(-1): uint8's -1 is its highest value.
  const T edges[] = {lo, hi, T(0), static_cast<T>(-1), T(lo + 1), T(hi - 1), T(1)};
  constexpr size_t kEdges = sizeof(edges) / sizeof(edges[0]);
  // The key type's start: what a window wholly in padding leaves.
  const K start = std::is_floating_point<K>::value ? -std::numeric_limits<K>::infinity() : K(0);
  std::uniform_int_distribution<int64_t> any(lo, hi);

  // Each config choice is a listed variant (and so tested here).
  bool in_listed = false, out_listed = false;
  for (const auto& v : uk::kKeysInVariants<T, K>) in_listed |= v.fn == uk::config::keys_in<T, K>;
  for (const auto& v : uk::kKeysOutVariants<T, K>) {
    out_listed |= v.fn == uk::config::keys_out<T, K>;
  }
  EXPECT_TRUE(in_listed) << pair;
  EXPECT_TRUE(out_listed) << pair;

  for (size_t n : {0, 1, 7, 8, 9, 15, 16, 17, 23, 24, 31, 32, 33, 100}) {
    const std::string what = pair + " n " + std::to_string(n);
    std::vector<T> x(n);
    for (size_t i = 0; i < n; ++i) {
      x[i] = i % 2 == 0 ? edges[(i / 2) % kEdges] : static_cast<T>(any(rng));
    }
    std::vector<K> want(n);
    for (size_t i = 0; i < n; ++i) {
      want[i] = kXor ? static_cast<K>(static_cast<uint8_t>(x[i]) ^ 0x80u) : static_cast<K>(x[i]);
    }
    // The keys keep the values' order.
    for (size_t i = 1; i < n; ++i) {
      ASSERT_EQ(x[i - 1] < x[i], want[i - 1] < want[i]) << what << " i " << i;
    }
    for (const auto& v : uk::kKeysInVariants<T, K>) {
      std::vector<K> keys = guarded<K>(n);
      v.fn(x.data(), keys.data(), static_cast<int64_t>(n));
      for (size_t i = 0; i < n; ++i) {
        ASSERT_TRUE(same_bits(keys[i], want[i])) << v.name << " " << what << " i " << i;
      }
      ASSERT_TRUE(guard_kept(keys, n)) << v.name << " " << what;
    }

    // Back: the keys, with the start in every third place (in the vector
    // steps and in the tail), which must become T's lowest value.
    std::vector<K> keys = want;
    std::vector<T> back = x;
    for (size_t i = 1; i < n; i += 3) keys[i] = start, back[i] = lo;
    for (const auto& v : uk::kKeysOutVariants<T, K>) {
      std::vector<T> y = guarded<T>(n);
      v.fn(keys.data(), y.data(), static_cast<int64_t>(n));
      for (size_t i = 0; i < n; ++i) {
        ASSERT_EQ(y[i], back[i]) << v.name << " " << what << " i " << i;
      }
      ASSERT_TRUE(guard_kept(y, n)) << v.name << " " << what;
    }
  }
}

TEST(Ukernel, KeysVariantsExact) {
  std::mt19937 rng(7);
  check_keys<uint8_t, float>(rng, "uint8 as float");
  check_keys<int8_t, float>(rng, "int8 as float");
  check_keys<int8_t, uint8_t>(rng, "int8 as uint8");
  check_keys<int16_t, float>(rng, "int16 as float");
  check_keys<int32_t, double>(rng, "int32 as double");
}

}  // namespace
}  // namespace unpool_test
