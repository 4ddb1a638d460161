// convertIndices on the GPU: each index decoded from format FROM into a
// row-major offset in its own (n, c) plane of the pooled input, checked,
// and encoded in format TO (PyTorch's unpool::IndexFormat codes: 0 pytorch,
// 1 onnx, 2 onnx-column-major, 3 tensorflow, 4 tensorflow-with-batch). The
// host has checked that every encoded value fits a u32 (the pooled input has
// fewer than 2^32 elements).
// - convert: one invocation per index; a bad one is recorded (the first by
//   atomicMin), and status[3] is set where an index is not in [0, plane),
//   which the message needs (per-plane indices given as another format);
// - error_value (status.wgsl).
// P.in_plane: the pooled input's plane; P.out_plane: the indices' plane.

// Overrides and bindings (kernels.ts, FAMILIES.convert): FROM and TO (the
// formats), OUT64 (the result's indices are int64 (lo, hi) pairs); indices,
// result, status.

// d + D (h + H w) column-major <-> (d H + h) W + w row-major.
fn column_to_row(c: u32) -> u32 {
  let d = c % P.in_d;
  let h = (c / P.in_d) % P.in_h;
  let w = c / (P.in_d * P.in_h);
  return (d * P.in_h + h) * P.in_w + w;
}

fn row_to_column(r: u32) -> u32 {
  let d = r / (P.in_h * P.in_w);
  let h = (r / P.in_w) % P.in_h;
  let w = r % P.in_w;
  return d + P.in_d * (h + P.in_h * w);
}

// The offset of value v (a u32) of plane (n, c), or NONE.
fn decode(v: u32, n: u32, c: u32) -> u32 {
  let plane = P.in_plane;
  var off = NONE;
  switch FROM {
    case 0u: { off = v; }
    case 1u, 2u: {
      let base = (n * P.channels + c) * plane;
      if (v >= base) { off = v - base; }
      if (FROM == 2u && off < plane) { off = column_to_row(off); }
    }
    case 3u: {
      if (v % P.channels == c) { off = v / P.channels; }
    }
    default: {
      let q = v / P.channels;
      if (v % P.channels == c && q / plane == n) { off = q % plane; }
    }
  }
  return select(NONE, off, off < plane);
}

fn encode(off: u32, n: u32, c: u32) -> u32 {
  let plane = P.in_plane;
  switch TO {
    case 0u: { return off; }
    case 1u: { return (n * P.channels + c) * plane + off; }
    case 2u: { return (n * P.channels + c) * plane + row_to_column(off); }
    case 3u: { return off * P.channels + c; }
    default: { return (n * plane + off) * P.channels + c; }
  }
}

@compute @workgroup_size(WG)
fn convert(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let e = item_of(wid, lid);
  if (e >= P.count) { return; }
  // The element's own (n, c), from its position in the whole tensor (a
  // chunk starts at element P.base, on a plane or image boundary).
  let whole = e + P.base;
  var p: u32;
  if (P.channels_last == 0u) {
    p = whole / P.out_plane;
  } else {
    p = (whole / (P.channels * P.out_plane)) * P.channels + whole % P.channels;
  }
  let n = p / P.channels;
  let c = p % P.channels;
  // The value as a u32, or NONE for a negative or too large one.
  var v: u32;
  if (INDEX64) {
    v = select(NONE, indices[2u * e], indices[2u * e + 1u] == 0u);
  } else {
    v = select(indices[e], NONE, (indices[e] >> 31u) != 0u);
  }
  if (v >= P.in_plane) { atomicOr(&status[3], 1u); }
  let off = select(NONE, decode(v, n, c), v != NONE);
  if (off == NONE) {
    atomicMin(&status[0], e + P.base);
    return;
  }
  let r = encode(off, n, c);
  if (OUT64) {
    result[2u * e] = r;
    result[2u * e + 1u] = 0u;
  } else {
    result[e] = r;
  }
}
