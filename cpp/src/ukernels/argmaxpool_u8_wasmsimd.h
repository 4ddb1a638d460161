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
// window rows at column 2 ow) as 16-bit keys: value << 8 | code(tap), tap
// the window position (0: row 0 col 0, 1: row 0 col 1, 2: row 1 col 0, 3:
// row 1 col 1) and the codes decreasing with it: c0 > c1 > 1 > 0 (`c0`,
// `c1` splatted). The largest key is the largest value at its first tap,
// which is the scalar kernel's winner (the first maximum wins), whatever
// order the keys are folded in. A window row's 16 bytes are the 8 windows'
// column pairs, a pair a 16-bit lane with the even column in its low byte,
// so a key is a shift or an `and` and an `or` away, and the fold three
// u16x8.max: each one x64 instruction (where u8x16/u16x8.gt_u and the
// two-input shuffles that deinterleave bytes are several).
inline v128_t best_keys(const uint8_t* p0, const uint8_t* p1, v128_t c0, v128_t c1) {
  const v128_t a = wasm_v128_load(p0), b = wasm_v128_load(p1);
  const v128_t high = wasm_i16x8_splat(static_cast<int16_t>(0xff00));
  const v128_t k0 = wasm_v128_or(wasm_i16x8_shl(a, 8), c0);
  const v128_t k1 = wasm_v128_or(wasm_v128_and(a, high), c1);
  const v128_t k2 = wasm_v128_or(wasm_i16x8_shl(b, 8), wasm_i16x8_splat(1));
  const v128_t k3 = wasm_v128_and(b, high);
  return wasm_u16x8_max(wasm_u16x8_max(k0, k1), wasm_u16x8_max(k2, k3));
}

// How a run's indices are made from its keys.
enum class IndexForm {
  // Codes c0 = step + 1, c1 = step (1 and 0 for taps 2 and 3), that is
  // code = step + 1 - offset, the tap's offset from the window's first tap
  // (0, 1, step, step + 1): the index is (first + step + 1) - (key & 0xff),
  // in 16-bit lanes. Needs step <= 254 (the codes are a byte; step >= 16,
  // a row of 8 outputs, keeps them decreasing) and every index of the run
  // below 2^16 - 1.
  kCoded,
  // Codes 3, 2 (3 - tap); first + tap + (tap >> 1) * (step - 2) in 16-bit
  // lanes: every index of the run below 2^16 - 1.
  kNarrow,
  // As kNarrow, in 32-bit lanes.
  kWide,
};

// Stores the int32 indices of 8 windows. kCoded: `first` holds their first
// taps + step + 1 (i16x8). kNarrow: their first taps (i16x8), `step2` step
// - 2 splatted (i16x8). kWide: the first 4 windows' first taps (i32x4),
// `step2` an i32x4 splat.
template <IndexForm kForm>
inline void store_indices(v128_t key, v128_t first, v128_t step2, int32_t* out) {
  if (kForm == IndexForm::kCoded) {
    const v128_t v = wasm_i16x8_sub(first, wasm_v128_and(key, wasm_i16x8_splat(0xff)));
    wasm_v128_store(out, wasm_u32x4_extend_low_u16x8(v));
    wasm_v128_store(out + 4, wasm_u32x4_extend_high_u16x8(v));
    return;
  }
  const v128_t tap = wasm_v128_andnot(wasm_i16x8_splat(3), key);
  if (kForm == IndexForm::kNarrow) {
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
// per row. Not inlined: one copy per index form.
template <IndexForm kForm>
__attribute__((noinline)) void rows_k2s2(const uint8_t* x, const ArgmaxRow& r, int64_t begin,
                                         int64_t end, uint8_t* y, int32_t* idx) {
  constexpr bool kWide = kForm == IndexForm::kWide;
  constexpr bool kCoded = kForm == IndexForm::kCoded;
  // Column 2 ow - pad of window row k of output row t is x[f + rows[k] - pad
  // + 2 ow], f = first_row + t * r.step (step, below, is rows[1] - rows[0]).
  const int64_t d0 = r.rows[0] - r.pad, d1 = r.rows[1] - r.pad;
  const int32_t step = static_cast<int32_t>(r.rows[1] - r.rows[0]);
  const v128_t c0 = wasm_i16x8_splat(static_cast<int16_t>(kCoded ? step + 1 : 3));
  const v128_t c1 = wasm_i16x8_splat(static_cast<int16_t>(kCoded ? step : 2));
  const v128_t step2 =
      kWide ? wasm_i32x4_splat(step - 2) : wasm_i16x8_splat(static_cast<int16_t>(step - 2));
  // The first taps of 8 windows from the first one's (+ step + 1: kCoded).
  const int64_t bias = kCoded ? step + 1 : 0;
  auto first = [bias](int64_t f) {
    return kWide ? wasm_i32x4_add(wasm_i32x4_splat(static_cast<int32_t>(f)),
                                  wasm_i32x4_make(0, 2, 4, 6))
                 : wasm_i16x8_add(wasm_i16x8_splat(static_cast<int16_t>(f + bias)),
                                  wasm_i16x8_make(0, 2, 4, 6, 8, 10, 12, 14));
  };
  const v128_t sixteen = kWide ? wasm_i32x4_splat(16) : wasm_i16x8_splat(16);
  // The fields as locals, the pointers moved from row to row: the byte
  // stores may alias `r`, so its fields would be loaded again at each row.
  const int64_t count = r.count, n = end - begin, out_width = r.out_width, row_step = r.step;
  const v128_t first_step = kWide ? wasm_i32x4_splat(static_cast<int32_t>(row_step))
                                  : wasm_i16x8_splat(static_cast<int16_t>(row_step));
  const uint8_t* row0 = x + r.first_row + d0 + 2 * begin;
  const uint8_t* row1 = x + r.first_row + d1 + 2 * begin;
  uint8_t* yt = y + begin;
  int32_t* it = idx + begin;
  v128_t first_row = first(r.first_row + d0 + 2 * begin);
  for (int64_t t = 0; t < count; ++t) {
    v128_t first0 = first_row;
    int64_t o = 0;
#pragma clang loop unroll(disable)
    for (; o + 16 <= n; o += 16) {
      const v128_t k0 = best_keys(row0 + 2 * o, row1 + 2 * o, c0, c1);
      const v128_t k1 = best_keys(row0 + 2 * o + 16, row1 + 2 * o + 16, c0, c1);
      wasm_v128_store(yt + o,
                      wasm_u8x16_narrow_i16x8(wasm_u16x8_shr(k0, 8), wasm_u16x8_shr(k1, 8)));
      store_indices<kForm>(k0, first0, step2, it + o);
      const v128_t first1 =
          kWide ? wasm_i32x4_add(first0, sixteen) : wasm_i16x8_add(first0, sixteen);
      store_indices<kForm>(k1, first1, step2, it + o + 8);
      first0 = kWide ? wasm_i32x4_add(first1, sixteen) : wasm_i16x8_add(first1, sixteen);
    }
#pragma clang loop unroll(disable)
    for (; o < n; o += 8) {
      if (o > n - 8) o = n - 8;
      const v128_t k = best_keys(row0 + 2 * o, row1 + 2 * o, c0, c1);
      const v128_t v = wasm_u16x8_shr(k, 8);
      wasm_v128_store64_lane(yt + o, wasm_u8x16_narrow_i16x8(v, v), 0);
      const v128_t fo =
          kWide ? wasm_i32x4_add(first_row, wasm_i32x4_splat(static_cast<int32_t>(2 * o)))
                : wasm_i16x8_add(first_row, wasm_i16x8_splat(static_cast<int16_t>(2 * o)));
      store_indices<kForm>(k, fo, step2, it + o);
    }
    row0 += row_step;
    row1 += row_step;
    yt += out_width;
    it += out_width;
    first_row =
        kWide ? wasm_i32x4_add(first_row, first_step) : wasm_i16x8_add(first_row, first_step);
  }
}

}  // namespace u8simd

// The interior columns of all output rows by u8simd::rows_k2s2; the edge
// columns, when there are any, row by row by argmaxpool_cols__scalar. An
// index is first tap + tap offset: where every index of the rows is below
// 2^16 - 1 (every plane of up to 65535 elements) they are computed in
// 16-bit lanes, from the key's code alone when the window rows are at most
// 254 apart (IndexForm), else in 32-bit lanes.
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
    using u8simd::IndexForm;
    if (r.first_row + (r.count - 1) * r.step + r.rows[1] - r.pad + 2 * end >= 65535) {
      u8simd::rows_k2s2<IndexForm::kWide>(x, r, begin, end, y, idx);
    } else if (r.rows[1] - r.rows[0] <= 254) {
      u8simd::rows_k2s2<IndexForm::kCoded>(x, r, begin, end, y, idx);
    } else {
      u8simd::rows_k2s2<IndexForm::kNarrow>(x, r, begin, end, y, idx);
    }
  } else {
    argmaxpool_row__scalar(x, r, y, idx);
  }
}

#endif  // __wasm_simd128__

}  // namespace ukernels
}  // namespace unpool

#endif  // UNPOOL_SRC_UKERNELS_ARGMAXPOOL_U8_WASMSIMD_H_
