// The unpool, scatter-add, gather and index-check variants of
// ukernels/variants.inc against the first entry of their op, on sizes
// around the SIMD tile, with many duplicate offsets. Results must be
// identical bits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "ukernel_test_util.h"
#include "ukernels/ukernels.h"

namespace unpool_test {
namespace {

namespace uk = unpool::ukernels;

// The unpool, scatter-add and gather variants on random offsets with many
// duplicates: later writes must win and sums must add in the same order.
// The in-range scatter-add gets offsets outside the plane too, and must
// equal the plain one on the offsets inside.
template <typename T, typename I>
void check_scatter_gather(std::mt19937& rng, int64_t n, int64_t plane) {
  const std::string what = std::string(type_name<T>()) + " " + index_name<I>() + " n " +
                           std::to_string(n) + " plane " + std::to_string(plane);
  std::uniform_int_distribution<int64_t> any(0, plane - 1);
  std::vector<I> idx(static_cast<size_t>(n));
  for (auto& v : idx) v = static_cast<I>(any(rng));
  const std::vector<T> x = random_values<T>(rng, static_cast<size_t>(n));
  const std::vector<T> g = random_values<T>(rng, static_cast<size_t>(plane));
  auto same = [](const std::vector<T>& a, const std::vector<T>& b) {
    for (size_t i = 0; i < a.size(); ++i) {
      if (!same_bits(a[i], b[i])) return false;
    }
    return true;
  };
  std::vector<T> want;
  for (const auto& v : uk::kUnpoolVariants<T, I>) {
    if (!v.applies()) continue;
    std::vector<T> y(static_cast<size_t>(plane), T(0));
    v.fn(x.data(), idx.data(), n, y.data());
    if (want.empty()) want = y;
    ASSERT_TRUE(same(y, want)) << v.name << " " << what;
  }
  want.clear();
  for (const auto& v : uk::kScatterAddVariants<T, I>) {
    if (!v.applies()) continue;
    std::vector<T> y(static_cast<size_t>(plane), T(0));
    v.fn(x.data(), idx.data(), n, y.data());
    if (want.empty()) want = y;
    ASSERT_TRUE(same(y, want)) << v.name << " " << what;
  }
  {
    std::vector<I> wild = idx;  // some offsets outside [0, plane)
    std::vector<I> inside;
    std::vector<T> x_inside;
    for (size_t i = 0; i < wild.size(); ++i) {
      const int64_t at = static_cast<int64_t>(i);
      if (i % 3 == 1) {
        wild[i] = static_cast<I>(i % 2 ? -1 - at : plane + at);
      } else {
        inside.push_back(wild[i]);
        x_inside.push_back(x[i]);
      }
    }
    std::vector<T> want_in(static_cast<size_t>(plane), T(0));
    uk::scatter_add__scalar(x_inside.data(), inside.data(), static_cast<int64_t>(inside.size()),
                            want_in.data());
    for (const auto& v : uk::kScatterAddInRangeVariants<T, I>) {
      if (!v.applies()) continue;
      std::vector<T> y(static_cast<size_t>(plane) + 1, T(0));  // a guard element
      v.fn(x.data(), wild.data(), n, plane, y.data());
      ASSERT_TRUE(y.back() == T(0) && same(std::vector<T>(y.begin(), y.end() - 1), want_in))
          << v.name << " " << what;
    }
  }
  want.clear();
  for (const auto& v : uk::kGatherVariants<T, I>) {
    if (!v.applies()) continue;
    std::vector<T> y(static_cast<size_t>(n), T(0));
    v.fn(g.data(), idx.data(), n, y.data());
    if (want.empty()) want = y;
    ASSERT_TRUE(same(y, want)) << v.name << " " << what;
  }
}

TEST(Ukernel, ScatterGatherVariantsMatchScalarBits) {
  std::mt19937 rng(99);
  static const int64_t kSizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000};
  for (int64_t n : kSizes) {
    for (int64_t plane : {n, 4 * n, (n + 1) / 2}) {
      check_scatter_gather<float, int32_t>(rng, n, plane);
      check_scatter_gather<float, int64_t>(rng, n, plane);
      check_scatter_gather<double, int32_t>(rng, n, plane);
      check_scatter_gather<double, int64_t>(rng, n, plane);
      if (HasFatalFailure()) return;
    }
  }
}

// Index checks against the definition: arrays that are all valid, or have one bad index (negative,
// the limit itself, far out, the type's extremes) anywhere, including the
// SIMD tail; limits up to past INT32_MAX.
template <typename I>
void check_index_checks(std::mt19937& rng, int64_t n) {
  const int64_t limits[] = {
      1, 5, n + 1, 1000, int64_t{INT32_MAX}, int64_t{INT32_MAX} + 1, int64_t{1} << 40};
  const int64_t bads[] = {-1, 0 /* = limit */, 1 /* = limit + 1 */,
                          int64_t{std::numeric_limits<I>::min()},
                          int64_t{std::numeric_limits<I>::max()}};
  for (int64_t limit : limits) {
    std::uniform_int_distribution<int64_t> good(
        0, std::min<int64_t>(limit, std::numeric_limits<I>::max()) - 1);
    for (int trial = 0; trial < 12; ++trial) {
      std::vector<I> idx(static_cast<size_t>(n));
      for (auto& v : idx) v = static_cast<I>(good(rng));
      if (trial > 0 && n > 0) {
        int64_t bad = bads[trial % 5];
        if (trial % 5 == 1 || trial % 5 == 2) bad += limit;
        const size_t at =
            static_cast<size_t>(std::uniform_int_distribution<int64_t>(0, n - 1)(rng));
        if (bad >= int64_t{std::numeric_limits<I>::min()} &&
            bad <= int64_t{std::numeric_limits<I>::max()}) {
          idx[at] = static_cast<I>(bad);
        }
      }
      bool want = true;
      for (I v : idx) want = want && v >= 0 && int64_t{v} < limit;
      for (const auto& v : uk::kCheckIndicesVariants<I>) {
        ASSERT_EQ(v.fn(idx.data(), n, limit), want)
            << v.name << " " << index_name<I>() << " n " << n << " limit " << limit << " trial "
            << trial;
      }
    }
  }
}

TEST(Ukernel, CheckIndicesVariantsAgree) {
  std::mt19937 rng(5);
  for (int64_t n : {0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 100}) {
    check_index_checks<int32_t>(rng, n);
    check_index_checks<int64_t>(rng, n);
    if (HasFatalFailure()) return;
  }
}

// Every widening variant turns n int32 offsets into the same int64 ones in
// place, over the first 8 n bytes only.
TEST(Ukernel, WidenIndicesVariantsAgree) {
  std::mt19937 rng(6);
  for (int64_t n : {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 100, 1001}) {
    std::vector<int32_t> src(static_cast<size_t>(n));
    for (auto& v : src) v = static_cast<int32_t>(rng());
    for (const auto& v : uk::kWidenIndicesVariants) {
      // Two guard elements past the result keep their bits.
      std::vector<int64_t> buf(static_cast<size_t>(n) + 2, int64_t{0x5a5a5a5a5a5a5a5a});
      if (n > 0) std::memcpy(buf.data(), src.data(), src.size() * sizeof(int32_t));
      v.fn(buf.data(), n);
      for (int64_t i = 0; i < n; ++i) {
        ASSERT_EQ(buf[static_cast<size_t>(i)], int64_t{src[static_cast<size_t>(i)]})
            << v.name << " n " << n << " i " << i;
      }
      ASSERT_EQ(buf[static_cast<size_t>(n)], int64_t{0x5a5a5a5a5a5a5a5a}) << v.name;
      ASSERT_EQ(buf[static_cast<size_t>(n) + 1], int64_t{0x5a5a5a5a5a5a5a5a}) << v.name;
    }
  }
}

}  // namespace
}  // namespace unpool_test
