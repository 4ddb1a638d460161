// The WebAssembly SIMD row kernel that float32 and the 16-bit types share
// for every window but k2s2's: the interior output columns of one output
// row, 8 a step in two v128s of 4, each tap's loop (its pointer and its
// offset in the window) serving both. The values are compared as float32
// lanes: float32 as they are, 16-bit values as the top halves of their
// lanes (argmaxpool_half_wasmsimd.h), which order as the values do.
//
// The row runs as if it held no NaN: `lt` and `pmax` keep the first maximum
// (ties and +-0 keep the running one), and whether a tap was NaN is kept on
// the side; the caller has the row done again under the whole rule
// (argmax_row_steps_nan, slower) if one was. A replaced maximum takes the
// tap's offset in the window as max(at, tap & m) (taps come in scan order,
// their offsets growing), and the windows' first offsets are added once a
// step.
#ifndef UNPOOL_SRC_UKERNELS_ARGMAXPOOL_WASMSIMD_STEPS_H_
#define UNPOOL_SRC_UKERNELS_ARGMAXPOOL_WASMSIMD_STEPS_H_

#ifdef __wasm_simd128__

#include <wasm_simd128.h>

#include <cstdint>
#include <type_traits>

#include "ukernels/argmaxpool.h"
#include "ukernels/argmaxpool_wasmsimd_lanes.h"

namespace unpool {
namespace ukernels {
namespace wasmsimd {

// An empty asm on v128 `v`: the compiler no longer knows how `v` was made.
// (Natively, where bench/native/simde.sh builds these kernels through SIMDe,
// a v128 lives in an SSE register: "x".)
#ifdef __wasm__
#define UNPOOL_OPAQUE_V128(v) __asm__("" : "+r"(v))
#else
#define UNPOOL_OPAQUE_V128(v) __asm__("" : "+x"(v))
#endif

// One tap `v` (float32 lanes) of 4 running maxima `best` at offsets `at`,
// for taps whose offsets `tap` only grow: a greater tap replaces (the first
// maximum stays), and its offset is max(at, tap & m). The select of the
// offsets is then two instructions, where a bitselect is three on x64; the
// empty asm hides that m is a compare result, or clang turns tap & m back
// into a bitselect with zero and the max is one instruction more.
inline void take_growing(v128_t* best, v128_t* at, v128_t v, v128_t tap) {
  v128_t m = wasm_f32x4_lt(*best, v);
  *best = wasm_f32x4_pmax(*best, v);
  UNPOOL_OPAQUE_V128(m);
  *at = wasm_i32x4_max(*at, wasm_v128_and(tap, m));
}

// 16-bit values q[0], q[s], q[2 s], q[3 s] as the top halves of int32 lanes
// (float32 lanes that order as the values do), lane by lane.
inline v128_t load16_strided(const uint16_t* q, int64_t s) {
  v128_t v = wasm_v128_load16_lane(q, wasm_i32x4_splat(0), 1);
  v = wasm_v128_load16_lane(q + s, v, 3);
  v = wasm_v128_load16_lane(q + 2 * s, v, 5);
  return wasm_v128_load16_lane(q + 3 * s, v, 7);
}
// The same for any stride, in one copy: stride 1 and 2 load whole vectors
// (stride 2 reads q[7] too, as the interior columns allow), a branch the
// predictor learns.
inline v128_t load16_any(const uint16_t* q, int64_t s) {
  if (s == 1) return wasm_i32x4_shl(wasm_u32x4_load16x4(q), 16);
  if (s == 2) return wasm_i32x4_shl(wasm_v128_load(q), 16);
  return load16_strided(q, s);
}

// The interior output columns [begin, end) (end - begin >= 8) of the one
// output row of `r`; the tail step overlaps the last full one (the same
// bits written twice). T: float, or uint16_t for 16-bit bits. `load(q, &v0,
// &v1, &seen)` gives the float32 lanes of the 8 windows' taps at q (q +
// stride for the next window; v1 the last 4); for 16-bit values it also
// keeps the largest magnitude of what it read in `seen`'s 16-bit lanes
// (float32's NaN test is the kernel's). `inf`: +inf's bits in a lane (a
// larger magnitude is NaN). Returns false if a tap was NaN: the outputs are
// then to be written again (argmax_row_steps_nan).
template <typename T, typename Load>
__attribute__((always_inline)) inline bool argmax_row_steps(const T* x, const ArgmaxRow& r,
                                                            int64_t begin, int64_t end,
                                                            uint32_t inf, Load load, T* y,
                                                            int32_t* idx) {
  static_assert(std::is_same<T, float>::value || std::is_same<T, uint16_t>::value,
                "float32 lanes: float, or 16-bit bits in their top halves");
  constexpr bool kF32 = std::is_same<T, float>::value;
  const int64_t s = r.stride, dil = r.dilation, kernel = r.kernel, nrows = r.nrows;
  const v128_t neg_inf = wasm_i32x4_splat(static_cast<int32_t>(inf | 0x80000000u));
  const v128_t dil_v = wasm_i32x4_splat(static_cast<int32_t>(dil));
  const v128_t lanes =
      wasm_i32x4_mul(wasm_i32x4_make(0, 1, 2, 3), wasm_i32x4_splat(static_cast<int32_t>(s)));
  const v128_t half_step = wasm_i32x4_splat(static_cast<int32_t>(4 * s));
  // Whether a tap was NaN. float32: sums of the taps, NaN if one was (or
  // if +inf met -inf: that row is done again for nothing), one add a
  // vector; two, so that each tap waits for one add. 16-bit values, whose
  // NaN are finite float32: the largest magnitude (`load` keeps it).
  v128_t seen = wasm_i32x4_splat(0), seen1 = seen;
  int64_t ow = begin;
  for (;;) {
    for (; ow + 8 <= end; ow += 8) {
      const int64_t w0 = r.first_row + ow * s - r.pad;
      const T* const p = x + w0;
      v128_t best0 = neg_inf, best1 = neg_inf;
      v128_t at0 = wasm_i32x4_splat(0), at1 = at0;
      for (int64_t k = 0; k < nrows; ++k) {
        const T* q = p + r.rows[k];
        v128_t tap = wasm_i32x4_splat(static_cast<int32_t>(r.rows[k]));
        for (int64_t j = 0; j < kernel; ++j, q += dil, tap = wasm_i32x4_add(tap, dil_v)) {
          v128_t v0, v1;
          load(q, &v0, &v1, &seen);
          if constexpr (kF32) {
            seen = wasm_f32x4_add(seen, v0);
            seen1 = wasm_f32x4_add(seen1, v1);
          }
          take_growing(&best0, &at0, v0, tap);
          take_growing(&best1, &at1, v1, tap);
        }
      }
      if constexpr (kF32) {
        wasm_v128_store(y + ow, best0);
        wasm_v128_store(y + ow + 4, best1);
      } else {
        wasm_v128_store(
            y + ow, wasm_u16x8_narrow_i32x4(wasm_u32x4_shr(best0, 16), wasm_u32x4_shr(best1, 16)));
      }
      // The windows' first offsets: valid offsets, so they fit int32.
      const v128_t base = wasm_i32x4_add(wasm_i32x4_splat(static_cast<int32_t>(w0)), lanes);
      wasm_v128_store(idx + ow, wasm_i32x4_add(base, at0));
      wasm_v128_store(idx + ow + 4, wasm_i32x4_add(wasm_i32x4_add(base, half_step), at1));
    }
    if (ow == end) break;
    ow = end - 8;
  }
  if constexpr (kF32) {
    return wasm_i32x4_all_true(
        wasm_v128_and(wasm_f32x4_eq(seen, seen), wasm_f32x4_eq(seen1, seen1)));
  } else {
    return !wasm_v128_any_true(
        wasm_u16x8_gt(seen, wasm_i16x8_splat(static_cast<int16_t>(inf >> 16))));
  }
}

// The same columns (end - begin >= 4) under the whole PyTorch rule, for a
// row where argmax_row_steps met a NaN or one too short for it (4 to 7
// interior columns): a tap replaces when greater or NaN (a NaN maximum only
// by a later NaN: lt is false against it), so the last NaN wins. 4 outputs
// a step, one copy per type, the tail overlapped. 16-bit lanes whose
// magnitude is above `inf` are made float32 NaN, so they compare as
// PyTorch's float32 rule does; their bits are then the input's at each
// offset.
template <typename T>
__attribute__((noinline)) void argmax_row_steps_nan(const T* x, const ArgmaxRow& r, int64_t begin,
                                                    int64_t end, uint32_t inf, T* y, int32_t* idx) {
  constexpr bool kF32 = std::is_same<T, float>::value;
  const int64_t s = r.stride, dil = r.dilation, kernel = r.kernel, nrows = r.nrows;
  const v128_t neg_inf = wasm_i32x4_splat(static_cast<int32_t>(inf | 0x80000000u));
  const v128_t mag_mask = wasm_i32x4_splat(0x7fffffff), inf_v = wasm_i32x4_splat(inf);
  const v128_t qnan = wasm_i32x4_splat(0x7fc00000);
  const v128_t dil_v = wasm_i32x4_splat(static_cast<int32_t>(dil));
  const v128_t lanes =
      wasm_i32x4_mul(wasm_i32x4_make(0, 1, 2, 3), wasm_i32x4_splat(static_cast<int32_t>(s)));
  // Stride 1 and 2 load whole vectors, other strides lane by lane: a
  // branch the predictor learns, not three copies.
  auto load = [=](const T* q) {
    if constexpr (kF32) {
      if (s == 1) return Vec<float>::load(q);
      if (s == 2) return Vec<float>::load_s2(q);
      return Vec<float>::load_strided(q, s);
    } else {
      const v128_t v = load16_any(q, s);
      return wasm_v128_or(v, wasm_v128_and(wasm_u32x4_gt(wasm_v128_and(v, mag_mask), inf_v), qnan));
    }
  };
  int64_t ow = begin;
  for (;;) {
    for (; ow + 4 <= end; ow += 4) {
      const int64_t w0 = r.first_row + ow * s - r.pad;
      v128_t best = neg_inf, at = wasm_i32x4_splat(0);
      for (int64_t k = 0; k < nrows; ++k) {
        const T* q = x + w0 + r.rows[k];
        v128_t tap = wasm_i32x4_splat(static_cast<int32_t>(r.rows[k]));
        for (int64_t j = 0; j < kernel; ++j, q += dil, tap = wasm_i32x4_add(tap, dil_v)) {
          const v128_t v = load(q);
          v128_t m = wasm_v128_or(wasm_f32x4_lt(best, v), wasm_f32x4_ne(v, v));
          best = wasm_v128_bitselect(v, best, m);
          UNPOOL_OPAQUE_V128(m);
          at = wasm_i32x4_max(at, wasm_v128_and(tap, m));
        }
      }
      const v128_t offsets =
          wasm_i32x4_add(wasm_i32x4_add(wasm_i32x4_splat(static_cast<int32_t>(w0)), lanes), at);
      wasm_v128_store(idx + ow, offsets);
      if constexpr (kF32) {
        wasm_v128_store(y + ow, best);
      } else {
        for (int64_t l = 0; l < 4; ++l) y[ow + l] = x[idx[ow + l]];
      }
    }
    if (ow == end) break;
    ow = end - 4;
  }
}

}  // namespace wasmsimd
}  // namespace ukernels
}  // namespace unpool

#endif  // __wasm_simd128__
#endif  // UNPOOL_SRC_UKERNELS_ARGMAXPOOL_WASMSIMD_STEPS_H_
