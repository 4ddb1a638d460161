// Max unpooling and its gradient: indices point from each element of `x`
// (the pooled tensor) into its (n, c) plane of the unpooled tensor.
// - scatter: each input element records itself (position + 1) in `win` at
//   its target with atomicMax, so the later input position wins a target
//   that several indices share, as on the CPU (and deterministically, which
//   PyTorch's CUDA kernel is not);
// - gather: every output element takes the value of its winner, zero where
//   none won;
// - unpool_backward: gradInput[e] = gradOutput at e's target (a gather).
// An index outside its plane is recorded in `status` (the first bad
// position, by atomicMin), and error_value (status.wgsl) then copies its value there, so
// the host can word the CPU's error; the results are then undefined.
//
// Geometry: P.in_plane elements a plane of `x` (and of the indices),
// P.out_plane of the unpooled plane; P.count work items.

// Bindings (kernels.ts, FAMILIES.unpool): x, indices, y, win (atomic),
// status ([first bad position or NONE, its value's lo, hi, unused]), and
// won: the gather's view of the winners (the same buffer as `win`, which
// the gather's bind group leaves unbound: one buffer cannot be bound both
// read-write and read-only in one dispatch): plain loads, not atomic ones.

fn x_value(i: u32) -> vec2<u32> {
  let w = word_of(i);
  if (elem_bits() == 64u) { return vec2<u32>(x[w], x[w + 1u]); }
  return vec2<u32>(lane(x[w], i), 0u);
}

// The index of element e of the indices (flat, in memory order): its
// position in its unpooled plane, or NONE when that is outside the plane.
fn plane_index(e: u32) -> u32 {
  var v: u32;
  if (INDEX64) {
    if (indices[2u * e + 1u] != 0u) { return NONE; }
    v = indices[2u * e];
  } else {
    v = indices[e];  // a negative int32 is >= 2^31 here
  }
  if (v >= P.out_plane) { return NONE; }
  return v;
}

// The target in the unpooled tensor of element e of the indices, or NONE
// when its index is outside the plane.
fn target_of(e: u32) -> u32 {
  let v = plane_index(e);
  if (v == NONE) { return NONE; }
  if (P.channels_last == 0u) {
    return (e / P.in_plane) * P.out_plane + v;
  }
  let c = e % P.channels;
  let n = e / (P.channels * P.in_plane);
  return (n * P.out_plane + v) * P.channels + c;
}

@compute @workgroup_size(WG)
fn scatter(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let e = item_of(wid, lid);
  if (e >= P.count) { return; }
  let t = target_of(e);
  if (t == NONE) {
    atomicMin(&status[0], e + P.base);
    return;
  }
  atomicMax(&win[t], e + 1u);
}

// Where a max unpool's windows are disjoint (stride >= kernel along every
// dim) and its values are 32 or 64 bits wide, device.ts first runs
// scatter_plain over an output cleared to +0: each input element whose
// index lies in its own window writes its value at its target (no two
// share one: the windows are disjoint). An element whose index does not
// (or lies outside the plane) arms the fallback: it copies the scatter's and
// the gather's workgroup counts from words 6 and 7 of `win` (bound here to
// the indirect-dispatch arguments: scatter at words 0-2, gather at 3-5)
// into words 0 and 3, and the scatter + gather above then run (indirect)
// and write every output; otherwise they run no workgroup.
@compute @workgroup_size(WG)
fn scatter_plain(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let e = item_of(wid, lid);
  if (e >= P.count) { return; }
  let v = plane_index(e);
  // e's unit (plane, or image when channels-last), channel and position o
  // in its pooled plane, its target t; subtractions for the remainders,
  // since a division is the costly part of this pass on software adapters.
  var q = e;
  var c = 0u;
  if (P.channels_last != 0u) {
    q = e / P.channels;
    c = e - q * P.channels;
  }
  let unit = q / P.in_plane;
  let o = q - unit * P.in_plane;
  var t = unit * P.out_plane + v;
  if (P.channels_last != 0u) { t = t * P.channels + c; }
  // The (d, h, w) of o in the pooled plane and of v in the unpooled one.
  let r = o / P.in_w;
  let ow = o - r * P.in_w;
  let od = r / P.in_h;
  let oh = r - od * P.in_h;
  let vr = v / P.out_w;
  let vw = v - vr * P.out_w;
  let vd = vr / P.out_h;
  let vh = vr - vd * P.out_h;
  // v - (o s - p) in [0, k) along each dim (i32: a window may start before 0).
  let own = v != NONE &&
      u32(i32(vd) - (i32(od * P.s_d) - i32(P.p_d))) < P.k_d &&
      u32(i32(vh) - (i32(oh * P.s_h) - i32(P.p_h))) < P.k_h &&
      u32(i32(vw) - (i32(ow * P.s_w) - i32(P.p_w))) < P.k_w;
  if (!own) {
    atomicStore(&win[0], atomicLoad(&win[6]));
    atomicStore(&win[3], atomicLoad(&win[7]));
    return;
  }
  let value = x_value(e);
  if (elem_bits() == 64u) {
    y[2u * t] = value.x;
    y[2u * t + 1u] = value.y;
  } else {
    y[t] = value.x;
  }
}

// Output element t's value: its winner's, or +0.
fn unpooled(t: u32) -> vec2<u32> {
  let w = won[t];
  if (w == 0u) { return vec2<u32>(0u, 0u); }
  return x_value(w - 1u);
}

// Writes the values of work item `item`: output element `item` (64-bit
// values), or the elements that share word `item`. `which` picks the value
// function: 0 unpooled, 1 gathered.
fn write_item(item: u32, which: u32) {
  let bits = elem_bits();
  if (bits >= 32u) {
    if (item >= P.count) { return; }
    let v = value_of(item, which);
    if (bits == 64u) {
      y[2u * item] = v.x;
      y[2u * item + 1u] = v.y;
    } else {
      y[item] = v.x;
    }
    return;
  }
  // Outputs that share a word: this invocation's (packed.wgsl).
  lane_of = which;
  write_packed(item, bits);
}

// The value function write_item was given, for write_packed's lanes.
var<private> lane_of: u32;

fn lane_value(e: u32) -> u32 {
  return value_of(e, lane_of).x;
}

fn value_of(e: u32, which: u32) -> vec2<u32> {
  if (which == 0u) { return unpooled(e); }
  return gathered(e);
}

@compute @workgroup_size(WG)
fn gather(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  write_item(item_of(wid, lid), 0u);
}

// gradInput[e] = gradOutput (bound as x) at e's target; a bad index gives 0
// and is recorded.
fn gathered(e: u32) -> vec2<u32> {
  let t = target_of(e);
  if (t == NONE) {
    atomicMin(&status[0], e + P.base);
    return vec2<u32>(0u, 0u);
  }
  return x_value(t);
}

@compute @workgroup_size(WG)
fn unpool_backward(@builtin(workgroup_id) wid: vec3<u32>,
                   @builtin(local_invocation_id) lid: vec3<u32>) {
  write_item(item_of(wid, lid), 1u);
}
