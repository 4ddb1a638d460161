// Pool backward (max, adaptive, fractional): gradInput[i] is the sum of
// gradOutput[o] over the outputs o of i's plane whose index is i, added in
// increasing o, as the CPU's scatter-add in output order adds them; each add
// is an IEEE add done in integer arithmetic (softfloat.wgsl: a GPU may flush
// subnormals in float adds), and 16-bit values round to their type after
// every add, as PyTorch's CPU kernel does.
// - check (one invocation per output element): an index outside its plane
//   is an error (the first in flat order, by atomicMin), except for a max
//   pool's window wholly in padding, which the CPU skips; an index that is
//   not one of its window's taps sets status[3], and gather then scans every
//   output of the plane instead of the windows that can hold i;
// - gather (one invocation per gradInput element, two for 16-bit values);
// - error_value (status.wgsl): the first bad index's value, for the message.
// P.flags bit 0: the op has a pool geometry (a max pool with a kernel);
// without one (maxPoolBackward with no kernel) every index takes the scan.

// Bindings (kernels.ts, FAMILIES.backward): go, indices, gi (gradInput),
// aux, status ([first bad position or NONE, its value's lo, hi, scan flag]).

fn go_value(i: u32) -> vec2<u32> {
  switch DTYPE {
    case F64: { return vec2<u32>(go[2u * i], go[2u * i + 1u]); }
    case F16, BF16: { return vec2<u32>((go[i >> 1u] >> ((i & 1u) * 16u)) & 0xffffu, 0u); }
    default: { return vec2<u32>(go[i], 0u); }
  }
}

// The index at element e as a u32, or NONE when outside [0, 2^32 - 1).
fn index_at(e: u32) -> u32 {
  if (INDEX64) {
    if (indices[2u * e + 1u] != 0u) { return NONE; }
    return indices[2u * e];
  }
  let v = indices[e];
  return select(v, NONE, (v >> 31u) != 0u);
}

// acc + v in the dtype, rounded as the CPU rounds it.
fn add(acc: vec2<u32>, v: vec2<u32>) -> vec2<u32> {
  switch DTYPE {
    case F64: { return sf_f64_add(acc, v); }
    case F16: { return vec2<u32>(sf_f32_to_f16(sf_f32_add(sf_f16_to_f32(acc.x), sf_f16_to_f32(v.x))), 0u); }
    case BF16: { return vec2<u32>(sf_f32_to_bf16(sf_f32_add(sf_bf16_to_f32(acc.x), sf_bf16_to_f32(v.x))), 0u); }
    default: { return vec2<u32>(sf_f32_add(acc.x, v.x), 0u); }
  }
}

// Element e of gradOutput / indices: its plane's first output element, its
// spatial output position, and the elements between spatial neighbours.
struct Place {
  plane: u32,
  first: u32,
  pos: u32,
  step: u32,
}

// Where element e of a tensor of `n` elements a plane sits (gradOutput's and
// the indices': P.out_plane; gradInput's: P.in_plane): its plane, the first
// element of that plane in gradOutput, its position, and the step between
// a plane's elements.
fn place_of(e: u32, n: u32) -> Place {
  if (P.channels_last == 0u) {
    let plane = e / n;
    return Place(plane, plane * P.out_plane, e % n, 1u);
  }
  let c = e % P.channels;
  let r = e / P.channels;
  return Place(0u, (r / n) * P.out_plane * P.channels + c, r % n, P.channels);
}

fn out_place(e: u32) -> Place { return place_of(e, P.out_plane); }
fn in_place(e: u32) -> Place { return place_of(e, P.in_plane); }

// Whether input coordinate i is a tap of output o's window along `dim`.
fn is_tap(dim: u32, o: u32, i: u32, plane: u32) -> bool {
  let s = span(dim, o, plane);
  let ii = i32(i);
  return ii >= s.start && ii < s.end && (ii - s.start) % s.step == 0;
}

@compute @workgroup_size(WG)
fn check(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let e = item_of(wid, lid);
  if (e >= P.count) { return; }
  let at = out_place(e);
  let v = index_at(e);
  let pooled = (P.flags & 1u) != 0u;
  let ow = at.pos % P.out_w;
  let oh = (at.pos / P.out_w) % P.out_h;
  let od = at.pos / (P.out_w * P.out_h);
  if (v >= P.in_plane) {
    if (pooled) {
      let sd = span(0u, od, at.plane);
      let sh = span(1u, oh, at.plane);
      let sw = span(2u, ow, at.plane);
      if (sd.start >= sd.end || sh.start >= sh.end || sw.start >= sw.end) { return; }
    }
    atomicMin(&status[0], e + P.base);
    return;
  }
  if (MODE == 0u && !pooled) {
    atomicOr(&status[3], 1u);
    return;
  }
  let iw = v % P.in_w;
  let ih = (v / P.in_w) % P.in_h;
  let id = v / (P.in_w * P.in_h);
  if (!is_tap(0u, od, id, at.plane) || !is_tap(1u, oh, ih, at.plane) || !is_tap(2u, ow, iw, at.plane)) {
    atomicOr(&status[3], 1u);
  }
}

struct Range {
  lo: u32,
  hi: u32,  // exclusive
}

// The outputs along `dim` whose windows can hold input coordinate i, as a
// range to test (each is tested with is_tap).
fn candidates(dim: u32, i: u32, plane: u32) -> Range {
  let g = dim_of(dim);
  let n_in = g.n_in; let n_out = g.n_out; let k = g.k; let s = g.s; let p = g.p; let d = g.d;
  if (MODE == 1u) {
    return Range(mul_div(i, n_out, n_in, false), min(mul_div(i + 1u, n_out, n_in, true) + 1u, n_out));
  }
  if (MODE == 2u) {
    // Starts are nondecreasing: the first window that ends past i, by bisection.
    let first = starts_at(plane, dim);
    var lo = 0u;
    var hi = n_out;
    while (lo < hi) {
      let mid = (lo + hi) / 2u;
      if (aux[first + mid] + k > i) { hi = mid; } else { lo = mid + 1u; }
    }
    var end = lo;
    while (end < n_out && aux[first + end] <= i) { end = end + 1u; }
    return Range(lo, end);
  }
  // o * s - p + j * d = i for some j < k: o >= (i + p - (k - 1) d) / s.
  let top = i + p;
  let reach = (k - 1u) * d;
  var lo = 0u;
  if (top > reach) { lo = (top - reach) / s; }
  return Range(lo, min(top / s + 1u, n_out));
}

// The gradient of input element e.
fn grad_at(e: u32, scan: bool) -> vec2<u32> {
  let at = in_place(e);
  var acc = vec2<u32>(0u, 0u);
  if (scan) {
    for (var o = 0u; o < P.out_plane; o = o + 1u) {
      let q = at.first + o * at.step;
      if (index_at(q) == at.pos) { acc = add(acc, go_value(q)); }
    }
    return acc;
  }
  let iw = at.pos % P.in_w;
  let ih = (at.pos / P.in_w) % P.in_h;
  let id = at.pos / (P.in_w * P.in_h);
  let rd = candidates(0u, id, at.plane);
  let rh = candidates(1u, ih, at.plane);
  let rw = candidates(2u, iw, at.plane);
  for (var od = rd.lo; od < rd.hi; od = od + 1u) {
    if (!is_tap(0u, od, id, at.plane)) { continue; }
    for (var oh = rh.lo; oh < rh.hi; oh = oh + 1u) {
      if (!is_tap(1u, oh, ih, at.plane)) { continue; }
      for (var ow = rw.lo; ow < rw.hi; ow = ow + 1u) {
        if (!is_tap(2u, ow, iw, at.plane)) { continue; }
        let q = at.first + ((od * P.out_h + oh) * P.out_w + ow) * at.step;
        if (index_at(q) == at.pos) { acc = add(acc, go_value(q)); }
      }
    }
  }
  return acc;
}

@compute @workgroup_size(WG)
fn gather(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let item = item_of(wid, lid);
  let scan = atomicLoad(&status[3]) != 0u;
  if (elem_bits() == 16u) {
    let e = 2u * item;
    if (e >= P.count) { return; }
    var word = grad_at(e, scan).x;
    if (e + 1u < P.count) {
      word = word | (grad_at(e + 1u, scan).x << 16u);
    } else {
      word = word | (gi[item] & 0xffff0000u);
    }
    gi[item] = word;
    return;
  }
  if (item >= P.count) { return; }
  let v = grad_at(item, scan);
  if (DTYPE == F64) {
    gi[2u * item] = v.x;
    gi[2u * item + 1u] = v.y;
  } else {
    gi[item] = v.x;
  }
}
