// Operator-layer helpers shared by the ops: type dispatch, error reporting
// and the checks that do not belong to one op.
#ifndef UNPOOL_SRC_DISPATCH_H_
#define UNPOOL_SRC_DISPATCH_H_

#include <cstdint>
#include <string>

#include "geometry.h"
#include "unpool/unpool.h"

namespace unpool {
namespace internal {

// Calls f(T{}, I{}) with T = float/double and I = int32_t/int64_t. The types
// must have been checked with check_types.
template <typename F>
void dispatch(DType dtype, IndexType index_type, F&& f) {
  if (dtype == DType::kFloat32) {
    if (index_type == IndexType::kInt32) f(float{}, int32_t{});
    else f(float{}, int64_t{});
  } else {
    if (index_type == IndexType::kInt32) f(double{}, int32_t{});
    else f(double{}, int64_t{});
  }
}

// Copies the message out and returns the status.
inline Status report(const Check& c, std::string* error) {
  if (error) *error = c.message;
  return c.status;
}

Check check_types(const char* op, DType dtype, IndexType index_type);

Check check_same_shape(const char* op, const char* name, const Shape& actual,
                       const Shape& expected);

// For ops whose geometry comes from two shapes (backward passes): `a` and `b`
// are tensors of `dims` spatial dims in `layout`, of the same rank and the
// same N and C. Fills g->planes, g->in from `a` and g->out from `b`.
Check plan_plain(const char* op, int32_t dims, Layout layout, const Shape& a,
                 const Shape& b, const char* a_name, const char* b_name,
                 Geometry* g);

// "maxUnpool2d: indices[5]=17 is out of range for output plane 4x4 (16
// elements)". `pos` is the flat position in the indices tensor, `plane` the
// D, H, W of the plane the indices point into.
Check index_error(const char* op, const char* name, int64_t pos, int64_t value,
                  const int64_t plane[3], int32_t dims, const char* what);

}  // namespace internal
}  // namespace unpool

#endif  // UNPOOL_SRC_DISPATCH_H_
