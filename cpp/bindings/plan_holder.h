// A plan holder: the core's plan (unpool::Plan) of one op, kept by the
// TypeScript runtime (one per op kind, created at load) between plan() and
// runPlan(). plan() skips planning when the block's params and shapes and
// the types are those the plan was last built from, so a network calling one
// layer again and again does not plan again (XNNPACK's reshape: same shapes,
// straight to setup).
#ifndef UNPOOL_BINDINGS_PLAN_HOLDER_H_
#define UNPOOL_BINDINGS_PLAN_HOLDER_H_

#include <cstdint>
#include <string>

#include "param_block.h"
#include "unpool/unpool.h"

namespace unpool_bindings {

struct Plan {
  bool valid = false;  // built by a successful plan()
  int32_t op = 0;  // unpool::Op code
  int32_t dtype = 0;  // unpool::DType code
  int32_t index_type = 0;  // unpool::IndexType code
  uint64_t key[kKeyWords] = {};  // the block's bytes it was built from
  unpool::Plan plan;
};

// Plans op `op` (an unpool::Op code) on the block (see bindings.cc for the
// shapes of each op), keeps it in `holder` and writes the result's shape to
// the block's shapeOut.
unpool::Status plan_op(int32_t op, Plan* holder, ParamBlock* block, int32_t dtype,
                       int32_t index_type, std::string* error);

// Runs the held plan on planes [begin, end) (end -1: all). Addresses in op
// order: maxPool and adaptiveMaxPool (x, y, indices); fractionalMaxPool (x,
// randomSamples, y, indices); maxUnpool (x, indices, y); the backward passes
// (gradOutput, indices, gradInput). Unused addresses are 0.
unpool::Status run_plan(const Plan& holder, uintptr_t a0, uintptr_t a1, uintptr_t a2, uintptr_t a3,
                        int64_t begin, int64_t end, std::string* error);

// plan_op, then, when every result fits in `capacity` bytes at `out`, runs
// all planes into them and writes their addresses into the block's
// resultAt (op order; 0 for none); in0 and in1 are the op's inputs in
// order. Returns kNotRun (nothing run) when they do not fit.
constexpr int32_t kNotRun = -1;
int32_t run_small(int32_t op, Plan* holder, ParamBlock* block, int32_t dtype, int32_t index_type,
                  uintptr_t in0, uintptr_t in1, uintptr_t out, uint32_t capacity,
                  std::string* error);

// Every index of an unpool plan's whole tensor checked, nothing written.
unpool::Status check_indices(const Plan& holder, uintptr_t indices, std::string* error);

}  // namespace unpool_bindings

#endif  // UNPOOL_BINDINGS_PLAN_HOLDER_H_
