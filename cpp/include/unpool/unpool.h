// unpool: max pooling with argmax indices, max unpooling and their backward
// passes, with exactly PyTorch's CPU semantics.
//
// Every entry point validates all of its arguments before it writes anything,
// and reports problems as a Status plus a message that names the op, the
// parameter and the value. Nothing throws. Buffers belong to the caller: ask
// the *_shape function for the output shape, allocate, then run the op.
//
// Every op exists twice: as a one-shot call (max_pool) and as a plan
// (plan_max_pool, then run_max_pool as often as wanted, on all planes or a
// range of them). A one-shot call is plan-then-run.
//
// Layout is contiguous NC + spatial (NCL, NCHW, NCDHW), or C + spatial for
// unbatched input. Indices are flat offsets inside one (n, c) plane of the
// unpadded input (pool) or of the output (unpool): `d * H * W + h * W + w`.
#ifndef UNPOOL_UNPOOL_H_
#define UNPOOL_UNPOOL_H_

#include <cstdint>
#include <string>

#include "unpool/types.h"

namespace unpool {

// Number of elements of `shape`, or -1 when that overflows int64.
int64_t numel(const Shape& shape);

// ---- max pool -------------------------------------------------------------

// Validates `params` and `input`, and stores the shape of the pooled output
// (also the shape of the indices) in `output`.
Status max_pool_shape(const PoolParams& params, const Shape& input, Shape* output,
                      std::string* error);

// Pools `x` (shape `input`, type `dtype`) into `y` and `indices`, both of the
// shape given by max_pool_shape. First maximum wins ties; NaN wins and the
// last NaN of a window gives the index. A window lying wholly in padding
// gives -inf and the offset of its first (virtual) position, as PyTorch.
Status max_pool(const PoolParams& params, const Shape& input, DType dtype, const void* x, void* y,
                IndexType index_type, void* indices, std::string* error);

// ---- max unpool -----------------------------------------------------------

// Validates and stores the unpooled shape in `output`.
Status max_unpool_shape(const UnpoolParams& params, const Shape& input, Shape* output,
                        std::string* error);

// The valid output size per spatial dim of unpooling `input` with `params`
// (`output_size_count` is ignored). `ranges` receives `params.dims` entries.
Status max_unpool_output_range(const UnpoolParams& params, const Shape& input, SizeRange* ranges,
                               std::string* error);

// Writes zeros to `y` then `y[plane][indices[i]] = x[i]` in order, so the
// later of duplicate indices wins. `indices` has the shape of `input`.
Status max_unpool(const UnpoolParams& params, const Shape& input, DType dtype, const void* x,
                  IndexType index_type, const void* indices, void* y, std::string* error);

// Checks everything max_unpool checks, `indices` included, and writes
// nothing: the status and message max_unpool would give. A caller that
// streams an unpool plane range by plane range into a buffer of its own
// calls it first, so that a bad index fails the call before any plane is out.
Status max_unpool_check(const UnpoolParams& params, const Shape& input, IndexType index_type,
                        const void* indices, std::string* error);

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
                         const Shape& output_shape, DType dtype, const void* grad_output,
                         IndexType index_type, const void* indices, void* grad_input,
                         std::string* error);

// Gradient of max_unpool w.r.t. its input, a gather:
// `grad_input[i] = grad_output[plane][indices[i]]`. `grad_input` has the
// shape of `indices`; `grad_output` has the unpooled shape; both in `layout`.
Status max_unpool_backward(int32_t dims, Layout layout, const Shape& grad_output_shape,
                           const Shape& indices_shape, DType dtype, const void* grad_output,
                           IndexType index_type, const void* indices, void* grad_input,
                           std::string* error);

// ---- plans -----------------------------------------------------------------
//
// plan_* validates everything but the data (and the indices, which are data)
// and fills `plan`; run_* validates `planes` and the indices, then runs. A
// plan holds no pointers to the caller's arguments and never changes.

// Name of a status ("ok", "invalid_argument", ...), of a dtype ("float32"),
// an index type ("int32") or an op ("maxPool"); "unknown" for other values.
const char* status_name(Status status);
const char* dtype_name(DType dtype);
const char* index_type_name(IndexType index_type);
const char* op_name(Op op);

// Bytes of one element of a dtype (4, 8, 2, 2) or an index type (4, 8); 0
// for other values.
int64_t element_size(DType dtype);
int64_t element_size(IndexType index_type);

Status plan_max_pool(const PoolParams& params, const Shape& input, DType dtype,
                     IndexType index_type, Plan* plan, std::string* error);
Status plan_max_unpool(const UnpoolParams& params, const Shape& input, DType dtype,
                       IndexType index_type, Plan* plan, std::string* error);
// `input_shape`: the pooled input's shape (that of `grad_input`);
// `grad_output_shape`: that of `grad_output` and the indices.
Status plan_max_pool_backward(const PoolParams& params, const Shape& input_shape,
                              const Shape& grad_output_shape, DType dtype, IndexType index_type,
                              Plan* plan, std::string* error);
Status plan_max_unpool_backward(int32_t dims, Layout layout, const Shape& grad_output_shape,
                                const Shape& indices_shape, DType dtype, IndexType index_type,
                                Plan* plan, std::string* error);

// Each run_* takes a plan of its op (else kInvalidArgument). Pointers point
// at plane `planes.begin` of each tensor (see PlaneRange).
Status run_max_pool(const Plan& plan, PlaneRange planes, const void* x, void* y, void* indices,
                    std::string* error);
Status run_max_unpool(const Plan& plan, PlaneRange planes, const void* x, const void* indices,
                      void* y, std::string* error);
Status run_max_pool_backward(const Plan& plan, PlaneRange planes, const void* grad_output,
                             const void* indices, void* grad_input, std::string* error);
Status run_max_unpool_backward(const Plan& plan, PlaneRange planes, const void* grad_output,
                               const void* indices, void* grad_input, std::string* error);

// The status and message that run_max_unpool or run_max_unpool_backward
// would give for `indices` (the whole tensor), writing nothing: a caller that
// streams range by range into its own buffer calls it first, so that a bad
// index fails the call before any plane is out. For a fractional_max_pool
// plan, `indices` is its random samples, checked the same way.
Status check_indices(const Plan& plan, const void* indices, std::string* error);

// The error check_indices would give if element `position` (a flat offset
// into the indices, or the random samples, of the whole tensor) were the
// first bad one and held `value` (an index, or a sample's bits widened to
// a double's: float32 samples as float32 bits in `value`'s low word). For a
// caller that finds the first bad element elsewhere (the WebGPU backend,
// on the GPU) and needs the message the CPU path gives for it.
Status content_error(const Plan& plan, int64_t position, int64_t value, std::string* error);

// ---- adaptive and fractional max pooling -----------------------------------
//
// The same index convention as max_pool, and the same tie and NaN rules.

// Output o of a dim with input size I and output size O takes the window
// [floor(o * I / O), ceil((o + 1) * I / O)) (PyTorch's AdaptivePooling.h);
// O > I repeats windows. Where every dim divides evenly the windows are a
// max pool's with kernel = stride = I / O, and its kernels run.
Status plan_adaptive_max_pool(const AdaptivePoolParams& params, const Shape& input, DType dtype,
                              IndexType index_type, Plan* plan, std::string* error);
Status run_adaptive_max_pool(const Plan& plan, PlaneRange planes, const void* x, void* y,
                             void* indices, std::string* error);

// Windows [start, start + kernel) per dim, the starts drawn from
// `random_samples` (shape (N, C, dims), the dtype of x, values in [0, 1]) as
// PyTorch's generate_intervals does, in the value type's arithmetic. In 2d
// sample 0 drives W and 1 drives H; in 3d 0 drives D, 1 H and 2 W. The
// samples pointer of a run points at plane `planes.begin`'s samples.
Status plan_fractional_max_pool(const FractionalPoolParams& params, const Shape& input,
                                const Shape& samples_shape, DType dtype, IndexType index_type,
                                Plan* plan, std::string* error);
Status run_fractional_max_pool(const Plan& plan, PlaneRange planes, const void* x,
                               const void* random_samples, void* y, void* indices,
                               std::string* error);

// Their gradients: scatter-adds of `grad_output` by the indices in output
// order, every index inside its plane. Their plans (ops
// kAdaptiveMaxPoolBackward, kFractionalMaxPoolBackward) run with
// run_max_pool_backward.
Status plan_adaptive_max_pool_backward(int32_t dims, Layout layout, const Shape& input_shape,
                                       const Shape& grad_output_shape, DType dtype,
                                       IndexType index_type, Plan* plan, std::string* error);
Status plan_fractional_max_pool_backward(int32_t dims, const Shape& input_shape,
                                         const Shape& grad_output_shape, DType dtype,
                                         IndexType index_type, Plan* plan, std::string* error);

// ---- index formats ----------------------------------------------------------

// How other runtimes count argmax indices. `plane` is the spatial size of
// the pooled input, `offset` the row-major spatial offset (PyTorch's index).
enum class IndexFormat : int32_t {
  kPyTorch = 0,  // offset
  kOnnx = 1,  // (n * C + c) * plane + offset (MaxPool Indices)
  kOnnxColumnMajor = 2,  // the same with a column-major offset (storage_order=1)
  kTensorFlow = 3,  // offset * C + c (max_pool_with_argmax)
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
Status convert_indices(int32_t dims, Layout layout, const Shape& input, const Shape& indices_shape,
                       IndexFormat from, IndexType from_type, const void* src, IndexFormat to,
                       IndexType to_type, void* dst, std::string* error);

// convert_indices's checks alone, and the geometry of the conversion
// (`in`: the pooled input's plane, `out`: the indices' plane, `channels`,
// `planes`): for a caller that converts elsewhere (the WebGPU backend).
Status plan_convert_indices(int32_t dims, Layout layout, const Shape& input,
                            const Shape& indices_shape, IndexFormat from, IndexType from_type,
                            IndexFormat to, IndexType to_type, Geometry* geometry,
                            std::string* error);

// The error convert_indices gives when element `position` (holding `value`)
// is the first that is not a `from` index into its own plane; `per_plane`:
// every index of the tensor lies in [0, plane) (the message then says they
// may be PyTorch's already).
Status convert_indices_error(int32_t dims, Layout layout, const Shape& input,
                             const Shape& indices_shape, IndexFormat from, int64_t position,
                             int64_t value, bool per_plane, std::string* error);

}  // namespace unpool

#endif  // UNPOOL_UNPOOL_H_
