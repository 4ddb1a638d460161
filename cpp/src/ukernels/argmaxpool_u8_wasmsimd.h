// The WebAssembly SIMD kernel of the uint8 2x2 / stride 2 pool
// (argmaxpool_row_u8__wasmsimd_k2s2): 16 outputs a vector. int8 runs it on
// keys (pool_keys.h). Its scalar twin is argmaxpool_row__scalar_k2s2<uint8_t>.
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
// window rows (the 2d 2x2 pool), and at least 16 interior columns.
template <typename T, typename I>
constexpr bool argmaxpool_row_u8__wasmsimd_k2s2_applies(const ArgmaxRow& r) {
  return std::is_same<T, uint8_t>::value && std::is_same<I, int32_t>::value &&
         argmaxpool_row__scalar_k2s2_applies<T, I>(r) && r.out_width >= 16;
}

#ifdef __wasm_simd128__

namespace u8simd {

// Outputs ow .. ow + 15 of one output row: the window rows' even and odd
// columns, folded in the scalar kernel's tap order (row 0 col 0, row 0
// col 1, row 1 col 0, row 1 col 1) by "strictly greater", so the first
// maximum wins. `tap` keeps the winner's tap number (0..3) per lane: bit 0
// its column, bit 1 its row.
// `narrow`: every index of the call is below 2^16 - 1, so they are
// computed in 16-bit lanes (8 a vector) and zero-extended.
inline void group16(const uint8_t* row0, const uint8_t* row1, int64_t ow, int32_t off0,
                    int32_t row_step, bool narrow, uint8_t* y, int32_t* idx) {
  const int64_t w = 2 * ow;
  const v128_t a0 = wasm_v128_load(row0 + w), a1 = wasm_v128_load(row0 + w + 16);
  const v128_t b0 = wasm_v128_load(row1 + w), b1 = wasm_v128_load(row1 + w + 16);
  const v128_t t0 =
      wasm_i8x16_shuffle(a0, a1, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const v128_t t1 =
      wasm_i8x16_shuffle(a0, a1, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  const v128_t t2 =
      wasm_i8x16_shuffle(b0, b1, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const v128_t t3 =
      wasm_i8x16_shuffle(b0, b1, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  // Each row's pair first (the fold is associative: docs in
  // argmaxpool_wasmsimd_k2s2.h), then the two winners.
  const v128_t m01 = wasm_u8x16_gt(t1, t0);
  const v128_t best0 = wasm_u8x16_max(t0, t1);
  const v128_t m23 = wasm_u8x16_gt(t3, t2);
  const v128_t best1 = wasm_u8x16_max(t2, t3);
  const v128_t m = wasm_u8x16_gt(best1, best0);
  wasm_v128_store(y + ow, wasm_u8x16_max(best0, best1));
  // Column and row of the winning tap, as masks (all ones where 1): the
  // column from the winning row's pair, the row from m.
  const v128_t col = wasm_v128_bitselect(m23, m01, m);
  // index = off0 + 2 ow + 2 lane + column + row * row_step.
  if (narrow) {
    // Every index of the call fits 16 bits: 8 lanes a vector, then widened.
    const v128_t step = wasm_i16x8_splat(static_cast<int16_t>(row_step));
    v128_t base = wasm_i16x8_add(wasm_i16x8_splat(static_cast<int16_t>(off0 + w)),
                                 wasm_i16x8_make(0, 2, 4, 6, 8, 10, 12, 14));
    for (int k = 0; k < 2; ++k) {
      const v128_t c =
          k == 0 ? wasm_i16x8_extend_low_i8x16(col) : wasm_i16x8_extend_high_i8x16(col);
      const v128_t r = k == 0 ? wasm_i16x8_extend_low_i8x16(m) : wasm_i16x8_extend_high_i8x16(m);
      const v128_t v = wasm_i16x8_add(wasm_i16x8_sub(base, c), wasm_v128_and(r, step));
      wasm_v128_store(idx + ow + 8 * k, wasm_u32x4_extend_low_u16x8(v));
      wasm_v128_store(idx + ow + 8 * k + 4, wasm_u32x4_extend_high_u16x8(v));
      base = wasm_i16x8_add(base, wasm_i16x8_splat(16));
    }
    return;
  }
  const v128_t tap =
      wasm_v128_or(wasm_v128_and(col, wasm_i8x16_splat(1)), wasm_v128_and(m, wasm_i8x16_splat(2)));
  // Widen the taps to int32 lanes.
  const v128_t lo = wasm_u16x8_extend_low_u8x16(tap), hi = wasm_u16x8_extend_high_u8x16(tap);
  const v128_t q[4] = {wasm_u32x4_extend_low_u16x8(lo), wasm_u32x4_extend_high_u16x8(lo),
                       wasm_u32x4_extend_low_u16x8(hi), wasm_u32x4_extend_high_u16x8(hi)};
  const v128_t step = wasm_i32x4_splat(row_step);
  v128_t base =
      wasm_i32x4_add(wasm_i32x4_splat(off0 + static_cast<int32_t>(w)), wasm_i32x4_make(0, 2, 4, 6));
  for (int k = 0; k < 4; ++k) {
    const v128_t c = wasm_v128_and(q[k], wasm_i32x4_splat(1));
    const v128_t r = wasm_v128_and(wasm_i32x4_neg(wasm_u32x4_shr(q[k], 1)), step);
    wasm_v128_store(idx + ow + 4 * k, wasm_i32x4_add(wasm_i32x4_add(base, c), r));
    base = wasm_i32x4_add(base, wasm_i32x4_splat(8));
  }
}

}  // namespace u8simd

// The interior columns 16 at a time (the last group overlaps the one before
// when the count is not a multiple of 16: each column's result is its own,
// so writing it twice writes the same bits); the edges go to
// argmaxpool_cols__scalar.
template <typename T, typename I>
void argmaxpool_row_u8__wasmsimd_k2s2(const T* x, const ArgmaxRow& r, T* y, I* idx) {
  if constexpr (std::is_same<T, uint8_t>::value && std::is_same<I, int32_t>::value) {
    int64_t begin, end;
    interior_columns(r, 0, &begin, &end);
    for_each_row(r, y, idx, [x, begin, end](const ArgmaxRow& row, T* yt, I* it) {
      if (end - begin < 16) {
        argmaxpool_cols__scalar(x, row, 0, row.out_width, yt, it);
        return;
      }
      argmaxpool_cols__scalar(x, row, 0, begin, yt, it);
      const int64_t o0 = row.first_row + row.rows[0], o1 = row.first_row + row.rows[1];
      // Column 2 ow - pad of row k is x[o_k - pad + 2 ow].
      const uint8_t* row0 = x + o0 - row.pad;
      const uint8_t* row1 = x + o1 - row.pad;
      const int32_t off0 = static_cast<int32_t>(o0 - row.pad);
      const int32_t step = static_cast<int32_t>(o1 - o0);
      // The largest index of the row: its last window's last tap.
      const bool narrow = o1 - row.pad + 2 * end < 65535;
      for (int64_t ow = begin;; ow += 16) {
        if (ow > end - 16) ow = end - 16;
        u8simd::group16(row0, row1, ow, off0, step, narrow, yt, it);
        if (ow == end - 16) break;
      }
      argmaxpool_cols__scalar(x, row, end, row.out_width, yt, it);
    });
  } else {
    argmaxpool_row__scalar(x, r, y, idx);
  }
}

#endif  // __wasm_simd128__

}  // namespace ukernels
}  // namespace unpool

#endif  // UNPOOL_SRC_UKERNELS_ARGMAXPOOL_U8_WASMSIMD_H_
