// The value types of the unpool C++ API: statuses, element types, shapes,
// op parameters, the resolved geometry and the plan an op runs from.
// The lists (UNPOOL_*_LIST) are the one place each enumeration is spelled:
// the C++ enums, the names in messages and the names the JavaScript side
// reads from the module at load are all generated from them.
#ifndef UNPOOL_TYPES_H_
#define UNPOOL_TYPES_H_

#include <cstdint>

namespace unpool {

// X(enumerator, code, name): the result of every entry point. The codes and
// names are part of the JS API (UnpoolError.code is the name).
#define UNPOOL_STATUS_LIST(X)                                                \
  X(kOk, 0, "ok")                                                            \
  /* a parameter (kernel, stride, padding, ...) is bad */                    \
  X(kInvalidArgument, 1, "invalid_argument")                                 \
  /* a tensor has the wrong rank, an empty dim, or does not match another */ \
  X(kInvalidShape, 2, "invalid_shape")                                       \
  /* an index lies outside its plane */                                      \
  X(kInvalidIndex, 3, "invalid_index")                                       \
  /* unpool outputSize outside the valid range */                            \
  X(kOutputSizeOutOfRange, 4, "output_size_out_of_range")                    \
  /* a size overflows 64-bit arithmetic or the chosen index type */          \
  X(kTooLarge, 5, "too_large")

// X(enumerator, code, name, C++ type): element types of values. The 16-bit
// types are stored as their bits (uint16_t, IEEE binary16 and bfloat16); the
// C++ type named here is the operator layer's (ukernels/half.h), which the
// public API never spells: values cross it as void pointers. The integer
// types pool by PyTorch's integer rule (the first strictly greater element
// wins, no NaN rule); fractional pooling and the backward passes that add
// refuse them (checks.h).
#define UNPOOL_DTYPE_LIST(X)                                \
  X(kFloat32, 0, "float32", float)                          \
  X(kFloat64, 1, "float64", double)                         \
  X(kFloat16, 2, "float16", ::unpool::ukernels::Float16)    \
  X(kBFloat16, 3, "bfloat16", ::unpool::ukernels::BFloat16) \
  X(kUint8, 4, "uint8", uint8_t)                            \
  X(kInt8, 5, "int8", int8_t)                               \
  X(kInt16, 6, "int16", int16_t)                            \
  X(kInt32, 7, "int32", int32_t)                            \
  X(kInt64, 8, "int64", int64_t)

// X(enumerator, code, name, C++ type): element types of indices.
#define UNPOOL_INDEX_TYPE_LIST(X) \
  X(kInt32, 0, "int32", int32_t)  \
  X(kInt64, 1, "int64", int64_t)

// X(enumerator, code, name): the ops a Plan can be made for.
#define UNPOOL_OP_LIST(X)                                   \
  X(kMaxPool, 0, "maxPool")                                 \
  X(kMaxUnpool, 1, "maxUnpool")                             \
  X(kMaxPoolBackward, 2, "maxPoolBackward")                 \
  X(kMaxUnpoolBackward, 3, "maxUnpoolBackward")             \
  X(kAdaptiveMaxPool, 4, "adaptiveMaxPool")                 \
  X(kFractionalMaxPool, 5, "fractionalMaxPool")             \
  X(kAdaptiveMaxPoolBackward, 6, "adaptiveMaxPoolBackward") \
  X(kFractionalMaxPoolBackward, 7, "fractionalMaxPoolBackward")

#define UNPOOL_ENUMERATOR(e, code, ...) e = code,
enum class Status : int32_t { UNPOOL_STATUS_LIST(UNPOOL_ENUMERATOR) };
enum class DType : int32_t { UNPOOL_DTYPE_LIST(UNPOOL_ENUMERATOR) };
enum class IndexType : int32_t { UNPOOL_INDEX_TYPE_LIST(UNPOOL_ENUMERATOR) };
enum class Op : int32_t { UNPOOL_OP_LIST(UNPOOL_ENUMERATOR) };
#undef UNPOOL_ENUMERATOR

// Where the channel dim sits: (N, C, spatial...) as PyTorch has it (NCHW),
// or (N, spatial..., C) (NHWC, as TensorFlow and image data have it).
// Indices are per-(n, c) spatial offsets in both.
enum class Layout : int32_t { kChannelsFirst = 0, kChannelsLast = 1 };

constexpr int kMaxSpatialDims = 3;
constexpr int kMaxRank = kMaxSpatialDims + 2;

// A tensor shape, outermost dimension first.
struct Shape {
  int32_t rank = 0;
  int64_t dims[kMaxRank] = {};
};

// A size argument as the user gave it: `count` = 0 means "not given" (the
// op's default); `count` 1 with `list` false is a scalar that applies to
// every spatial dim; otherwise `count` entries, one per spatial dim. Set
// `list` for an array the user gave: as in PyTorch, pools accept a one-entry
// list for every dim (and an empty stride list as "not given"), unpools do
// not. Any other count is an error reported by the op; only the first
// kMaxSpatialDims values are read.
struct SizeArg {
  int32_t count = 0;
  bool list = false;
  int64_t values[kMaxSpatialDims] = {};
};

// Part of a channels-first tensor that one run of a plan reads and writes:
// its (n, c) planes [begin, end) of N * C (unbatched: C). Every data pointer
// of the run points at the first element of plane `begin`, so that a caller
// can stream a large tensor through a small buffer; index positions in
// messages still count from the tensor's start. The default {0, -1} is every
// plane (`end` = -1 means the last plane); a channels-last plan accepts only
// the default.
struct PlaneRange {
  int64_t begin = 0;
  int64_t end = -1;
};

// Arguments of max_pool{1,2,3}d. `stride` defaults to `kernel`, `padding` to
// 0 and `dilation` to 1.
struct PoolParams {
  int32_t dims = 2;  // spatial dimensions: 1, 2 or 3
  SizeArg kernel;
  SizeArg stride;
  SizeArg padding;
  SizeArg dilation;
  bool ceil_mode = false;
  Layout layout = Layout::kChannelsFirst;
};

// Arguments of max_unpool{1,2,3}d. `stride` defaults to `kernel`, `padding`
// to 0. `output_size_count` = -1 selects the default output size
// `(in - 1) * stride + kernel - 2 * padding`; otherwise `output_size` holds
// `output_size_count` entries: one per spatial dim, optionally preceded by N
// and C (`dims + 2` entries) or, for unbatched input, by C (`dims + 1`).
// N/C entries are ignored, as in PyTorch. With kChannelsLast the longer
// forms follow the tensor's layout: (N, spatial..., C) and (spatial..., C).
struct UnpoolParams {
  int32_t dims = 2;
  SizeArg kernel;
  SizeArg stride;
  SizeArg padding;
  int32_t output_size_count = -1;
  int64_t output_size[kMaxRank] = {};
  Layout layout = Layout::kChannelsFirst;
};

// Arguments of adaptive_max_pool{1,2,3}d: the output's spatial size,
// `output_size` as a SizeArg (a scalar for every dim, or one entry per dim),
// where `keep[i]` set means "the input's size" for entry i (PyTorch's None).
struct AdaptivePoolParams {
  int32_t dims = 2;
  SizeArg output_size;
  bool keep[kMaxSpatialDims] = {};
  Layout layout = Layout::kChannelsFirst;
};

// Arguments of fractional_max_pool{2,3}d (channels first). Exactly one of
// `output_size` (count > 0) and `output_ratio` (ratio_count > 0: a scalar
// for every dim, or one per dim, each in (0, 1)) is given.
struct FractionalPoolParams {
  int32_t dims = 2;
  SizeArg kernel;
  SizeArg output_size;
  int32_t ratio_count = 0;
  bool ratio_list = false;
  double output_ratio[kMaxSpatialDims] = {};
};

// Valid unpool output size of one spatial dim, inclusive.
struct SizeRange {
  int64_t min = 0;
  int64_t max = 0;
};

// A resolved problem: 1d and 2d are the 3d case with D (and H) = 1, so one
// body serves all three (as ATen and tfjs's Pool3DInfo do). Spatial arrays
// are indexed D, H, W; the leading entries of 1d and 2d describe a dim of
// size 1 with kernel 1, stride 1, padding 0, dilation 1.
struct Geometry {
  Layout layout = Layout::kChannelsFirst;
  int64_t channels = 1;  // C
  int64_t planes = 0;  // (n, c) planes to run: N * C (or C when
                       // unbatched), or those of a PlaneRange
  int64_t first_plane = 0;  // the first of them, counted from the tensor's
                            // start (messages name whole-tensor positions)
  int64_t in[3] = {1, 1, 1};  // input spatial size (unpool: the pooled size)
  int64_t out[3] = {1, 1, 1};  // output spatial size (unpool: unpooled size)
  int64_t kernel[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1};
  int64_t pad[3] = {0, 0, 0};
  int64_t dilation[3] = {1, 1, 1};

  int64_t in_plane() const { return in[0] * in[1] * in[2]; }
  int64_t out_plane() const { return out[0] * out[1] * out[2]; }
};

// What a plan_* function resolved, validated and sized, so that runs need
// no planning (XNNPACK's create/reshape before setup). Plain data: copy it,
// keep it as long as the shapes stay the same.
struct Plan {
  Op op = Op::kMaxPool;
  int32_t dims = 0;  // spatial dims
  char name[40] = {};  // the op as messages name it: "maxPool2d"
  DType dtype = DType::kFloat32;
  IndexType index_type = IndexType::kInt32;
  Geometry geometry;  // every plane of the tensors
  Shape output;  // the result's shape (pools: also the indices')
  bool pool_geometry = false;  // a kernel was given: max_pool_backward knows
                               // the windows wholly in padding, max_unpool
                               // its range of outputSize
  bool regular = false;  // adaptive: every dim divides evenly, so the windows
                         // are a max pool's (kernel = stride = in / out)
  const char* planes_of = "x";  // the tensor whose planes a run's PlaneRange
                                // counts, as messages name it
};

}  // namespace unpool

#endif  // UNPOOL_TYPES_H_
