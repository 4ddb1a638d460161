// Every channels-first argmax pool variant of ukernels/variants.inc against
// the first entry (argmaxpool_row__scalar), on the random cases its guard
// accepts: widths around the SIMD tiles (w < 4, w == 4, w % 4 != 0, large),
// strides 1-4, dilation, padding, clipped edges, windows wholly in padding,
// and data full of NaN (with sign and payload), ties, +-0 and +-inf. Results
// must be identical bits, and ukernels/config.h may only pick a variant whose
// guard holds. Natively only the scalar variants exist; the same test built
// with em++ -msimd128 checks the wasmsimd ones. (Scatter, gather and index
// checks: ukernel_scatter_test.cc; channels last: ukernel_nhwc_test.cc.)
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "ukernel_test_util.h"
#include "ukernels/config.h"
#include "ukernels/ukernels.h"

namespace unpool_test {
namespace {

namespace uk = unpool::ukernels;
using Span = uk::Window;

Span window(int64_t o, int64_t in, int64_t k, int64_t s, int64_t p, int64_t d) {
  return uk::clipped_window(o, in, k, s, p, d);
}

// How often each argmax variant ran, per "f32 i32 name": every variant must
// have run somewhere.
std::map<std::string, int>& runs() {
  static std::map<std::string, int> m;
  return m;
}

// One 2d pool problem: a rows-by-width plane, pooled along both dims. The
// H dim supplies the window rows that the operator layer would pass.
struct Case {
  int64_t height, width;
  int64_t k[2], s[2], p[2], d[2];  // H, W
  bool ceil;
  std::string describe() const {
    std::ostringstream m;
    m << "plane " << height << "x" << width << " kernel " << k[0] << "x" << k[1] << " stride "
      << s[0] << "x" << s[1] << " pad " << p[0] << "x" << p[1] << " dilation " << d[0] << "x"
      << d[1] << (ceil ? " ceil" : " floor");
    return m.str();
  }
};

int64_t out_size(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil) {
  const int64_t span = in + 2 * p - d * (k - 1) - 1;
  if (span < 0) return 0;
  return (ceil ? (span + s - 1) / s : span / s) + 1;
}

Case random_case(std::mt19937& rng) {
  static const int64_t kWidths[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  11,
                                    12, 15, 16, 17, 31, 33, 64, 67, 130};
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  Case c{};
  c.height = pick(1, 6);
  c.width = kWidths[pick(0, 18)];
  for (int i = 0; i < 2; ++i) {
    c.k[i] = pick(1, 5);
    c.s[i] = pick(0, 2) ? pick(1, 2) : pick(3, 4);  // mostly the vectorised strides
    c.d[i] = pick(0, 3) == 0 ? pick(2, 3) : 1;
    // Up to k/2 as PyTorch allows, sometimes more (whole windows in padding).
    c.p[i] = pick(0, 4) == 0 ? pick(0, (c.k[i] - 1) * c.d[i]) : pick(0, c.k[i] / 2);
  }
  c.ceil = pick(0, 1);
  return c;
}

// Runs every argmax variant on every output row of `c` over the plane `x`
// and compares with the first; then once more on the output rows whose
// windows are unclipped along H, all in one call (count > 1), as the
// operator layer batches them.
template <typename T, typename I>
void check_argmaxpool_on(const Case& c, const std::vector<T>& x) {
  const int64_t oh_n = out_size(c.height, c.k[0], c.s[0], c.p[0], c.d[0], c.ceil);
  const int64_t ow_n = out_size(c.width, c.k[1], c.s[1], c.p[1], c.d[1], c.ceil);
  if (oh_n <= 0 || ow_n <= 0) return;
  std::vector<int64_t> rows(static_cast<size_t>(c.k[0]));
  uk::ArgmaxRow r{};
  r.rows = rows.data();
  r.width = c.width;
  r.out_width = ow_n;
  r.kernel = c.k[1];
  r.stride = c.s[1];
  r.pad = c.p[1];
  r.dilation = c.d[1];
  r.count = 1;
  r.step = c.s[0] * c.width;
  const auto& variants = uk::kArgmaxpoolVariants<T, I>;
  constexpr size_t kGuard = 8;
  const T canary = T(12345.5);
  // Runs variant v on r.count rows; checks the guards; returns the outputs.
  auto run = [&](const auto& v, std::vector<T>* y_out, std::vector<I>* i_out) {
    const size_t n = static_cast<size_t>(r.count * ow_n);
    std::vector<T> y(n + 2 * kGuard, canary);
    std::vector<I> idx(n + 2 * kGuard, I(-7));
    v.fn(x.data(), r, y.data() + kGuard, idx.data() + kGuard);
    for (size_t g = 0; g < kGuard; ++g) {
      ASSERT_TRUE(same_bits(y[g], canary) && same_bits(y[y.size() - 1 - g], canary) &&
                  idx[g] == I(-7) && idx[idx.size() - 1 - g] == I(-7))
          << "write outside the output rows";
    }
    y_out->assign(y.begin() + kGuard, y.begin() + kGuard + static_cast<std::ptrdiff_t>(n));
    i_out->assign(idx.begin() + kGuard, idx.begin() + kGuard + static_cast<std::ptrdiff_t>(n));
  };
  // Sets r to output row oh's window (rows from first_row).
  auto at_row = [&](int64_t oh) {
    const Span sh = window(oh, c.height, c.k[0], c.s[0], c.p[0], c.d[0]);
    r.first_row = sh.start * c.width;
    r.nrows = 0;
    for (int64_t h = sh.start; h < sh.end; h += c.d[0]) {
      rows[static_cast<size_t>(r.nrows++)] = h * c.width - r.first_row;
    }
    return sh;
  };
  std::vector<T> ref_y;  // variant 0, row by row: the reference of the batch
  std::vector<I> ref_i;
  int64_t batch_begin = -1, batch_end = -1;  // the unclipped output rows
  for (int64_t oh = 0; oh < oh_n; ++oh) {
    const Span sh = at_row(oh);
    if (sh.start == oh * c.s[0] - c.p[0] && sh.end == sh.start + (c.k[0] - 1) * c.d[0] + 1) {
      if (batch_begin < 0) batch_begin = oh;
      batch_end = oh + 1;
    }
    std::vector<T> want_y, y;
    std::vector<I> want_i, idx;
    // The config's choice for this row must be a variant whose guard holds.
    const auto chosen = uk::config::argmaxpool_row<T, I>(r);
    bool chosen_applies = false;
    for (const auto& v : variants) chosen_applies |= v.fn == chosen && v.applies(r);
    ASSERT_TRUE(chosen_applies) << "config picks a variant whose guard fails: " << c.describe()
                                << " oh " << oh << ", nrows " << r.nrows;
    for (const auto& v : variants) {
      if (!v.applies(r)) continue;
      SCOPED_TRACE(std::string(type_name<T>()) + " " + index_name<I>() + " " + v.name + " " +
                   c.describe() + " oh " + std::to_string(oh) + " of " + std::to_string(oh_n) +
                   ", out_width " + std::to_string(ow_n) + ", nrows " + std::to_string(r.nrows));
      ++runs()[std::string(type_name<T>()) + " " + index_name<I>() + " " + v.name];
      run(v, &y, &idx);
      if (::testing::Test::HasFatalFailure()) return;
      if (&v == &variants[0]) {
        want_y = y;
        want_i = idx;
        ref_y.insert(ref_y.end(), y.begin(), y.end());
        ref_i.insert(ref_i.end(), idx.begin(), idx.end());
        continue;
      }
      for (size_t o = 0; o < y.size(); ++o) {
        ASSERT_TRUE(same_bits(y[o], want_y[o]) && idx[o] == want_i[o])
            << "output " << o << ": got " << y[o] << " at " << idx[o] << ", want " << want_y[o]
            << " at " << want_i[o] << " (" << variants[0].name << ")";
      }
    }
  }
  if (batch_begin < 0) return;
  at_row(batch_begin);
  r.count = batch_end - batch_begin;
  for (const auto& v : variants) {
    if (!v.applies(r)) continue;
    SCOPED_TRACE(std::string(type_name<T>()) + " " + index_name<I>() + " " + v.name + " " +
                 c.describe() + " rows " + std::to_string(batch_begin) + ".." +
                 std::to_string(batch_end) + " in one call, out_width " + std::to_string(ow_n));
    std::vector<T> y;
    std::vector<I> idx;
    run(v, &y, &idx);
    if (::testing::Test::HasFatalFailure()) return;
    const size_t base = static_cast<size_t>(batch_begin * ow_n);
    for (size_t o = 0; o < y.size(); ++o) {
      ASSERT_TRUE(same_bits(y[o], ref_y[base + o]) && idx[o] == ref_i[base + o])
          << "output " << o << ": got " << y[o] << " at " << idx[o] << ", want " << ref_y[base + o]
          << " at " << ref_i[base + o] << " (" << variants[0].name << " row by row)";
    }
  }
  r.count = 1;
}

template <typename T, typename I>
void check_argmaxpool(const Case& c, std::mt19937& rng) {
  check_argmaxpool_on<T, I>(c, random_values<T>(rng, static_cast<size_t>(c.height * c.width)));
}

// The k2s2 kernel's NaN-free pass and its fallback (argmaxpool_wasmsimd.h):
// planes without NaN but with +-0 ties (the pass is kept), then the same
// with one NaN moved through every position, with +inf and -inf in one row
// (a NaN sum, so the row is redone), and with finite values whose sum
// overflows both ways.
TEST(Ukernel, K2s2NanFreePassAndItsFallback) {
  std::mt19937 rng(11);
  const float inf = std::numeric_limits<float>::infinity();
  for (int64_t height : {2, 3, 5}) {
    for (int64_t width : {8, 10, 16, 17, 34, 130}) {
      for (int64_t kh : {1, 2, 3, 4}) {  // 4: four window rows (the 3d pool's case)
        Case c{};
        c.height = height;
        c.width = width;
        c.k[0] = kh;
        c.s[0] = kh == 3 ? 2 : kh;
        c.k[1] = 2;
        c.s[1] = 2;
        c.d[0] = c.d[1] = 1;
        const size_t n = static_cast<size_t>(height * width);
        std::uniform_int_distribution<int> pick(0, 3);
        std::vector<float> ties(n);  // 0, -0, 1, -1: many ties, signed zeros
        for (auto& v : ties)
          v = std::array<float, 4>{0.f, -0.f, 1.f, -1.f}[static_cast<size_t>(pick(rng))];
        check_argmaxpool_on<float, int32_t>(c, ties);
        check_argmaxpool_on<float, int64_t>(c, ties);
        for (size_t at = 0; at < n; ++at) {
          std::vector<float> one_nan = ties;
          one_nan[at] = nan_with<float>(at % 2 == 1, at % 3 == 0);
          check_argmaxpool_on<float, int32_t>(c, one_nan);
        }
        std::vector<float> infs = ties;
        infs[n / 3] = inf;
        infs[n / 2] = -inf;
        check_argmaxpool_on<float, int32_t>(c, infs);
        std::vector<float> huge(n);
        for (size_t i = 0; i < n; ++i)
          huge[i] = (i % 3 == 0 ? -3e38f : 3e38f) - static_cast<float>(pick(rng)) * 1e37f;
        check_argmaxpool_on<float, int32_t>(c, huge);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

// What runs for f32 in each build (ukernels/config.h): the wasmsimd
// variants with -msimd128, scalar ones without.
TEST(Ukernel, ConfigPicksTheBuildsVariants) {
  std::vector<int64_t> rows = {0, 10};
  uk::ArgmaxRow r{};
  r.rows = rows.data();
  r.nrows = 2;
  r.width = 10;
  r.out_width = 5;
  r.kernel = r.stride = 2;
  r.dilation = 1;
  r.count = 1;
  auto name_of = [&r]() {
    for (const auto& v : uk::kArgmaxpoolVariants<float, int32_t>) {
      if (v.fn == uk::config::argmaxpool_row<float, int32_t>(r)) return std::string(v.name);
    }
    return std::string("none");
  };
#ifdef __wasm_simd128__
  EXPECT_EQ(name_of(), "argmaxpool_row__wasmsimd_k2s2");
  r.kernel = 3;
  r.stride = 1;
  r.out_width = 8;
  EXPECT_EQ(name_of(), "argmaxpool_row__wasmsimd");
  r.stride = 3;
  r.out_width = 3;
  EXPECT_EQ(name_of(), "argmaxpool_row__wasmsimd");
#else
  EXPECT_EQ(name_of(), "argmaxpool_row__scalar_k2s2");
  r.kernel = 3;
  r.stride = 1;
  r.out_width = 8;
  EXPECT_EQ(name_of(), "argmaxpool_row__scalar_taps");
#endif
  EXPECT_EQ(std::string(uk::kArgmaxpoolVariants<float, int32_t>[0].name), "argmaxpool_row__scalar");
  // 16-bit values: the same case (k2, s2, two window rows).
  r.kernel = r.stride = 2;
  r.out_width = 5;
  std::string half = "none";
  for (const auto& v : uk::kArgmaxpoolHalfVariants<uk::Float16, int32_t>) {
    if (v.fn == uk::config::argmaxpool_row<uk::Float16, int32_t>(r)) half = v.name;
  }
#ifdef __wasm_simd128__
  EXPECT_EQ(half, "argmaxpool_row_half__wasmsimd_k2s2");
#else
  EXPECT_EQ(half, "argmaxpool_row_half__scalar");
#endif
}

TEST(Ukernel, InteriorColumnsAreTheUnclippedWindows) {
  std::mt19937 rng(7);
  for (int iter = 0; iter < 2000; ++iter) {
    const Case c = random_case(rng);
    uk::ArgmaxRow r{};
    r.width = c.width;
    r.out_width = out_size(c.width, c.k[1], c.s[1], c.p[1], c.d[1], c.ceil);
    r.kernel = c.k[1];
    r.stride = c.s[1];
    r.pad = c.p[1];
    r.dilation = c.d[1];
    for (int64_t overread = 0; overread < 2; ++overread) {
      int64_t b, e;
      uk::interior_columns(r, overread, &b, &e);
      for (int64_t ow = 0; ow < r.out_width; ++ow) {
        const int64_t w0 = ow * r.stride - r.pad;
        const bool inside = w0 >= 0 && w0 + (r.kernel - 1) * r.dilation + overread < r.width;
        ASSERT_EQ(ow >= b && ow < e, inside) << c.describe() << " overread " << overread << " ow "
                                             << ow << " range [" << b << ", " << e << ")";
      }
    }
  }
}

TEST(Ukernel, ArgmaxpoolVariantsMatchScalarBits) {
  std::mt19937 rng(2024);
  for (int iter = 0; iter < 1500; ++iter) {
    const Case c = random_case(rng);
    check_argmaxpool<float, int32_t>(c, rng);
    check_argmaxpool<float, int64_t>(c, rng);
    check_argmaxpool<double, int32_t>(c, rng);
    check_argmaxpool<double, int64_t>(c, rng);
    if (HasFatalFailure()) return;
  }
  for (const auto& v : uk::kArgmaxpoolVariants<float, int32_t>) {
    EXPECT_GT(runs()[std::string("f32 i32 ") + v.name], 0) << v.name << " never ran";
  }
}

}  // namespace
}  // namespace unpool_test
