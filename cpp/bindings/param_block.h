// The parameter block: the arguments of one call from JavaScript, as doubles
// in the wasm heap. The TypeScript layer allocates one at load, writes an
// op's params and shapes into it and passes its address; the bindings write
// results (an output shape, unpool output ranges) back into it. Its layout is
// declared here and nowhere else: paramLayout() hands the slot offsets to
// JavaScript at load.
//
// Every number is a double (a JS number). The TS layer has checked that each
// is a safe integer; to_i64 maps anything else to a value the core rejects.
#ifndef UNPOOL_BINDINGS_PARAM_BLOCK_H_
#define UNPOOL_BINDINGS_PARAM_BLOCK_H_

#include <cstddef>
#include <cstdint>

#include "unpool/unpool.h"

namespace unpool_bindings {

// A size argument (unpool::SizeArg): count, list (0/1), values[3].
constexpr int kSizeSlots = 2 + unpool::kMaxSpatialDims;
// A shape (unpool::Shape): rank, dims[5].
constexpr int kShapeSlots = 1 + unpool::kMaxRank;

// A plan's resolved geometry (unpool::Geometry, for the WebGPU backend):
// layout, channels, planes, in[3], out[3], kernel[3], stride[3], pad[3],
// dilation[3], then the plan's pool_geometry and regular flags.
constexpr int kGeometrySlots = 3 + 6 * unpool::kMaxSpatialDims + 2;

// X(member, "jsName", slots), in block order.
#define UNPOOL_PARAM_FIELDS(X)                                              \
  X(dims, "dims", 1) /* spatial dims: 1, 2 or 3 */                          \
  X(layout, "layout", 1) /* unpool::Layout code */                          \
  X(ceil_mode, "ceilMode", 1) /* pools: 0 or 1 */                           \
  X(output_size_count, "outputSizeCount", 1) /* unpools: -1 = default */    \
  X(kernel, "kernel", kSizeSlots)                                           \
  X(stride, "stride", kSizeSlots)                                           \
  X(padding, "padding", kSizeSlots)                                         \
  X(dilation, "dilation", kSizeSlots) /* pools */                           \
  X(output_size, "outputSize", unpool::kMaxRank) /* unpools */              \
  X(pool_size, "poolSize", kSizeSlots) /* adaptive, fractional: the         \
                                          output size as a size arg */      \
  X(keep, "keep", unpool::kMaxSpatialDims) /* adaptive: 1 = input's size */ \
  X(ratio, "ratio", kSizeSlots) /* fractional: count, list, 3               \
                                   ratios in (0, 1) */                      \
  X(shape_a, "shapeA", kShapeSlots) /* the op's first shape */              \
  X(shape_b, "shapeB", kShapeSlots) /* its second (backward ops) */         \
  X(shape_out, "shapeOut", kShapeSlots) /* written: the result's shape */   \
  X(result_at, "resultAt", 2) /* written by runSmall: where it put its      \
                                 results (heap addresses, op order) */      \
  X(range_min, "rangeMin", unpool::kMaxSpatialDims) /* written: unpool */   \
  X(range_max, "rangeMax", unpool::kMaxSpatialDims) /* output ranges */     \
  X(plan_geometry, "planGeometry", kGeometrySlots) /* written by            \
                           planGeometry(): the held plan's Geometry */

struct ParamBlock {
#define UNPOOL_PARAM_MEMBER(member, js, slots) double member[slots];
  UNPOOL_PARAM_FIELDS(UNPOOL_PARAM_MEMBER)
#undef UNPOOL_PARAM_MEMBER
};

// Field numbers, and each field's first slot: the sum of the slots before it.
enum Field : int {
#define UNPOOL_PARAM_ENUM(member, js, slots) kField_##member,
  UNPOOL_PARAM_FIELDS(UNPOOL_PARAM_ENUM)
#undef UNPOOL_PARAM_ENUM
      kFieldCount
};

constexpr int kFieldSlots[] = {
#define UNPOOL_PARAM_SLOTS(member, js, slots) slots,
    UNPOOL_PARAM_FIELDS(UNPOOL_PARAM_SLOTS)
#undef UNPOOL_PARAM_SLOTS
};

constexpr int slot_of(int field) {
  int slot = 0;
  for (int i = 0; i < field; ++i) slot += kFieldSlots[i];
  return slot;
}

// The block is its fields, in order, without padding: slot k is the double
// at byte 8k, as JavaScript reads it.
constexpr int kSlots = slot_of(kFieldCount);
static_assert(sizeof(ParamBlock) == kSlots * sizeof(double), "padding in ParamBlock");
#define UNPOOL_PARAM_OFFSET(member, js, slots)                                             \
  static_assert(offsetof(ParamBlock, member) == slot_of(kField_##member) * sizeof(double), \
                "ParamBlock." #member " is not where paramLayout() says");
UNPOOL_PARAM_FIELDS(UNPOOL_PARAM_OFFSET)
#undef UNPOOL_PARAM_OFFSET

// What identifies a plan: every field before shape_out (params and input
// shapes), compared byte for byte.
constexpr size_t kKeyBytes = offsetof(ParamBlock, shape_out);
constexpr size_t kKeyWords = kKeyBytes / sizeof(uint64_t);
static_assert(kKeyBytes % sizeof(uint64_t) == 0, "the key is whole doubles");

// Readers: the block's doubles as the core's types.
int64_t to_i64(double v);
unpool::Layout read_layout(const ParamBlock& b);
unpool::Shape read_shape(const double* s);
unpool::PoolParams read_pool(const ParamBlock& b);
unpool::UnpoolParams read_unpool(const ParamBlock& b);
unpool::AdaptivePoolParams read_adaptive(const ParamBlock& b);
unpool::FractionalPoolParams read_fractional(const ParamBlock& b);
void write_shape(const unpool::Shape& shape, double* s);
void write_geometry(const unpool::Plan& plan, double* s);
void write_geometry(const unpool::Geometry& g, double* s);

}  // namespace unpool_bindings

#endif  // UNPOOL_BINDINGS_PARAM_BLOCK_H_
