// Fractional max pooling's windows: per plane and spatial dim, the starts
// PyTorch's generate_intervals draws from the plane's random sample u, in
// the value type's arithmetic (float32 or float64, done on the bits by
// softfloat.wgsl, as a GPU's float arithmetic is not IEEE's):
//   alpha = (in - k) / (out - 1)
//   start[i] = int((i + u) * alpha) - int(u * alpha), i < out - 1 (at most in - k)
//   start[out - 1] = in - k
// One invocation per (plane, dim D/H/W); P.flags = spatial dims (2 or 3).
// A sample outside [0, 1] (or NaN) is recorded in `status` as the CPU
// words it: its position, then its bits (error_value).

// Bindings (kernels.ts, FAMILIES.fractional): samples, starts, status.

fn sample_at(k: u32) -> vec2<u32> {
  if (DTYPE == F64) { return vec2<u32>(samples[2u * k], samples[2u * k + 1u]); }
  return vec2<u32>(samples[k], 0u);
}

// u >= 0 && u <= 1 on the bits (-0 passes, NaN fails).
fn valid(u: vec2<u32>) -> bool {
  if (DTYPE == F64) {
    return (u.x == 0u && u.y == 0x80000000u) || u.y < 0x3ff00000u || (u.y == 0x3ff00000u && u.x == 0u);
  }
  return u.x == 0x80000000u || u.x <= 0x3f800000u;
}

fn from_int(v: u32) -> vec2<u32> {
  if (DTYPE == F64) { return sf_f64_from_i32(i32(v)); }
  return vec2<u32>(sf_f32_from_i32(i32(v)), 0u);
}

fn mul(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  if (DTYPE == F64) { return sf_f64_mul(a, b); }
  return vec2<u32>(sf_f32_mul(a.x, b.x), 0u);
}

fn sum(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  if (DTYPE == F64) { return sf_f64_add(a, b); }
  return vec2<u32>(sf_f32_add(a.x, b.x), 0u);
}

fn trunc(a: vec2<u32>) -> i32 {
  if (DTYPE == F64) { return sf_f64_to_i32_trunc(a); }
  return sf_f32_to_i32_trunc(a.x);
}

@compute @workgroup_size(WG)
fn intervals(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let item = item_of(wid, lid);
  if (item >= P.count) { return; }
  let plane = item / 3u;
  let slot = item % 3u;  // D, H, W
  let g = dim_of(slot);
  let n_in = g.n_in; let n_out = g.n_out; let k = g.k;
  let first = starts_at(plane, slot);
  let last = n_in - k;
  if (P.flags == 2u && slot == 0u) {
    starts[first] = 0u;  // 2d: the leading dim of size 1
    return;
  }
  // 2d samples: [0] drives W, [1] H; 3d: [0] D, [1] H, [2] W.
  var which = slot;
  if (P.flags == 2u) { which = 2u - slot; }
  let at = plane * P.flags + which;
  let u = sample_at(at);
  if (!valid(u)) {
    atomicMin(&status[0], at + P.base);
    return;
  }
  if (n_out > 1u) {
    let alpha = select(sf_f32_div(from_int(last).x, from_int(n_out - 1u).x), 0u, DTYPE == F64);
    var a = vec2<u32>(alpha, 0u);
    if (DTYPE == F64) { a = sf_f64_div(from_int(last), from_int(n_out - 1u)); }
    let base = trunc(mul(u, a));
    for (var i = 0u; i + 1u < n_out; i = i + 1u) {
      let s = trunc(mul(sum(from_int(i), u), a)) - base;
      starts[first + i] = u32(min(s, i32(last)));
    }
  }
  starts[first + n_out - 1u] = last;
}

@compute @workgroup_size(1)
fn error_value() {
  let e = atomicLoad(&status[0]);
  if (e == NONE || e < P.base || e - P.base >= P.count) { return; }
  let u = sample_at(e - P.base);
  atomicStore(&status[1], u.x);
  atomicStore(&status[2], u.y);
}
