// Argmax pool and scatter-add microkernels for 16-bit values (Float16,
// BFloat16): the same contracts as argmaxpool.h, argmaxpool_windows.h and
// scatter.h, computed on bit patterns. Their WebAssembly SIMD twins are in
// argmaxpool_half_wasmsimd.h.
//
// Comparison as PyTorch's float32 one: a tap replaces the running maximum
// when its key is greater or it is NaN. The running key of a NaN maximum is
// kNaNKey, above every other key, so only a later NaN replaces it.
#ifndef UNPOOL_SRC_UKERNELS_ARGMAXPOOL_HALF_H_
#define UNPOOL_SRC_UKERNELS_ARGMAXPOOL_HALF_H_

#include <cstdint>
#include <type_traits>

#include "ukernels/argmaxpool.h"
#include "ukernels/argmaxpool_nhwc.h"
#include "ukernels/argmaxpool_windows.h"
#include "ukernels/half.h"

namespace unpool {
namespace ukernels {

constexpr int32_t kNaNKey = 0x7fff;

// The running maximum of one window, on the bits of either 16-bit type
// (`inf`: its infinity's), so that float16 and bfloat16 share the kernels
// below: the typed entry points are one call each. Always inlined: the
// adaptive ops' file is compiled for size (-Os), where the constructor
// stayed a call and the running maximum lived in memory (adaptive 16-bit
// pools in the build without SIMD ran 10% slower).
template <typename I>
struct HalfMax {
  int32_t inf;
  int32_t key;
  uint16_t bits;
  I at;

  __attribute__((always_inline)) HalfMax(I first, uint16_t inf_bits)
      : inf(inf_bits), key(-inf), bits(static_cast<uint16_t>(inf_bits | 0x8000)), at(first) {}
  // Branch-free (masks, not selects): compilers turn the selects into
  // branches, which random data mispredicts.
  __attribute__((always_inline)) void take(uint16_t v, I i) {
    const int32_t mag = v & 0x7fff;
    const int32_t neg = -static_cast<int32_t>(v >> 15);  // 0 or -1
    const int32_t nan = -static_cast<int32_t>(mag > inf);
    const int32_t k = (((mag ^ neg) - neg) & ~nan) | (kNaNKey & nan);
    const int32_t t = -static_cast<int32_t>(k > key) | nan;  // all ones: take
    key = (k & t) | (key & ~t);
    bits = static_cast<uint16_t>((v & t) | (bits & ~t));
    at = static_cast<I>((static_cast<I>(i) & static_cast<I>(t)) | (at & ~static_cast<I>(t)));
  }
};

// A 16-bit tensor's values as their bits.
template <typename H>
inline const uint16_t* half_bits(const H* x) {
  static_assert(sizeof(H) == sizeof(uint16_t), "16-bit values are their bits");
  return reinterpret_cast<const uint16_t*>(x);
}
template <typename H>
inline uint16_t* half_bits(H* x) {
  static_assert(sizeof(H) == sizeof(uint16_t), "16-bit values are their bits");
  return reinterpret_cast<uint16_t*>(x);
}

// argmaxpool_cols__scalar for 16-bit values (their bits; `inf`: the type's
// infinity's).
template <typename I>
__attribute__((noinline)) void argmaxpool_cols_bits__scalar(const uint16_t* x, const ArgmaxRow& r,
                                                            int64_t ow_begin, int64_t ow_end,
                                                            uint16_t inf, uint16_t* y, I* idx) {
  for (int64_t ow = ow_begin; ow < ow_end; ++ow) {
    int64_t w0 = ow * r.stride - r.pad;
    int64_t w1 = w0 + (r.kernel - 1) * r.dilation + 1;
    if (w1 > r.width) w1 = r.width;
    if (w0 < 0) w0 += ((-w0 + r.dilation - 1) / r.dilation) * r.dilation;
    HalfMax<I> m(static_cast<I>(r.first_row + w0), inf);
    for (int64_t k = 0; k < r.nrows; ++k) {
      const int64_t o = r.first_row + r.rows[k];
      for (int64_t w = w0; w < w1; w += r.dilation) m.take(x[o + w], static_cast<I>(o + w));
    }
    y[ow] = m.bits;
    idx[ow] = m.at;
  }
}
template <typename H, typename I>
inline void argmaxpool_cols_half__scalar(const H* x, const ArgmaxRow& r, int64_t ow_begin,
                                         int64_t ow_end, H* y, I* idx) {
  argmaxpool_cols_bits__scalar(half_bits(x), r, ow_begin, ow_end, HalfTraits<H>::kInf, half_bits(y),
                               idx);
}

// Any geometry.
template <typename I>
__attribute__((noinline)) void argmaxpool_row_bits__scalar(const uint16_t* x, const ArgmaxRow& r,
                                                           uint16_t inf, uint16_t* y, I* idx) {
  for_each_row(r, y, idx, [x, inf](const ArgmaxRow& row, uint16_t* yt, I* it) {
    argmaxpool_cols_bits__scalar(x, row, 0, row.out_width, inf, yt, it);
  });
}
template <typename H, typename I>
void argmaxpool_row_half__scalar(const H* x, const ArgmaxRow& r, H* y, I* idx) {
  argmaxpool_row_bits__scalar(half_bits(x), r, HalfTraits<H>::kInf, half_bits(y), idx);
}

// Adaptive and fractional windows (argmaxpool_windows__scalar's contract).
template <typename I>
__attribute__((noinline)) void argmaxpool_windows_bits__scalar(const uint16_t* x,
                                                               const ArgmaxWindows& a, uint16_t inf,
                                                               uint16_t* y, I* idx) {
  const int64_t H_ = a.in_h, W = a.in_w;
  for (int64_t od = 0; od < a.d.out; ++od) {
    for (int64_t oh = 0; oh < a.h.out; ++oh) {
      for (int64_t ow = 0; ow < a.w.out; ++ow) {
        const int64_t w0 = a.w.start[ow], w1 = a.w.end[ow];
        HalfMax<I> m(static_cast<I>((a.d.start[od] * H_ + a.h.start[oh]) * W + w0), inf);
        for (int64_t d = a.d.start[od]; d < a.d.end[od]; ++d) {
          for (int64_t h = a.h.start[oh]; h < a.h.end[oh]; ++h) {
            const int64_t row = (d * H_ + h) * W;
            for (int64_t w = w0; w < w1; ++w) m.take(x[row + w], static_cast<I>(row + w));
          }
        }
        *y++ = m.bits;
        *idx++ = m.at;
      }
    }
  }
}

// The same with the windows kernels' signature (it needs no scratch).
template <typename H, typename I>
void argmaxpool_windows_half__scalar_s(const H* x, const ArgmaxWindows& a, const WindowScratch<H>&,
                                       H* y, I* idx) {
  argmaxpool_windows_bits__scalar(half_bits(x), a, HalfTraits<H>::kInf, half_bits(y), idx);
}

// The most values of a plane that the 16-bit kernels run on float32 keys
// (half_window_keys) take: 16 MB of keys. Larger planes run the scalar
// 16-bit kernels.
constexpr int64_t kHalfKeysMax = int64_t{1} << 22;

// Window lists (adaptive pooling's: fractional pooling takes no 16-bit
// values) on float32 keys: the float32 column scan
// (argmaxpool_windows__cols) picks the offsets and each output's bits are
// the input's at its offset.
template <typename H, typename I>
constexpr bool argmaxpool_windows_half__cols_applies(const ArgmaxWindows& a, int64_t rows) {
  return is_half_v<H> && argmaxpool_windows__cols_applies<float, I>(a, rows) &&
         rows <= kHalfKeysMax / a.in_w;
}
// The input rows (D x H) that windows `a` read: those before the last
// window's end along D.
inline int64_t window_rows_read(const ArgmaxWindows& a) {
  int64_t d_end = 0;
  for (int64_t od = 0; od < a.d.out; ++od) d_end = a.d.end[od] > d_end ? a.d.end[od] : d_end;
  return d_end * a.in_h;
}

// The bits of either 16-bit type (`inf`: its infinity's), so that float16
// and bfloat16 share one copy.
template <typename I>
__attribute__((noinline)) void argmaxpool_windows_bits_on_keys(const uint16_t* x,
                                                               const ArgmaxWindows& a,
                                                               const WindowScratch<float>& s,
                                                               uint16_t inf, uint16_t* y, I* idx) {
  half_window_keys(x, window_rows_read(a) * a.in_w, inf, s.keys);
  argmaxpool_windows__cols<float, I>(s.keys, a, s, s.out, idx);
  const int64_t n = a.d.out * a.h.out * a.w.out;
  for (int64_t o = 0; o < n; ++o) y[o] = x[idx[o]];
}
// The channels-last windows (argmaxpool_windows_nhwc__scalar's contract:
// `channels` planes side by side, every window non-empty) on the bits of
// either 16-bit type through `kernel`, a float32 channels-last window kernel
// (the operator layer passes the one it runs for float32), with scratch for
// the input's keys (`keys`: its D x H x W x channels values) and the float32
// results (`out`: the output's).
template <typename I>
__attribute__((noinline)) void argmaxpool_windows_nhwc_bits_on_keys(
    const uint16_t* x, const ArgmaxWindows& a, int64_t channels, uint16_t inf,
    void (*kernel)(const float*, const ArgmaxWindows&, int64_t, float*, I*), float* keys,
    float* out, uint16_t* y, I* idx) {
  half_window_keys(x, window_rows_read(a) * a.in_w * channels, inf, keys);
  kernel(keys, a, channels, out, idx);
  const int64_t n = a.d.out * a.h.out * a.w.out;
  for (int64_t o = 0; o < n; ++o, y += channels, idx += channels) {
    for (int64_t c = 0; c < channels; ++c) y[c] = x[idx[c] * channels + c];
  }
}

template <typename H, typename I>
void argmaxpool_windows_half__cols(const H* x, const ArgmaxWindows& a, const WindowScratch<H>& s,
                                   H* y, I* idx) {
  argmaxpool_windows_bits_on_keys<I>(half_bits(x), a,
                                     {s.best, s.at, s.run, s.run_at, s.order, s.keys, s.out},
                                     HalfTraits<H>::kInf, half_bits(y), idx);
}

// Channels [0, cn) of one output position of a channels-last pool (x, y,
// idx at the first of them), taps in (d, h, w) order per channel.
template <typename I>
__attribute__((noinline)) void argmaxpool_nhwc_bits_channels__scalar(const uint16_t* x,
                                                                     const ArgmaxNhwc& p,
                                                                     int64_t cn, uint16_t inf,
                                                                     uint16_t* y, I* idx) {
  const int64_t Hh = p.height, W = p.width, C = p.channels;
  const I first = static_cast<I>((p.start[0] * Hh + p.start[1]) * W + p.start[2]);
  for (int64_t c = 0; c < cn; ++c) {
    HalfMax<I> m(first, inf);
    for (int64_t d = p.start[0]; d < p.end[0]; d += p.dilation[0]) {
      for (int64_t h = p.start[1]; h < p.end[1]; h += p.dilation[1]) {
        for (int64_t w = p.start[2]; w < p.end[2]; w += p.dilation[2]) {
          const int64_t at = (d * Hh + h) * W + w;
          m.take(x[at * C + c], static_cast<I>(at));
        }
      }
    }
    y[c] = m.bits;
    idx[c] = m.at;
  }
}

// argmaxpool_nhwc__scalar's contract for 16-bit values: one output
// position, every channel.
template <typename H, typename I>
void argmaxpool_nhwc_half__scalar(const H* x, const ArgmaxNhwc& p, H* y, I* idx) {
  argmaxpool_nhwc_bits_channels__scalar(half_bits(x), p, p.channels, HalfTraits<H>::kInf,
                                        half_bits(y), idx);
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

}  // namespace ukernels
}  // namespace unpool

#endif  // UNPOOL_SRC_UKERNELS_ARGMAXPOOL_HALF_H_
