#include "plan.h"

#include "geometry.h"
#include "ukernels/half.h"
#include "unpool/unpool.h"

namespace unpool {

#define UNPOOL_NAME_CASE(e, code, name, ...) \
  case e:                                    \
    return name;

const char* status_name(Status status) {
  using S = Status;
  switch (status) {
#define UNPOOL_S(e, code, name) UNPOOL_NAME_CASE(S::e, code, name)
    UNPOOL_STATUS_LIST(UNPOOL_S)
#undef UNPOOL_S
  }
  return "unknown";
}

const char* dtype_name(DType dtype) {
  switch (dtype) {
#define UNPOOL_D(e, code, name, T) UNPOOL_NAME_CASE(DType::e, code, name)
    UNPOOL_DTYPE_LIST(UNPOOL_D)
#undef UNPOOL_D
  }
  return "unknown";
}

const char* index_type_name(IndexType index_type) {
  switch (index_type) {
#define UNPOOL_I(e, code, name, I) UNPOOL_NAME_CASE(IndexType::e, code, name)
    UNPOOL_INDEX_TYPE_LIST(UNPOOL_I)
#undef UNPOOL_I
  }
  return "unknown";
}

int64_t element_size(DType dtype) {
  switch (dtype) {
#define UNPOOL_D(e, code, name, T) \
  case DType::e:                   \
    return sizeof(T);
    UNPOOL_DTYPE_LIST(UNPOOL_D)
#undef UNPOOL_D
  }
  return 0;
}

int64_t element_size(IndexType index_type) {
  switch (index_type) {
#define UNPOOL_I(e, code, name, I) \
  case IndexType::e:               \
    return sizeof(I);
    UNPOOL_INDEX_TYPE_LIST(UNPOOL_I)
#undef UNPOOL_I
  }
  return 0;
}

const char* op_name(Op op) {
  switch (op) {
#define UNPOOL_O(e, code, name) UNPOOL_NAME_CASE(Op::e, code, name)
    UNPOOL_OP_LIST(UNPOOL_O)
#undef UNPOOL_O
  }
  return "unknown";
}

#undef UNPOOL_NAME_CASE

int64_t numel(const Shape& shape) {
  if (shape.rank < 0 || shape.rank > kMaxRank) return -1;
  int64_t n = 1;
  for (int i = 0; i < shape.rank; ++i) {
    const int64_t d = shape.dims[i];
    if (d < 0) return -1;
    if (d == 0) return 0;
  }
  for (int i = 0; i < shape.rank; ++i) {
    if (n > INT64_MAX / shape.dims[i]) return -1;
    n *= shape.dims[i];
  }
  return n;
}

namespace internal {

Plan new_plan(Op op, const char* base, int32_t dims, DType dtype, IndexType index_type,
              const char* planes_of) {
  Plan p;
  p.op = op;
  p.dims = dims;
  const OpName name(base, dims);
  static_assert(sizeof(p.name) >= sizeof(name), "Plan::name must hold an OpName");
  for (size_t i = 0; (p.name[i] = name.c_str()[i]) != '\0'; ++i) {
  }
  p.dtype = dtype;
  p.index_type = index_type;
  p.planes_of = planes_of;
  return p;
}

Check start_run(const Plan& plan, Op op, const PlaneRange& planes, Geometry* g) {
  if (plan.op != op) {
    return fail(Status::kInvalidArgument, Message()
                                              << plan.name << ": a plan of " << op_name(plan.op)
                                              << " cannot run as " << op_name(op));
  }
  *g = plan.geometry;
  return select_planes(plan.name, planes, plan.planes_of, g);
}

}  // namespace internal
}  // namespace unpool
