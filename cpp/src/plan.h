// The parts every op's plan and run share.
#ifndef UNPOOL_SRC_PLAN_H_
#define UNPOOL_SRC_PLAN_H_

#include "checks.h"
#include "unpool/types.h"

namespace unpool {
namespace internal {

// A fresh plan of `op` named `base` ("maxPool#d", see OpName) for `dims`
// spatial dims; `planes_of` names the tensor a run's PlaneRange counts.
Plan new_plan(Op op, const char* base, int32_t dims, DType dtype, IndexType index_type,
              const char* planes_of);

// Checks that `plan` is a plan of `op` and that `planes` is a range of its
// planes; `g` receives the plan's geometry narrowed to them.
Check start_run(const Plan& plan, Op op, const PlaneRange& planes, Geometry* g);

// check_indices of a max_pool_backward plan (max_pool_backward.cc).
Check check_pool_backward_indices(const Plan& plan, const void* indices);
// check_indices of a fractional_max_pool plan: its random samples
// (fractional_max_pool.cc).
Check check_fractional_samples(const Plan& plan, const void* samples);
// The message of random sample `position` holding `bits` (content_error).
Check fractional_sample_error(const Plan& plan, int64_t position, int64_t bits);

}  // namespace internal
}  // namespace unpool

#endif  // UNPOOL_SRC_PLAN_H_
