// Operator-layer geometry: validates the user's arguments and resolves them
// into one 3d problem. 1d and 2d are the 3d case with D (and H) = 1, so one
// body serves all three (as in ATen and tfjs's Pool3DInfo).
#ifndef UNPOOL_SRC_GEOMETRY_H_
#define UNPOOL_SRC_GEOMETRY_H_

#include <cstdint>
#include <string>
#include <type_traits>

#include "ukernels/window.h"
#include "unpool/unpool.h"

namespace unpool {
namespace internal {

// Largest value accepted for any size, stride, padding, dilation or dim.
// Keeps every product of two of them inside int64.
constexpr int64_t kMaxSize = (int64_t{1} << 31) - 1;

// Builds a message with `<<` like an ostringstream, without pulling the
// iostream machinery (locales, ~100 KB) into the .wasm.
class Message {
 public:
  Message& operator<<(const std::string& v) { s_ += v; return *this; }
  Message& operator<<(const char* v) { s_ += v; return *this; }
  template <typename N, typename = std::enable_if_t<std::is_integral<N>::value>>
  Message& operator<<(N v) { s_ += std::to_string(v); return *this; }
  const std::string& str() const { return s_; }

 private:
  std::string s_;
};

// Where `ok()` is false, `status` and `message` say why.
struct Check {
  Status status = Status::kOk;
  std::string message;
  bool ok() const { return status == Status::kOk; }
};

// Name of an op as the JS API spells it: "maxPool2d", "maxUnpool3dBackward",
// from a base with "#d" where the dims go ("maxPool#d"; dims outside 1..3
// give "maxPool"). Built in place: every call names its op, and a heap
// string per call cost more than validating a small call.
class OpName {
 public:
  OpName(const char* base, int32_t dims);
  const char* c_str() const { return s_; }

 private:
  char s_[40];
};

// A resolved problem. Spatial arrays are indexed D, H, W; for 1d and 2d the
// leading entries describe a dimension of size 1 with kernel 1, stride 1,
// padding 0, dilation 1.
struct Geometry {
  Layout layout = Layout::kChannelsFirst;
  int64_t channels = 1;      // C
  int64_t planes = 0;        // N * C (or C when unbatched); after
                             // select_planes, those of the PlaneRange
  int64_t first_plane = 0;   // the PlaneRange's begin
  int64_t in[3] = {1, 1, 1};   // input spatial size
  int64_t out[3] = {1, 1, 1};  // output spatial size
  int64_t kernel[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1};
  int64_t pad[3] = {0, 0, 0};
  int64_t dilation[3] = {1, 1, 1};

  int64_t in_plane() const { return in[0] * in[1] * in[2]; }
  int64_t out_plane() const { return out[0] * out[1] * out[2]; }
};

// Validates a pool's arguments and input (`op` and `name` name them in
// messages) and fills `g` and the output shape.
Check plan_pool(const char* op, const PoolParams& p, const Shape& input,
                Geometry* g, Shape* output, const char* name = "x");

// Validates an unpool's arguments and input and fills `g` (with `in` the
// pooled size and `out` the unpooled size) and the output shape.
Check plan_unpool(const char* op, const UnpoolParams& p, const Shape& input,
                  Geometry* g, Shape* output);

// Checks `r` against the planes of `g` (`name` names the tensor) and
// narrows `g` to them: `planes` becomes their count, `first_plane` their
// start. plan_pool and plan_unpool call it.
Check select_planes(const char* op, const PlaneRange& r, const char* name,
                    Geometry* g);

// The valid output sizes per spatial dim (`dims` entries) of an unpool.
Check unpool_ranges(const char* op, const UnpoolParams& p, const Shape& input,
                    SizeRange* ranges);

// Checks that `shape` is a (N, C, spatial...) or (C, spatial...) tensor of
// `dims` spatial dims (channels last: (N, spatial..., C) or (spatial..., C));
// `name` is the parameter's name in messages.
Check check_rank(const char* op, const char* name, int32_t dims,
                 const Shape& shape, Layout layout = Layout::kChannelsFirst);

// Position of the first spatial dim and of C in a shape of rank `rank`.
inline int spatial_begin(int rank, int32_t dims, Layout layout) {
  return layout == Layout::kChannelsLast ? rank - dims - 1 : rank - dims;
}
inline int channel_dim(int rank, int32_t dims, Layout layout) {
  return layout == Layout::kChannelsLast ? rank - 1 : rank - dims - 1;
}

// "[2, 3, 4]"
std::string shape_string(const Shape& s);

// Checks that the index type can hold every offset below `limit`.
Check check_index_type(const char* op, IndexType t, int64_t limit);

// Window of one output position along one dim, clipped to the input as
// PyTorch clips it: `start` is moved forward by whole dilation steps until it
// is >= 0, `end` is exclusive. The window is empty when start >= end.
struct Span {
  int64_t start;
  int64_t end;
};
inline Span window(int64_t o, int64_t in, int64_t k, int64_t s, int64_t p,
                   int64_t d) {
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
