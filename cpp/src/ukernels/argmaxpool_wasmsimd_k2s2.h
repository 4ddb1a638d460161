// The WebAssembly SIMD kernel of the 2x2 / stride 2 pool and its 1d and 3d
// kin (argmaxpool_row__wasmsimd_k2s2): window rows as pairs of adjacent
// columns, decided pair by pair. See argmaxpool_wasmsimd.h for the rule
// and the lanes.
#ifndef UNPOOL_SRC_UKERNELS_ARGMAXPOOL_WASMSIMD_K2S2_H_
#define UNPOOL_SRC_UKERNELS_ARGMAXPOOL_WASMSIMD_K2S2_H_

#ifdef __wasm_simd128__

#include <wasm_simd128.h>

#include <cstdint>
#include <type_traits>

#include "ukernels/argmaxpool.h"
#include "ukernels/argmaxpool_wasmsimd_lanes.h"

namespace unpool {
namespace ukernels {
namespace wasmsimd {

// kernel 2, stride 2, dilation 1 (the 2x2 pool and its 1d and 3d kin): each
// window row is a pair of adjacent columns, so two loads and two shuffles
// give both taps of L outputs.
//
// The rule is associative: folding taps t0, t1, t2, t3, ... in order picks
// the same tap as folding the pair winners (t0, t1), (t2, t3), ... in order
// (the last NaN, else the first maximum, either way). So each row's pair is
// decided on its own, off the dependency chain, and only the pair winners
// are folded.
//
// Indices: `neg` holds, in integer lanes of T's width, minus the offset of
// the winning tap from its window's first tap. A replace mask is -1, so a
// pair's mask is minus its column (0 or 1), and subtracting the row's
// distance from the first row (a splat) gives the rest. A wasm32 memory
// holds fewer than 2^31 elements, so every distance fits int32 lanes.
// WindowStart adds the windows' first offsets: one add per group, where a
// running index costs a splat, an add and a bitselect per tap.
template <typename T, typename I>
struct WindowStart;

template <>
struct WindowStart<float, int32_t> {
  v128_t a;
  explicit WindowStart(int64_t first)
      : a(wasm_i32x4_add(wasm_i32x4_splat(static_cast<int32_t>(first)),
                         wasm_i32x4_make(0, 2, 4, 6))) {}
  void store(int32_t* out, v128_t neg) {
    wasm_v128_store(out, wasm_i32x4_sub(a, neg));
    a = wasm_i32x4_add(a, wasm_i32x4_splat(8));
  }
};

// int32 masks are widened to two i64x2 halves (sign extension keeps -1, 0).
template <>
struct WindowStart<float, int64_t> {
  v128_t lo, hi;
  explicit WindowStart(int64_t first)
      : lo(wasm_i64x2_make(first, first + 2)), hi(wasm_i64x2_make(first + 4, first + 6)) {}
  void store(int64_t* out, v128_t neg) {
    wasm_v128_store(out, wasm_i64x2_sub(lo, wasm_i64x2_extend_low_i32x4(neg)));
    wasm_v128_store(out + 2, wasm_i64x2_sub(hi, wasm_i64x2_extend_high_i32x4(neg)));
    lo = wasm_i64x2_add(lo, wasm_i64x2_splat(8));
    hi = wasm_i64x2_add(hi, wasm_i64x2_splat(8));
  }
};

// f64: i64x2 offsets; int32 outputs take the low halves.
template <typename I>
struct WindowStart64 {
  v128_t a;
  explicit WindowStart64(int64_t first) : a(wasm_i64x2_make(first, first + 2)) {}
  void store(int64_t* out, v128_t neg) {
    wasm_v128_store(out, wasm_i64x2_sub(a, neg));
    a = wasm_i64x2_add(a, wasm_i64x2_splat(4));
  }
  void store(int32_t* out, v128_t neg) {
    const v128_t i = wasm_i64x2_sub(a, neg);
    wasm_v128_store64_lane(out, wasm_i32x4_shuffle(i, i, 0, 2, 0, 2), 0);
    a = wasm_i64x2_add(a, wasm_i64x2_splat(4));
  }
};
template <>
struct WindowStart<double, int32_t> : WindowStart64<int32_t> {
  using WindowStart64::WindowStart64;
};
template <>
struct WindowStart<double, int64_t> : WindowStart64<int64_t> {
  using WindowStart64::WindowStart64;
};

// The winner of one window row's pairs at p (lane l: p[2l], p[2l + 1]) and
// its `neg`; `dist` is the row's distance from the first row, splatted.
template <typename T>
inline void pair_winner(const T* p, v128_t dist, v128_t* best, v128_t* neg) {
  v128_t even, odd;
  Vec<T>::load_pairs(p, &even, &odd);
  const v128_t m = Vec<T>::replaces(odd, even);
  *best = wasm_v128_bitselect(odd, even, m);
  *neg = Vec<T>::isub(m, dist);
}

// (best, neg) := the winner of (best, neg) then (b, n).
template <typename T>
inline void combine(v128_t* best, v128_t* neg, v128_t b, v128_t n) {
  const v128_t m = Vec<T>::replaces(b, *best);
  *best = wasm_v128_bitselect(b, *best, m);
  *neg = wasm_v128_bitselect(n, *neg, m);
}

// The same two for data without NaN, where `v replaces best` is best < v
// and the new best pmax(best, v): two instructions where the NaN rule takes
// six. `sum` gathers the taps (a + b is NaN when a or b is): a NaN among them
// leaves it NaN, and so does inf + -inf, a false alarm that costs only a
// redo.
template <typename T>
inline void pair_winner_ordered(const T* p, v128_t dist, v128_t* best, v128_t* neg, v128_t* sum) {
  v128_t even, odd;
  Vec<T>::load_pairs(p, &even, &odd);
  *best = Vec<T>::pmax(even, odd);
  *neg = Vec<T>::isub(Vec<T>::lt(even, odd), dist);
  *sum = Vec<T>::add(even, odd);
}
template <typename T>
inline void combine_ordered(v128_t* best, v128_t* neg, v128_t b, v128_t n) {
  const v128_t m = Vec<T>::lt(*best, b);
  *best = Vec<T>::pmax(*best, b);
  *neg = wasm_v128_bitselect(n, *neg, m);
}

// Interior columns [begin, end), end - begin >= L, of every output row of
// `r`. Deciding each row's pair apart and folding only the winners keeps the
// taps off one long dependency chain, and the indices need one add per
// group instead of a splat, an add and a bitselect per tap.
//
// f32 rows of 2d and 3d pools run first as if they held no NaN
// (pair_winner_ordered, combine_ordered: two instructions per tap where the
// NaN rule takes six), summing their taps on the side; if the sum is NaN (a
// NaN among the taps, or inf + -inf), the row is done again with the NaN
// rule, overwriting it, so data with NaN pays for both passes. Without NaN
// both give the same bits: there `gt(v, best) | ne(v, v)` is `lt(best, v)`,
// and the bitselect of it is pmax. The kernel is not inlined: a copy per
// caller would make the module larger.
//
// N = 2 (the 2d pool) hoists row 1's pointer and distance out of the loop,
// and N = 4 (f32 only: the 3d pool's 2x2 window rows) rows 1 to 3's: V8
// keeps N = 0's row loop as a loop, which reloads each row's offset every
// group (bench/RESULTS.md, decisions log: "3d k2s2 pool with a four-row
// case", 1.11x on the 3d pool). N = 0 takes any number of rows.
// N = 1 (the 1d pool) has no row loop: in the module clang does not
// unswitch N = 0's loop for it.
//
// All r.count output rows run in one call, each row decided ordered or not
// on its own, so the setup is paid once per run of rows, not per row.
//
// The tail group overlaps the last full one (the same bits written twice)
// rather than going scalar, which matters on small planes. The loop is
// restarted for it so that the group is compiled once.
template <int N, typename T, typename I>
__attribute__((noinline)) void argmax_groups_k2s2(const T* x, const ArgmaxRow& r, int64_t begin,
                                                  int64_t end, T* y, I* idx) {
#ifndef UNPOOL_NATIVE_SIMDE  // bench/native/simde.sh: small planes, natively
  static_assert(sizeof(void*) == 4, "offsets in int32 lanes need a wasm32 memory");
#endif
  constexpr int64_t L = Vec<T>::kLanes;
  const int64_t* const rows = r.rows;
  const int64_t nrows = r.nrows, pad = r.pad, step = r.step, ow_n = r.out_width;
  const int64_t d1 = N == 2 || N == 4 ? rows[1] : 0;
  const int64_t d2 = N == 4 ? rows[2] : 0, d3 = N == 4 ? rows[3] : 0;
  const v128_t zero = Vec<T>::isplat(0), dist1 = Vec<T>::isplat(d1);
  const v128_t dist2 = Vec<T>::isplat(d2), dist3 = Vec<T>::isplat(d3);
  v128_t sum = zero;
  // Output group ow of the row whose first window row is row0.
  auto group = [&](auto ordered, const T* row0, int64_t ow, T* yt, I* it,
                   WindowStart<T, I>* start) {
    const int64_t w0 = 2 * ow - pad;
    v128_t best, neg, b, n, s, t;
    if constexpr (decltype(ordered)::value) {
      pair_winner_ordered(row0 + w0, zero, &best, &neg, &s);
      if (N == 2) {
        pair_winner_ordered(row0 + d1 + w0, dist1, &b, &n, &t);
        combine_ordered<T>(&best, &neg, b, n);
        s = Vec<T>::add(s, t);
      } else if (N == 4) {
        pair_winner_ordered(row0 + d1 + w0, dist1, &b, &n, &t);
        combine_ordered<T>(&best, &neg, b, n);
        s = Vec<T>::add(s, t);
        pair_winner_ordered(row0 + d2 + w0, dist2, &b, &n, &t);
        combine_ordered<T>(&best, &neg, b, n);
        s = Vec<T>::add(s, t);
        pair_winner_ordered(row0 + d3 + w0, dist3, &b, &n, &t);
        combine_ordered<T>(&best, &neg, b, n);
        s = Vec<T>::add(s, t);
      } else if (N == 0) {
        for (int64_t k = 1; k < nrows; ++k) {
          const int64_t o = rows[k];
          pair_winner_ordered(row0 + o + w0, Vec<T>::isplat(o), &b, &n, &t);
          combine_ordered<T>(&best, &neg, b, n);
          s = Vec<T>::add(s, t);
        }
      }
      sum = Vec<T>::add(sum, s);
    } else {
      pair_winner(row0 + w0, zero, &best, &neg);
      if (N == 2) {
        pair_winner(row0 + d1 + w0, dist1, &b, &n);
        combine<T>(&best, &neg, b, n);
      } else if (N == 0 || N == 4) {  // N = 4 too: this pass is for rows with NaN only
        for (int64_t k = 1; k < nrows; ++k) {
          const int64_t o = rows[k];
          pair_winner(row0 + o + w0, Vec<T>::isplat(o), &b, &n);
          combine<T>(&best, &neg, b, n);
        }
      }
    }
    wasm_v128_store(yt + ow, best);
    start->store(it + ow, neg);
  };
  // One output row: its window starts at `first`, its outputs at yt, it.
  auto run = [&](auto ordered, int64_t first, T* yt, I* it) {
    const T* const row0 = x + first;
    WindowStart<T, I> start(first + 2 * begin - pad);
    int64_t ow = begin;
    for (;;) {
      // Not unrolled: unrolling gains no speed here and costs size.
#pragma clang loop unroll(disable)
      for (; ow + L <= end; ow += L) group(ordered, row0, ow, yt, it, &start);
      if (ow == end) break;
      ow = end - L;
      start = WindowStart<T, I>(first + 2 * ow - pad);
    }
  };
  for (int64_t t = 0; t < r.count; ++t) {
    const int64_t first = r.first_row + t * step;
    T* const yt = y + t * ow_n;
    I* const it = idx + t * ow_n;
    // The ordered pass for f32 values and 2d and 3d pools only: each pass is
    // its own copy of the loop (a runtime flag gets unswitched into the
    // same), which f64 would pay in size as well, and the 1d pool (one pair
    // per group) gains nothing from it.
    if constexpr (std::is_same<T, float>::value && N != 1) {
      sum = zero;
      run(std::true_type{}, first, yt, it);
      if (Vec<T>::all_ordered(sum)) continue;
    }
    run(std::false_type{}, first, yt, it);
  }
}

}  // namespace wasmsimd

// The 2x2 / stride 2 pool and its 1d and 3d kin (the guard: k = 2, s = 2,
// d = 1 along W; any rows and padding). The interior columns of all output
// rows run in one argmax_groups_k2s2 call; the edge columns, when there are
// any, row by row. Rows without window rows or with fewer interior columns
// than a vector are all edge columns.
template <typename T, typename I>
constexpr bool argmaxpool_row__wasmsimd_k2s2_applies(const ArgmaxRow& r) {
  return r.kernel == 2 && r.stride == 2 && r.dilation == 1;
}
template <typename T, typename I>
void argmaxpool_row__wasmsimd_k2s2(const T* x, const ArgmaxRow& r, T* y, I* idx) {
  int64_t begin, end;
  interior_columns(r, 0, &begin, &end);
  if (r.nrows == 0 || end - begin < wasmsimd::Vec<T>::kLanes) {
    for_each_row(r, y, idx, [x](const ArgmaxRow& row, T* yt, I* it) {
      argmaxpool_cols__scalar(x, row, 0, row.out_width, yt, it);
    });
    return;
  }
  if (begin > 0 || end < r.out_width) {
    for_each_row(r, y, idx, [x, begin, end](const ArgmaxRow& row, T* yt, I* it) {
      argmaxpool_cols__scalar(x, row, 0, begin, yt, it);
      argmaxpool_cols__scalar(x, row, end, row.out_width, yt, it);
    });
  }
  if (r.nrows == 2) {
    wasmsimd::argmax_groups_k2s2<2>(x, r, begin, end, y, idx);
  } else if (r.nrows == 1) {
    wasmsimd::argmax_groups_k2s2<1>(x, r, begin, end, y, idx);
  } else if (r.nrows == 4 && std::is_same<T, float>::value) {
    wasmsimd::argmax_groups_k2s2<4>(x, r, begin, end, y, idx);
  } else {
    wasmsimd::argmax_groups_k2s2<0>(x, r, begin, end, y, idx);
  }
}

}  // namespace ukernels
}  // namespace unpool

#endif  // __wasm_simd128__
#endif  // UNPOOL_SRC_UKERNELS_ARGMAXPOOL_WASMSIMD_K2S2_H_
