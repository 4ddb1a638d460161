// The value of a call's first bad index, copied next to its position so
// that the host can word the CPU's message (the core's contentError()).
// For families that declare `indices` (array<u32>) and `status`
// ([first bad position or NONE, value lo, value hi, ...], atomic).
// Positions count from the tensor's start: a call split into chunks binds
// P.count indices from element P.base, and the chunk that holds the first
// bad one copies its value.
@compute @workgroup_size(1)
fn error_value() {
  let first = atomicLoad(&status[0]);
  if (first == NONE || first < P.base || first - P.base >= P.count) { return; }
  let e = first - P.base;
  if (INDEX64) {
    atomicStore(&status[1], indices[2u * e]);
    atomicStore(&status[2], indices[2u * e + 1u]);
  } else {
    let v = indices[e];
    atomicStore(&status[1], v);
    atomicStore(&status[2], select(0u, 0xffffffffu, (v >> 31u) != 0u));
  }
}
