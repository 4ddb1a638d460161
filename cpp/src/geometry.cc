#include "geometry.h"

#include <string>

namespace unpool {
namespace internal {
namespace {

// a * b * c ... <= limit, without overflowing. Factors are >= 0.
bool product_within(const int64_t* v, int n, int64_t limit) {
  for (int i = 0; i < n; ++i) {
    if (v[i] == 0) return true;
  }
  int64_t r = 1;
  for (int i = 0; i < n; ++i) {
    if (v[i] != 0 && r > limit / v[i]) return false;
    r *= v[i];
  }
  return true;
}

// "kernelSize" or "kernelSize[1]": index only when the user gave a list.
std::string arg_name(const char* name, const SizeArg& a, int i) {
  if (a.count <= 1) return name;
  return (Message() << name << "[" << i << "]").str();
}

// " entries" / " entry", for "must have N entries".
const char* entries(int32_t dims) { return dims > 1 ? " entries" : " entry"; }

}  // namespace

// Expands `a` into the last `dims` entries of `out` (D, H, W order). A
// missing argument takes `fallback` (itself already expanded) when given,
// else `dflt`. Values must be >= `min` and <= kMaxSize.
// A one-entry list broadcasts only when `single_list` (pools).
Check resolve(const char* op, const char* name, const SizeArg& a, int32_t dims, int64_t min,
              int64_t dflt, const int64_t* fallback, bool required, bool single_list,
              int64_t out[3]) {
  if (a.count == 0 && required) {
    return fail(Status::kInvalidArgument, Message() << op << ": " << name << " is required");
  }
  // PyTorch's pools read an empty stride list as "not given".
  const bool empty_default = a.list && a.count == 0 && single_list && !required;
  if (a.list && a.count != dims && !(single_list && a.count == 1) && !empty_default) {
    return fail(Status::kInvalidArgument,
                Message() << op << ": " << name << " must have " << dims
                          << (single_list && dims > 1 ? " entries (or 1)" : entries(dims))
                          << ", got " << a.count);
  }
  if (a.count < 0 || (!a.list && a.count > 1 && a.count != dims)) {
    return fail(Status::kInvalidArgument, Message() << op << ": " << name << " must have " << dims
                                                    << entries(dims) << ", got " << a.count);
  }
  for (int i = 0; i < dims; ++i) {
    const int slot = 3 - dims + i;
    if (a.count == 0) {
      out[slot] = fallback ? fallback[slot] : dflt;
      continue;
    }
    const int64_t v = a.values[a.count == 1 ? 0 : i];
    if (v >= min && v <= kMaxSize) {
      out[slot] = v;
      continue;
    }
    Message m;
    m << op << ": " << arg_name(name, a, i) << "=" << v;
    if (v < min) return fail(Status::kInvalidArgument, m << " must be >= " << min);
    return fail(Status::kTooLarge, m << " exceeds the limit " << kMaxSize);
  }
  return {};
}

// "x shape [1, 2]", or "inputShape=[1, 2]" for a parameter that is a shape.
static std::string shape_of(const char* name, const Shape& shape) {
  const std::string n = name;
  const bool is_shape = n.size() >= 5 && (n.compare(n.size() - 5, 5, "Shape") == 0 || n == "shape");
  return n + (is_shape ? "=" : " shape ") + shape_string(shape);
}

// Dims of `shape` must be positive except dim `empty_ok` (-1: none), and
// none may exceed kMaxSize. Fills layout, channels, planes and the spatial
// sizes.
Check read_input(const char* op, const char* name, int32_t dims, const Shape& shape, int empty_ok,
                 Layout layout, Geometry* g) {
  for (int i = 0; i < shape.rank; ++i) {
    const int64_t v = shape.dims[i];
    if (v < 0 || v > kMaxSize) {
      return fail(v < 0 ? Status::kInvalidShape : Status::kTooLarge,
                  Message() << op << ": " << shape_of(name, shape) << " has dimension " << i
                            << " = " << v << " outside 0.." << kMaxSize);
    }
    if (v == 0 && i != empty_ok) {
      return fail(Status::kInvalidShape, Message() << op << ": " << shape_of(name, shape)
                                                   << " has an empty dimension " << i
                                                   << " (only the batch dimension may be 0)");
    }
  }
  // Bytes of the largest element type must stay addressable with int64.
  if (!product_within(shape.dims, shape.rank, INT64_MAX / 8)) {
    return fail(Status::kTooLarge, Message() << op << ": " << shape_of(name, shape)
                                             << " has more elements than 64-bit offsets can "
                                                "address");
  }
  const int sp = spatial_begin(shape.rank, dims, layout);
  g->layout = layout;
  g->channels = shape.dims[channel_dim(shape.rank, dims, layout)];
  g->planes = shape.rank == dims + 2 ? shape.dims[0] * g->channels : g->channels;
  for (int i = 0; i < dims; ++i) g->in[3 - dims + i] = shape.dims[sp + i];
  return {};
}

// The dim that may be 0: N when batched; for unpools and backward passes
// (as PyTorch's unpool), also an unbatched C.
int empty_dim(const Shape& s, int32_t dims, Layout layout, bool unbatched_c) {
  if (s.rank == dims + 2) return 0;
  return unbatched_c ? channel_dim(s.rank, dims, layout) : -1;
}

// Floor division for a positive divisor (PyTorch's div_rtn).
static int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && (a < 0)) --q;
  return q;
}

// Output shape: `input` with its spatial dims replaced by `out`.
Shape make_output(const Shape& input, int32_t dims, Layout layout, const int64_t out[3]) {
  Shape s = input;
  const int sp = spatial_begin(s.rank, dims, layout);
  for (int i = 0; i < dims; ++i) s.dims[sp + i] = out[3 - dims + i];
  return s;
}

Check check_output_numel(const char* op, const Geometry& g, const Shape& out) {
  const int64_t all[4] = {g.planes, g.out[0], g.out[1], g.out[2]};
  if (!product_within(all + 1, 3, INT64_MAX / 8) || !product_within(all, 4, INT64_MAX / 8)) {
    return fail(Status::kTooLarge, Message() << op << ": output shape " << shape_string(out)
                                             << " has more elements than 64-bit offsets can "
                                                "address");
  }
  return {};
}

namespace {

// Resolves an unpool's kernel, stride, padding and input, and the default
// output size per dim (in g->out).
Check plan_unpool_common(const char* op, const UnpoolParams& p, const Shape& input, Geometry* g,
                         const char* name) {
  Check c = check_dims_value(op, p.dims);
  if (!c.ok()) return c;
  const int dims = p.dims;
  // Unlike PyTorch, kernel/stride <= 0 and negative padding are errors.
  if (!(c = resolve(op, "kernelSize", p.kernel, dims, 1, 1, nullptr, true, false, g->kernel))
           .ok() ||
      !(c = resolve(op, "stride", p.stride, dims, 1, 1, g->kernel, false, false, g->stride)).ok() ||
      !(c = resolve(op, "padding", p.padding, dims, 0, 0, nullptr, false, false, g->pad)).ok() ||
      !(c = check_layout(op, p.layout)).ok() ||
      !(c = check_rank(op, name, dims, input, p.layout)).ok() ||
      !(c = read_input(op, name, dims, input, empty_dim(input, dims, p.layout, true), p.layout, g))
           .ok()) {
    return c;
  }
  for (int i = 3 - dims; i < 3; ++i) {
    g->out[i] = (g->in[i] - 1) * g->stride[i] + g->kernel[i] - 2 * g->pad[i];
  }
  return {};
}

// "input 4, kernel 2, stride 2, padding 0": one dim of an unpool.
std::string geometry_text(const Geometry& g, int i) {
  return (Message() << "input " << g.in[i] << ", kernel " << g.kernel[i] << ", stride "
                    << g.stride[i] << ", padding " << g.pad[i])
      .str();
}

SizeRange range_of(const Geometry& g, int i) {
  const int64_t dflt = g.out[i];
  SizeRange r{dflt - g.stride[i] + 1, dflt + g.stride[i] - 1};
  if (r.min < 1) r.min = 1;
  if (r.max > kMaxSize) r.max = kMaxSize;
  return r;
}

}  // namespace

Check plan_pool(const char* op, const PoolParams& p, const Shape& input, Geometry* g, Shape* output,
                const char* name) {
  Check c = check_dims_value(op, p.dims);
  if (!c.ok()) return c;
  const int dims = p.dims;
  if (!(c = resolve(op, "kernelSize", p.kernel, dims, 1, 1, nullptr, true, true, g->kernel)).ok() ||
      !(c = resolve(op, "stride", p.stride, dims, 1, 1, g->kernel, false, true, g->stride)).ok() ||
      !(c = resolve(op, "padding", p.padding, dims, 0, 0, nullptr, false, true, g->pad)).ok() ||
      !(c = resolve(op, "dilation", p.dilation, dims, 1, 1, nullptr, false, true, g->dilation))
           .ok() ||
      !(c = check_layout(op, p.layout)).ok() ||
      !(c = check_rank(op, name, dims, input, p.layout)).ok() ||
      !(c = read_input(op, name, dims, input, empty_dim(input, dims, p.layout, false), p.layout, g))
           .ok()) {
    return c;
  }
  for (int i = 3 - dims; i < 3; ++i) {
    const int u = i - (3 - dims);  // the user's index of this dim
    if (g->pad[i] > g->kernel[i] / 2) {
      return fail(Status::kInvalidArgument,
                  Message() << op << ": " << arg_name("padding", p.padding, u) << "=" << g->pad[i]
                            << " must be at most half of kernelSize " << g->kernel[i]);
    }
    const int64_t s = g->stride[i];
    int64_t o = floor_div(g->in[i] + 2 * g->pad[i] - g->dilation[i] * (g->kernel[i] - 1) - 1 +
                              (p.ceil_mode ? s - 1 : 0),
                          s) +
                1;
    // ceil_mode: the last window must start inside the input or left padding.
    if (p.ceil_mode && (o - 1) * s >= g->in[i] + g->pad[i]) --o;
    if (o < 1) {
      return fail(Status::kInvalidShape,
                  Message() << op << ": output size " << o << " in spatial dim " << u
                            << " is too small (input " << g->in[i] << ", kernelSize "
                            << g->kernel[i] << ", stride " << s << ", padding " << g->pad[i]
                            << ", dilation " << g->dilation[i] << ")");
    }
    g->out[i] = o;
  }
  *output = make_output(input, dims, p.layout, g->out);
  return check_output_numel(op, *g, *output);
}

namespace {

// An unpool without kernel (PyTorch's native max_unpool2d(x, indices,
// output_size)): `output_size` is the output's spatial size, one entry per
// dim, with no range check against a kernel.
Check plan_unpool_kernel_free(const char* op, const UnpoolParams& p, const Shape& input,
                              Geometry* g, Shape* output) {
  Check c = check_dims_value(op, p.dims);
  if (!c.ok()) return c;
  const int dims = p.dims;
  const int32_t n = p.output_size_count;
  if (n < 0) {
    return fail(Status::kInvalidArgument,
                Message() << op
                          << ": kernelSize is required (or outputSize alone, for an "
                             "unpool without kernel)");
  }
  // PyTorch's kernel-free form has no stride and zero padding.
  bool padded = p.padding.count < 0;
  for (int i = 0; i < p.padding.count && i < kMaxSpatialDims; ++i)
    padded |= p.padding.values[i] != 0;
  const char* extra = p.stride.count != 0 || p.stride.list ? "stride"
                      : padded                             ? "padding"
                                                           : nullptr;
  if (extra != nullptr) {
    return fail(Status::kInvalidArgument, Message() << op << ": " << extra
                                                    << " needs kernelSize (an unpool without "
                                                       "kernel takes outputSize and no "
                                                       "stride or padding)");
  }
  if (n != dims) {
    return fail(Status::kInvalidArgument,
                Message() << op << ": outputSize must have " << dims << entries(dims)
                          << " (the output's spatial size) when kernelSize is omitted, got " << n);
  }
  if (!(c = check_layout(op, p.layout)).ok() ||
      !(c = check_rank(op, "x", dims, input, p.layout)).ok() ||
      !(c = read_input(op, "x", dims, input, empty_dim(input, dims, p.layout, true), p.layout, g))
           .ok()) {
    return c;
  }
  for (int i = 0; i < dims; ++i) {
    const int64_t v = p.output_size[i];
    if (v < 1 || v > kMaxSize) {
      Message m;
      m << op << ": outputSize[" << i << "]=" << v;
      if (v < 1) return fail(Status::kInvalidArgument, m << " must be >= 1");
      return fail(Status::kTooLarge, m << " exceeds the limit " << kMaxSize);
    }
    g->out[3 - dims + i] = v;
  }
  *output = make_output(input, dims, p.layout, g->out);
  return check_output_numel(op, *g, *output);
}

}  // namespace

Check plan_unpool(const char* op, const UnpoolParams& p, const Shape& input, Geometry* g,
                  Shape* output) {
  if (p.kernel.count == 0 && !p.kernel.list) {
    return plan_unpool_kernel_free(op, p, input, g, output);
  }
  Check c = plan_unpool_common(op, p, input, g, "x");
  if (!c.ok()) return c;
  const int dims = p.dims;
  const bool batched = input.rank == dims + 2;
  const int32_t n = p.output_size_count;
  if (n >= 0 && n != dims && n != dims + 2 && !(n == dims + 1 && !batched)) {
    Message m;
    m << op << ": outputSize must have " << dims << " or " << dims + 2;
    if (!batched) m << " (or " << dims + 1 << " for unbatched input)";
    return fail(Status::kInvalidArgument, m << " entries, got " << n);
  }
  for (int i = 3 - dims; i < 3; ++i) {
    const int u = i - (3 - dims);
    if (n < 0) {
      if (g->out[i] < 1) {
        return fail(Status::kInvalidArgument,
                    Message() << op << ": default output size (input - 1) * stride + kernel"
                              << " - 2 * padding = " << g->out[i] << " in spatial dim " << u
                              << " must be >= 1 (" << geometry_text(*g, i) << ")");
      }
      if (g->out[i] > kMaxSize) {
        return fail(Status::kTooLarge, Message()
                                           << op << ": default output size " << g->out[i]
                                           << " in spatial dim " << u << " exceeds the limit "
                                           << kMaxSize << " (" << geometry_text(*g, i) << ")");
      }
      continue;
    }
    // Position in the user's outputSize: the spatial entries end it, or
    // precede its C when channels last.
    const int k = (n > dims && p.layout == Layout::kChannelsLast ? n - 1 : n) - dims + u;
    const int64_t v = p.output_size[k];
    const SizeRange r = range_of(*g, i);
    if (v < r.min || v > r.max) {
      Message m;
      m << op << ": outputSize[" << k << "]=" << v;
      if (r.max < r.min) {
        m << " is invalid: no size is valid for " << geometry_text(*g, i);
      } else {
        m << " is outside " << r.min << ".." << r.max << " for " << geometry_text(*g, i);
      }
      return fail(Status::kOutputSizeOutOfRange, m);
    }
    g->out[i] = v;
  }
  *output = make_output(input, dims, p.layout, g->out);
  return check_output_numel(op, *g, *output);
}

Check unpool_ranges(const char* op, const UnpoolParams& p, const Shape& input, SizeRange* ranges) {
  Geometry g;
  Check c = plan_unpool_common(op, p, input, &g, "inputShape");
  if (!c.ok()) return c;
  for (int i = 3 - p.dims; i < 3; ++i) {
    const SizeRange r = range_of(g, i);
    if (r.max < r.min) {
      return fail(Status::kOutputSizeOutOfRange,
                  Message() << op << ": no output size is valid in spatial dim " << i - (3 - p.dims)
                            << " (" << geometry_text(g, i) << ")");
    }
    ranges[i - (3 - p.dims)] = r;
  }
  return {};
}

Check select_planes(const char* op, const PlaneRange& r, const char* name, Geometry* g) {
  const int64_t end = r.end == -1 ? g->planes : r.end;
  if (r.begin == 0 && end == g->planes) return {};
  Message m;
  m << op << ": planes [" << r.begin << ", " << r.end << ")";
  if (g->layout != Layout::kChannelsFirst) {
    return fail(Status::kInvalidArgument, m << " needs the channels-first layout");
  }
  if (r.begin < 0 || r.begin > end || end > g->planes) {
    return fail(Status::kInvalidArgument,
                m << " is not a range of the " << g->planes << " (n, c) planes of " << name);
  }
  g->first_plane = r.begin;
  g->planes = end - r.begin;
  return {};
}

Check plan_plain(const char* op, int32_t dims, Layout layout, const Shape& a, const Shape& b,
                 const char* a_name, const char* b_name, Geometry* g) {
  Check c = check_dims_value(op, dims);
  if (!c.ok() || !(c = check_layout(op, layout)).ok()) return c;
  if (!(c = check_rank(op, a_name, dims, a, layout)).ok() ||
      !(c = check_rank(op, b_name, dims, b, layout)).ok()) {
    return c;
  }
  Geometry gb;
  if (!(c = read_input(op, a_name, dims, a, empty_dim(a, dims, layout, true), layout, g)).ok() ||
      !(c = read_input(op, b_name, dims, b, empty_dim(b, dims, layout, true), layout, &gb)).ok()) {
    return c;
  }
  if (a.rank != b.rank || g->planes != gb.planes || g->channels != gb.channels) {
    return fail(Status::kInvalidShape, Message()
                                           << op << ": " << a_name << " " << shape_string(a)
                                           << " and " << b_name << " " << shape_string(b)
                                           << " must have the same rank and the same N and C");
  }
  for (int i = 0; i < 3; ++i) g->out[i] = gb.in[i];
  return {};
}

}  // namespace internal
}  // namespace unpool
