// Conversions between the argmax index formats of PyTorch, ONNX and
// TensorFlow. Each index is decoded into a row-major offset inside its own
// (n, c) plane, checked, and encoded again.
#include "dispatch.h"
#include "geometry.h"
#include "unpool/unpool.h"

namespace unpool {

using internal::Check;
using internal::Geometry;

const char* index_format_name(IndexFormat format) {
  switch (format) {
    case IndexFormat::kPyTorch:
      return "pytorch";
    case IndexFormat::kOnnx:
      return "onnx";
    case IndexFormat::kOnnxColumnMajor:
      return "onnx-column-major";
    case IndexFormat::kTensorFlow:
      return "tensorflow";
    case IndexFormat::kTensorFlowWithBatch:
      return "tensorflow-with-batch";
  }
  return "unknown";
}

namespace {

constexpr const char* kOp = "convertIndices";

bool valid_format(IndexFormat f) {
  return static_cast<int32_t>(f) >= 0 && static_cast<int32_t>(f) <= 4;
}

// The (n, c) plane of one index tensor element, and the codec of a format.
struct Codec {
  IndexFormat format;
  int64_t plane;  // spatial size of the pooled input
  int64_t size[3];  // its D, H, W
  int64_t channels;

  // Row-major offset of an index of plane (n, c), or -1 when it does not
  // point into that plane.
  int64_t decode(int64_t v, int64_t n, int64_t c) const {
    int64_t off = -1;
    switch (format) {
      case IndexFormat::kPyTorch:
        off = v;
        break;
      case IndexFormat::kOnnx:
        off = v - (n * channels + c) * plane;
        break;
      case IndexFormat::kOnnxColumnMajor:
        off = v - (n * channels + c) * plane;
        if (off >= 0 && off < plane) off = column_to_row(off);
        break;
      case IndexFormat::kTensorFlow:
        off = (v >= 0 && v % channels == c) ? v / channels : -1;
        break;
      case IndexFormat::kTensorFlowWithBatch:
        if (v >= 0 && v % channels == c && (v / channels) / plane == n) {
          off = (v / channels) % plane;
        }
        break;
    }
    return off >= 0 && off < plane ? off : -1;
  }

  int64_t encode(int64_t off, int64_t n, int64_t c) const {
    switch (format) {
      case IndexFormat::kPyTorch:
        return off;
      case IndexFormat::kOnnx:
        return (n * channels + c) * plane + off;
      case IndexFormat::kOnnxColumnMajor:
        return (n * channels + c) * plane + row_to_column(off);
      case IndexFormat::kTensorFlow:
        return off * channels + c;
      case IndexFormat::kTensorFlowWithBatch:
        return (n * plane + off) * channels + c;
    }
    return -1;
  }

  // Largest encoded value + 1 for `batch` images.
  int64_t limit(int64_t batch) const {
    switch (format) {
      case IndexFormat::kPyTorch:
        return plane;
      case IndexFormat::kTensorFlow:
        return plane * channels;
      default:
        return batch * channels * plane;
    }
  }

  // (d, h, w) row-major <-> d + D * (h + H * w) column-major.
  int64_t row_to_column(int64_t r) const {
    const int64_t d = r / (size[1] * size[2]), h = (r / size[2]) % size[1], w = r % size[2];
    return d + size[0] * (h + size[1] * w);
  }
  int64_t column_to_row(int64_t c) const {
    const int64_t d = c % size[0], h = (c / size[0]) % size[1], w = c / (size[0] * size[1]);
    return (d * size[1] + h) * size[2] + w;
  }
};

// Visits every element of the indices tensor with its own (n, c).
template <typename F>
void for_each_element(const Geometry& g, Layout layout, int64_t channels, F&& f) {
  const int64_t per_plane = g.out_plane(), total = g.planes * per_plane;
  for (int64_t e = 0; e < total; ++e) {
    const int64_t p = layout == Layout::kChannelsFirst
                          ? e / per_plane
                          : (e / (channels * per_plane)) * channels + e % channels;
    if (!f(e, p / channels, p % channels)) return;
  }
}

// The error of element e (holding v) of the indices, not an index of
// format `from` into its own plane. `per_plane`: every index of the tensor
// lies in [0, plane), which the message then points out for formats other
// than PyTorch's (PyTorch's ONNX exporter emits per-plane indices).
Check index_error(const Geometry& g, Layout layout, const Codec& from, const Shape& input,
                  int64_t e, int64_t v, bool per_plane) {
  const int64_t channels = g.channels, n_plane = g.out_plane();
  const int64_t p = layout == Layout::kChannelsFirst
                        ? e / n_plane
                        : (e / (channels * n_plane)) * channels + e % channels;
  const int64_t n = p / channels, ch = p % channels;
  const char* name = index_format_name(from.format);
  internal::Message m;
  m << kOp << ": indices[" << e << "]=" << v << " is not " << (name[0] == 'o' ? "an " : "a ")
    << name << " index into its own plane (n=" << n << ", c=" << ch << ") of input "
    << internal::shape_string(input) << " (" << from.plane << " elements per plane)";
  if (per_plane && from.format != IndexFormat::kPyTorch) {
    m << "; every index lies in [0, " << from.plane
      << "): they may already be PyTorch's per-plane indices (from: 'pytorch')";
  }
  return Check{Status::kInvalidIndex, m.str()};
}

// Checks every index first, so a failed call writes nothing (src and dst
// may be one buffer), then converts.
template <typename From, typename To>
Check convert(const Geometry& g, Layout layout, int64_t channels, const Codec& from,
              const From* src, const Codec& to, To* dst, const Shape& input) {
  Check c;
  int64_t bad = -1;
  for_each_element(g, layout, channels, [&](int64_t e, int64_t n, int64_t ch) {
    if (from.decode(static_cast<int64_t>(src[e]), n, ch) >= 0) return true;
    bad = e;
    return false;
  });
  if (bad >= 0) {
    bool per_plane = true;
    for (int64_t e = 0, total = g.planes * g.out_plane(); per_plane && e < total; ++e) {
      const int64_t v = static_cast<int64_t>(src[e]);
      per_plane = v >= 0 && v < from.plane;
    }
    c = index_error(g, layout, from, input, bad, static_cast<int64_t>(src[bad]), per_plane);
    return c;
  }
  for_each_element(g, layout, channels, [&](int64_t e, int64_t n, int64_t ch) {
    dst[e] = static_cast<To>(to.encode(from.decode(static_cast<int64_t>(src[e]), n, ch), n, ch));
    return true;
  });
  return c;
}

}  // namespace

namespace {

// The checks of a conversion and its geometry (g->in: the pooled input's
// plane, g->out: the indices' plane).
Check plan_convert(int32_t dims, Layout layout, const Shape& input, const Shape& indices_shape,
                   IndexFormat from, IndexType from_type, IndexFormat to, IndexType to_type,
                   Geometry* g) {
  Check c;
  if (!valid_format(from) || !valid_format(to)) {
    return internal::fail(Status::kInvalidArgument,
                          internal::Message()
                              << kOp << ": index format "
                              << static_cast<int>(valid_format(from) ? to : from) << " is unknown");
  }
  c = internal::plan_plain(kOp, dims, layout, input, indices_shape, "input", "indices", g);
  if (c.ok()) c = internal::check_types(kOp, DType::kFloat32, from_type);
  if (c.ok()) c = internal::check_types(kOp, DType::kFloat32, to_type);
  const int64_t batch = c.ok() && input.rank == dims + 2 ? input.dims[0] : 1;
  Codec ct{to, g->in_plane(), {g->in[0], g->in[1], g->in[2]}, g->channels};
  if (c.ok()) c = internal::check_types(kOp, DType::kFloat32, to_type, ct.limit(batch));
  return c;
}

}  // namespace

Status plan_convert_indices(int32_t dims, Layout layout, const Shape& input,
                            const Shape& indices_shape, IndexFormat from, IndexType from_type,
                            IndexFormat to, IndexType to_type, Geometry* geometry,
                            std::string* error) {
  return internal::report(
      plan_convert(dims, layout, input, indices_shape, from, from_type, to, to_type, geometry),
      error);
}

Status convert_indices_error(int32_t dims, Layout layout, const Shape& input,
                             const Shape& indices_shape, IndexFormat from, int64_t position,
                             int64_t value, bool per_plane, std::string* error) {
  Geometry g;
  Check c = plan_convert(dims, layout, input, indices_shape, from, IndexType::kInt64, from,
                         IndexType::kInt64, &g);
  if (!c.ok()) return internal::report(c, error);
  const Codec cf{from, g.in_plane(), {g.in[0], g.in[1], g.in[2]}, g.channels};
  return internal::report(index_error(g, layout, cf, input, position, value, per_plane), error);
}

Status convert_indices(int32_t dims, Layout layout, const Shape& input, const Shape& indices_shape,
                       IndexFormat from, IndexType from_type, const void* src, IndexFormat to,
                       IndexType to_type, void* dst, std::string* error) {
  Geometry g;
  Check c = plan_convert(dims, layout, input, indices_shape, from, from_type, to, to_type, &g);
  if (!c.ok() || g.planes == 0) return internal::report(c, error);
  const int64_t channels = g.channels;
  const Codec cf{from, g.in_plane(), {g.in[0], g.in[1], g.in[2]}, channels};
  const Codec ct{to, g.in_plane(), {g.in[0], g.in[1], g.in[2]}, channels};
  auto run = [&](auto from_tag, auto to_tag) {
    using F = decltype(from_tag);
    using T = decltype(to_tag);
    c = convert<F, T>(g, layout, channels, cf, static_cast<const F*>(src), ct, static_cast<T*>(dst),
                      input);
  };
  const bool f32 = from_type == IndexType::kInt32, t32 = to_type == IndexType::kInt32;
  if (f32 && t32) run(int32_t{}, int32_t{});
  else if (f32) run(int32_t{}, int64_t{});
  else if (t32) run(int64_t{}, int32_t{});
  else run(int64_t{}, int64_t{});
  return internal::report(c, error);
}

}  // namespace unpool
