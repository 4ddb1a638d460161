#include "geometry.h"

#include <cstring>

#include "dispatch.h"


namespace unpool {
namespace internal {
namespace {

Check fail(Status s, const std::string& msg) { return Check{s, msg}; }

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
  return std::string(name) + "[" + std::to_string(i) + "]";
}

// Expands `a` into the last `dims` entries of `out` (D, H, W order). A
// missing argument takes `fallback` (itself already expanded) when given,
// else `dflt`. Values must be >= `min` and <= kMaxSize.
// A one-entry list broadcasts only when `single_list` (pools).
Check resolve(const char* op, const char* name, const SizeArg& a,
              int32_t dims, int64_t min, int64_t dflt, const int64_t* fallback,
              bool required, bool single_list, int64_t out[3]) {
  if (a.count == 0 && required) {
    return fail(Status::kInvalidArgument, std::string(op) + ": " + name + " is required");
  }
  // PyTorch's pools read an empty stride list as "not given".
  const bool empty_default = a.list && a.count == 0 && single_list && !required;
  if (a.list && a.count != dims && !(single_list && a.count == 1) &&
      !empty_default) {
    Message m;
    m << op << ": " << name << " must have " << dims
      << (single_list && dims > 1 ? " entries (or 1)" : dims > 1 ? " entries" : " entry")
      << ", got " << a.count;
    return fail(Status::kInvalidArgument, m.str());
  }
  if (a.count < 0 || (!a.list && a.count > 1 && a.count != dims)) {
    return fail(Status::kInvalidArgument,
                std::string(op) + ": " + name + " must have " + std::to_string(dims) +
                    (dims > 1 ? " entries" : " entry") + ", got " +
                    std::to_string(a.count));
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
    const std::string n = arg_name(name, a, i);
    if (v < min) {
      return fail(Status::kInvalidArgument, std::string(op) + ": " + n + "=" +
                                                std::to_string(v) + " must be >= " +
                                                std::to_string(min));
    }
    if (v > kMaxSize) {
      return fail(Status::kTooLarge, std::string(op) + ": " + n + "=" + std::to_string(v) +
                                         " exceeds the limit " +
                                         std::to_string(kMaxSize));
    }
    out[slot] = v;
  }
  return {};
}

Check check_dims_value(const char* op, int32_t dims) {
  if (dims < 1 || dims > kMaxSpatialDims) {
    return fail(Status::kInvalidArgument, std::string(op) + ": dims=" +
                                              std::to_string(dims) +
                                              " must be 1, 2 or 3");
  }
  return {};
}

Check check_layout(const char* op, Layout layout) {
  if (layout == Layout::kChannelsFirst || layout == Layout::kChannelsLast) return {};
  return fail(Status::kInvalidArgument,
              std::string(op) + ": layout=" +
                  std::to_string(static_cast<int>(layout)) +
                  " is not channels-first (0) or channels-last (1)");
}

// "x shape [1, 2]", or "inputShape=[1, 2]" for a parameter that is a shape.
std::string shape_of(const char* name, const Shape& shape) {
  const std::string n = name;
  const bool is_shape = n.size() >= 5 && (n.compare(n.size() - 5, 5, "Shape") == 0 ||
                                          n == "shape");
  return n + (is_shape ? "=" : " shape ") + shape_string(shape);
}

// Dims of `shape` must be positive except dim `empty_ok` (-1: none), and
// none may exceed kMaxSize. Fills layout, channels, planes and the spatial
// sizes.
Check read_input(const char* op, const char* name, int32_t dims,
                 const Shape& shape, int empty_ok, Layout layout, Geometry* g) {
  for (int i = 0; i < shape.rank; ++i) {
    const int64_t v = shape.dims[i];
    if (v < 0 || v > kMaxSize) {
      return fail(v < 0 ? Status::kInvalidShape : Status::kTooLarge,
                  std::string(op) + ": " + shape_of(name, shape) +
                      " has dimension " + std::to_string(i) + " = " +
                      std::to_string(v) + " outside 0.." +
                      std::to_string(kMaxSize));
    }
    if (v == 0 && i != empty_ok) {
      return fail(Status::kInvalidShape,
                  std::string(op) + ": " + shape_of(name, shape) +
                      " has an empty dimension " + std::to_string(i) +
                      " (only the batch dimension may be 0)");
    }
  }
  // Bytes of the largest element type must stay addressable with int64.
  if (!product_within(shape.dims, shape.rank, INT64_MAX / 8)) {
    return fail(Status::kTooLarge,
                std::string(op) + ": " + shape_of(name, shape) +
                    " has more elements than 64-bit offsets can address");
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
int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && (a < 0)) --q;
  return q;
}

// Output shape: `input` with its spatial dims replaced by `out`.
Shape make_output(const Shape& input, int32_t dims, Layout layout,
                  const int64_t out[3]) {
  Shape s = input;
  const int sp = spatial_begin(s.rank, dims, layout);
  for (int i = 0; i < dims; ++i) s.dims[sp + i] = out[3 - dims + i];
  return s;
}

Check check_output_numel(const char* op, const Geometry& g,
                         const Shape& out) {
  const int64_t all[4] = {g.planes, g.out[0], g.out[1], g.out[2]};
  if (!product_within(all + 1, 3, INT64_MAX / 8) ||
      !product_within(all, 4, INT64_MAX / 8)) {
    return fail(Status::kTooLarge,
                std::string(op) + ": output shape " + shape_string(out) +
                    " has more elements than 64-bit offsets can address");
  }
  return {};
}

}  // namespace

OpName::OpName(const char* base, int32_t dims) {
  const bool valid = dims >= 1 && dims <= kMaxSpatialDims;
  size_t n = 0;
  for (const char* c = base; *c != '\0' && n + 2 < sizeof(s_); ++c) {
    if (c[0] == '#' && c[1] == 'd') {
      if (valid) {
        s_[n++] = static_cast<char>('0' + dims);
        s_[n++] = 'd';
      }
      ++c;
    } else {
      s_[n++] = *c;
    }
  }
  s_[n] = '\0';
}

std::string shape_string(const Shape& s) {
  std::string r = "[";
  for (int i = 0; i < s.rank && i < kMaxRank; ++i) {
    if (i) r += ", ";
    r += std::to_string(s.dims[i]);
  }
  return r + "]";
}

Check check_rank(const char* op, const char* name, int32_t dims,
                 const Shape& shape, Layout layout) {
  if (shape.rank == dims + 1 || shape.rank == dims + 2) return {};
  static const char* const kSpatial[] = {"L", "H, W", "D, H, W"};
  const std::string sp = kSpatial[dims - 1];
  const bool last = layout == Layout::kChannelsLast;
  Message m;
  m << op << ": " << name << " must have rank " << dims + 1 << " ("
    << (last ? sp + ", C" : "C, " + sp) << ") or " << dims + 2 << " (N, "
    << (last ? sp + ", C" : "C, " + sp) << "), got rank " << shape.rank;
  if (shape.rank >= 0 && shape.rank <= kMaxRank) m << " " << shape_string(shape);
  return fail(Status::kInvalidShape, m.str());
}

Check check_index_type(const char* op, IndexType t, int64_t limit) {
  // `limit` is exclusive: int32 holds offsets up to INT32_MAX.
  if (t == IndexType::kInt32 && limit - 1 > INT32_MAX) {
    return fail(Status::kTooLarge,
                std::string(op) + ": indexType int32 cannot hold offsets up to " +
                    std::to_string(limit - 1) + "; use int64");
  }
  if (t != IndexType::kInt32 && t != IndexType::kInt64) {
    return fail(Status::kInvalidArgument,
                std::string(op) + ": indexType=" +
                    std::to_string(static_cast<int>(t)) + " is not int32 or int64");
  }
  return {};
}

namespace {

Check plan_pool_uncached(const char* op, const PoolParams& p, const Shape& input,
                         Geometry* g, Shape* output, const char* name) {
  Check c = check_dims_value(op, p.dims);
  if (!c.ok()) return c;
  const int dims = p.dims;
  if (!(c = resolve(op, "kernelSize", p.kernel, dims, 1, 1, nullptr, true, true,
                    g->kernel)).ok() ||
      !(c = resolve(op, "stride", p.stride, dims, 1, 1, g->kernel, false, true,
                    g->stride)).ok() ||
      !(c = resolve(op, "padding", p.padding, dims, 0, 0, nullptr, false, true,
                    g->pad)).ok() ||
      !(c = resolve(op, "dilation", p.dilation, dims, 1, 1, nullptr, false, true,
                    g->dilation)).ok() ||
      !(c = check_layout(op, p.layout)).ok() ||
      !(c = check_rank(op, name, dims, input, p.layout)).ok() ||
      !(c = read_input(op, name, dims, input,
                       empty_dim(input, dims, p.layout, false), p.layout, g))
           .ok()) {
    return c;
  }
  for (int i = 3 - dims; i < 3; ++i) {
    const int u = i - (3 - dims);  // the user's index of this dim
    if (g->pad[i] > g->kernel[i] / 2) {
      return fail(Status::kInvalidArgument,
                  std::string(op) + ": " + arg_name("padding", p.padding, u) + "=" +
                      std::to_string(g->pad[i]) +
                      " must be at most half of kernelSize " +
                      std::to_string(g->kernel[i]));
    }
    const int64_t s = g->stride[i];
    int64_t o = floor_div(g->in[i] + 2 * g->pad[i] -
                              g->dilation[i] * (g->kernel[i] - 1) - 1 +
                              (p.ceil_mode ? s - 1 : 0),
                          s) +
                1;
    // ceil_mode: the last window must start inside the input or left padding.
    if (p.ceil_mode && (o - 1) * s >= g->in[i] + g->pad[i]) --o;
    if (o < 1) {
      Message m;
      m << op << ": output size " << o << " in spatial dim " << u
        << " is too small (input " << g->in[i] << ", kernelSize "
        << g->kernel[i] << ", stride " << s << ", padding " << g->pad[i]
        << ", dilation " << g->dilation[i] << ")";
      return fail(Status::kInvalidShape, m.str());
    }
    g->out[i] = o;
  }
  *output = make_output(input, dims, p.layout, g->out);
  c = check_output_numel(op, *g, *output);
  return c.ok() ? select_planes(op, p.planes, name, g) : c;
}

}  // namespace

Check select_planes(const char* op, const PlaneRange& r, const char* name,
                    Geometry* g) {
  const int64_t end = r.end == -1 ? g->planes : r.end;
  if (r.begin == 0 && end == g->planes) return {};
  Message m;
  m << op << ": planes [" << r.begin << ", " << r.end << ")";
  if (g->layout != Layout::kChannelsFirst) {
    m << " needs the channels-first layout";
    return fail(Status::kInvalidArgument, m.str());
  }
  if (r.begin < 0 || r.begin > end || end > g->planes) {
    m << " is not a range of the " << g->planes << " (n, c) planes of " << name;
    return fail(Status::kInvalidArgument, m.str());
  }
  g->first_plane = r.begin;
  g->planes = end - r.begin;
  return {};
}

namespace {

// Resolves an unpool's kernel, stride, padding and input, and the default
// output size per dim (in g->out).
Check plan_unpool_common(const char* op, const UnpoolParams& p,
                         const Shape& input, Geometry* g, const char* name) {
  Check c = check_dims_value(op, p.dims);
  if (!c.ok()) return c;
  const int dims = p.dims;
  // Unlike PyTorch, kernel/stride <= 0 and negative padding are errors.
  if (!(c = resolve(op, "kernelSize", p.kernel, dims, 1, 1, nullptr, true, false,
                    g->kernel)).ok() ||
      !(c = resolve(op, "stride", p.stride, dims, 1, 1, g->kernel, false, false,
                    g->stride)).ok() ||
      !(c = resolve(op, "padding", p.padding, dims, 0, 0, nullptr, false, false,
                    g->pad)).ok() ||
      !(c = check_layout(op, p.layout)).ok() ||
      !(c = check_rank(op, name, dims, input, p.layout)).ok() ||
      !(c = read_input(op, name, dims, input,
                       empty_dim(input, dims, p.layout, true), p.layout, g))
           .ok()) {
    return c;
  }
  for (int i = 3 - dims; i < 3; ++i) {
    g->out[i] = (g->in[i] - 1) * g->stride[i] + g->kernel[i] - 2 * g->pad[i];
  }
  return {};
}

std::string geometry_text(const Geometry& g, int i) {
  return "input " + std::to_string(g.in[i]) + ", kernel " +
         std::to_string(g.kernel[i]) + ", stride " +
         std::to_string(g.stride[i]) + ", padding " + std::to_string(g.pad[i]);
}

SizeRange range_of(const Geometry& g, int i) {
  const int64_t dflt = g.out[i];
  SizeRange r{dflt - g.stride[i] + 1, dflt + g.stride[i] - 1};
  if (r.min < 1) r.min = 1;
  if (r.max > kMaxSize) r.max = kMaxSize;
  return r;
}

}  // namespace

Check unpool_ranges(const char* op, const UnpoolParams& p,
                    const Shape& input, SizeRange* ranges) {
  Geometry g;
  Check c = plan_unpool_common(op, p, input, &g, "inputShape");
  if (!c.ok()) return c;
  for (int i = 3 - p.dims; i < 3; ++i) {
    const SizeRange r = range_of(g, i);
    if (r.max < r.min) {
      return fail(Status::kOutputSizeOutOfRange,
                  std::string(op) + ": no output size is valid in spatial dim " +
                      std::to_string(i - (3 - p.dims)) + " (" +
                      geometry_text(g, i) + ")");
    }
    ranges[i - (3 - p.dims)] = r;
  }
  return {};
}

namespace {

Check plan_unpool_uncached(const char* op, const UnpoolParams& p,
                           const Shape& input, Geometry* g, Shape* output) {
  Check c = plan_unpool_common(op, p, input, g, "x");
  if (!c.ok()) return c;
  const int dims = p.dims;
  const bool batched = input.rank == dims + 2;
  const int32_t n = p.output_size_count;
  if (n >= 0 && n != dims && n != dims + 2 && !(n == dims + 1 && !batched)) {
    Message m;
    m << op << ": outputSize must have " << dims << " or " << dims + 2
      << (batched ? "" : (" (or " + std::to_string(dims + 1) +
                          " for unbatched input)"))
      << " entries, got " << n;
    return fail(Status::kInvalidArgument, m.str());
  }
  for (int i = 3 - dims; i < 3; ++i) {
    const int u = i - (3 - dims);
    if (n < 0) {
      if (g->out[i] < 1) {
        return fail(Status::kInvalidArgument,
                    std::string(op) + ": default output size (input - 1) * stride + kernel"
                         " - 2 * padding = " +
                        std::to_string(g->out[i]) + " in spatial dim " +
                        std::to_string(u) + " must be >= 1 (" +
                        geometry_text(*g, i) + ")");
      }
      if (g->out[i] > kMaxSize) {
        return fail(Status::kTooLarge,
                    std::string(op) + ": default output size " + std::to_string(g->out[i]) +
                        " in spatial dim " + std::to_string(u) +
                        " exceeds the limit " + std::to_string(kMaxSize) + " (" +
                        geometry_text(*g, i) + ")");
      }
      continue;
    }
    // Position in the user's outputSize: the spatial entries end it, or
    // precede its C when channels last.
    const int k = (n > dims && p.layout == Layout::kChannelsLast ? n - 1 : n) - dims + u;
    const int64_t v = p.output_size[k];
    const SizeRange r = range_of(*g, i);
    if (v < r.min || v > r.max) {
      const std::string what = std::string(op) + ": outputSize[" + std::to_string(k) +
                               "]=" + std::to_string(v);
      return fail(Status::kOutputSizeOutOfRange,
                  r.max < r.min
                      ? what + " is invalid: no size is valid for " +
                            geometry_text(*g, i)
                      : what + " is outside " + std::to_string(r.min) + ".." +
                            std::to_string(r.max) + " for " +
                            geometry_text(*g, i));
    }
    g->out[i] = v;
  }
  *output = make_output(input, dims, p.layout, g->out);
  c = check_output_numel(op, *g, *output);
  return c.ok() ? select_planes(op, p.planes, "x", g) : c;
}

bool same(const SizeArg& a, const SizeArg& b) {
  return a.count == b.count && a.list == b.list && a.values[0] == b.values[0] &&
         a.values[1] == b.values[1] && a.values[2] == b.values[2];
}

bool same(const Shape& a, const Shape& b) {
  if (a.rank != b.rank) return false;
  for (int i = 0; i < kMaxRank; ++i) {
    if (a.dims[i] != b.dims[i]) return false;
  }
  return true;
}

bool same(const PoolParams& a, const PoolParams& b) {
  return a.dims == b.dims && same(a.kernel, b.kernel) && same(a.stride, b.stride) &&
         same(a.padding, b.padding) && same(a.dilation, b.dilation) &&
         a.ceil_mode == b.ceil_mode && a.layout == b.layout &&
         a.planes.begin == b.planes.begin && a.planes.end == b.planes.end;
}

bool same(const UnpoolParams& a, const UnpoolParams& b) {
  if (!(a.dims == b.dims && same(a.kernel, b.kernel) && same(a.stride, b.stride) &&
        same(a.padding, b.padding) && a.output_size_count == b.output_size_count &&
        a.layout == b.layout && a.planes.begin == b.planes.begin &&
        a.planes.end == b.planes.end)) {
    return false;
  }
  for (int i = 0; i < kMaxRank; ++i) {
    if (a.output_size[i] != b.output_size[i]) return false;
  }
  return true;
}

// The last successful plan of one kind, reused by a call with the same op,
// arguments, input shape and tensor name: planning is a pure function of
// them. A network runs the same layers on the same shapes call after call,
// and planning costs as much as the kernel of a small call (~0.3 us in
// WebAssembly for a 1x8x16x16 unpool).
template <typename P>
class PlanMemo {
 public:
  bool find(const char* op, const P& p, const Shape& input, const char* name,
            Geometry* g, Shape* output) const {
    if (!valid_ || std::strcmp(op, op_) != 0 || std::strcmp(name, name_) != 0 ||
        !same(p, params_) || !same(input, input_)) {
      return false;
    }
    *g = g_;
    *output = output_;
    return true;
  }
  void store(const char* op, const P& p, const Shape& input, const char* name,
             const Geometry& g, const Shape& output) {
    valid_ = std::strlen(op) < sizeof(op_) && std::strlen(name) < sizeof(name_);
    if (!valid_) return;
    std::strcpy(op_, op);
    std::strcpy(name_, name);
    params_ = p;
    input_ = input;
    g_ = g;
    output_ = output;
  }

 private:
  bool valid_ = false;
  char op_[40] = {};
  char name_[16] = {};
  P params_;
  Shape input_;
  Geometry g_;
  Shape output_;
};

// One memo per thread. WebAssembly without threads has one thread, and
// thread_local there would need the atomics feature.
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define UNPOOL_THREAD_LOCAL
#else
#define UNPOOL_THREAD_LOCAL thread_local
#endif
UNPOOL_THREAD_LOCAL PlanMemo<PoolParams> pool_memo;
UNPOOL_THREAD_LOCAL PlanMemo<UnpoolParams> unpool_memo;
#undef UNPOOL_THREAD_LOCAL

}  // namespace

Check plan_pool(const char* op, const PoolParams& p, const Shape& input,
                Geometry* g, Shape* output, const char* name) {
  if (pool_memo.find(op, p, input, name, g, output)) return {};
  Check c = plan_pool_uncached(op, p, input, g, output, name);
  if (c.ok()) pool_memo.store(op, p, input, name, *g, *output);
  return c;
}

Check plan_unpool(const char* op, const UnpoolParams& p, const Shape& input,
                  Geometry* g, Shape* output) {
  if (unpool_memo.find(op, p, input, "x", g, output)) return {};
  Check c = plan_unpool_uncached(op, p, input, g, output);
  if (c.ok()) unpool_memo.store(op, p, input, "x", *g, *output);
  return c;
}

}  // namespace internal
}  // namespace unpool

namespace unpool {
namespace internal {

Check check_types(const char* op, DType dtype, IndexType index_type) {
  if (dtype != DType::kFloat32 && dtype != DType::kFloat64) {
    return fail(Status::kInvalidArgument,
                std::string(op) + ": dtype=" +
                    std::to_string(static_cast<int>(dtype)) +
                    " is not float32 or float64");
  }
  return check_index_type(op, index_type, 0);
}

Check check_same_shape(const char* op, const char* name, const Shape& actual,
                       const Shape& expected) {
  bool same = actual.rank == expected.rank;
  for (int i = 0; same && i < actual.rank; ++i) {
    same = actual.dims[i] == expected.dims[i];
  }
  if (same) return {};
  return fail(Status::kInvalidShape, std::string(op) + ": " + name + " shape " +
                                         shape_string(actual) +
                                         " does not match the expected " +
                                         shape_string(expected));
}

Check plan_plain(const char* op, int32_t dims, Layout layout, const Shape& a,
                 const Shape& b, const char* a_name, const char* b_name,
                 Geometry* g) {
  Check c = check_dims_value(op, dims);
  if (!c.ok() || !(c = check_layout(op, layout)).ok()) return c;
  if (!(c = check_rank(op, a_name, dims, a, layout)).ok() ||
      !(c = check_rank(op, b_name, dims, b, layout)).ok()) {
    return c;
  }
  Geometry gb;
  if (!(c = read_input(op, a_name, dims, a, empty_dim(a, dims, layout, true),
                       layout, g)).ok() ||
      !(c = read_input(op, b_name, dims, b, empty_dim(b, dims, layout, true),
                       layout, &gb)).ok()) {
    return c;
  }
  if (a.rank != b.rank || g->planes != gb.planes || g->channels != gb.channels) {
    return fail(Status::kInvalidShape,
                std::string(op) + ": " + a_name + " " + shape_string(a) + " and " + b_name +
                    " " + shape_string(b) +
                    " must have the same rank and the same N and C");
  }
  for (int i = 0; i < 3; ++i) g->out[i] = gb.in[i];
  return {};
}

Check index_error(const char* op, const char* name, int64_t pos, int64_t value,
                  const int64_t plane[3], int32_t dims, const char* what) {
  Message m;
  m << op << ": " << name << "[" << pos << "]=" << value
    << " is out of range for " << what << " plane ";
  for (int i = 3 - dims; i < 3; ++i) m << (i > 3 - dims ? "x" : "") << plane[i];
  m << " (" << plane[0] * plane[1] * plane[2] << " elements)";
  return fail(Status::kInvalidIndex, m.str());
}

}  // namespace internal
}  // namespace unpool
