// embind bindings of the C++ API, and nothing else: validation lives in the
// operator layer (cpp/src) and in the TypeScript layer (js/src).
//
// Buffers cross as byte addresses into the wasm heap: the TypeScript layer
// mallocs them, copies its typed arrays in once, calls an op, slices the
// results out and frees. Sizes cross as doubles (JS numbers; the TS layer has
// checked that they are safe integers) and are narrowed here to int64.
// Messages of failed calls are kept in one string read with lastError(), so
// a successful call returns no string.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <malloc.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <string>

#include "unpool/unpool.h"

namespace {

using emscripten::enum_;
using emscripten::function;
using emscripten::value_array;
using emscripten::value_object;

// A size argument: `count` entries of `values` are used; `list` tells an
// array the user gave from a scalar (see SizeArg).
struct JsSize {
  int32_t count = 0;
  bool list = false;
  std::array<double, 3> values{};
};

struct JsShape {
  int32_t rank = 0;
  std::array<double, 5> dims{};
};

struct JsPoolParams {
  int32_t dims = 2;
  JsSize kernel, stride, padding, dilation;
  bool ceilMode = false;
  int32_t layout = 0;  // unpool::Layout: 0 channels-first, 1 channels-last
};

struct JsUnpoolParams {
  int32_t dims = 2;
  JsSize kernel, stride, padding;
  int32_t outputSizeCount = -1;
  std::array<double, 5> outputSize{};
  int32_t layout = 0;  // unpool::Layout
};

struct JsShapeResult {
  unpool::Status status = unpool::Status::kOk;
  JsShape shape;
};

struct JsRangeResult {
  unpool::Status status = unpool::Status::kOk;
  std::array<double, 3> min{};
  std::array<double, 3> max{};
};

struct JsMemoryUsage {
  double heapBytes = 0;
  double inUseBytes = 0;
};

std::string& last_error() {
  static std::string error;
  return error;
}

// Doubles the TS layer let through are integers below 2^53; anything else
// (only reachable by calling the bindings directly) is mapped to a value the
// operator layer rejects instead of a cast with undefined behaviour.
int64_t to_i64(double v) {
  if (!(std::fabs(v) < 9.0e18)) return INT64_MIN;
  return static_cast<int64_t>(v);
}

unpool::SizeArg to_size(const JsSize& s) {
  unpool::SizeArg out;
  out.count = s.count;
  out.list = s.list;
  for (int i = 0; i < unpool::kMaxSpatialDims; ++i) {
    out.values[i] = to_i64(s.values[i]);
  }
  return out;
}

unpool::Shape to_shape(const JsShape& s) {
  unpool::Shape out;
  out.rank = s.rank;
  for (int i = 0; i < unpool::kMaxRank; ++i) out.dims[i] = to_i64(s.dims[i]);
  return out;
}

JsShape from_shape(const unpool::Shape& s) {
  JsShape out;
  out.rank = s.rank;
  for (int i = 0; i < unpool::kMaxRank; ++i) {
    out.dims[i] = static_cast<double>(s.dims[i]);
  }
  return out;
}

unpool::PoolParams to_pool(const JsPoolParams& p) {
  unpool::PoolParams out;
  out.dims = p.dims;
  out.kernel = to_size(p.kernel);
  out.stride = to_size(p.stride);
  out.padding = to_size(p.padding);
  out.dilation = to_size(p.dilation);
  out.ceil_mode = p.ceilMode;
  out.layout = static_cast<unpool::Layout>(p.layout);
  return out;
}

unpool::UnpoolParams to_unpool(const JsUnpoolParams& p) {
  unpool::UnpoolParams out;
  out.dims = p.dims;
  out.kernel = to_size(p.kernel);
  out.stride = to_size(p.stride);
  out.padding = to_size(p.padding);
  out.output_size_count = p.outputSizeCount;
  for (int i = 0; i < unpool::kMaxRank; ++i) {
    out.output_size[i] = to_i64(p.outputSize[i]);
  }
  out.layout = static_cast<unpool::Layout>(p.layout);
  return out;
}

void* ptr(uintptr_t address) { return reinterpret_cast<void*>(address); }

unpool::DType dtype_of(int32_t d) { return static_cast<unpool::DType>(d); }
unpool::IndexType itype_of(int32_t i) {
  return static_cast<unpool::IndexType>(i);
}

JsShapeResult max_pool_shape(const JsPoolParams& p, const JsShape& input) {
  unpool::Shape out;
  JsShapeResult r;
  r.status = unpool::max_pool_shape(to_pool(p), to_shape(input), &out,
                                    &last_error());
  r.shape = from_shape(out);
  return r;
}

unpool::Status max_pool(const JsPoolParams& p, const JsShape& input,
                        int32_t dtype, uintptr_t x, uintptr_t y,
                        int32_t index_type, uintptr_t indices) {
  return unpool::max_pool(to_pool(p), to_shape(input), dtype_of(dtype),
                          ptr(x), ptr(y), itype_of(index_type), ptr(indices),
                          &last_error());
}

JsShapeResult max_unpool_shape(const JsUnpoolParams& p, const JsShape& input) {
  unpool::Shape out;
  JsShapeResult r;
  r.status = unpool::max_unpool_shape(to_unpool(p), to_shape(input), &out,
                                      &last_error());
  r.shape = from_shape(out);
  return r;
}

JsRangeResult max_unpool_output_range(const JsUnpoolParams& p,
                                      const JsShape& input) {
  unpool::SizeRange ranges[unpool::kMaxSpatialDims];
  JsRangeResult r;
  r.status = unpool::max_unpool_output_range(to_unpool(p), to_shape(input),
                                             ranges, &last_error());
  for (int i = 0; i < unpool::kMaxSpatialDims; ++i) {
    r.min[i] = static_cast<double>(ranges[i].min);
    r.max[i] = static_cast<double>(ranges[i].max);
  }
  return r;
}

unpool::Status max_unpool(const JsUnpoolParams& p, const JsShape& input,
                          int32_t dtype, uintptr_t x, int32_t index_type,
                          uintptr_t indices, uintptr_t y) {
  return unpool::max_unpool(to_unpool(p), to_shape(input), dtype_of(dtype),
                            ptr(x), itype_of(index_type), ptr(indices), ptr(y),
                            &last_error());
}

unpool::Status max_pool_backward(const JsPoolParams& p,
                                 const JsShape& input_shape,
                                 const JsShape& output_shape, int32_t dtype,
                                 uintptr_t grad_output, int32_t index_type,
                                 uintptr_t indices, uintptr_t grad_input) {
  return unpool::max_pool_backward(
      to_pool(p), to_shape(input_shape), to_shape(output_shape),
      dtype_of(dtype), ptr(grad_output), itype_of(index_type), ptr(indices),
      ptr(grad_input), &last_error());
}

unpool::Status max_unpool_backward(int32_t dims, int32_t layout,
                                   const JsShape& grad_output_shape,
                                   const JsShape& indices_shape, int32_t dtype,
                                   uintptr_t grad_output, int32_t index_type,
                                   uintptr_t indices, uintptr_t grad_input) {
  return unpool::max_unpool_backward(
      dims, static_cast<unpool::Layout>(layout), to_shape(grad_output_shape),
      to_shape(indices_shape),
      dtype_of(dtype), ptr(grad_output), itype_of(index_type), ptr(indices),
      ptr(grad_input), &last_error());
}

// Formats and layouts cross as their enum values; the core rejects unknown
// ones with a message.
unpool::Status convert_indices(int32_t dims, int32_t layout,
                               const JsShape& input, const JsShape& indices_shape,
                               int32_t from, int32_t from_type, uintptr_t src,
                               int32_t to, int32_t to_type, uintptr_t dst) {
  return unpool::convert_indices(
      dims, static_cast<unpool::Layout>(layout), to_shape(input),
      to_shape(indices_shape), static_cast<unpool::IndexFormat>(from),
      itype_of(from_type), ptr(src), static_cast<unpool::IndexFormat>(to),
      itype_of(to_type), ptr(dst), &last_error());
}

// ---- the fast path: plain exports over a parameter block ----------------------
//
// embind's value_object conversion costs ~3 us per call, more than a small
// kernel. The TypeScript layer therefore writes the parameters of a call into
// a block of doubles in the heap (allocated once, at load) and calls these
// extern "C" exports, which take only integers and addresses. Slots of the
// block (kSlot*): the params, up to two input shapes, and the results (an
// output shape, or the unpool output ranges). Every number is an integer the
// TS layer has checked; to_i64 maps anything else to a rejected value.
namespace fast {

constexpr int kParams = 0;    // 24 slots, see read_pool / read_unpool
constexpr int kShapeA = 24;   // rank, dims[5]
constexpr int kShapeB = 30;   // rank, dims[5]
constexpr int kShapeOut = 36; // rank, dims[5]: written by the *_shape calls
constexpr int kRange = 42;    // min[3], max[3]: written by unpool_output_range
constexpr int kPlanes = 48;   // begin, end: the PlaneRange of pools and unpools
constexpr int kSlots = 50;

// Slot 22: unpool::Layout as its enum value (the core rejects unknown ones).
unpool::Layout read_layout(const double* s) {
  return static_cast<unpool::Layout>(static_cast<int32_t>(to_i64(s[kParams + 22])));
}

unpool::PlaneRange read_planes(const double* s) {
  return {to_i64(s[kPlanes]), to_i64(s[kPlanes + 1])};
}

unpool::SizeArg read_size(const double* s) {
  unpool::SizeArg out;
  out.count = static_cast<int32_t>(to_i64(s[0]));
  out.list = s[1] != 0;
  for (int i = 0; i < unpool::kMaxSpatialDims; ++i) out.values[i] = to_i64(s[2 + i]);
  return out;
}

// dims, ceilMode, kernel[5], stride[5], padding[5], dilation[5], layout
unpool::PoolParams read_pool(const double* s) {
  unpool::PoolParams p;
  p.dims = static_cast<int32_t>(to_i64(s[kParams + 0]));
  p.ceil_mode = s[kParams + 1] != 0;
  p.kernel = read_size(s + kParams + 2);
  p.stride = read_size(s + kParams + 7);
  p.padding = read_size(s + kParams + 12);
  p.dilation = read_size(s + kParams + 17);
  p.layout = read_layout(s);
  return p;
}

// dims, outputSizeCount, kernel[5], stride[5], padding[5], outputSize[5], layout
unpool::UnpoolParams read_unpool(const double* s) {
  unpool::UnpoolParams p;
  p.dims = static_cast<int32_t>(to_i64(s[kParams + 0]));
  p.output_size_count = static_cast<int32_t>(to_i64(s[kParams + 1]));
  p.kernel = read_size(s + kParams + 2);
  p.stride = read_size(s + kParams + 7);
  p.padding = read_size(s + kParams + 12);
  for (int i = 0; i < unpool::kMaxRank; ++i) p.output_size[i] = to_i64(s[kParams + 17 + i]);
  p.layout = read_layout(s);
  return p;
}

unpool::Shape read_shape(const double* s) {
  unpool::Shape out;
  out.rank = static_cast<int32_t>(to_i64(s[0]));
  if (out.rank < 0 || out.rank > unpool::kMaxRank) out.rank = unpool::kMaxRank + 1;
  for (int i = 0; i < unpool::kMaxRank; ++i) out.dims[i] = to_i64(s[1 + i]);
  return out;
}

void write_shape(const unpool::Shape& shape, double* s) {
  s[0] = shape.rank;
  for (int i = 0; i < unpool::kMaxRank; ++i) s[1 + i] = static_cast<double>(shape.dims[i]);
}

int32_t code(unpool::Status s) { return static_cast<int32_t>(s); }

}  // namespace fast

}  // namespace

extern "C" {

// The size of the parameter block, in doubles.
EMSCRIPTEN_KEEPALIVE int32_t unpool_param_slots() { return fast::kSlots; }

EMSCRIPTEN_KEEPALIVE int32_t unpool_max_pool_shape(double* s) {
  unpool::Shape out;
  const unpool::Status st = unpool::max_pool_shape(
      fast::read_pool(s), fast::read_shape(s + fast::kShapeA), &out, &last_error());
  fast::write_shape(out, s + fast::kShapeOut);
  return fast::code(st);
}

EMSCRIPTEN_KEEPALIVE int32_t unpool_max_pool(double* s, int32_t dtype, uintptr_t x,
                                             uintptr_t y, int32_t index_type,
                                             uintptr_t indices) {
  unpool::Plan plan;
  unpool::Status st = unpool::plan_max_pool(fast::read_pool(s), fast::read_shape(s + fast::kShapeA),
                                            dtype_of(dtype), itype_of(index_type), &plan,
                                            &last_error());
  if (st == unpool::Status::kOk) {
    st = unpool::run_max_pool(plan, fast::read_planes(s), ptr(x), ptr(y), ptr(indices),
                              &last_error());
  }
  return fast::code(st);
}

// Small calls in one crossing: computes the pooled shape (into kShapeOut)
// and, when values and indices fit in `capacity` bytes at `out` (values
// first, indices at the next multiple of 8), pools into them. Returns the
// status, or kNotRun when they do not fit (nothing was written).
constexpr int32_t kNotRun = -1;

int64_t round8(int64_t bytes) { return (bytes + 7) / 8 * 8; }

int64_t element_bytes(int32_t code) { return code == 1 ? 8 : 4; }

EMSCRIPTEN_KEEPALIVE int32_t unpool_max_pool_small(double* s, int32_t dtype, uintptr_t x,
                                                   int32_t index_type, uintptr_t out,
                                                   uint32_t capacity) {
  const unpool::PoolParams p = fast::read_pool(s);
  const unpool::Shape in = fast::read_shape(s + fast::kShapeA);
  unpool::Shape shape;
  const unpool::Status st = unpool::max_pool_shape(p, in, &shape, &last_error());
  fast::write_shape(shape, s + fast::kShapeOut);
  if (st != unpool::Status::kOk) return fast::code(st);
  const int64_t n = unpool::numel(shape);
  const int64_t values = round8(n * element_bytes(dtype));
  if (values + n * element_bytes(index_type) > static_cast<int64_t>(capacity)) return kNotRun;
  return fast::code(unpool::max_pool(p, in, dtype_of(dtype), ptr(x), ptr(out),
                                     itype_of(index_type), ptr(out + values), &last_error()));
}

// As unpool_max_pool_small: unpools into `out` when the result fits in `capacity` bytes.
EMSCRIPTEN_KEEPALIVE int32_t unpool_max_unpool_small(double* s, int32_t dtype, uintptr_t x,
                                                     int32_t index_type, uintptr_t indices,
                                                     uintptr_t out, uint32_t capacity) {
  const unpool::UnpoolParams p = fast::read_unpool(s);
  const unpool::Shape in = fast::read_shape(s + fast::kShapeA);
  unpool::Shape shape;
  const unpool::Status st = unpool::max_unpool_shape(p, in, &shape, &last_error());
  fast::write_shape(shape, s + fast::kShapeOut);
  if (st != unpool::Status::kOk) return fast::code(st);
  if (unpool::numel(shape) * element_bytes(dtype) > static_cast<int64_t>(capacity)) return kNotRun;
  return fast::code(unpool::max_unpool(p, in, dtype_of(dtype), ptr(x), itype_of(index_type),
                                       ptr(indices), ptr(out), &last_error()));
}

EMSCRIPTEN_KEEPALIVE int32_t unpool_max_unpool_shape(double* s) {
  unpool::Shape out;
  const unpool::Status st = unpool::max_unpool_shape(
      fast::read_unpool(s), fast::read_shape(s + fast::kShapeA), &out, &last_error());
  fast::write_shape(out, s + fast::kShapeOut);
  return fast::code(st);
}

EMSCRIPTEN_KEEPALIVE int32_t unpool_max_unpool_output_range(double* s) {
  unpool::SizeRange ranges[unpool::kMaxSpatialDims];
  const unpool::Status st = unpool::max_unpool_output_range(
      fast::read_unpool(s), fast::read_shape(s + fast::kShapeA), ranges, &last_error());
  for (int i = 0; i < unpool::kMaxSpatialDims; ++i) {
    s[fast::kRange + i] = static_cast<double>(ranges[i].min);
    s[fast::kRange + 3 + i] = static_cast<double>(ranges[i].max);
  }
  return fast::code(st);
}

EMSCRIPTEN_KEEPALIVE int32_t unpool_max_unpool(double* s, int32_t dtype, uintptr_t x,
                                               int32_t index_type, uintptr_t indices,
                                               uintptr_t y) {
  unpool::Plan plan;
  unpool::Status st = unpool::plan_max_unpool(fast::read_unpool(s),
                                              fast::read_shape(s + fast::kShapeA),
                                              dtype_of(dtype), itype_of(index_type), &plan,
                                              &last_error());
  if (st == unpool::Status::kOk) {
    st = unpool::run_max_unpool(plan, fast::read_planes(s), ptr(x), ptr(indices), ptr(y),
                                &last_error());
  }
  return fast::code(st);
}

EMSCRIPTEN_KEEPALIVE int32_t unpool_max_unpool_check(double* s, int32_t index_type,
                                                     uintptr_t indices) {
  return fast::code(unpool::max_unpool_check(fast::read_unpool(s),
                                             fast::read_shape(s + fast::kShapeA),
                                             itype_of(index_type), ptr(indices),
                                             &last_error()));
}

// Shape A: the pool's input shape; shape B: the pooled (grad output) shape.
EMSCRIPTEN_KEEPALIVE int32_t unpool_max_pool_backward(double* s, int32_t dtype,
                                                      uintptr_t grad_output,
                                                      int32_t index_type, uintptr_t indices,
                                                      uintptr_t grad_input) {
  return fast::code(unpool::max_pool_backward(
      fast::read_pool(s), fast::read_shape(s + fast::kShapeA),
      fast::read_shape(s + fast::kShapeB), dtype_of(dtype), ptr(grad_output),
      itype_of(index_type), ptr(indices), ptr(grad_input), &last_error()));
}

// Params slot 0: dims, slot 22: layout. Shape A: grad output; shape B: indices.
EMSCRIPTEN_KEEPALIVE int32_t unpool_max_unpool_backward(double* s, int32_t dtype,
                                                        uintptr_t grad_output,
                                                        int32_t index_type, uintptr_t indices,
                                                        uintptr_t grad_input) {
  return fast::code(unpool::max_unpool_backward(
      static_cast<int32_t>(to_i64(s[fast::kParams])), fast::read_layout(s),
      fast::read_shape(s + fast::kShapeA), fast::read_shape(s + fast::kShapeB),
      dtype_of(dtype), ptr(grad_output), itype_of(index_type), ptr(indices),
      ptr(grad_input), &last_error()));
}

}  // extern "C"

namespace {

// Hands the message over and releases its storage, so that a failed call
// leaves the heap as it found it (the leak tests check inUseBytes).
std::string take_last_error() {
  std::string message;
  message.swap(last_error());
  return message;
}

std::string status_name(unpool::Status s) { return unpool::status_name(s); }

// dlmalloc's view of the heap: `arena` is what it obtained from sbrk,
// `uordblks` what is allocated now. The leak tests compare the latter.
JsMemoryUsage memory_usage() {
  const struct mallinfo info = mallinfo();
  JsMemoryUsage m;
  m.heapBytes = static_cast<double>(static_cast<unsigned>(info.arena));
  m.inUseBytes = static_cast<double>(static_cast<unsigned>(info.uordblks));
  return m;
}

}  // namespace

EMSCRIPTEN_BINDINGS(unpool) {
  enum_<unpool::Status>("Status")
      .value("ok", unpool::Status::kOk)
      .value("invalid_argument", unpool::Status::kInvalidArgument)
      .value("invalid_shape", unpool::Status::kInvalidShape)
      .value("invalid_index", unpool::Status::kInvalidIndex)
      .value("output_size_out_of_range", unpool::Status::kOutputSizeOutOfRange)
      .value("too_large", unpool::Status::kTooLarge);

  value_array<std::array<double, 3>>("Array3")
      .element(emscripten::index<0>())
      .element(emscripten::index<1>())
      .element(emscripten::index<2>());
  value_array<std::array<double, 5>>("Array5")
      .element(emscripten::index<0>())
      .element(emscripten::index<1>())
      .element(emscripten::index<2>())
      .element(emscripten::index<3>())
      .element(emscripten::index<4>());

  value_object<JsSize>("Size")
      .field("count", &JsSize::count)
      .field("list", &JsSize::list)
      .field("values", &JsSize::values);
  value_object<JsShape>("Shape")
      .field("rank", &JsShape::rank)
      .field("dims", &JsShape::dims);
  value_object<JsPoolParams>("PoolParams")
      .field("dims", &JsPoolParams::dims)
      .field("kernel", &JsPoolParams::kernel)
      .field("stride", &JsPoolParams::stride)
      .field("padding", &JsPoolParams::padding)
      .field("dilation", &JsPoolParams::dilation)
      .field("ceilMode", &JsPoolParams::ceilMode)
      .field("layout", &JsPoolParams::layout);
  value_object<JsUnpoolParams>("UnpoolParams")
      .field("dims", &JsUnpoolParams::dims)
      .field("kernel", &JsUnpoolParams::kernel)
      .field("stride", &JsUnpoolParams::stride)
      .field("padding", &JsUnpoolParams::padding)
      .field("outputSizeCount", &JsUnpoolParams::outputSizeCount)
      .field("outputSize", &JsUnpoolParams::outputSize)
      .field("layout", &JsUnpoolParams::layout);
  value_object<JsShapeResult>("ShapeResult")
      .field("status", &JsShapeResult::status)
      .field("shape", &JsShapeResult::shape);
  value_object<JsRangeResult>("RangeResult")
      .field("status", &JsRangeResult::status)
      .field("min", &JsRangeResult::min)
      .field("max", &JsRangeResult::max);
  value_object<JsMemoryUsage>("MemoryUsage")
      .field("heapBytes", &JsMemoryUsage::heapBytes)
      .field("inUseBytes", &JsMemoryUsage::inUseBytes);

  function("maxPoolShape", &max_pool_shape);
  function("maxPool", &max_pool);
  function("maxUnpoolShape", &max_unpool_shape);
  function("maxUnpoolOutputRange", &max_unpool_output_range);
  function("maxUnpool", &max_unpool);
  function("maxPoolBackward", &max_pool_backward);
  function("maxUnpoolBackward", &max_unpool_backward);
  function("convertIndices", &convert_indices);
  function("statusName", &status_name);
  function("lastError", &take_last_error);
  function("memoryUsage", &memory_usage);
}
