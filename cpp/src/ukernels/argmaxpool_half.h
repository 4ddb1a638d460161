// Argmax pool and scatter-add microkernels for 16-bit values (Float16,
// BFloat16): the same contracts as argmaxpool.h, argmaxpool_windows.h and
// scatter.h, computed on bit patterns.
//
// Comparison as PyTorch's float32 one: a tap replaces the running maximum
// when its key is greater or it is NaN. The running key of a NaN maximum is
// kNaNKey, above every other key, so only a later NaN replaces it.
#ifndef UNPOOL_SRC_UKERNELS_ARGMAXPOOL_HALF_H_
#define UNPOOL_SRC_UKERNELS_ARGMAXPOOL_HALF_H_

#include <cstdint>

#include "ukernels/argmaxpool.h"
#include "ukernels/argmaxpool_nhwc.h"
#include "ukernels/argmaxpool_windows.h"
#include "ukernels/half.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace unpool {
namespace ukernels {

constexpr int32_t kNaNKey = 0x7fff;

// The running maximum of one window.
template <typename H, typename I>
struct HalfMax {
  int32_t key = -static_cast<int32_t>(HalfTraits<H>::kInf);
  uint16_t bits = HalfTraits<H>::kNegInf;
  I at;

  explicit HalfMax(I first) : at(first) {}
  // Branch-free (masks, not selects): compilers turn the selects into
  // branches, which random data mispredicts.
  void take(uint16_t v, I i) {
    const int32_t mag = v & 0x7fff;
    const int32_t neg = -static_cast<int32_t>(v >> 15);  // 0 or -1
    const int32_t nan = -static_cast<int32_t>(mag > HalfTraits<H>::kInf);
    const int32_t k = (((mag ^ neg) - neg) & ~nan) | (kNaNKey & nan);
    const int32_t t = -static_cast<int32_t>(k > key) | nan;  // all ones: take
    key = (k & t) | (key & ~t);
    bits = static_cast<uint16_t>((v & t) | (bits & ~t));
    at = static_cast<I>((static_cast<I>(i) & static_cast<I>(t)) | (at & ~static_cast<I>(t)));
  }
};

// argmaxpool_cols__scalar for 16-bit values.
template <typename H, typename I>
__attribute__((noinline)) void argmaxpool_cols_half__scalar(const H* x, const ArgmaxRow& r,
                                                            int64_t ow_begin, int64_t ow_end, H* y,
                                                            I* idx) {
  for (int64_t ow = ow_begin; ow < ow_end; ++ow) {
    int64_t w0 = ow * r.stride - r.pad;
    int64_t w1 = w0 + (r.kernel - 1) * r.dilation + 1;
    if (w1 > r.width) w1 = r.width;
    if (w0 < 0) w0 += ((-w0 + r.dilation - 1) / r.dilation) * r.dilation;
    HalfMax<H, I> m(static_cast<I>(r.first_row + w0));
    for (int64_t k = 0; k < r.nrows; ++k) {
      const int64_t o = r.first_row + r.rows[k];
      for (int64_t w = w0; w < w1; w += r.dilation) m.take(x[o + w].bits, static_cast<I>(o + w));
    }
    y[ow].bits = m.bits;
    idx[ow] = m.at;
  }
}

// Any geometry.
template <typename H, typename I>
void argmaxpool_row_half__scalar(const H* x, const ArgmaxRow& r, H* y, I* idx) {
  for_each_row(r, y, idx, [x](const ArgmaxRow& row, H* yt, I* it) {
    argmaxpool_cols_half__scalar(x, row, 0, row.out_width, yt, it);
  });
}

// Adaptive and fractional windows (argmaxpool_windows__scalar's contract).
template <typename H, typename I>
void argmaxpool_windows_half__scalar(const H* x, const ArgmaxWindows& a, H* y, I* idx) {
  const int64_t H_ = a.in_h, W = a.in_w;
  for (int64_t od = 0; od < a.d.out; ++od) {
    for (int64_t oh = 0; oh < a.h.out; ++oh) {
      for (int64_t ow = 0; ow < a.w.out; ++ow) {
        const int64_t w0 = a.w.start[ow], w1 = a.w.end[ow];
        HalfMax<H, I> m(static_cast<I>((a.d.start[od] * H_ + a.h.start[oh]) * W + w0));
        for (int64_t d = a.d.start[od]; d < a.d.end[od]; ++d) {
          for (int64_t h = a.h.start[oh]; h < a.h.end[oh]; ++h) {
            const int64_t row = (d * H_ + h) * W;
            for (int64_t w = w0; w < w1; ++w) m.take(x[row + w].bits, static_cast<I>(row + w));
          }
        }
        (y++)->bits = m.bits;
        *idx++ = m.at;
      }
    }
  }
}

// argmaxpool_windows_half__scalar with the windows kernels' signature (it
// needs no scratch).
template <typename H, typename I>
void argmaxpool_windows_half__scalar_s(const H* x, const ArgmaxWindows& a, const WindowScratch<H>&,
                                       H* y, I* idx) {
  argmaxpool_windows_half__scalar<H, I>(x, a, y, idx);
}

// argmaxpool_nhwc__scalar's contract for 16-bit values: one output
// position, every channel, taps in (d, h, w) order per channel.
template <typename H, typename I>
__attribute__((noinline)) void argmaxpool_nhwc_half__scalar(const H* x, const ArgmaxNhwc& p, H* y,
                                                            I* idx) {
  const int64_t Hh = p.height, W = p.width, C = p.channels;
  const I first = static_cast<I>((p.start[0] * Hh + p.start[1]) * W + p.start[2]);
  for (int64_t c = 0; c < C; ++c) {
    HalfMax<H, I> m(first);
    for (int64_t d = p.start[0]; d < p.end[0]; d += p.dilation[0]) {
      for (int64_t h = p.start[1]; h < p.end[1]; h += p.dilation[1]) {
        for (int64_t w = p.start[2]; w < p.end[2]; w += p.dilation[2]) {
          const int64_t at = (d * Hh + h) * W + w;
          m.take(x[at * C + c].bits, static_cast<I>(at));
        }
      }
    }
    y[c].bits = m.bits;
    idx[c] = m.at;
  }
}

// gi[idx[o]] = H(float(gi[idx[o]]) + float(go[o])) in output order: PyTorch
// rounds after every add. Offsets are trusted (checked by the operator layer).
template <typename H, typename I>
void scatter_add_half__scalar(const H* go, const I* idx, int64_t n, H* gi) {
  for (int64_t o = 0; o < n; ++o) {
    H& g = gi[idx[o]];
    g.bits = half_add<H>(g.bits, go[o].bits);
  }
}

// The same, skipping offsets outside [0, limit) (windows wholly in padding).
template <typename H, typename I>
void scatter_add_half_in_range__scalar(const H* go, const I* idx, int64_t n, int64_t limit, H* gi) {
  for (int64_t o = 0; o < n; ++o) {
    const int64_t i = static_cast<int64_t>(idx[o]);
    if (i < 0 || i >= limit) continue;
    gi[i].bits = half_add<H>(gi[i].bits, go[o].bits);
  }
}

#ifdef __wasm_simd128__

namespace half_simd {

// Keys of 8 values: the magnitude, negated for negative values, and
// kNaNKey for NaN; `nan` receives the NaN lanes.
template <typename H>
inline v128_t keys(v128_t v, v128_t* nan) {
  const v128_t mag = wasm_v128_and(v, wasm_i16x8_splat(0x7fff));
  const v128_t neg = wasm_i16x8_shr(v, 15);  // 0 or -1
  *nan = wasm_i16x8_gt(mag, wasm_i16x8_splat(static_cast<int16_t>(HalfTraits<H>::kInf)));
  const v128_t k = wasm_i16x8_sub(wasm_v128_xor(mag, neg), neg);
  return wasm_v128_bitselect(wasm_i16x8_splat(kNaNKey), k, *nan);
}

// One tap after the first for 8 lanes: where it wins (greater, or NaN), its
// bits and its offset `off` in the window replace the running ones. The
// running key is the maximum key so far (kNaNKey once a NaN was seen), so
// a max replaces a select.
template <typename H>
inline void take(v128_t v, int16_t off, v128_t* key, v128_t* bits, v128_t* at) {
  v128_t nan;
  const v128_t k = keys<H>(v, &nan);
  const v128_t t = wasm_v128_or(wasm_i16x8_gt(k, *key), nan);
  *key = wasm_i16x8_max(k, *key);
  *bits = wasm_v128_bitselect(v, *bits, t);
  *at = wasm_v128_bitselect(wasm_i16x8_splat(off), *at, t);
}

// Stores 4 offsets `first + 2 j + at` (at: the winner's offset in its
// window, from 4 int32 lanes).
template <typename I>
inline void store_indices(v128_t at4, int32_t first, I* idx);

template <>
inline void store_indices<int32_t>(v128_t at4, int32_t first, int32_t* idx) {
  const v128_t base = wasm_i32x4_add(wasm_i32x4_splat(first), wasm_i32x4_make(0, 2, 4, 6));
  wasm_v128_store(idx, wasm_i32x4_add(base, at4));
}

template <>
inline void store_indices<int64_t>(v128_t at4, int32_t first, int64_t* idx) {
  int32_t v[4];
  store_indices<int32_t>(at4, first, v);
  for (int j = 0; j < 4; ++j) idx[j] = v[j];
}

}  // namespace half_simd

// kernel 2, stride 2, dilation 1 along W (guard:
// argmaxpool_row_half__wasmsimd_k2s2_applies): 8 interior output columns per
// step, every window row's pairs deinterleaved into even and odd columns;
// the winner's offset in its window (0, 1, then the second row's) is kept
// per 16-bit lane, so rows whose distance passes 32766 elements, and
// windows of more than two rows, take the scalar kernel. Offsets must fit
// int32 (the guard says so).
template <typename H, typename I>
void argmaxpool_row_half__wasmsimd_k2s2(const H* x, const ArgmaxRow& r, H* y, I* idx) {
  int64_t begin, end;
  interior_columns(r, 0, &begin, &end);
  for_each_row(r, y, idx, [x, begin, end](const ArgmaxRow& row, H* yt, I* it) {
    const int64_t o0 = row.nrows > 0 ? row.first_row + row.rows[0] : 0;
    const int64_t o1 = row.nrows > 0 ? row.first_row + row.rows[row.nrows - 1] : 0;
    if (row.nrows == 0 || row.nrows > 2 || o1 - o0 > 32766) {
      argmaxpool_cols_half__scalar(x, row, 0, row.out_width, yt, it);
      return;
    }
    argmaxpool_cols_half__scalar(x, row, 0, begin, yt, it);
    const int16_t d = static_cast<int16_t>(o1 - o0);
    int64_t ow = begin;
    for (; ow + 8 <= end; ow += 8) {
      const int64_t w = 2 * ow - row.pad;
      const H* p0 = x + o0 + w;
      v128_t lo = wasm_v128_load(p0), hi = wasm_v128_load(p0 + 8);
      v128_t even =
          wasm_i8x16_shuffle(lo, hi, 0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29);
      v128_t odd =
          wasm_i8x16_shuffle(lo, hi, 2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22, 23, 26, 27, 30, 31);
      // The window's first tap always wins against the -inf start.
      v128_t nan;
      v128_t key = half_simd::keys<H>(even, &nan);
      v128_t bits = even;
      v128_t at = wasm_i16x8_splat(0);
      half_simd::take<H>(odd, 1, &key, &bits, &at);
      if (row.nrows == 2) {
        const H* p1 = x + o1 + w;
        lo = wasm_v128_load(p1);
        hi = wasm_v128_load(p1 + 8);
        even = wasm_i8x16_shuffle(lo, hi, 0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29);
        odd =
            wasm_i8x16_shuffle(lo, hi, 2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22, 23, 26, 27, 30, 31);
        half_simd::take<H>(even, d, &key, &bits, &at);
        half_simd::take<H>(odd, static_cast<int16_t>(d + 1), &key, &bits, &at);
      }
      wasm_v128_store(yt + ow, bits);
      const int32_t first = static_cast<int32_t>(o0 + w);
      half_simd::store_indices<I>(wasm_i32x4_extend_low_i16x8(at), first, it + ow);
      half_simd::store_indices<I>(wasm_i32x4_extend_high_i16x8(at), first + 8, it + ow + 4);
    }
    argmaxpool_cols_half__scalar(x, row, ow, row.out_width, yt, it);
  });
}

#endif  // __wasm_simd128__

// When argmaxpool_row_half__wasmsimd_k2s2 applies: its geometry, and every
// offset the run of rows reads fits the int32 lanes it computes them in.
template <typename T, typename I>
inline bool argmaxpool_row_half__wasmsimd_k2s2_applies(const ArgmaxRow& r) {
  const int64_t last =
      r.first_row + (r.nrows > 0 ? r.rows[r.nrows - 1] : 0) + (r.count - 1) * r.step + r.width;
  return is_half_v<T> && r.kernel == 2 && r.stride == 2 && r.dilation == 1 && last <= INT32_MAX;
}

}  // namespace ukernels
}  // namespace unpool

#endif  // UNPOOL_SRC_UKERNELS_ARGMAXPOOL_HALF_H_
