// Operator layer of adaptive max pooling: output o of a dim of input size I
// and output size O pools [floor(o * I / O), ceil((o + 1) * I / O)).
#include <string>
#include <type_traits>

#include "dispatch.h"
#include "geometry.h"
#include "plan.h"
#include "pool_keys.h"
#include "ukernels/config.h"
#include "unpool/unpool.h"
#include "window_scratch.h"

namespace unpool {

using internal::Check;
using internal::Geometry;
using internal::Message;
using internal::Scratch;

namespace {

// Windows of one dim, as the kernels take them (ok() false: no memory).
struct Windows {
  Windows(int64_t in, int64_t out) : out_(out), start_(out), end_(out) {
    if (!ok()) return;
    for (int64_t o = 0; o < out; ++o) {
      start_.data()[o] = o * in / out;
      end_.data()[o] = ((o + 1) * in + out - 1) / out;
    }
  }
  bool ok() const { return start_.ok() && end_.ok(); }
  ukernels::WindowList list() const { return {start_.data(), end_.data(), out_}; }

 private:
  int64_t out_;
  internal::Buffer<int64_t> start_, end_;
};

// 16-bit channels-last windows on float32 keys, where config.h says so, on
// the bits of either type (`inf`: its infinity's). False, having done
// nothing, where it does not apply or its scratch cannot be had.
template <typename I>
bool windows_nhwc_on_keys(const Geometry& g, const ukernels::ArgmaxWindows& a, const uint16_t* x,
                          uint16_t inf, uint16_t* y, I* idx) {
  const int64_t C = g.channels, batch = C == 0 ? 0 : g.planes / C;
  const int64_t in = g.in_plane() * C, out = g.out_plane() * C;
  if (!ukernels::config::half_windows_nhwc_on_keys(in)) return false;
  const internal::Buffer<float> keys(in), results(out);
  if (!keys.ok() || !results.ok()) return false;
  for (int64_t n = 0; n < batch; ++n) {
    ukernels::argmaxpool_windows_nhwc_bits_on_keys<I>(
        x + n * in, a, C, inf, ukernels::config::argmaxpool_windows_nhwc<float, I>, keys.data(),
        results.data(), y + n * out, idx + n * out);
  }
  return true;
}

// Resolves the output size (kept entries take the input's size) into g.
Check plan_adaptive(const char* op, const AdaptivePoolParams& p, const Shape& input, Geometry* g,
                    Shape* output) {
  Check c = internal::check_dims_value(op, p.dims);
  if (!c.ok()) return c;
  const int dims = p.dims;
  // A kept entry's value is not read: stand a valid one in for it.
  SizeArg size = p.output_size;
  for (int i = 0; i < dims && size.list; ++i) {
    if (p.keep[i] && i < size.count) size.values[i] = 1;
  }
  if (!(c = internal::resolve(op, "outputSize", size, dims, 1, 1, nullptr, true, false, g->out))
           .ok() ||
      !(c = internal::check_layout(op, p.layout)).ok() ||
      !(c = internal::check_rank(op, "x", dims, input, p.layout)).ok() ||
      !(c = internal::read_input(op, "x", dims, input,
                                 internal::empty_dim(input, dims, p.layout, false), p.layout, g))
           .ok()) {
    return c;
  }
  for (int i = 0; i < dims && size.list; ++i) {
    if (p.keep[i]) g->out[3 - dims + i] = g->in[3 - dims + i];
  }
  *output = internal::make_output(input, dims, p.layout, g->out);
  return internal::check_output_numel(op, *g, *output);
}

// The windows `a` over every plane of `g`, with the kernels config.h picks.
template <typename T, typename I>
Check pool_windows(const char* op, const Geometry& g, const ukernels::ArgmaxWindows& a, const T* px,
                   T* py, I* pi) {
  const int64_t in_plane = g.in_plane(), out_plane = g.out_plane();
  if (g.layout == Layout::kChannelsLast) {
    const int64_t C = g.channels, batch = C == 0 ? 0 : g.planes / C;
    if constexpr (ukernels::is_half_v<T>) {
      if (windows_nhwc_on_keys<I>(g, a, &px->bits, ukernels::HalfTraits<T>::kInf, &py->bits, pi)) {
        return {};
      }
    }
    for (int64_t n = 0; n < batch; ++n) {
      ukernels::config::argmaxpool_windows_nhwc<T, I>(
          px + n * in_plane * C, a, C, py + n * out_plane * C, pi + n * out_plane * C);
    }
    return {};
  }
  const auto kernel = ukernels::config::argmaxpool_windows<T, I>(a, g.in[0] * g.in[1]);
  const Scratch<T> scratch(g, ukernels::config::needs_window_scratch<T, I>(kernel));
  if (!scratch.ok()) return internal::no_memory(op);
  for (int64_t p = 0; p < g.planes; ++p) {
    kernel(px + p * in_plane, a, scratch.view(), py + p * out_plane, pi + p * out_plane);
  }
  return {};
}

// pool_windows as an internal::KeyPool, `ctx` a WindowsCall.
struct WindowsCall {
  const char* op;
  const ukernels::ArgmaxWindows* a;
};
template <typename K, typename I>
Check windows_on_keys(const Geometry& chunk, const void* x, void* y, void* idx, const void* ctx) {
  const WindowsCall& call = *static_cast<const WindowsCall*>(ctx);
  return pool_windows<K, I>(call.op, chunk, *call.a, static_cast<const K*>(x), static_cast<K*>(y),
                            static_cast<I*>(idx));
}

}  // namespace

Status plan_adaptive_max_pool(const AdaptivePoolParams& params, const Shape& input, DType dtype,
                              IndexType index_type, Plan* plan, std::string* error) {
  Plan p = internal::new_plan(Op::kAdaptiveMaxPool, "adaptiveMaxPool#d", params.dims, dtype,
                              index_type, "x");
  Check c = plan_adaptive(p.name, params, input, &p.geometry, &p.output);
  if (c.ok()) c = internal::check_types(p.name, dtype, index_type, p.geometry.in_plane());
  if (!c.ok()) return internal::report(c, error);
  // Windows that tile each dim are a max pool's: its kernels run them.
  Geometry& g = p.geometry;
  p.regular = true;
  for (int i = 0; i < 3; ++i)
    p.regular = p.regular && g.out[i] <= g.in[i] && g.in[i] % g.out[i] == 0;
  if (p.regular) {
    for (int i = 0; i < 3; ++i) g.kernel[i] = g.stride[i] = g.in[i] / g.out[i];
  }
  *plan = p;
  return internal::report(c, error);
}

Status run_adaptive_max_pool(const Plan& plan, PlaneRange planes, const void* x, void* y,
                             void* indices, std::string* error) {
  Geometry g;
  const Check c = internal::start_run(plan, Op::kAdaptiveMaxPool, planes, &g);
  if (!c.ok()) return internal::report(c, error);
  if (plan.regular) {
    Plan pool = plan;
    pool.op = Op::kMaxPool;
    return run_max_pool(pool, planes, x, y, indices, error);
  }
  if (g.planes == 0) return Status::kOk;
  const Windows wd(g.in[0], g.out[0]), wh(g.in[1], g.out[1]), ww(g.in[2], g.out[2]);
  if (!wd.ok() || !wh.ok() || !ww.ok())
    return internal::report(internal::no_memory(plan.name), error);
  const ukernels::ArgmaxWindows a{wd.list(), wh.list(), ww.list(), g.in[1], g.in[2]};
  Check r;
  const bool widen = internal::dispatch_pool(plan.dtype, plan.index_type, [&](auto t, auto i) {
    using T = decltype(t);
    using I = decltype(i);
    const T* px = static_cast<const T*>(x);
    T* py = static_cast<T*>(y);
    I* pi = static_cast<I*>(indices);
    using K = internal::pool_key_t<T>;
    if constexpr (!std::is_same<T, K>::value) {
      const WindowsCall call{plan.name, &a};
      r = internal::pool_on_keys(plan.name, g, px, py, pi, sizeof(I),
                                 internal::kKeyConversion<T, K>, &windows_on_keys<K, I>, &call);
    } else {
      r = pool_windows<T, I>(plan.name, g, a, px, py, pi);
    }
  });
  if (widen && r.ok()) ukernels::config::widen_indices(indices, g.planes * g.out_plane());
  return internal::report(r, error);
}

}  // namespace unpool
