// Operator-layer planning: resolves the user's arguments into one 3d
// problem (a Geometry: 1d and 2d are the 3d case with D (and H) = 1) and
// validates them on the way.
#ifndef UNPOOL_SRC_GEOMETRY_H_
#define UNPOOL_SRC_GEOMETRY_H_

#include <cstdint>

#include "checks.h"
#include "ukernels/window.h"
#include "unpool/types.h"

namespace unpool {
namespace internal {

using unpool::Geometry;

// Validates a pool's arguments and input (`op` and `name` name them in
// messages) and fills `g` and the output shape.
Check plan_pool(const char* op, const PoolParams& p, const Shape& input, Geometry* g, Shape* output,
                const char* name = "x");

// Validates an unpool's arguments and input and fills `g` (with `in` the
// pooled size and `out` the unpooled size) and the output shape.
Check plan_unpool(const char* op, const UnpoolParams& p, const Shape& input, Geometry* g,
                  Shape* output);

// Checks `r` against the planes of `g` (`name` names the tensor) and
// narrows `g` to them: `planes` becomes their count, `first_plane` their
// start. Every run calls it.
Check select_planes(const char* op, const PlaneRange& r, const char* name, Geometry* g);

// The valid output sizes per spatial dim (`dims` entries) of an unpool.
Check unpool_ranges(const char* op, const UnpoolParams& p, const Shape& input, SizeRange* ranges);

// For ops whose geometry comes from two shapes (backward passes): `a` and `b`
// are tensors of `dims` spatial dims in `layout`, of the same rank and the
// same N and C. Fills g->planes, g->in from `a` and g->out from `b`.
Check plan_plain(const char* op, int32_t dims, Layout layout, const Shape& a, const Shape& b,
                 const char* a_name, const char* b_name, Geometry* g);

// Expands size argument `a` (`name` in messages) into the last `dims`
// entries of `out` (D, H, W order). A missing argument takes `fallback`
// (itself already expanded) when given, else `dflt`. Values must be >= `min`
// and <= kMaxSize. A one-entry list broadcasts only when `single_list`.
Check resolve(const char* op, const char* name, const SizeArg& a, int32_t dims, int64_t min,
              int64_t dflt, const int64_t* fallback, bool required, bool single_list,
              int64_t out[3]);

// Dims of `shape` must be positive except dim `empty_ok` (-1: none), and
// none may exceed kMaxSize. Fills layout, channels, planes and the spatial
// sizes of `g`.
Check read_input(const char* op, const char* name, int32_t dims, const Shape& shape, int empty_ok,
                 Layout layout, Geometry* g);

// The dim of `s` that may be 0: N when batched; with `unbatched_c` (unpools
// and backward passes, as PyTorch's unpool), also an unbatched C.
int empty_dim(const Shape& s, int32_t dims, Layout layout, bool unbatched_c);

// `input` with its spatial dims replaced by `out` (D, H, W order).
Shape make_output(const Shape& input, int32_t dims, Layout layout, const int64_t out[3]);

// The output of `g` (`out` its shape) must stay addressable with int64.
Check check_output_numel(const char* op, const Geometry& g, const Shape& out);

// Position of the first spatial dim and of C in a shape of rank `rank`.
inline int spatial_begin(int rank, int32_t dims, Layout layout) {
  return layout == Layout::kChannelsLast ? rank - dims - 1 : rank - dims;
}
inline int channel_dim(int rank, int32_t dims, Layout layout) {
  return layout == Layout::kChannelsLast ? rank - 1 : rank - dims - 1;
}

// Window of one output position along one dim, clipped to the input as
// PyTorch clips it: `start` is moved forward by whole dilation steps until it
// is >= 0, `end` is exclusive. The window is empty when start >= end.
struct Span {
  int64_t start;
  int64_t end;
};
inline Span window(int64_t o, int64_t in, int64_t k, int64_t s, int64_t p, int64_t d) {
  const ukernels::Window w = ukernels::clipped_window(o, in, k, s, p, d);
  return {w.start, w.end};
}

// The window of output position `o` along spatial dim `dim` of `g`.
inline Span window(const Geometry& g, int dim, int64_t o) {
  return window(o, g.in[dim], g.kernel[dim], g.stride[dim], g.pad[dim], g.dilation[dim]);
}

}  // namespace internal
}  // namespace unpool

#endif  // UNPOOL_SRC_GEOMETRY_H_
