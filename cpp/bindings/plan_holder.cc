// Plan holders over the core's plans: plan_op reads the block into an op's
// params and plans it; run_plan runs the plan on a plane range.
#include "plan_holder.h"

#include <cstring>
#include <utility>

namespace unpool_bindings {

namespace {

using unpool::Op;
using unpool::Status;

void* ptr(uintptr_t address) { return reinterpret_cast<void*>(address); }
const void* cptr(uintptr_t address) { return reinterpret_cast<const void*>(address); }

unpool::DType dtype_of(int32_t code) { return static_cast<unpool::DType>(code); }
unpool::IndexType itype_of(int32_t code) { return static_cast<unpool::IndexType>(code); }

Status fail(std::string* error, std::string message) {
  *error = std::move(message);
  return Status::kInvalidArgument;
}

// `f`, through a pointer the optimizer cannot see through. wasm-opt inlines
// a function into its only caller: a run inlined into its runner is the same
// code with another frame and other locals, and V8 ran large 3d pools 15-25%
// slower with it (ab.mjs). Called this way, each run stays its own function.
template <typename F>
F opaque(F f) {
  F volatile p = f;
  return p;
}

Status plan_core(Op op, const ParamBlock& b, unpool::DType dt, unpool::IndexType it,
                 unpool::Plan* plan, std::string* error) {
  const unpool::Shape a = read_shape(b.shape_a);
  const unpool::Shape s = read_shape(b.shape_b);
  switch (op) {
    case Op::kMaxPool:
      return unpool::plan_max_pool(read_pool(b), a, dt, it, plan, error);
    case Op::kMaxUnpool:
      return unpool::plan_max_unpool(read_unpool(b), a, dt, it, plan, error);
    case Op::kMaxPoolBackward:  // shapeA: the pooled input; shapeB: gradOutput
      return unpool::plan_max_pool_backward(read_pool(b), a, s, dt, it, plan, error);
    case Op::kMaxUnpoolBackward:  // shapeA: gradOutput; shapeB: indices
      return unpool::plan_max_unpool_backward(static_cast<int32_t>(to_i64(b.dims[0])),
                                              read_layout(b), a, s, dt, it, plan, error);
    case Op::kAdaptiveMaxPool:
      return unpool::plan_adaptive_max_pool(read_adaptive(b), a, dt, it, plan, error);
    case Op::kFractionalMaxPool:  // shapeB: randomSamples
      return unpool::plan_fractional_max_pool(read_fractional(b), a, s, dt, it, plan, error);
    case Op::kAdaptiveMaxPoolBackward:  // shapeA: the pooled input; shapeB: gradOutput
      return unpool::plan_adaptive_max_pool_backward(static_cast<int32_t>(to_i64(b.dims[0])),
                                                     read_layout(b), a, s, dt, it, plan, error);
    case Op::kFractionalMaxPoolBackward:
      return unpool::plan_fractional_max_pool_backward(static_cast<int32_t>(to_i64(b.dims[0])), a,
                                                       s, dt, it, plan, error);
  }
  return fail(error, "unpool: unknown op code " + std::to_string(static_cast<int32_t>(op)));
}

// The block's key bytes equal `key`: a word-wide, branch-free compare (libc's
// memcmp goes byte by byte, and this runs on every call).
bool same_key(const uint64_t* key, const ParamBlock* block) {
  uint64_t words[kKeyWords];
  std::memcpy(words, block, kKeyBytes);
  uint64_t diff = 0;
  for (size_t i = 0; i < kKeyWords; ++i) diff |= words[i] ^ key[i];
  return diff == 0;
}

}  // namespace

Status plan_op(int32_t op, Plan* holder, ParamBlock* block, int32_t dtype, int32_t index_type,
               std::string* error) {
  if (holder->valid && holder->op == op && holder->dtype == dtype &&
      holder->index_type == index_type && same_key(holder->key, block)) {
    write_shape(holder->plan.output, block->shape_out);
    return Status::kOk;
  }
  holder->valid = false;
  const Status st = plan_core(static_cast<Op>(op), *block, dtype_of(dtype), itype_of(index_type),
                              &holder->plan, error);
  if (st != Status::kOk) return st;
  write_shape(holder->plan.output, block->shape_out);
  holder->op = op;
  holder->dtype = dtype;
  holder->index_type = index_type;
  std::memcpy(holder->key, block, kKeyBytes);
  holder->valid = true;
  return Status::kOk;
}

Status run_plan(const Plan& holder, uintptr_t a0, uintptr_t a1, uintptr_t a2, uintptr_t a3,
                int64_t begin, int64_t end, std::string* error) {
  if (!holder.valid) return fail(error, "unpool: runPlan() of a plan that plan() did not build");
  const unpool::Plan& p = holder.plan;
  const unpool::PlaneRange planes{begin, end};
  switch (p.op) {
    case Op::kMaxPool:
      return opaque(&unpool::run_max_pool)(p, planes, cptr(a0), ptr(a1), ptr(a2), error);
    case Op::kMaxUnpool:
      return opaque(&unpool::run_max_unpool)(p, planes, cptr(a0), cptr(a1), ptr(a2), error);
    case Op::kMaxPoolBackward:
    case Op::kAdaptiveMaxPoolBackward:
    case Op::kFractionalMaxPoolBackward:
      return opaque(&unpool::run_max_pool_backward)(p, planes, cptr(a0), cptr(a1), ptr(a2), error);
    case Op::kAdaptiveMaxPool:
      return opaque(&unpool::run_adaptive_max_pool)(p, planes, cptr(a0), ptr(a1), ptr(a2), error);
    case Op::kFractionalMaxPool:
      return opaque(&unpool::run_fractional_max_pool)(p, planes, cptr(a0), cptr(a1), ptr(a2),
                                                      ptr(a3), error);
    case Op::kMaxUnpoolBackward:
      return opaque(&unpool::run_max_unpool_backward)(p, planes, cptr(a0), cptr(a1), ptr(a2),
                                                      error);
  }
  return fail(error, "unpool: a plan of an unknown op");
}

int32_t run_small(int32_t op, Plan* holder, ParamBlock* block, int32_t dtype, int32_t index_type,
                  uintptr_t in0, uintptr_t in1, uintptr_t out, uint32_t capacity,
                  std::string* error) {
  const Status st = plan_op(op, holder, block, dtype, index_type, error);
  if (st != Status::kOk) return static_cast<int32_t>(st);
  const int64_t n = unpool::numel(holder->plan.output);
  if (n < 0 || n > static_cast<int64_t>(capacity)) return kNotRun;  // (bytes >= n)
  const int64_t first = n * unpool::element_size(dtype_of(dtype));
  const int64_t second = (first + 7) / 8 * 8;
  const Op o = holder->plan.op;
  const bool pool = o == Op::kMaxPool || o == Op::kAdaptiveMaxPool || o == Op::kFractionalMaxPool;
  const int64_t total = pool ? second + n * unpool::element_size(itype_of(index_type)) : first;
  if (total > static_cast<int64_t>(capacity)) return kNotRun;
  // Results in op order from `out`, each 8-aligned; JavaScript reads them
  // where the block says (resultAt), so this is the one place that lays them out.
  const uintptr_t r0 = out;
  const uintptr_t r1 = pool ? out + static_cast<uintptr_t>(second) : 0;
  block->result_at[0] = static_cast<double>(r0);
  block->result_at[1] = static_cast<double>(r1);
  // The runners take inputs then results: pools (x, y, indices), fractional
  // (x, samples, y, indices), the others (in0, in1, result).
  const Status r = o == Op::kFractionalMaxPool ? run_plan(*holder, in0, in1, r0, r1, 0, -1, error)
                   : pool                      ? run_plan(*holder, in0, r0, r1, 0, 0, -1, error)
                                               : run_plan(*holder, in0, in1, r0, 0, 0, -1, error);
  return static_cast<int32_t>(r);
}

Status check_indices(const Plan& holder, uintptr_t indices, std::string* error) {
  if (!holder.valid)
    return fail(error, "unpool: checkIndices() of a plan that plan() did not build");
  return unpool::check_indices(holder.plan, cptr(indices), error);
}

}  // namespace unpool_bindings
