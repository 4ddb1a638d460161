// A deliberately naive reference of PyTorch's rules, written independently
// of the library: every kernel tap inside the input's extent along each dim
// is visited and bounds-checked, all arithmetic is on flat vectors of
// doubles in 3d form (D, H, W).
#ifndef UNPOOL_TESTS_CPP_REFERENCE_H_
#define UNPOOL_TESTS_CPP_REFERENCE_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace unpool_test {

// Where a running maximum starts: -inf, or an integer type's lowest value
// (PyTorch's integer pools start there).
template <typename T>
T ref_lowest() {
  return std::numeric_limits<T>::is_integer ? std::numeric_limits<T>::lowest()
                                            : -std::numeric_limits<T>::infinity();
}

struct RefGeom {
  int64_t planes = 1;
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1};
  int64_t k[3] = {1, 1, 1}, s[3] = {1, 1, 1}, p[3] = {0, 0, 0}, d[3] = {1, 1, 1};
};

// PyTorch's pooling_output_shape with ceil_mode's last-window rule.
inline int64_t ref_pool_out(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil) {
  const double span = static_cast<double>(in + 2 * p - d * (k - 1) - 1);
  int64_t o = static_cast<int64_t>(ceil ? std::ceil(span / s) : std::floor(span / s)) + 1;
  if (ceil && (o - 1) * s >= in + p) --o;
  return o;
}

// First tap >= 0 along one dim (PyTorch moves the start by whole dilations).
inline int64_t ref_first(int64_t start, int64_t d) {
  if (start < 0) start += (-start + d - 1) / d * d;
  return start;
}

// The taps [*lo, *hi) of a window starting at `start` whose positions along
// one dim lie in [0, in). The others would all fail the bounds check, and
// with the fuzzer's wide sizes (kernels of thousands per dim) visiting them
// one by one took hours for a single input.
inline void ref_taps(int64_t start, int64_t k, int64_t d, int64_t in, int64_t* lo, int64_t* hi) {
  *lo = start >= 0 ? 0 : (-start + d - 1) / d;
  *hi = start >= in ? 0 : std::min(k, (in - 1 - start) / d + 1);
}

// Values rounded through float when `f32` (all arithmetic then matches a
// float kernel, since max and copies are exact).
template <typename T>
void ref_pool(const RefGeom& g, const std::vector<T>& x, std::vector<T>* y,
              std::vector<int64_t>* idx) {
  const int64_t ip = g.in[0] * g.in[1] * g.in[2], op = g.out[0] * g.out[1] * g.out[2];
  y->assign(static_cast<size_t>(g.planes * op), T(0));
  idx->assign(static_cast<size_t>(g.planes * op), 0);
  for (int64_t pl = 0; pl < g.planes; ++pl) {
    for (int64_t o = 0; o < op; ++o) {
      const int64_t oc[3] = {o / (g.out[1] * g.out[2]), (o / g.out[2]) % g.out[1], o % g.out[2]};
      int64_t first[3];
      for (int i = 0; i < 3; ++i) first[i] = ref_first(oc[i] * g.s[i] - g.p[i], g.d[i]);
      T best = ref_lowest<T>();
      int64_t best_i = (first[0] * g.in[1] + first[1]) * g.in[2] + first[2];
      int64_t lo[3], hi[3];
      for (int i = 0; i < 3; ++i)
        ref_taps(oc[i] * g.s[i] - g.p[i], g.k[i], g.d[i], g.in[i], &lo[i], &hi[i]);
      for (int64_t a = lo[0]; a < hi[0]; ++a) {
        for (int64_t b = lo[1]; b < hi[1]; ++b) {
          for (int64_t c = lo[2]; c < hi[2]; ++c) {
            const int64_t pos[3] = {oc[0] * g.s[0] - g.p[0] + a * g.d[0],
                                    oc[1] * g.s[1] - g.p[1] + b * g.d[1],
                                    oc[2] * g.s[2] - g.p[2] + c * g.d[2]};
            bool inside = true;
            for (int i = 0; i < 3; ++i) inside = inside && pos[i] >= 0 && pos[i] < g.in[i];
            if (!inside) continue;
            const int64_t flat = (pos[0] * g.in[1] + pos[1]) * g.in[2] + pos[2];
            const T v = x[static_cast<size_t>(pl * ip + flat)];
            if (v > best || v != v) {
              best = v;
              best_i = flat;
            }
          }
        }
      }
      (*y)[static_cast<size_t>(pl * op + o)] = best;
      (*idx)[static_cast<size_t>(pl * op + o)] = best_i;
    }
  }
}

// Unpool: zeros, then writes in input order (`g.in` pooled, `g.out` unpooled).
template <typename T>
std::vector<T> ref_unpool(const RefGeom& g, const std::vector<T>& x,
                          const std::vector<int64_t>& idx) {
  const int64_t ip = g.in[0] * g.in[1] * g.in[2], op = g.out[0] * g.out[1] * g.out[2];
  std::vector<T> y(static_cast<size_t>(g.planes * op), T(0));
  for (int64_t pl = 0; pl < g.planes; ++pl) {
    for (int64_t i = 0; i < ip; ++i) {
      const size_t src = static_cast<size_t>(pl * ip + i);
      y[static_cast<size_t>(pl * op + idx[src])] = x[src];
    }
  }
  return y;
}

// Pool backward: accumulate in output order; skip indices outside the plane
// (windows wholly in padding).
template <typename T>
std::vector<T> ref_pool_backward(const RefGeom& g, const std::vector<T>& go,
                                 const std::vector<int64_t>& idx) {
  const int64_t ip = g.in[0] * g.in[1] * g.in[2], op = g.out[0] * g.out[1] * g.out[2];
  std::vector<T> gi(static_cast<size_t>(g.planes * ip), T(0));
  for (int64_t pl = 0; pl < g.planes; ++pl) {
    for (int64_t o = 0; o < op; ++o) {
      const int64_t j = idx[static_cast<size_t>(pl * op + o)];
      if (j < 0 || j >= ip) continue;
      gi[static_cast<size_t>(pl * ip + j)] += go[static_cast<size_t>(pl * op + o)];
    }
  }
  return gi;
}

// Unpool backward: a gather (`g.in` pooled, `g.out` unpooled).
template <typename T>
std::vector<T> ref_unpool_backward(const RefGeom& g, const std::vector<T>& go,
                                   const std::vector<int64_t>& idx) {
  const int64_t ip = g.in[0] * g.in[1] * g.in[2], op = g.out[0] * g.out[1] * g.out[2];
  std::vector<T> gi(static_cast<size_t>(g.planes * ip));
  for (int64_t pl = 0; pl < g.planes; ++pl) {
    for (int64_t i = 0; i < ip; ++i) {
      gi[static_cast<size_t>(pl * ip + i)] =
          go[static_cast<size_t>(pl * op + idx[static_cast<size_t>(pl * ip + i)])];
    }
  }
  return gi;
}

// ---- adaptive and fractional max pooling (windows given per dim) ----------

// Windows [start, end) along one dim, one per output position.
struct RefWindows {
  std::vector<int64_t> start, end;
};

// Adaptive pooling's windows, [floor(o * I / O), ceil((o + 1) * I / O)),
// spelled as a quotient and a remainder test rather than the library's
// (a + b - 1) / b.
inline RefWindows ref_adaptive_windows(int64_t in, int64_t out) {
  RefWindows w;
  for (int64_t o = 0; o < out; ++o) {
    const int64_t lo = o * in, hi = (o + 1) * in;
    w.start.push_back(lo / out);
    w.end.push_back(hi / out + (hi % out != 0 ? 1 : 0));
  }
  return w;
}

// PyTorch's generate_intervals (FractionalMaxPooling.h) in T: the starts of
// the windows of one dim, each kernel wide.
template <typename T>
RefWindows ref_fractional_windows(T sample, int64_t in, int64_t out, int64_t kernel) {
  RefWindows w;
  w.start.assign(static_cast<size_t>(out), 0);
  if (out > 1) {
    const T alpha = T(in - kernel) / T(out - 1);
    for (int64_t i = 0; i + 1 < out; ++i) {
      const T a = (T(i) + sample) * alpha, b = sample * alpha;
      // PyTorch's window can end past the input when rounding (float32,
      // inputs of 2^25 and more) takes a start above in - kernel: the
      // library stops it at the last window.
      w.start[static_cast<size_t>(i)] =
          std::min(static_cast<int64_t>(a) - static_cast<int64_t>(b), in - kernel);
    }
  }
  w.start[static_cast<size_t>(out - 1)] = in - kernel;
  for (int64_t s : w.start) w.end.push_back(s + kernel);
  return w;
}

// One plane of `in[0] x in[1] x in[2]` pooled over the boxes of `w` (D, H,
// W): first maximum wins, a NaN replaces anything (so the last NaN stays),
// and a window of -inf keeps -inf with its first position.
template <typename T>
void ref_window_pool(const int64_t in[3], const RefWindows w[3], const T* x, T* y, int64_t* idx) {
  size_t o = 0;
  for (size_t a = 0; a < w[0].start.size(); ++a) {
    for (size_t b = 0; b < w[1].start.size(); ++b) {
      for (size_t c = 0; c < w[2].start.size(); ++c, ++o) {
        // PyTorch starts at -inf with the window's first position.
        T best = ref_lowest<T>();
        int64_t best_i = (w[0].start[a] * in[1] + w[1].start[b]) * in[2] + w[2].start[c];
        for (int64_t d = w[0].start[a]; d < w[0].end[a]; ++d) {
          for (int64_t h = w[1].start[b]; h < w[1].end[b]; ++h) {
            for (int64_t v = w[2].start[c]; v < w[2].end[c]; ++v) {
              const int64_t flat = (d * in[1] + h) * in[2] + v;
              if (x[flat] > best || x[flat] != x[flat]) {
                best = x[flat];
                best_i = flat;
              }
            }
          }
        }
        y[o] = best;
        idx[o] = best_i;
      }
    }
  }
}

// Adaptive max pooling of `planes` channels-first planes.
template <typename T>
void ref_adaptive_pool(int64_t planes, const int64_t in[3], const int64_t out[3],
                       const std::vector<T>& x, std::vector<T>* y, std::vector<int64_t>* idx) {
  const RefWindows w[3] = {ref_adaptive_windows(in[0], out[0]), ref_adaptive_windows(in[1], out[1]),
                           ref_adaptive_windows(in[2], out[2])};
  const int64_t ip = in[0] * in[1] * in[2], op = out[0] * out[1] * out[2];
  y->assign(static_cast<size_t>(planes * op), T(0));
  idx->assign(static_cast<size_t>(planes * op), 0);
  for (int64_t p = 0; p < planes; ++p) {
    ref_window_pool(in, w, x.data() + p * ip, y->data() + p * op, idx->data() + p * op);
  }
}

// Fractional max pooling of `planes` planes with `dims` (2 or 3) samples
// each: in 2d sample 0 drives W and sample 1 drives H; in 3d they drive D,
// H, W in order.
template <typename T>
void ref_fractional_pool(int dims, int64_t planes, const int64_t in[3], const int64_t out[3],
                         const int64_t kernel[3], const std::vector<T>& x,
                         const std::vector<T>& samples, std::vector<T>* y,
                         std::vector<int64_t>* idx) {
  const int64_t ip = in[0] * in[1] * in[2], op = out[0] * out[1] * out[2];
  y->assign(static_cast<size_t>(planes * op), T(0));
  idx->assign(static_cast<size_t>(planes * op), 0);
  for (int64_t p = 0; p < planes; ++p) {
    const T* u = samples.data() + p * dims;
    RefWindows w[3];
    w[0].start = {0};
    w[0].end = {1};
    if (dims == 2) {
      w[2] = ref_fractional_windows(u[0], in[2], out[2], kernel[2]);
      w[1] = ref_fractional_windows(u[1], in[1], out[1], kernel[1]);
    } else {
      for (int d = 0; d < 3; ++d) w[d] = ref_fractional_windows(u[d], in[d], out[d], kernel[d]);
    }
    ref_window_pool(in, w, x.data() + p * ip, y->data() + p * op, idx->data() + p * op);
  }
}

}  // namespace unpool_test

#endif  // UNPOOL_TESTS_CPP_REFERENCE_H_
