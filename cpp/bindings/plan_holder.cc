// Plans over today's public C++ API: plan_op validates with the *_shape
// functions (the backward passes have none: their run validates), run_plan
// calls the op with the plan's params and a plane range.
#include "plan_holder.h"

#include <cstring>
#include <utility>

namespace unpool_bindings {

namespace {

using unpool::Status;

void* ptr(uintptr_t address) { return reinterpret_cast<void*>(address); }

unpool::DType dtype_of(int32_t code) { return static_cast<unpool::DType>(code); }
unpool::IndexType itype_of(int32_t code) { return static_cast<unpool::IndexType>(code); }

int64_t element_bytes(int32_t code) { return code == 1 ? 8 : 4; }

Status fail(std::string* error, std::string message) {
  *error = std::move(message);
  return Status::kInvalidArgument;
}

// The backward passes of today's core run on whole tensors only.
bool all_planes(int64_t begin, int64_t end) { return begin == 0 && end == -1; }
constexpr const char* kWholeOnly = "unpool: backward passes run on all planes only";

}  // namespace

Status plan_op(int32_t op, Plan* plan, ParamBlock* block, int32_t dtype, int32_t index_type,
               std::string* error) {
  if (plan->valid && static_cast<int32_t>(plan->op) == op && plan->dtype == dtype &&
      plan->index_type == index_type && std::memcmp(plan->key, block, kKeyBytes) == 0) {
    write_shape(plan->out, block->shape_out);
    return Status::kOk;
  }
  plan->valid = false;
  const unpool::Shape a = read_shape(block->shape_a);
  const unpool::Shape b = read_shape(block->shape_b);
  unpool::Shape out;
  Status st = Status::kOk;
  switch (static_cast<Op>(op)) {
    case Op::kMaxPool:
      plan->pool = read_pool(*block);
      st = unpool::max_pool_shape(plan->pool, a, &out, error);
      break;
    case Op::kMaxUnpool:
      plan->unpool = read_unpool(*block);
      st = unpool::max_unpool_shape(plan->unpool, a, &out, error);
      break;
    case Op::kMaxPoolBackward:  // the result has the pooled input's shape
      plan->pool = read_pool(*block);
      out = a;
      break;
    case Op::kMaxUnpoolBackward:  // the result has the indices' shape; dims, layout only
      plan->pool = read_pool(*block);
      out = b;
      break;
    default:
      return fail(error, "unpool: unknown op code " + std::to_string(op));
  }
  write_shape(out, block->shape_out);
  if (st != Status::kOk) return st;
  plan->op = static_cast<Op>(op);
  plan->dtype = dtype;
  plan->index_type = index_type;
  std::memcpy(plan->key, block, kKeyBytes);
  plan->a = a;
  plan->b = b;
  plan->out = out;
  plan->valid = true;
  return Status::kOk;
}

namespace {

// `f`, through a pointer the optimizer cannot see through. wasm-opt inlines
// a function into its only caller: max_pool inlined into its runner is the
// same code with another frame and other locals, and V8 ran large 3d pools
// 15-25% slower with it (ab.mjs). Called this way, each core op stays its
// own function, as when the old exports gave it several callers.
template <typename F>
F opaque(F f) {
  F volatile p = f;
  return p;
}

// One runner per op, called through a table indexed by the op's code.
using Runner = Status (*)(const Plan&, uintptr_t, uintptr_t, uintptr_t, int64_t, int64_t,
                          std::string*);

Status run_max_pool(const Plan& plan, uintptr_t x, uintptr_t y, uintptr_t indices,
                    int64_t begin, int64_t end, std::string* error) {
  unpool::PoolParams p = plan.pool;
  p.planes = {begin, end};
  return opaque(&unpool::max_pool)(p, plan.a, dtype_of(plan.dtype), ptr(x), ptr(y),
                          itype_of(plan.index_type), ptr(indices), error);
}

Status run_max_unpool(const Plan& plan, uintptr_t x, uintptr_t indices, uintptr_t y,
                      int64_t begin, int64_t end, std::string* error) {
  unpool::UnpoolParams p = plan.unpool;
  p.planes = {begin, end};
  return opaque(&unpool::max_unpool)(p, plan.a, dtype_of(plan.dtype), ptr(x), itype_of(plan.index_type),
                            ptr(indices), ptr(y), error);
}

Status run_max_pool_backward(const Plan& plan, uintptr_t grad_output, uintptr_t indices,
                             uintptr_t grad_input, int64_t begin, int64_t end,
                             std::string* error) {
  if (!all_planes(begin, end)) return fail(error, kWholeOnly);
  return opaque(&unpool::max_pool_backward)(plan.pool, plan.a, plan.b, dtype_of(plan.dtype),
                                   ptr(grad_output), itype_of(plan.index_type), ptr(indices),
                                   ptr(grad_input), error);
}

Status run_max_unpool_backward(const Plan& plan, uintptr_t grad_output, uintptr_t indices,
                               uintptr_t grad_input, int64_t begin, int64_t end,
                               std::string* error) {
  if (!all_planes(begin, end)) return fail(error, kWholeOnly);
  return opaque(&unpool::max_unpool_backward)(plan.pool.dims, plan.pool.layout, plan.a, plan.b,
                                     dtype_of(plan.dtype), ptr(grad_output),
                                     itype_of(plan.index_type), ptr(indices), ptr(grad_input),
                                     error);
}

// Indexed by Op code (plan_op stores only valid ones).
Runner const kRunners[] = {run_max_pool, run_max_unpool, run_max_pool_backward,
                           run_max_unpool_backward};

}  // namespace

Status run_plan(const Plan& plan, uintptr_t a0, uintptr_t a1, uintptr_t a2, int64_t begin,
                int64_t end, std::string* error) {
  if (!plan.valid) return fail(error, "unpool: runPlan() of a plan that plan() did not build");
  return kRunners[static_cast<int32_t>(plan.op)](plan, a0, a1, a2, begin, end, error);
}

int32_t run_small(int32_t op, Plan* plan, ParamBlock* block, int32_t dtype, int32_t index_type,
                  uintptr_t in0, uintptr_t in1, uintptr_t out, uint32_t capacity,
                  std::string* error) {
  const Status st = plan_op(op, plan, block, dtype, index_type, error);
  if (st != Status::kOk) return static_cast<int32_t>(st);
  const int64_t n = unpool::numel(plan->out);
  if (n < 0 || n > static_cast<int64_t>(capacity)) return kNotRun;  // (bytes >= n)
  const int64_t first = n * element_bytes(dtype);
  const int64_t second = (first + 7) / 8 * 8;
  const bool pool = plan->op == Op::kMaxPool;
  const int64_t total = pool ? second + n * element_bytes(index_type) : first;
  if (total > static_cast<int64_t>(capacity)) return kNotRun;
  // Results in op order after the inputs: pool (x, y, indices), the others
  // (in0, in1, result).
  const Status r = pool ? run_plan(*plan, in0, out, out + second, 0, -1, error)
                        : run_plan(*plan, in0, in1, out, 0, -1, error);
  return static_cast<int32_t>(r);
}

Status check_indices(const Plan& plan, uintptr_t indices, std::string* error) {
  if (!plan.valid || plan.op != Op::kMaxUnpool) {
    return fail(error, "unpool: checkIndices() needs a maxUnpool plan");
  }
  return unpool::max_unpool_check(plan.unpool, plan.a, itype_of(plan.index_type),
                                  ptr(indices), error);
}

}  // namespace unpool_bindings
