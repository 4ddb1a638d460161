// Operator layer of fractional max pooling (channels first, 2d and 3d):
// windows [start, start + kernel) per dim, the starts drawn from one random
// sample per (n, c) plane and dim as PyTorch's generate_intervals draws them
// (aten/src/ATen/native/FractionalMaxPooling.h), in the value type's
// arithmetic so that float32 samples give PyTorch's float32 windows.
#include <cstring>
#include <string>
#include <type_traits>

#include "dispatch.h"
#include "geometry.h"
#include "plan.h"
#include "ukernels/config.h"
#include "unpool/unpool.h"
#include "window_scratch.h"

namespace unpool {

using internal::Check;
using internal::fail;
using internal::Geometry;
using internal::Message;
using internal::Scratch;

namespace {

// A value in a message: as many digits as tell it apart in its type.
template <typename T>
std::string number(T v) {
  return internal::format_g(static_cast<double>(v), sizeof(T) == 4 ? 9 : 17);
}

Check check_fractional_dims(const char* op, int32_t dims) {
  if (dims == 2 || dims == 3) return {};
  return fail(Status::kInvalidArgument, Message() << op << ": dims=" << dims << " must be 2 or 3");
}

// The output size per dim: `output_size`, or int(in * ratio) in double
// arithmetic; then PyTorch's size rule: out + kernel - 1 <= in in 2d, and
// strictly < in in 3d (as PyTorch checks it).
Check resolve_output(const char* op, const FractionalPoolParams& p, Geometry* g) {
  const int dims = p.dims;
  const bool has_size = p.output_size.count != 0 || p.output_size.list;
  const bool has_ratio = p.ratio_count != 0 || p.ratio_list;
  if (has_size == has_ratio) {
    return fail(Status::kInvalidArgument,
                Message() << op << ": give exactly one of outputSize and outputRatio");
  }
  if (has_size) {
    Check c = internal::resolve(op, "outputSize", p.output_size, dims, 1, 1, nullptr, true, false,
                                g->out);
    if (!c.ok()) return c;
  } else {
    if (p.ratio_count != dims && !(p.ratio_count == 1 && !p.ratio_list)) {
      return fail(Status::kInvalidArgument, Message() << op << ": outputRatio must have " << dims
                                                      << " entries, got " << p.ratio_count);
    }
    for (int i = 0; i < dims; ++i) {
      const double r = p.output_ratio[p.ratio_count == 1 ? 0 : i];
      if (!(r > 0 && r < 1)) {
        Message m;
        m << op << ": outputRatio";
        if (p.ratio_list) m << "[" << i << "]";
        return fail(Status::kInvalidArgument, m << "=" << number(r) << " must be in (0, 1)");
      }
      const int slot = 3 - dims + i;
      g->out[slot] = static_cast<int64_t>(static_cast<double>(g->in[slot]) * r);
      if (g->out[slot] < 1) {
        return fail(Status::kInvalidShape, Message() << op << ": outputRatio gives output size "
                                                     << g->out[slot] << " in spatial dim " << i
                                                     << " (input " << g->in[slot] << ")");
      }
    }
  }
  for (int i = 0; i < dims; ++i) {
    const int slot = 3 - dims + i;
    const int64_t need = g->out[slot] + g->kernel[slot] - 1;
    if (dims == 2 ? need > g->in[slot] : need >= g->in[slot]) {
      return fail(Status::kInvalidShape, Message() << op << ": output size " << g->out[slot]
                                                   << " plus kernelSize " << g->kernel[slot]
                                                   << " - 1 in spatial dim " << i << " must be "
                                                   << (dims == 2 ? "at most" : "less than")
                                                   << " the input size " << g->in[slot]);
    }
  }
  return {};
}

Check plan_fractional(const char* op, const FractionalPoolParams& p, const Shape& input,
                      const Shape& samples, Geometry* g, Shape* output) {
  Check c = check_fractional_dims(op, p.dims);
  if (!c.ok()) return c;
  const int dims = p.dims;
  if (!(c = internal::resolve(op, "kernelSize", p.kernel, dims, 1, 1, nullptr, true, true,
                              g->kernel))
           .ok() ||
      !(c = internal::check_rank(op, "x", dims, input)).ok() ||
      !(c = internal::read_input(op, "x", dims, input,
                                 internal::empty_dim(input, dims, Layout::kChannelsFirst, false),
                                 Layout::kChannelsFirst, g))
           .ok() ||
      !(c = resolve_output(op, p, g)).ok()) {
    return c;
  }
  // randomSamples: (N, C, dims), N = 1 for unbatched input.
  Shape want;
  want.rank = 3;
  want.dims[0] = input.rank == dims + 2 ? input.dims[0] : 1;
  want.dims[1] = g->channels;
  want.dims[2] = dims;
  if (!(c = internal::check_same_shape(op, "randomSamples", samples, want)).ok()) return c;
  *output = internal::make_output(input, dims, Layout::kChannelsFirst, g->out);
  return internal::check_output_numel(op, *g, *output);
}

// PyTorch's generate_intervals, in T: start[i] = int((i + u) * alpha) -
// int(u * alpha) for i < out - 1, and start[out - 1] = in - kernel.
template <typename T>
void intervals(T u, int64_t in, int64_t out, int64_t kernel, int64_t* start, int64_t* end) {
  if (out > 1) {
    const T alpha = static_cast<T>(in - kernel) / static_cast<T>(out - 1);
    for (int64_t i = 0; i < out - 1; ++i) {
      // PyTorch converts to int; int64 gives the same values wherever that
      // conversion is defined, and stays defined up to kMaxSize.
      start[i] =
          static_cast<int64_t>((static_cast<T>(i) + u) * alpha) - static_cast<int64_t>(u * alpha);
      // Rounding can take a start past in - kernel (float32, inputs of
      // 2^25 and more): PyTorch then reads past the input; stop at the end.
      if (start[i] > in - kernel) start[i] = in - kernel;
    }
  }
  start[out - 1] = in - kernel;
  for (int64_t i = 0; i < out; ++i) end[i] = start[i] + kernel;
}

// Samples [first, first + n) of a run, at `samples`: each in [0, 1].
template <typename T>
Check check_samples(const char* name, const T* samples, int64_t n, int64_t first) {
  for (int64_t k = 0; k < n; ++k) {
    const T u = samples[k];
    if (!(u >= 0 && u <= 1)) {
      return fail(Status::kInvalidArgument, Message() << name << ": randomSamples[" << first + k
                                                      << "]=" << number(u) << " is outside [0, 1]");
    }
  }
  return {};
}

// Whether the windows along a dim of `out` outputs start at o * s for one
// s >= 1 (then its stride): a max pool's windows. They come whenever
// alpha = (in - kernel) / (out - 1) is a whole number that the float
// arithmetic keeps whole (kernel 2, in = 2 out: output ratio 0.5), unless a
// sample sits so close to 1 that i + u rounds up.
bool regular(const int64_t* start, int64_t out, int64_t* stride) {
  const int64_t s = out > 1 ? start[1] - start[0] : 1;
  if (start[0] != 0 || s < 1) return false;
  for (int64_t o = 1; o < out; ++o) {
    if (start[o] != o * s) return false;
  }
  *stride = s;
  return true;
}

template <typename T, typename I>
Check pool_planes(const Plan& plan, const Geometry& g, const T* x, const T* samples, T* y, I* idx) {
  const int dims = plan.dims;
  if (g.planes == 0) return {};
  const internal::Buffer<int64_t> bounds(2 * (g.out[0] + g.out[1] + g.out[2]));
  if (!bounds.ok()) return internal::no_memory(plan.name);
  int64_t* starts[3];
  int64_t* ends[3];
  int64_t* at = bounds.data();
  for (int i = 0; i < 3; ++i) {
    starts[i] = at;
    ends[i] = at + g.out[i];
    at += 2 * g.out[i];
  }
  // For 2d the D dim is the one window [0, 1).
  starts[0][0] = 0;
  ends[0][0] = 1;
  const ukernels::ArgmaxWindows a{{starts[0], ends[0], g.out[0]},
                                  {starts[1], ends[1], g.out[1]},
                                  {starts[2], ends[2], g.out[2]},
                                  g.in[1],
                                  g.in[2]};
  // Sample k of a plane drives dim kDim[k]: 2d (W, H), 3d (D, H, W).
  static const int kDim2[2] = {2, 1};
  static const int kDim3[3] = {0, 1, 2};
  const int* dim_of = dims == 2 ? kDim2 : kDim3;
  // Every sample is checked before the first write; this also keeps NaN out
  // of the integer conversions.
  Check c = check_samples(plan.name, samples, g.planes * dims, g.first_plane * dims);
  if (!c.ok()) return c;
  const auto kernel = ukernels::config::argmaxpool_windows<T, I>(a, g.in[0] * g.in[1]);
  const Scratch<T> scratch(g, ukernels::config::needs_window_scratch<T, I>(kernel));
  if (!scratch.ok()) return internal::no_memory(plan.name);
  for (int64_t p = 0; p < g.planes; ++p) {
    for (int k = 0; k < dims; ++k) {
      const int d = dim_of[k];
      intervals(samples[p * dims + k], g.in[d], g.out[d], g.kernel[d], starts[d], ends[d]);
    }
    const int64_t in_plane = g.in_plane(), out_plane = g.out_plane();
    // A plane whose windows are a max pool's runs as one (its int32 indices
    // are widened with the others').
    int64_t stride[3];
    if (regular(starts[0], g.out[0], &stride[0]) && regular(starts[1], g.out[1], &stride[1]) &&
        regular(starts[2], g.out[2], &stride[2])) {
      Plan pool = plan;
      Geometry& pg = pool.geometry;
      pool.op = Op::kMaxPool;
      pool.index_type = sizeof(I) == 4 ? IndexType::kInt32 : IndexType::kInt64;
      for (int i = 0; i < 3; ++i) {
        pg.stride[i] = stride[i];
        pg.kernel[i] = ends[i][0] - starts[i][0];
        pg.pad[i] = 0;
        pg.dilation[i] = 1;
      }
      const int64_t plane = g.first_plane + p;
      run_max_pool(pool, PlaneRange{plane, plane + 1}, x + p * in_plane, y + p * out_plane,
                   idx + p * out_plane, nullptr);
      continue;
    }
    kernel(x + p * in_plane, a, scratch.view(), y + p * out_plane, idx + p * out_plane);
  }
  return {};
}

}  // namespace

Status plan_fractional_max_pool(const FractionalPoolParams& params, const Shape& input,
                                const Shape& samples_shape, DType dtype, IndexType index_type,
                                Plan* plan, std::string* error) {
  Plan p = internal::new_plan(Op::kFractionalMaxPool, "fractionalMaxPool#d", params.dims, dtype,
                              index_type, "x");
  Check c = plan_fractional(p.name, params, input, samples_shape, &p.geometry, &p.output);
  if (c.ok()) c = internal::check_types(p.name, dtype, index_type, p.geometry.in_plane());
  if (c.ok()) c = internal::check_fractional_dtype(p.name, dtype);
  if (c.ok()) *plan = p;
  return internal::report(c, error);
}

namespace internal {

Check check_fractional_samples(const Plan& plan, const void* samples) {
  const int64_t n = plan.geometry.planes * plan.dims;
  if (plan.dtype == DType::kFloat64) {
    return check_samples(plan.name, static_cast<const double*>(samples), n, 0);
  }
  // float32: 16-bit plans are refused when planned.
  return check_samples(plan.name, static_cast<const float*>(samples), n, 0);
}

Check fractional_sample_error(const Plan& plan, int64_t position, int64_t bits) {
  Check c;
  if (plan.dtype == DType::kFloat64) {
    double u;
    std::memcpy(&u, &bits, sizeof u);
    c = check_samples(plan.name, &u, 1, position);
  } else {
    const uint32_t low = static_cast<uint32_t>(bits);
    float u;
    std::memcpy(&u, &low, sizeof u);
    c = check_samples(plan.name, &u, 1, position);
  }
  // A sample inside [0, 1] is no error: say so rather than report success.
  if (c.ok()) {
    c = fail(Status::kInvalidArgument,
             Message() << plan.name << ": randomSamples[" << position << "] is inside [0, 1]");
  }
  return c;
}

}  // namespace internal

Status run_fractional_max_pool(const Plan& plan, PlaneRange planes, const void* x,
                               const void* random_samples, void* y, void* indices,
                               std::string* error) {
  Geometry g;
  Check c = internal::start_run(plan, Op::kFractionalMaxPool, planes, &g);
  // A plan made by hand with another dtype (a plan is plain data): there is
  // no kernel for it below, so it must be an error rather than a run that
  // writes nothing and reports success.
  if (c.ok()) c = internal::check_fractional_dtype(plan.name, plan.dtype);
  if (!c.ok()) return internal::report(c, error);
  const bool widen = internal::dispatch_pool(plan.dtype, plan.index_type, [&](auto t, auto i) {
    using T = decltype(t);
    using I = decltype(i);
    // 16-bit and integer values never get here (check_fractional_dtype).
    if constexpr (!ukernels::is_half_v<T> && !std::is_integral<T>::value) {
      c = pool_planes<T, I>(plan, g, static_cast<const T*>(x),
                            static_cast<const T*>(random_samples), static_cast<T*>(y),
                            static_cast<I*>(indices));
    }
  });
  if (widen && c.ok()) ukernels::config::widen_indices(indices, g.planes * g.out_plane());
  return internal::report(c, error);
}

}  // namespace unpool
