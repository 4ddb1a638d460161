// The value of a call's first bad index, copied next to its position so
// that the host can word the CPU's message (the core's contentError()).
// For families that declare `indices` (array<u32>) and `status`
// ([first bad position or NONE, value lo, value hi, ...], atomic).
@compute @workgroup_size(1)
fn error_value() {
  let e = atomicLoad(&status[0]);
  if (e == NONE) { return; }
  if (INDEX64) {
    atomicStore(&status[1], indices[2u * e]);
    atomicStore(&status[2], indices[2u * e + 1u]);
  } else {
    let v = indices[e];
    atomicStore(&status[1], v);
    atomicStore(&status[2], select(0u, 0xffffffffu, (v >> 31u) != 0u));
  }
}
