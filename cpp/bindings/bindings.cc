// The JavaScript boundary, and nothing else: every op is an embind function
// of integers and heap addresses (addresses as uintptr_t); its params and
// shapes are in the parameter block (param_block.h) whose layout, with the
// status names and type codes, the TypeScript layer reads once at load.
// value_objects cost microseconds a call and are not used.
//
// A failed call returns its unpool::Status code and keeps its message for
// lastError(), so a successful call returns no string.
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <cstdint>
#include <string>

#include "param_block.h"
#include "plan_holder.h"
#include "unpool/unpool.h"

namespace unpool_bindings {
namespace {

using emscripten::val;

std::string& last_error() {
  static std::string error;
  return error;
}

// Hands the message over and releases its storage, so that a failed call
// leaves the heap as it found it (the leak tests check inUseBytes).
std::string take_last_error() {
  std::string message;
  message.swap(last_error());
  return message;
}

ParamBlock* block_at(uintptr_t address) { return reinterpret_cast<ParamBlock*>(address); }
Plan* plan_at(uintptr_t address) { return reinterpret_cast<Plan*>(address); }
int32_t code(unpool::Status s) { return static_cast<int32_t>(s); }

// ---- read once at load -------------------------------------------------------

// {jsName: first slot, ..., slots: total}.
val param_layout() {
  val layout = val::object();
#define UNPOOL_PARAM_LAYOUT(member, js, slots) layout.set(js, slot_of(kField_##member));
  UNPOOL_PARAM_FIELDS(UNPOOL_PARAM_LAYOUT)
#undef UNPOOL_PARAM_LAYOUT
  layout.set("slots", kSlots);
  return layout;
}

// Index = unpool::Status code.
val status_names() {
  val names = val::array();
#define UNPOOL_STATUS_NAME(e, c, name) names.set(c, val(name));
  UNPOOL_STATUS_LIST(UNPOOL_STATUS_NAME)
#undef UNPOOL_STATUS_NAME
  return names;
}

// Index = unpool::DType / unpool::IndexType code, from the core's lists.
val value_types() {
  val names = val::array();
#define UNPOOL_TYPE_NAME(e, c, name, T) names.set(c, val(name));
  UNPOOL_DTYPE_LIST(UNPOOL_TYPE_NAME)
  return names;
}

val index_types() {
  val names = val::array();
  UNPOOL_INDEX_TYPE_LIST(UNPOOL_TYPE_NAME)
#undef UNPOOL_TYPE_NAME
  return names;
}

val op_codes() {
  val codes = val::object();
#define UNPOOL_OP_CODE(e, c, name) codes.set(name, c);
  UNPOOL_OP_LIST(UNPOOL_OP_CODE)
#undef UNPOOL_OP_CODE
  return codes;
}

// dlmalloc's view of the heap: `arena` is what it obtained from sbrk,
// `uordblks` what is allocated now. The leak tests compare the latter.
val memory_usage() {
  const struct mallinfo info = mallinfo();
  val m = val::object();
  m.set("heapBytes", static_cast<double>(static_cast<unsigned>(info.arena)));
  m.set("inUseBytes", static_cast<double>(static_cast<unsigned>(info.uordblks)));
  return m;
}

// A plan holder the TS runtime owns (one per op kind, for the module's life).
uintptr_t create_plan() { return reinterpret_cast<uintptr_t>(new Plan()); }
void destroy_plan(uintptr_t plan) { delete plan_at(plan); }

// ---- calls --------------------------------------------------------------------
// Shapes in the block, by op: maxPool, maxUnpool and adaptiveMaxPool shapeA =
// x; fractionalMaxPool shapeA = x, shapeB = randomSamples'; maxPoolBackward
// (kernel count 0: no pool geometry) and the adaptive and fractional backward
// passes shapeA = the pooled input's shape, shapeB = gradOutput's;
// maxUnpoolBackward shapeA = gradOutput's, shapeB = indices'.

int32_t plan_call(int32_t op, uintptr_t plan, uintptr_t block, int32_t dtype, int32_t index_type) {
  return code(plan_op(op, plan_at(plan), block_at(block), dtype, index_type, &last_error()));
}

// Planes [begin, end) of N * C (end -1: all); doubles, as plane counts may
// pass 2^31. Exposed as runPlan: Module.run is Emscripten's own (a second
// "run" would become an overload dispatched on every call).
int32_t run(uintptr_t plan, uintptr_t a0, uintptr_t a1, uintptr_t a2, uintptr_t a3, double begin,
            double end) {
  return code(run_plan(*plan_at(plan), a0, a1, a2, a3, to_i64(begin), to_i64(end), &last_error()));
}

int32_t run_small_call(int32_t op, uintptr_t plan, uintptr_t block, int32_t dtype,
                       int32_t index_type, uintptr_t in0, uintptr_t in1, uintptr_t out,
                       uint32_t capacity) {
  return run_small(op, plan_at(plan), block_at(block), dtype, index_type, in0, in1, out, capacity,
                   &last_error());
}

int32_t check_indices_call(uintptr_t plan, uintptr_t indices) {
  return code(check_indices(*plan_at(plan), indices, &last_error()));
}

// The held plan's geometry -> the block's planGeometry (the WebGPU backend
// plans through the core and runs the plan's geometry on the GPU).
int32_t plan_geometry(uintptr_t plan, uintptr_t block) {
  const Plan* p = plan_at(plan);
  if (!p->valid) {
    last_error() = "unpool: planGeometry() of a plan that plan() did not build";
    return code(unpool::Status::kInvalidArgument);
  }
  write_geometry(p->plan, block_at(block)->plan_geometry);
  return 0;
}

// The held plan's message for bad element `position` holding (lo, hi) as
// an int64 (content_error): the GPU finds the element, the core words it.
int32_t content_error_call(uintptr_t plan, double position, uint32_t lo, uint32_t hi) {
  const Plan* p = plan_at(plan);
  if (!p->valid) {
    last_error() = "unpool: contentError() of a plan that plan() did not build";
    return code(unpool::Status::kInvalidArgument);
  }
  const int64_t value = static_cast<int64_t>((static_cast<uint64_t>(hi) << 32) | lo);
  return code(unpool::content_error(p->plan, to_i64(position), value, &last_error()));
}

// shapeA and the unpool params -> rangeMin, rangeMax.
int32_t unpool_output_range(uintptr_t address) {
  ParamBlock* b = block_at(address);
  unpool::SizeRange ranges[unpool::kMaxSpatialDims];
  const unpool::Status st = unpool::max_unpool_output_range(read_unpool(*b), read_shape(b->shape_a),
                                                            ranges, &last_error());
  for (int i = 0; i < unpool::kMaxSpatialDims; ++i) {
    b->range_min[i] = static_cast<double>(ranges[i].min);
    b->range_max[i] = static_cast<double>(ranges[i].max);
  }
  return code(st);
}

// dims, layout, shapeA = the pooled input, shapeB = the indices' shape.
// Formats and types cross as their enum values; the core rejects unknown ones.
int32_t convert_indices(uintptr_t address, int32_t from, int32_t from_type, uintptr_t src,
                        int32_t to, int32_t to_type, uintptr_t dst) {
  const ParamBlock* b = block_at(address);
  return code(unpool::convert_indices(
      static_cast<int32_t>(to_i64(b->dims[0])), read_layout(*b), read_shape(b->shape_a),
      read_shape(b->shape_b), static_cast<unpool::IndexFormat>(from),
      static_cast<unpool::IndexType>(from_type), reinterpret_cast<const void*>(src),
      static_cast<unpool::IndexFormat>(to), static_cast<unpool::IndexType>(to_type),
      reinterpret_cast<void*>(dst), &last_error()));
}

// convertIndices's checks alone (dims, layout, shapeA, shapeB as for
// convertIndices), its geometry -> planGeometry: the WebGPU backend converts
// on the GPU.
int32_t plan_convert(uintptr_t address, int32_t from, int32_t from_type, int32_t to,
                     int32_t to_type) {
  ParamBlock* b = block_at(address);
  unpool::Geometry g;
  const unpool::Status st = unpool::plan_convert_indices(
      static_cast<int32_t>(to_i64(b->dims[0])), read_layout(*b), read_shape(b->shape_a),
      read_shape(b->shape_b), static_cast<unpool::IndexFormat>(from),
      static_cast<unpool::IndexType>(from_type), static_cast<unpool::IndexFormat>(to),
      static_cast<unpool::IndexType>(to_type), &g, &last_error());
  if (st == unpool::Status::kOk) write_geometry(g, b->plan_geometry);
  return code(st);
}

// The message of convertIndices's first bad element `position` holding the
// int64 (lo, hi); `per_plane`: every index lies in [0, plane).
int32_t convert_error(uintptr_t address, int32_t from, double position, uint32_t lo, uint32_t hi,
                      int32_t per_plane) {
  const ParamBlock* b = block_at(address);
  const int64_t value = static_cast<int64_t>((static_cast<uint64_t>(hi) << 32) | lo);
  return code(unpool::convert_indices_error(
      static_cast<int32_t>(to_i64(b->dims[0])), read_layout(*b), read_shape(b->shape_a),
      read_shape(b->shape_b), static_cast<unpool::IndexFormat>(from), to_i64(position), value,
      per_plane != 0, &last_error()));
}

}  // namespace
}  // namespace unpool_bindings

EMSCRIPTEN_BINDINGS(unpool) {
  using emscripten::function;
  namespace b = unpool_bindings;
  function("paramLayout", &b::param_layout);
  function("statusNames", &b::status_names);
  function("valueTypes", &b::value_types);
  function("indexTypes", &b::index_types);
  function("opCodes", &b::op_codes);
  function("memoryUsage", &b::memory_usage);
  function("lastError", &b::take_last_error);
  function("createPlan", &b::create_plan);
  function("destroyPlan", &b::destroy_plan);
  function("plan", &b::plan_call);
  function("runPlan", &b::run);
  function("runSmall", &b::run_small_call);
  function("checkIndices", &b::check_indices_call);
  function("unpoolOutputRange", &b::unpool_output_range);
  function("planGeometry", &b::plan_geometry);
  function("contentError", &b::content_error_call);
  function("planConvert", &b::plan_convert);
  function("convertError", &b::convert_error);
  function("convertIndices", &b::convert_indices);
}
