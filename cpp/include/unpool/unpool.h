// unpool: max pooling with argmax indices, max unpooling and their backward
// passes, with exactly PyTorch's CPU semantics.
//
// Every entry point validates all of its arguments before it writes anything,
// and reports problems as a Status plus a message that names the op, the
// parameter and the value. Nothing throws. Buffers belong to the caller: ask
// the *_shape function for the output shape, allocate, then run the op.
//
// Layout is contiguous NC + spatial (NCL, NCHW, NCDHW), or C + spatial for
// unbatched input. Indices are flat offsets inside one (n, c) plane of the
// unpadded input (pool) or of the output (unpool): `d * H * W + h * W + w`.
#ifndef UNPOOL_UNPOOL_H_
#define UNPOOL_UNPOOL_H_

#include <cstdint>
#include <string>

namespace unpool {

// Result of every entry point: X(enumerator, code, name). The codes are part
// of the JS API, and this list is the only place the names are written: it
// feeds status_name() and the bindings' statusNames().
#define UNPOOL_STATUS_LIST(X)                                                \
  X(kOk, 0, "ok")                                                            \
  /* a parameter (kernel, stride, padding, ...) is bad */                    \
  X(kInvalidArgument, 1, "invalid_argument")                                 \
  /* a tensor has the wrong rank, an empty dim, or does not match another */ \
  X(kInvalidShape, 2, "invalid_shape")                                       \
  /* an index lies outside its plane */                                      \
  X(kInvalidIndex, 3, "invalid_index")                                       \
  /* unpool outputSize outside the valid range */                            \
  X(kOutputSizeOutOfRange, 4, "output_size_out_of_range")                   \
  /* a size overflows 64-bit arithmetic or the chosen index type */          \
  X(kTooLarge, 5, "too_large")

enum class Status : int32_t {
#define UNPOOL_STATUS_ENUMERATOR(e, code, name) e = code,
  UNPOOL_STATUS_LIST(UNPOOL_STATUS_ENUMERATOR)
#undef UNPOOL_STATUS_ENUMERATOR
};

// Short stable name of a status ("ok", "invalid_argument", ...).
const char* status_name(Status status);

enum class DType : int32_t { kFloat32 = 0, kFloat64 = 1 };
enum class IndexType : int32_t { kInt32 = 0, kInt64 = 1 };

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

// Number of elements of `shape`, or -1 when that overflows int64.
int64_t numel(const Shape& shape);

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

// Part of a channels-first tensor: its (n, c) planes [begin, end) of N * C
// (unbatched: C). An op given a range validates the whole tensor as usual,
// then reads and writes only those planes: every data pointer points at the
// first element of plane `begin`, so that a caller can stream a large tensor
// through a small buffer, and index positions in messages still count from
// the tensor's start. The default {0, -1} is every plane; a channels-last op
// accepts only the default. `end` = -1 means the last plane.
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
  PlaneRange planes;
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
  PlaneRange planes;
};

// Valid unpool output size of one spatial dim, inclusive.
struct SizeRange {
  int64_t min = 0;
  int64_t max = 0;
};

// ---- max pool -------------------------------------------------------------

// Validates `params` and `input`, and stores the shape of the pooled output
// (also the shape of the indices) in `output`.
Status max_pool_shape(const PoolParams& params, const Shape& input,
                      Shape* output, std::string* error);

// Pools `x` (shape `input`, type `dtype`) into `y` and `indices`, both of the
// shape given by max_pool_shape. First maximum wins ties; NaN wins and the
// last NaN of a window gives the index. A window lying wholly in padding
// gives -inf and the offset of its first (virtual) position, as PyTorch.
Status max_pool(const PoolParams& params, const Shape& input, DType dtype,
                const void* x, void* y, IndexType index_type, void* indices,
                std::string* error);

// ---- max unpool -----------------------------------------------------------

// Validates and stores the unpooled shape in `output`.
Status max_unpool_shape(const UnpoolParams& params, const Shape& input,
                        Shape* output, std::string* error);

// The valid output size per spatial dim of unpooling `input` with `params`
// (`output_size_count` is ignored). `ranges` receives `params.dims` entries.
Status max_unpool_output_range(const UnpoolParams& params, const Shape& input,
                               SizeRange* ranges, std::string* error);

// Writes zeros to `y` then `y[plane][indices[i]] = x[i]` in order, so the
// later of duplicate indices wins. `indices` has the shape of `input`.
Status max_unpool(const UnpoolParams& params, const Shape& input, DType dtype,
                  const void* x, IndexType index_type, const void* indices,
                  void* y, std::string* error);

// Checks everything max_unpool checks, `indices` included, and writes
// nothing: the status and message max_unpool would give. A caller that
// streams an unpool plane range by plane range into a buffer of its own
// calls it first, so that a bad index fails the call before any plane is out.
Status max_unpool_check(const UnpoolParams& params, const Shape& input,
                        IndexType index_type, const void* indices,
                        std::string* error);

// ---- backward passes ------------------------------------------------------

// Gradient of max_pool w.r.t. its input: zeros, then
// `grad_input[plane][indices[o]] += grad_output[o]` in output order.
// `input_shape` is the shape of the pooled input (and of `grad_input`);
// `grad_output` and `indices` have shape `output_shape`.
// With `params.kernel.count` > 0 the pool geometry is known: the output shape
// is checked against it, and the index of a window that lies wholly in
// padding is added like PyTorch when it falls inside the plane and skipped
// when it does not (PyTorch writes out of bounds there). With
// `params.kernel.count` == 0 only `params.dims` is used and every index must
// lie inside the plane.
Status max_pool_backward(const PoolParams& params, const Shape& input_shape,
                         const Shape& output_shape, DType dtype,
                         const void* grad_output, IndexType index_type,
                         const void* indices, void* grad_input,
                         std::string* error);

// Gradient of max_unpool w.r.t. its input, a gather:
// `grad_input[i] = grad_output[plane][indices[i]]`. `grad_input` has the
// shape of `indices`; `grad_output` has the unpooled shape; both in `layout`.
Status max_unpool_backward(int32_t dims, Layout layout,
                           const Shape& grad_output_shape,
                           const Shape& indices_shape, DType dtype,
                           const void* grad_output, IndexType index_type,
                           const void* indices, void* grad_input,
                           std::string* error);

// ---- index formats ----------------------------------------------------------

// How other runtimes count argmax indices. `plane` is the spatial size of
// the pooled input, `offset` the row-major spatial offset (PyTorch's index).
enum class IndexFormat : int32_t {
  kPyTorch = 0,          // offset
  kOnnx = 1,             // (n * C + c) * plane + offset (MaxPool Indices)
  kOnnxColumnMajor = 2,  // the same with a column-major offset (storage_order=1)
  kTensorFlow = 3,       // offset * C + c (max_pool_with_argmax)
  kTensorFlowWithBatch = 4,  // ((n * plane) + offset) * C + c
                             // (include_batch_in_index=True)
};

// Short stable name of a format ("pytorch", "onnx", ...).
const char* index_format_name(IndexFormat format);

// Rewrites the indices of a pool from one format into another. `input` is
// the shape of the pooled input (the tensor the indices point into) and
// `indices_shape` the shape of the indices tensor, both in `layout` with
// `dims` spatial dims; each element's own (n, c) follows from its position.
// Every source index must point into its own (n, c) plane, else
// kInvalidIndex names the first one that does not. `src` and `dst` may be
// the same buffer when the index types are equal.
Status convert_indices(int32_t dims, Layout layout, const Shape& input,
                       const Shape& indices_shape, IndexFormat from,
                       IndexType from_type, const void* src, IndexFormat to,
                       IndexType to_type, void* dst, std::string* error);

}  // namespace unpool

#endif  // UNPOOL_UNPOOL_H_
