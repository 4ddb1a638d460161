// A plan: one op's checked params and shapes, held by the TypeScript runtime
// (one per op kind, created at load) between plan() and run(). plan() skips
// the checks when the block's params and shapes and the types are those the
// plan was last built from, so a network calling one layer again and again
// does not re-plan.
//
// Everything that knows how a plan is made and run is in plan_holder.cc, over
// the public C++ API (unpool.h), so that it can be re-pointed at the operator
// layer's own plans in one place.
#ifndef UNPOOL_BINDINGS_PLAN_HOLDER_H_
#define UNPOOL_BINDINGS_PLAN_HOLDER_H_

#include <cstdint>
#include <string>

#include "param_block.h"
#include "unpool/unpool.h"

namespace unpool_bindings {

// The ops, by the codes opCodes() gives JavaScript.
#define UNPOOL_OP_LIST(X)                     \
  X(kMaxPool, 0, "maxPool")                   \
  X(kMaxUnpool, 1, "maxUnpool")               \
  X(kMaxPoolBackward, 2, "maxPoolBackward")   \
  X(kMaxUnpoolBackward, 3, "maxUnpoolBackward")

enum class Op : int32_t {
#define UNPOOL_OP_ENUMERATOR(e, code, name) e = code,
  UNPOOL_OP_LIST(UNPOOL_OP_ENUMERATOR)
#undef UNPOOL_OP_ENUMERATOR
};

// What run() needs. The buffers' element types are in `dtype`/`index_type`.
struct Plan {
  bool valid = false;  // built by a successful plan()
  Op op = Op::kMaxPool;
  int32_t dtype = 0;       // unpool::DType code
  int32_t index_type = 0;  // unpool::IndexType code
  unsigned char key[kKeyBytes] = {};  // the block's bytes it was built from
  unpool::PoolParams pool;      // maxPool, maxPoolBackward
  unpool::UnpoolParams unpool;  // maxUnpool
  unpool::Shape a, b;           // the block's shapeA and shapeB
  unpool::Shape out;            // the result's shape
};

// Validates op `op` on the block (see bindings.cc for the shapes of each op),
// stores it in `plan` and writes the result's shape to the block's shapeOut.
unpool::Status plan_op(int32_t op, Plan* plan, ParamBlock* block, int32_t dtype,
                       int32_t index_type, std::string* error);

// Runs `plan` on planes [begin, end) (end -1: all). Addresses in op order:
// maxPool (x, y, indices); maxUnpool (x, indices, y); maxPoolBackward and
// maxUnpoolBackward (gradOutput, indices, gradInput).
unpool::Status run_plan(const Plan& plan, uintptr_t a0, uintptr_t a1, uintptr_t a2,
                        int64_t begin, int64_t end, std::string* error);

// plan_op, then, when every result fits in `capacity` bytes at `out` (the
// first at `out`, a second, pool indices, at the next multiple of 8), runs
// all planes into them. Returns kNotRun (nothing run) when they do not fit.
constexpr int32_t kNotRun = -1;
int32_t run_small(int32_t op, Plan* plan, ParamBlock* block, int32_t dtype,
                  int32_t index_type, uintptr_t in0, uintptr_t in1, uintptr_t out,
                  uint32_t capacity, std::string* error);

// A maxUnpool plan's every index checked, nothing written.
unpool::Status check_indices(const Plan& plan, uintptr_t indices, std::string* error);

}  // namespace unpool_bindings

#endif  // UNPOOL_BINDINGS_PLAN_HOLDER_H_
