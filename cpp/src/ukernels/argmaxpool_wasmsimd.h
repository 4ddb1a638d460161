// WebAssembly SIMD argmax pool microkernels, vectorised across adjacent output
// columns: one v128 holds the running maxima of 4 (f32) or 2 (f64) outputs,
// index accumulators hold their argmax offsets, and every window tap updates
// both with `gt(v, best) | ne(v, v)` + bitselect, the scalar kernel's
// `v > best || v != v` per lane. f32x4.max would be wrong here: it gives no
// index and takes the later of +-0 and the first NaN.
//
//   output group ow .. ow+3 (stride 2), one window row, tap j:
//   row: x x x x x x x x x      lanes read columns w0 + j*d + {0, 2, 4, 6}
//        ^w0
//
// Only the interior columns, whose window row is wholly inside the input row,
// are vectorised; the edges (and the tail, but for the k2s2 kernel) go
// through argmaxpool_cols__scalar. Taps are visited in the scalar kernel's
// order (rows, then columns; the k2s2 kernel regroups them without
// reordering), so every lane takes the same decisions and the results are
// bit-identical.
#ifndef UNPOOL_SRC_UKERNELS_ARGMAXPOOL_WASMSIMD_H_
#define UNPOOL_SRC_UKERNELS_ARGMAXPOOL_WASMSIMD_H_

#ifdef __wasm_simd128__

#include <wasm_simd128.h>

#include <cstdint>
#include <type_traits>

#include "ukernels/argmaxpool.h"

namespace unpool {
namespace ukernels {
namespace wasmsimd {

// Value lanes: loads at stride 1, 2 or any, and the replace mask.
template <typename T>
struct Vec;

template <>
struct Vec<float> {
  static constexpr int64_t kLanes = 4;
  static v128_t replaces(v128_t v, v128_t best) {
    return wasm_v128_or(wasm_f32x4_gt(v, best), wasm_f32x4_ne(v, v));
  }
  static v128_t load(const float* p) { return wasm_v128_load(p); }
  // For NaN-free data: the mask and value of `v replaces best` (ties keep
  // best); pmax(a, b) is a < b ? b : a, one maxps.
  static v128_t lt(v128_t a, v128_t b) { return wasm_f32x4_lt(a, b); }
  static v128_t pmax(v128_t a, v128_t b) { return wasm_f32x4_pmax(a, b); }
  static v128_t add(v128_t a, v128_t b) { return wasm_f32x4_add(a, b); }
  static bool all_ordered(v128_t a) { return wasm_i32x4_all_true(wasm_f32x4_eq(a, a)); }
  // Integer lanes of the same width, for the k2s2 kernel's offsets.
  static v128_t isplat(int64_t v) { return wasm_i32x4_splat(static_cast<int32_t>(v)); }
  static v128_t isub(v128_t a, v128_t b) { return wasm_i32x4_sub(a, b); }
  // p[0], p[2], p[4], p[6]; reads p[7] too.
  static v128_t load_s2(const float* p) {
    return wasm_i32x4_shuffle(wasm_v128_load(p), wasm_v128_load(p + 4), 0, 2, 4, 6);
  }
  static v128_t load_strided(const float* p, int64_t s) {
    return wasm_f32x4_make(p[0], p[s], p[2 * s], p[3 * s]);
  }
  // p[0], p[2], p[4], p[6] and p[1], p[3], p[5], p[7].
  static void load_pairs(const float* p, v128_t* even, v128_t* odd) {
    const v128_t a = wasm_v128_load(p), b = wasm_v128_load(p + 4);
    *even = wasm_i32x4_shuffle(a, b, 0, 2, 4, 6);
    *odd = wasm_i32x4_shuffle(a, b, 1, 3, 5, 7);
  }
};

template <>
struct Vec<double> {
  static constexpr int64_t kLanes = 2;
  static v128_t replaces(v128_t v, v128_t best) {
    return wasm_v128_or(wasm_f64x2_gt(v, best), wasm_f64x2_ne(v, v));
  }
  static v128_t load(const double* p) { return wasm_v128_load(p); }
  static v128_t lt(v128_t a, v128_t b) { return wasm_f64x2_lt(a, b); }
  static v128_t pmax(v128_t a, v128_t b) { return wasm_f64x2_pmax(a, b); }
  static v128_t add(v128_t a, v128_t b) { return wasm_f64x2_add(a, b); }
  static bool all_ordered(v128_t a) { return wasm_i64x2_all_true(wasm_f64x2_eq(a, a)); }
  static v128_t isplat(int64_t v) { return wasm_i64x2_splat(v); }
  static v128_t isub(v128_t a, v128_t b) { return wasm_i64x2_sub(a, b); }
  // p[0], p[2]; reads p[3] too.
  static v128_t load_s2(const double* p) {
    return wasm_i64x2_shuffle(wasm_v128_load(p), wasm_v128_load(p + 2), 0, 2);
  }
  static v128_t load_strided(const double* p, int64_t s) {
    return wasm_f64x2_make(p[0], p[s]);
  }
  static void load_pairs(const double* p, v128_t* even, v128_t* odd) {
    const v128_t a = wasm_v128_load(p), b = wasm_v128_load(p + 2);
    *even = wasm_i64x2_shuffle(a, b, 0, 2);
    *odd = wasm_i64x2_shuffle(a, b, 1, 3);
  }
};

// Index lanes matching the value lanes. Lane l of a group holds offset
// `base + l * stride`, where base is the offset of lane 0's tap. In interior
// columns every such offset is a valid input offset, so it fits I.
template <typename T, typename I>
struct Idx;

template <>
struct Idx<float, int32_t> {
  v128_t a, off;
  explicit Idx(int64_t s)
      : a(wasm_i32x4_splat(0)),
        off(wasm_i32x4_make(0, static_cast<int32_t>(s), static_cast<int32_t>(2 * s),
                            static_cast<int32_t>(3 * s))) {}
  v128_t at(int64_t base) const {
    return wasm_i32x4_add(wasm_i32x4_splat(static_cast<int32_t>(base)), off);
  }
  void set(int64_t base) { a = at(base); }
  void select(int64_t base, v128_t m) { a = wasm_v128_bitselect(at(base), a, m); }
  void store(int32_t* out) const { wasm_v128_store(out, a); }
};

// f32 masks are widened to two i64x2 halves (sign extension keeps them masks).
template <>
struct Idx<float, int64_t> {
  v128_t lo, hi, off_lo, off_hi;
  explicit Idx(int64_t s)
      : lo(wasm_i64x2_splat(0)), hi(lo), off_lo(wasm_i64x2_make(0, s)),
        off_hi(wasm_i64x2_make(2 * s, 3 * s)) {}
  void set(int64_t base) {
    const v128_t b = wasm_i64x2_splat(base);
    lo = wasm_i64x2_add(b, off_lo);
    hi = wasm_i64x2_add(b, off_hi);
  }
  void select(int64_t base, v128_t m) {
    const v128_t b = wasm_i64x2_splat(base);
    lo = wasm_v128_bitselect(wasm_i64x2_add(b, off_lo), lo, wasm_i64x2_extend_low_i32x4(m));
    hi = wasm_v128_bitselect(wasm_i64x2_add(b, off_hi), hi, wasm_i64x2_extend_high_i32x4(m));
  }
  void store(int64_t* out) const {
    wasm_v128_store(out, lo);
    wasm_v128_store(out + 2, hi);
  }
};

// f64: i64x2 offsets; int32 outputs take the low halves.
template <typename I>
struct Idx64 {
  v128_t a, off;
  explicit Idx64(int64_t s) : a(wasm_i64x2_splat(0)), off(wasm_i64x2_make(0, s)) {}
  v128_t at(int64_t base) const { return wasm_i64x2_add(wasm_i64x2_splat(base), off); }
  void set(int64_t base) { a = at(base); }
  void select(int64_t base, v128_t m) { a = wasm_v128_bitselect(at(base), a, m); }
  void store(int64_t* out) const { wasm_v128_store(out, a); }
  void store(int32_t* out) const {
    wasm_v128_store64_lane(out, wasm_i32x4_shuffle(a, a, 0, 2, 0, 2), 0);
  }
};
template <>
struct Idx<double, int32_t> : Idx64<int32_t> {
  using Idx64::Idx64;
};
template <>
struct Idx<double, int64_t> : Idx64<int64_t> {
  using Idx64::Idx64;
};

// Whole groups of interior columns from `begin` while they end by `end`, in
// output row 0 of `r`; returns the first column not done. `load(p)` gives the
// lanes' taps at p.
//
// The scalar kernel starts from -inf and the window's first position, which
// in the interior is tap first_row + w0. Taking that tap unconditionally
// gives the same bits: a -inf there keeps -inf and the index.
template <typename T, typename I, typename Load>
int64_t argmax_groups(const T* x, const ArgmaxRow& r, int64_t begin,
                      int64_t end, Load load, T* y, I* idx) {
  constexpr int64_t L = Vec<T>::kLanes;
  Idx<T, I> acc(r.stride);
  int64_t ow = begin;
  for (; ow + L <= end; ow += L) {
    const int64_t w0 = ow * r.stride - r.pad;
    v128_t best = load(x + r.first_row + w0);
    acc.set(r.first_row + w0);
    for (int64_t k = 0; k < r.nrows; ++k) {
      const int64_t o = r.first_row + r.rows[k];
      const T* row = x + o;
      for (int64_t j = k == 0 ? 1 : 0; j < r.kernel; ++j) {
        const int64_t w = w0 + j * r.dilation;
        const v128_t v = load(row + w);
        const v128_t m = Vec<T>::replaces(v, best);
        best = wasm_v128_bitselect(v, best, m);
        acc.select(o + w, m);
      }
    }
    wasm_v128_store(y + ow, best);
    acc.store(idx + ow);
  }
  return ow;
}

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
inline void pair_winner_ordered(const T* p, v128_t dist, v128_t* best, v128_t* neg,
                                v128_t* sum) {
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
// N = 2 (the 2d pool) hoists row 1's pointer and distance out of the loop;
// N = 0 takes any number of rows. N = 1 (the 1d pool) has no row loop: in
// the module clang does not unswitch N = 0's loop for it.
//
// All r.count output rows run in one call, each row decided ordered or not
// on its own, so the setup is paid once per run of rows, not per row.
//
// The tail group overlaps the last full one (the same bits written twice)
// rather than going scalar, which matters on small planes. The loop is
// restarted for it so that the group is compiled once.
template <int N, typename T, typename I>
__attribute__((noinline)) void argmax_groups_k2s2(const T* x, const ArgmaxRow& r,
                                                  int64_t begin, int64_t end, T* y, I* idx) {
  static_assert(sizeof(void*) == 4, "offsets in int32 lanes need a wasm32 memory");
  constexpr int64_t L = Vec<T>::kLanes;
  const int64_t* const rows = r.rows;
  const int64_t nrows = r.nrows, pad = r.pad, step = r.step, ow_n = r.out_width;
  const int64_t d1 = N == 2 ? rows[1] : 0;
  const v128_t zero = Vec<T>::isplat(0), dist1 = Vec<T>::isplat(d1);
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
      } else if (N == 0) {
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

// Stride 1, f32 values, int32 indices: the interior tap by tap (in the
// scalar kernel's order), each tap one pass over the row's groups with y and
// idx updated in place. Every splat is loop-invariant and each group costs
// one add for its indices, where argmax_groups pays a splat, an add and a
// bitselect per tap. Returns the first column not done.
inline int64_t argmax_taps_s1(const float* x, const ArgmaxRow& r, int64_t begin,
                              int64_t end, float* y, int32_t* idx) {
  const int64_t stop = begin + (end - begin) / 4 * 4;
  const v128_t step = wasm_i32x4_splat(4), lanes = wasm_i32x4_make(0, 1, 2, 3);
  for (int64_t k = 0; k < r.nrows; ++k) {
    const int64_t o = r.first_row + r.rows[k];
    const float* row = x + o;
    for (int64_t j = 0; j < r.kernel; ++j) {
      // Output ow reads column ow + shift: a valid offset, so it fits int32.
      const int64_t shift = j * r.dilation - r.pad;
      v128_t vi = wasm_i32x4_add(
          wasm_i32x4_splat(static_cast<int32_t>(o + shift + begin)), lanes);
      if (k == 0 && j == 0) {  // the scalar kernel's initial position
        for (int64_t ow = begin; ow < stop; ow += 4) {
          wasm_v128_store(y + ow, wasm_v128_load(row + ow + shift));
          wasm_v128_store(idx + ow, vi);
          vi = wasm_i32x4_add(vi, step);
        }
        continue;
      }
      for (int64_t ow = begin; ow < stop; ow += 4) {
        const v128_t v = wasm_v128_load(row + ow + shift), best = wasm_v128_load(y + ow);
        const v128_t m = Vec<float>::replaces(v, best);
        wasm_v128_store(y + ow, wasm_v128_bitselect(v, best, m));
        wasm_v128_store(idx + ow, wasm_v128_bitselect(vi, wasm_v128_load(idx + ow), m));
        vi = wasm_i32x4_add(vi, step);
      }
    }
  }
  return stop;
}

}  // namespace wasmsimd

// Any geometry: stride 1 plain loads, stride 2 two loads + shuffle, other
// strides lane by lane. Output rows one by one; rows without window rows
// or with fewer interior columns than a vector are all edge columns.
template <typename T, typename I>
void argmaxpool_row__wasmsimd(const T* x, const ArgmaxRow& r, T* y, I* idx) {
  using V = wasmsimd::Vec<T>;
  int64_t begin, end;
  interior_columns(r, r.stride == 2 ? 1 : 0, &begin, &end);
  for_each_row(r, y, idx, [x, begin, end](const ArgmaxRow& row, T* yt, I* it) {
    if (row.nrows == 0 || end - begin < V::kLanes) {
      argmaxpool_cols__scalar(x, row, 0, row.out_width, yt, it);
      return;
    }
    argmaxpool_cols__scalar(x, row, 0, begin, yt, it);
    int64_t done;
    if (row.stride == 1) {
      done = wasmsimd::argmax_groups(x, row, begin, end, [](const T* p) { return V::load(p); },
                                     yt, it);
    } else if (row.stride == 2) {
      done = wasmsimd::argmax_groups(x, row, begin, end,
                                     [](const T* p) { return V::load_s2(p); }, yt, it);
    } else {
      const int64_t s = row.stride;
      done = wasmsimd::argmax_groups(
          x, row, begin, end, [s](const T* p) { return V::load_strided(p, s); }, yt, it);
    }
    argmaxpool_cols__scalar(x, row, done, row.out_width, yt, it);
  });
}

// Stride 1 with f32 values and int32 indices (the guard): the interior tap
// by tap (wasmsimd::argmax_taps_s1). Output rows one by one.
template <typename T, typename I>
constexpr bool argmaxpool_row__wasmsimd_s1_applies(const ArgmaxRow& r) {
  return std::is_same<T, float>::value && std::is_same<I, int32_t>::value && r.stride == 1;
}
template <typename T, typename I>
void argmaxpool_row__wasmsimd_s1(const T* x, const ArgmaxRow& r, T* y, I* idx) {
  if constexpr (std::is_same<T, float>::value && std::is_same<I, int32_t>::value) {
    int64_t begin, end;
    interior_columns(r, 0, &begin, &end);
    for_each_row(r, y, idx, [x, begin, end](const ArgmaxRow& row, T* yt, I* it) {
      if (row.nrows == 0 || end - begin < 4) {
        argmaxpool_cols__scalar(x, row, 0, row.out_width, yt, it);
        return;
      }
      argmaxpool_cols__scalar(x, row, 0, begin, yt, it);
      const int64_t done = wasmsimd::argmax_taps_s1(x, row, begin, end, yt, it);
      argmaxpool_cols__scalar(x, row, done, row.out_width, yt, it);
    });
  } else {
    __builtin_trap();  // its guard rejects these types
  }
}

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
  } else {
    wasmsimd::argmax_groups_k2s2<0>(x, r, begin, end, y, idx);
  }
}

}  // namespace ukernels
}  // namespace unpool

#endif  // __wasm_simd128__
#endif  // UNPOOL_SRC_UKERNELS_ARGMAXPOOL_WASMSIMD_H_
