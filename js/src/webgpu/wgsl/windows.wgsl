// The windows of the pools along one dim, shared by the pool and pool
// backward families (each declares `aux` at binding 4).
//
// MODE: 0 max pool (kernel, stride, padding, dilation), 1 adaptive
// ([floor(o I / O), ceil((o + 1) I / O))), 2 fractional (starts in `aux`).
override MODE: u32 = 0u;

// Fractional windows: `aux` holds, per plane, the window starts along D, H
// and W (out_d + out_h + out_w entries, in that order).

struct Span {
  start: i32,  // the first tap, clipped (may be >= end: empty)
  end: i32,    // exclusive
  step: i32,
}

// The window of output o along one dim (dim 0 D, 1 H, 2 W).
fn span(dim: u32, o: u32, plane: u32) -> Span {
  var n_in: u32; var n_out: u32; var k: u32; var s: u32; var p: u32; var d: u32;
  switch dim {
    case 0u: { n_in = P.in_d; n_out = P.out_d; k = P.k_d; s = P.s_d; p = P.p_d; d = P.d_d; }
    case 1u: { n_in = P.in_h; n_out = P.out_h; k = P.k_h; s = P.s_h; p = P.p_h; d = P.d_h; }
    default: { n_in = P.in_w; n_out = P.out_w; k = P.k_w; s = P.s_w; p = P.p_w; d = P.d_w; }
  }
  if (MODE == 1u) {
    let start = mul_div(o, n_in, n_out, false);
    let end = mul_div(o + 1u, n_in, n_out, true) + 1u;
    return Span(i32(start), i32(end), 1);
  }
  if (MODE == 2u) {
    var at = plane * (P.out_d + P.out_h + P.out_w) + o;
    if (dim >= 1u) { at = at + P.out_d; }
    if (dim == 2u) { at = at + P.out_h; }
    let start = aux[at];
    return Span(i32(start), i32(start + k), 1);
  }
  var start = i32(o * s) - i32(p);
  let end = min(start + i32((k - 1u) * d) + 1, i32(n_in));
  if (start < 0) { start = start + ((-start + i32(d) - 1) / i32(d)) * i32(d); }
  return Span(start, end, i32(d));
}

