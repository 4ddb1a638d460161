// The WebAssembly SIMD twins of the 16-bit argmax pool kernels of
// argmaxpool_half.h (the k2s2 one, any other window, and the channels-last
// one): the values compared as float32 in the top halves of int32 lanes,
// the rows or channels run as if they held no NaN and done again when a tap
// was NaN (by the scalar kernel; other windows' rows by
// wasmsimd::argmax_row_steps_nan), so the bits are the scalar kernels'.
#ifndef UNPOOL_SRC_UKERNELS_ARGMAXPOOL_HALF_WASMSIMD_H_
#define UNPOOL_SRC_UKERNELS_ARGMAXPOOL_HALF_WASMSIMD_H_

#ifdef __wasm_simd128__

#include <wasm_simd128.h>

#include <cstdint>
#include <type_traits>

#include "ukernels/argmaxpool.h"
#include "ukernels/argmaxpool_half.h"
#include "ukernels/argmaxpool_nhwc.h"
#include "ukernels/argmaxpool_wasmsimd_steps.h"
#include "ukernels/half.h"

namespace unpool {
namespace ukernels {

namespace half_simd {

using wasmsimd::take_growing;

// A 16-bit value's bits as the top half of a float32 order the values as
// they are (bfloat16: that float32 is the value; float16: its sign and
// magnitude land on float32's, and positive float32 bit patterns order as
// integers), with +-0 equal, for every value that is not NaN. A v128 of 8
// values holds 4 pairs (even, odd), one per int32 lane, the even value in
// the low half, so a shift gives the even values' floats and a mask the odd
// ones': no shuffle deinterleaves them.
inline v128_t even_as_f32(v128_t v) { return wasm_i32x4_shl(v, 16); }
inline v128_t odd_as_f32(v128_t v) { return wasm_v128_and(v, wasm_i32x4_splat(-65536)); }

// The 4 pairs of v128 `v` (one window row of 4 windows): the winner as a
// float32 (its bits in the top half) and minus its offset in the window
// (`dist`: the row's distance from the first row), as the f32 kernel's
// pair_winner_ordered.
inline void ordered_pairs(v128_t v, v128_t dist, v128_t* best, v128_t* neg) {
  const v128_t even = even_as_f32(v), odd = odd_as_f32(v);
  *best = wasm_f32x4_pmax(even, odd);
  *neg = wasm_i32x4_sub(wasm_f32x4_lt(even, odd), dist);
}
// A later window row's `neg` is at most the running one in every lane: row
// k's is -dk or -dk - 1, and ArgmaxRow's rows come in scan order, distinct
// input rows, so -dk <= -d(k-1) - 1. The select of the offsets is then
// min(neg, n & m): two instructions, where a bitselect is three on x64. The
// empty asm hides that m is a compare result, or clang turns n & m back into
// a bitselect with zero and the min is one instruction more.
inline void combine_ordered(v128_t* best, v128_t* neg, v128_t b, v128_t n) {
  v128_t m = wasm_f32x4_lt(*best, b);
  *best = wasm_f32x4_pmax(*best, b);
  UNPOOL_OPAQUE_V128(m);
  *neg = wasm_i32x4_min(*neg, wasm_v128_and(n, m));
}

// The offsets of 4 windows: `base` minus `neg` (minus each winner's offset
// in its window).
template <typename I>
inline void store_indices(v128_t base, v128_t neg, I* idx) {
  const v128_t a = wasm_i32x4_sub(base, neg);
  if constexpr (sizeof(I) == 4) {
    wasm_v128_store(idx, a);
  } else {
    wasm_v128_store(idx, wasm_i64x2_extend_low_i32x4(a));
    wasm_v128_store(idx + 2, wasm_i64x2_extend_high_i32x4(a));
  }
}

// The first taps' offsets of the 8 windows from `first` on (k2s2: 2 apart).
inline void window_starts(int64_t first, v128_t base[2]) {
  const int32_t f = static_cast<int32_t>(first);
  base[0] = wasm_i32x4_make(f, f + 2, f + 4, f + 6);
  base[1] = wasm_i32x4_add(base[0], wasm_i32x4_splat(8));
}

}  // namespace half_simd

// kernel 2, stride 2, dilation 1 along W (the guard below): the interior
// columns of all output rows of `r`, 8 per step (end - begin >= 8), each
// window row's 16 values two v128s of 4 pairs. The tail group overlaps the
// last full one (the same bits written twice).
//
// Each output row runs as if it held no NaN, the values compared as float32
// (half_simd::even_as_f32), as the f32 kernel's ordered pass does: each
// window row's pair is decided on its own and the pair winners folded, the
// same pick as folding the taps in order (the rule is associative). The
// largest magnitude seen is kept on the side; if it is a NaN's, the row is
// done again by the scalar kernel, overwriting it (rows with NaN are rare;
// a SIMD copy of the NaN rule made the module larger than it may be).
//
// kAnyRows = false takes one or two window rows (the 1d and 2d pools), with
// row 1's distance kept out of the loop; true any number (the 3d pool's
// four). One copy for both made the two-row loop slower: V8 allocated its
// registers differently.
//
// One copy serves both 16-bit types: it works on their bits (x, y), with
// the type's infinity's bits (`inf_bits`) for the NaN test and the redo.
template <bool kAnyRows, typename I>
__attribute__((noinline)) void argmax_groups_half_k2s2(const uint16_t* x, const ArgmaxRow& r,
                                                       int64_t begin, int64_t end,
                                                       uint16_t inf_bits, uint16_t* y, I* idx) {
  const int64_t pad = r.pad, ow_n = r.out_width, nrows = r.nrows;
  const bool two = nrows == 2;
  const int64_t d1 = two ? r.rows[1] : 0;
  const v128_t dist = wasm_i32x4_splat(static_cast<int32_t>(d1));
  const v128_t mag_mask = wasm_i16x8_splat(0x7fff);
  const v128_t inf = wasm_i16x8_splat(static_cast<int16_t>(inf_bits));
  for (int64_t t = 0; t < r.count; ++t) {
    const int64_t first = r.first_row + t * r.step;
    const uint16_t* const row0 = x + first;
    uint16_t* const yt = y + t * ow_n;
    I* const it = idx + t * ow_n;
    v128_t seen = wasm_i16x8_splat(0);  // the largest magnitude, unsigned
    // 8 output columns from ow on; base: their windows' first offsets.
    auto group = [&](int64_t ow, const v128_t base[2]) {
      const uint16_t* const p = row0 + 2 * ow - pad;
      const v128_t lo = wasm_v128_load(p), hi = wasm_v128_load(p + 8);
      seen = wasm_u16x8_max(
          seen, wasm_u16x8_max(wasm_v128_and(lo, mag_mask), wasm_v128_and(hi, mag_mask)));
      v128_t best_lo, neg_lo, best_hi, neg_hi;
      half_simd::ordered_pairs(lo, wasm_i32x4_splat(0), &best_lo, &neg_lo);
      half_simd::ordered_pairs(hi, wasm_i32x4_splat(0), &best_hi, &neg_hi);
      // A later window row, `dk` (splatted) from the first.
      auto fold_row = [&](int64_t dk, v128_t dist_k) {
        const v128_t lo_k = wasm_v128_load(p + dk), hi_k = wasm_v128_load(p + dk + 8);
        seen = wasm_u16x8_max(
            seen, wasm_u16x8_max(wasm_v128_and(lo_k, mag_mask), wasm_v128_and(hi_k, mag_mask)));
        v128_t b, n;
        half_simd::ordered_pairs(lo_k, dist_k, &b, &n);
        half_simd::combine_ordered(&best_lo, &neg_lo, b, n);
        half_simd::ordered_pairs(hi_k, dist_k, &b, &n);
        half_simd::combine_ordered(&best_hi, &neg_hi, b, n);
      };
      if constexpr (kAnyRows) {
        for (int64_t k = 1; k < nrows; ++k) {
          fold_row(r.rows[k], wasm_i32x4_splat(static_cast<int32_t>(r.rows[k])));
        }
      } else if (two) {
        fold_row(d1, dist);
      }
      // The winners' bits: the top halves.
      wasm_v128_store(yt + ow, wasm_i8x16_shuffle(best_lo, best_hi, 2, 3, 6, 7, 10, 11, 14, 15, 18,
                                                  19, 22, 23, 26, 27, 30, 31));
      half_simd::store_indices(base[0], neg_lo, it + ow);
      half_simd::store_indices(base[1], neg_hi, it + ow + 4);
    };
    v128_t base[2];
    half_simd::window_starts(first + 2 * begin - pad, base);
    int64_t ow = begin;
    for (;;) {
#pragma clang loop unroll(disable)
      for (; ow + 8 <= end; ow += 8) {
        group(ow, base);
        base[0] = wasm_i32x4_add(base[0], wasm_i32x4_splat(16));
        base[1] = wasm_i32x4_add(base[1], wasm_i32x4_splat(16));
      }
      if (ow == end) break;
      ow = end - 8;
      half_simd::window_starts(first + 2 * ow - pad, base);
    }
    if (!wasm_v128_any_true(wasm_u16x8_gt(seen, inf))) continue;
    ArgmaxRow row = r;
    row.count = 1;
    row.first_row = first;
    argmaxpool_cols_bits__scalar(x, row, begin, end, inf_bits, yt, it);
  }
}

// The guard: kernel 2, stride 2, dilation 1 along W, and every offset the
// run of rows reads fits the int32 lanes it computes them in. Runs with
// fewer interior columns than 8 go to the scalar kernel whole.
inline bool half_run_fits_int32(const ArgmaxRow& r) {
  const int64_t last =
      r.first_row + (r.nrows > 0 ? r.rows[r.nrows - 1] : 0) + (r.count - 1) * r.step + r.width;
  return last <= INT32_MAX;
}
template <typename T, typename I>
inline bool argmaxpool_row_half__wasmsimd_k2s2_applies(const ArgmaxRow& r) {
  return is_half_v<T> && r.kernel == 2 && r.stride == 2 && r.dilation == 1 &&
         half_run_fits_int32(r);
}
template <typename I>
__attribute__((noinline)) void argmaxpool_row_bits__wasmsimd_k2s2(const uint16_t* x,
                                                                  const ArgmaxRow& r, uint16_t inf,
                                                                  uint16_t* y, I* idx) {
  int64_t begin, end;
  interior_columns(r, 0, &begin, &end);
  if (r.nrows == 0 || end - begin < 8) {
    argmaxpool_row_bits__scalar(x, r, inf, y, idx);
    return;
  }
  if (begin > 0 || end < r.out_width) {
    for_each_row(r, y, idx, [x, begin, end, inf](const ArgmaxRow& row, uint16_t* yt, I* it) {
      argmaxpool_cols_bits__scalar(x, row, 0, begin, inf, yt, it);
      argmaxpool_cols_bits__scalar(x, row, end, row.out_width, inf, yt, it);
    });
  }
  if (r.nrows <= 2) {
    argmax_groups_half_k2s2<false>(x, r, begin, end, inf, y, idx);
  } else {
    argmax_groups_half_k2s2<true>(x, r, begin, end, inf, y, idx);
  }
}
template <typename H, typename I>
void argmaxpool_row_half__wasmsimd_k2s2(const H* x, const ArgmaxRow& r, H* y, I* idx) {
  argmaxpool_row_bits__wasmsimd_k2s2(half_bits(x), r, HalfTraits<H>::kInf, half_bits(y), idx);
}

namespace half_simd {

// The interior output columns [begin, end) (end - begin >= 8) of the one
// output row of `r` by wasmsimd::argmax_row_steps, on the 16-bit patterns
// at x as the top halves of float32 lanes (`inf`: the type's infinity's),
// one copy for both 16-bit types: stride 2 loads 8 values and takes the
// even ones (even_as_f32), stride 1 interleaves 8 with zeros, other
// strides load 4 lane by lane. False if a tap was NaN (the outputs are then
// to be written again).
__attribute__((noinline)) inline bool argmax_row_groups(const uint16_t* x, const ArgmaxRow& r,
                                                        int64_t begin, int64_t end, uint16_t inf,
                                                        uint16_t* y, int32_t* idx) {
  const int64_t s = r.stride;
  const uint32_t inf_lane = uint32_t{inf} << 16;
  const v128_t mag16 = wasm_i16x8_splat(0x7fff);
  if (s == 1) {
    // One load of 8 values, each into the top half of its lane by an
    // interleave with zeros, and one magnitude for the 8.
    return wasmsimd::argmax_row_steps(
        x, r, begin, end, inf_lane,
        [=](const uint16_t* q, v128_t* v0, v128_t* v1, v128_t* seen) {
          const v128_t raw = wasm_v128_load(q), zero = wasm_i32x4_splat(0);
          *v0 = wasm_i16x8_shuffle(zero, raw, 0, 8, 1, 9, 2, 10, 3, 11);
          *v1 = wasm_i16x8_shuffle(zero, raw, 4, 12, 5, 13, 6, 14, 7, 15);
          *seen = wasm_u16x8_max(*seen, wasm_v128_and(raw, mag16));
        },
        y, idx);
  }
  if (s == 2) {
    // The magnitudes of all 16 values read (the odd ones too: a NaN there
    // only costs a redo).
    return wasmsimd::argmax_row_steps(
        x, r, begin, end, inf_lane,
        [=](const uint16_t* q, v128_t* v0, v128_t* v1, v128_t* seen) {
          const v128_t a = wasm_v128_load(q), b = wasm_v128_load(q + 8);
          *v0 = even_as_f32(a);
          *v1 = even_as_f32(b);
          *seen = wasm_u16x8_max(*seen,
                                 wasm_u16x8_max(wasm_v128_and(a, mag16), wasm_v128_and(b, mag16)));
        },
        y, idx);
  }
  return wasmsimd::argmax_row_steps(
      x, r, begin, end, inf_lane,
      [=](const uint16_t* q, v128_t* v0, v128_t* v1, v128_t* seen) __attribute__((always_inline)) {
        *v0 = wasmsimd::load16_strided(q, s);
        *v1 = wasmsimd::load16_strided(q + 4 * s, s);
        *seen = wasm_u16x8_max(
            *seen, wasm_u16x8_max(wasm_v128_and(*v0, mag16), wasm_v128_and(*v1, mag16)));
      },
      y, idx);
}

// Rows of 4 to 7 interior columns [begin, end): argmax_row_groups' pass
// without NaN, 4 outputs a step (two, the second overlapping the first
// where there are more than 4), every stride by one copy (stride 1 and 2
// load whole vectors, stride 2 reading one value past the last lane's, as
// the interior columns allow). False if a tap was NaN.
__attribute__((noinline)) inline bool argmax_row_short(const uint16_t* x, const ArgmaxRow& r,
                                                       int64_t begin, int64_t end, uint16_t inf,
                                                       uint16_t* y, int32_t* idx) {
  const int64_t s = r.stride, dil = r.dilation;
  const v128_t neg_inf = wasm_i32x4_splat(static_cast<int32_t>(uint32_t{inf | 0x8000u} << 16));
  const v128_t dil_v = wasm_i32x4_splat(static_cast<int32_t>(dil));
  const v128_t lanes =
      wasm_i32x4_mul(wasm_i32x4_make(0, 1, 2, 3), wasm_i32x4_splat(static_cast<int32_t>(s)));
  v128_t seen = wasm_i32x4_splat(0);  // the largest magnitude's bits
  for (int64_t ow : {begin, end - 4}) {
    const int64_t w0 = r.first_row + ow * s - r.pad;
    v128_t best = neg_inf, at = wasm_i32x4_splat(0);
    for (int64_t k = 0; k < r.nrows; ++k) {
      const uint16_t* q = x + w0 + r.rows[k];
      v128_t tap = wasm_i32x4_splat(static_cast<int32_t>(r.rows[k]));
      for (int64_t j = 0; j < r.kernel; ++j, q += dil, tap = wasm_i32x4_add(tap, dil_v)) {
        const v128_t v = wasmsimd::load16_any(q, s);
        seen = wasm_u32x4_max(seen, wasm_v128_and(v, wasm_i32x4_splat(0x7fff0000)));
        take_growing(&best, &at, v, tap);
      }
    }
    const v128_t bits = wasm_u32x4_shr(best, 16);
    wasm_v128_store64_lane(y + ow, wasm_u16x8_narrow_i32x4(bits, bits), 0);
    wasm_v128_store(
        idx + ow,
        wasm_i32x4_add(wasm_i32x4_add(wasm_i32x4_splat(static_cast<int32_t>(w0)), lanes), at));
    if (end - begin == 4) break;
  }
  return !wasm_v128_any_true(
      wasm_u32x4_gt(seen, wasm_i32x4_splat(static_cast<int32_t>(uint32_t{inf} << 16))));
}

// Channels [0, cn) of one position (cn a multiple of 8), in blocks of
// kNhwcBlock, 8 a v128, on the 16-bit patterns at x (`inf`: the type's
// infinity's): one copy for both 16-bit types, one call per position. The
// even channels' values and the odd channels' are compared as float32 in
// their int32 lanes (even_as_f32), so
// `lt` and `pmax` keep the first maximum as the k2s2 kernel's pairs do. A
// replaced maximum takes the tap's offset as max(at, tap & m): the taps come
// in scan order, their offsets increasing from the window's first. As in the
// k2s2 kernel, the channels run as if they held no NaN, the largest
// magnitude kept on the side; the result is false if a tap was NaN (the
// outputs are then to be written again).
__attribute__((noinline)) inline bool argmaxpool_nhwc_vectors(const uint16_t* x,
                                                              const ArgmaxNhwc& p, int64_t cn,
                                                              uint16_t inf, uint16_t* y,
                                                              int32_t* idx) {
  constexpr int64_t kV = kNhwcBlock / 8;
  const uint16_t neg_inf = static_cast<uint16_t>(inf | 0x8000);
  const int64_t Hh = p.height, W = p.width, C = p.channels;
  const v128_t neg_inf_v = wasm_i32x4_splat(static_cast<int32_t>(uint32_t{neg_inf} << 16));
  const v128_t first =
      wasm_i32x4_splat(static_cast<int32_t>((p.start[0] * Hh + p.start[1]) * W + p.start[2]));
  const v128_t mag_mask = wasm_i16x8_splat(0x7fff);
  v128_t seen = wasm_i16x8_splat(0);  // the largest magnitude, unsigned
  for (int64_t c0 = 0; c0 < cn; c0 += kNhwcBlock) {
    const int64_t vn = (cn - c0 < kNhwcBlock ? cn - c0 : kNhwcBlock) / 8;
    v128_t best_e[kV], best_o[kV], at_e[kV], at_o[kV];
    for (int64_t v = 0; v < vn; ++v) {
      best_e[v] = best_o[v] = neg_inf_v;
      at_e[v] = at_o[v] = first;
    }
    const uint16_t* const xc = x + c0;
    for (int64_t d = p.start[0]; d < p.end[0]; d += p.dilation[0]) {
      for (int64_t h = p.start[1]; h < p.end[1]; h += p.dilation[1]) {
        for (int64_t w = p.start[2]; w < p.end[2]; w += p.dilation[2]) {
          const int64_t at = (d * Hh + h) * W + w;
          const uint16_t* const xp = xc + at * C;
          const v128_t tap = wasm_i32x4_splat(static_cast<int32_t>(at));
          for (int64_t v = 0; v < vn; ++v) {
            const v128_t xv = wasm_v128_load(xp + 8 * v);
            seen = wasm_u16x8_max(seen, wasm_v128_and(xv, mag_mask));
            take_growing(&best_e[v], &at_e[v], even_as_f32(xv), tap);
            take_growing(&best_o[v], &at_o[v], odd_as_f32(xv), tap);
          }
        }
      }
    }
    uint16_t* const yc = y + c0;
    int32_t* const it = idx + c0;
    for (int64_t v = 0; v < vn; ++v) {
      // Channel 2k's bits in the low half of lane k, channel 2k + 1's above.
      wasm_v128_store(yc + 8 * v, wasm_v128_or(wasm_u32x4_shr(best_e[v], 16), best_o[v]));
      wasm_v128_store(it + 8 * v, wasm_i32x4_shuffle(at_e[v], at_o[v], 0, 4, 1, 5));
      wasm_v128_store(it + 8 * v + 4, wasm_i32x4_shuffle(at_e[v], at_o[v], 2, 6, 3, 7));
    }
  }
  return !wasm_v128_any_true(wasm_u16x8_gt(seen, wasm_i16x8_splat(static_cast<int16_t>(inf))));
}

}  // namespace half_simd

// argmaxpool_nhwc_half__scalar's contract (the guard: int32 indices): the
// channels in whole v128s by half_simd::argmaxpool_nhwc_vectors (again by
// the scalar kernel when a tap was NaN), the rest by the scalar kernel.
template <typename T, typename I>
constexpr bool argmaxpool_nhwc_half__wasmsimd_applies(const ArgmaxNhwc&) {
  return is_half_v<T> && std::is_same<I, int32_t>::value;
}
__attribute__((noinline)) inline void argmaxpool_nhwc_bits__wasmsimd(const uint16_t* x,
                                                                     const ArgmaxNhwc& p,
                                                                     uint16_t inf, uint16_t* y,
                                                                     int32_t* idx) {
  const int64_t whole = p.channels / 8 * 8;
  if (whole > 0 && !half_simd::argmaxpool_nhwc_vectors(x, p, whole, inf, y, idx)) {
    argmaxpool_nhwc_bits_channels__scalar(x, p, whole, inf, y, idx);
  }
  if (p.channels > whole) {
    argmaxpool_nhwc_bits_channels__scalar(x + whole, p, p.channels - whole, inf, y + whole,
                                          idx + whole);
  }
}
template <typename H, typename I>
void argmaxpool_nhwc_half__wasmsimd(const H* x, const ArgmaxNhwc& p, H* y, I* idx) {
  if constexpr (std::is_same<I, int32_t>::value) {
    argmaxpool_nhwc_bits__wasmsimd(half_bits(x), p, HalfTraits<H>::kInf, half_bits(y), idx);
  } else {
    __builtin_trap();  // its guard rejects these types
  }
}

// Any window (the guard; int32 indices, every offset the run reads fitting
// its int32 lanes): each output row's interior columns, 8 a step, by
// half_simd::argmax_row_groups (again by wasmsimd::argmax_row_steps_nan
// when a tap was NaN), the rest by the scalar kernel.
template <typename T, typename I>
inline bool argmaxpool_row_half__wasmsimd_applies(const ArgmaxRow& r) {
  return is_half_v<T> && std::is_same<I, int32_t>::value && half_run_fits_int32(r);
}
__attribute__((noinline)) inline void argmaxpool_row_bits__wasmsimd(const uint16_t* x,
                                                                    const ArgmaxRow& r,
                                                                    uint16_t inf, uint16_t* y,
                                                                    int32_t* idx) {
  int64_t begin, end;
  interior_columns(r, r.stride == 2 ? 1 : 0, &begin, &end);
  for_each_row(r, y, idx, [x, begin, end, inf](const ArgmaxRow& row, uint16_t* yt, int32_t* it) {
    if (row.nrows == 0 || end - begin < 4) {
      argmaxpool_cols_bits__scalar(x, row, 0, row.out_width, inf, yt, it);
      return;
    }
    argmaxpool_cols_bits__scalar(x, row, 0, begin, inf, yt, it);
    const bool done = end - begin < 8
                          ? half_simd::argmax_row_short(x, row, begin, end, inf, yt, it)
                          : half_simd::argmax_row_groups(x, row, begin, end, inf, yt, it);
    if (!done) {
      wasmsimd::argmax_row_steps_nan(x, row, begin, end, uint32_t{inf} << 16, yt, it);
    }
    argmaxpool_cols_bits__scalar(x, row, end, row.out_width, inf, yt, it);
  });
}
template <typename H, typename I>
void argmaxpool_row_half__wasmsimd(const H* x, const ArgmaxRow& r, H* y, I* idx) {
  if constexpr (std::is_same<I, int32_t>::value) {
    argmaxpool_row_bits__wasmsimd(half_bits(x), r, HalfTraits<H>::kInf, half_bits(y), idx);
  } else {
    __builtin_trap();  // its guard rejects these types
  }
}

}  // namespace ukernels
}  // namespace unpool

#endif  // __wasm_simd128__
#endif  // UNPOOL_SRC_UKERNELS_ARGMAXPOOL_HALF_WASMSIMD_H_
