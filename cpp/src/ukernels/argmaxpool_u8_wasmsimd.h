// The WebAssembly SIMD kernel of the uint8 2x2 / stride 2 pool
// (argmaxpool_row_u8__wasmsimd_k2s2): 8 windows a vector, as 16-bit keys.
// int8 runs it on keys (pool_keys.h). Its scalar twin is
// argmaxpool_row__scalar_k2s2<uint8_t>.
#ifndef UNPOOL_SRC_UKERNELS_ARGMAXPOOL_U8_WASMSIMD_H_
#define UNPOOL_SRC_UKERNELS_ARGMAXPOOL_U8_WASMSIMD_H_

#include <cstdint>
#include <type_traits>

#include "ukernels/argmaxpool.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace unpool {
namespace ukernels {

// uint8 values, int32 indices, kernel 2, stride 2, dilation 1 along W, two
// window rows (the 2d 2x2 pool), and at least 8 interior columns.
template <typename T, typename I>
constexpr bool argmaxpool_row_u8__wasmsimd_k2s2_applies(const ArgmaxRow& r) {
  return std::is_same<T, uint8_t>::value && std::is_same<I, int32_t>::value &&
         argmaxpool_row__scalar_k2s2_applies<T, I>(r) && r.out_width >= 8;
}

#ifdef __wasm_simd128__

namespace u8simd {

// The winners of 8 windows (outputs ow .. ow + 7 of a row, p0 and p1 their
// window rows at column 2 ow) as 16-bit keys: value << 8 | (3 - tap), tap
// the window position (0: row 0 col 0, 1: row 0 col 1, 2: row 1 col 0, 3:
// row 1 col 1). The largest key is the largest value at its first tap,
// which is the scalar kernel's winner (the first maximum wins), whatever
// order the keys are folded in. A window row's 16 bytes are the 8 windows'
// column pairs, a pair a 16-bit lane with the even column in its low byte,
// so a key is a shift or an `and` and an `or` away, and the fold three
// u16x8.max: each one x64 instruction (where u8x16/u16x8.gt_u and the
// two-input shuffles that deinterleave bytes are several).
inline v128_t best_keys(const uint8_t* p0, const uint8_t* p1) {
  const v128_t a = wasm_v128_load(p0), b = wasm_v128_load(p1);
  const v128_t high = wasm_i16x8_splat(static_cast<int16_t>(0xff00));
  const v128_t k0 = wasm_v128_or(wasm_i16x8_shl(a, 8), wasm_i16x8_splat(3));
  const v128_t k1 = wasm_v128_or(wasm_v128_and(a, high), wasm_i16x8_splat(2));
  const v128_t k2 = wasm_v128_or(wasm_i16x8_shl(b, 8), wasm_i16x8_splat(1));
  const v128_t k3 = wasm_v128_and(b, high);
  return wasm_u16x8_max(wasm_u16x8_max(k0, k1), wasm_u16x8_max(k2, k3));
}

// The winning taps (0..3) in 16-bit lanes.
inline v128_t taps(v128_t key) { return wasm_v128_andnot(wasm_i16x8_splat(3), key); }

// Stores the int32 indices of 8 windows whose first taps are `first`:
// first + tap + (tap >> 1) * (step - 2), that is first + 0, 1, step or
// step + 1 (`step2` is step - 2, splatted). Narrow: every index of the rows
// is below 2^16 - 1, so they are computed in 16-bit lanes (`first` i16x8,
// `step2` an i16x8 splat) and zero-extended. Else in 32-bit lanes (`first`
// the first 4 windows' i32x4, `step2` an i32x4 splat).
template <bool kNarrow>
inline void store_indices(v128_t key, v128_t first, v128_t step2, int32_t* out) {
  const v128_t tap = taps(key);
  if (kNarrow) {
    const v128_t v =
        wasm_i16x8_add(first, wasm_i16x8_add(tap, wasm_i16x8_mul(wasm_u16x8_shr(tap, 1), step2)));
    wasm_v128_store(out, wasm_u32x4_extend_low_u16x8(v));
    wasm_v128_store(out + 4, wasm_u32x4_extend_high_u16x8(v));
  } else {
    v128_t f = first;
    for (int h = 0; h < 2; ++h) {
      const v128_t t =
          h == 0 ? wasm_u32x4_extend_low_u16x8(tap) : wasm_u32x4_extend_high_u16x8(tap);
      wasm_v128_store(out + 4 * h, wasm_i32x4_add(wasm_i32x4_add(f, t),
                                                  wasm_i32x4_mul(wasm_u32x4_shr(t, 1), step2)));
      f = wasm_i32x4_add(f, wasm_i32x4_splat(8));
    }
  }
}

// Interior columns [begin, end), end - begin >= 8, of every output row of
// `r`: 16 a step, then the rest 8 at a time, the last group overlapping the
// one before when fewer than 8 are left (each column's result is its own,
// so writing it twice writes the same bits). All r.count rows in one call,
// so that the constants and the setup are paid once per run of rows, not
// per row. Not inlined: one copy per index width.
template <bool kNarrow>
__attribute__((noinline)) void rows_k2s2(const uint8_t* x, const ArgmaxRow& r, int64_t begin,
                                         int64_t end, uint8_t* y, int32_t* idx) {
  // Column 2 ow - pad of window row k of output row t is x[f + rows[k] - pad
  // + 2 ow], f = first_row + t * step.
  const int64_t d0 = r.rows[0] - r.pad, d1 = r.rows[1] - r.pad;
  const int32_t step = static_cast<int32_t>(r.rows[1] - r.rows[0]);
  const v128_t step2 =
      kNarrow ? wasm_i16x8_splat(static_cast<int16_t>(step - 2)) : wasm_i32x4_splat(step - 2);
  // The first taps of 8 windows from the first one's.
  auto first = [](int64_t f) {
    return kNarrow ? wasm_i16x8_add(wasm_i16x8_splat(static_cast<int16_t>(f)),
                                    wasm_i16x8_make(0, 2, 4, 6, 8, 10, 12, 14))
                   : wasm_i32x4_add(wasm_i32x4_splat(static_cast<int32_t>(f)),
                                    wasm_i32x4_make(0, 2, 4, 6));
  };
  const v128_t sixteen = kNarrow ? wasm_i16x8_splat(16) : wasm_i32x4_splat(16);
  for (int64_t t = 0; t < r.count; ++t) {
    const int64_t f = r.first_row + t * r.step;
    const uint8_t* const row0 = x + f + d0;
    const uint8_t* const row1 = x + f + d1;
    uint8_t* const yt = y + t * r.out_width;
    int32_t* const it = idx + t * r.out_width;
    v128_t first0 = first(f + d0 + 2 * begin);
    int64_t ow = begin;
#pragma clang loop unroll(disable)
    for (; ow + 16 <= end; ow += 16) {
      const v128_t k0 = best_keys(row0 + 2 * ow, row1 + 2 * ow);
      const v128_t k1 = best_keys(row0 + 2 * ow + 16, row1 + 2 * ow + 16);
      wasm_v128_store(yt + ow,
                      wasm_u8x16_narrow_i16x8(wasm_u16x8_shr(k0, 8), wasm_u16x8_shr(k1, 8)));
      store_indices<kNarrow>(k0, first0, step2, it + ow);
      const v128_t first1 =
          kNarrow ? wasm_i16x8_add(first0, sixteen) : wasm_i32x4_add(first0, sixteen);
      store_indices<kNarrow>(k1, first1, step2, it + ow + 8);
      first0 = kNarrow ? wasm_i16x8_add(first1, sixteen) : wasm_i32x4_add(first1, sixteen);
    }
#pragma clang loop unroll(disable)
    for (; ow < end; ow += 8) {
      if (ow > end - 8) ow = end - 8;
      const v128_t k = best_keys(row0 + 2 * ow, row1 + 2 * ow);
      const v128_t v = wasm_u16x8_shr(k, 8);
      wasm_v128_store64_lane(yt + ow, wasm_u8x16_narrow_i16x8(v, v), 0);
      store_indices<kNarrow>(k, first(f + d0 + 2 * ow), step2, it + ow);
    }
  }
}

}  // namespace u8simd

// The interior columns of all output rows by u8simd::rows_k2s2; the edge
// columns, when there are any, row by row by argmaxpool_cols__scalar. An
// index is first tap + tap offset: where every index of the rows is below
// 2^16 - 1 (every plane of up to 65535 elements) they are computed in
// 16-bit lanes, else in 32-bit lanes.
template <typename T, typename I>
void argmaxpool_row_u8__wasmsimd_k2s2(const T* x, const ArgmaxRow& r, T* y, I* idx) {
  if constexpr (std::is_same<T, uint8_t>::value && std::is_same<I, int32_t>::value) {
    int64_t begin, end;
    interior_columns(r, 0, &begin, &end);
    if (end - begin < 8) {
      argmaxpool_row__scalar(x, r, y, idx);
      return;
    }
    if (begin > 0 || end < r.out_width) {
      for_each_row(r, y, idx, [x, begin, end](const ArgmaxRow& row, T* yt, I* it) {
        argmaxpool_cols__scalar(x, row, 0, begin, yt, it);
        argmaxpool_cols__scalar(x, row, end, row.out_width, yt, it);
      });
    }
    // The largest index: the last row's last window's last tap.
    if (r.first_row + (r.count - 1) * r.step + r.rows[1] - r.pad + 2 * end < 65535) {
      u8simd::rows_k2s2<true>(x, r, begin, end, y, idx);
    } else {
      u8simd::rows_k2s2<false>(x, r, begin, end, y, idx);
    }
  } else {
    argmaxpool_row__scalar(x, r, y, idx);
  }
}

#endif  // __wasm_simd128__

}  // namespace ukernels
}  // namespace unpool

#endif  // UNPOOL_SRC_UKERNELS_ARGMAXPOOL_U8_WASMSIMD_H_
