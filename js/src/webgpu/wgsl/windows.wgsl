// The windows of the pools along one dim, shared by the pool and pool
// backward families (each binds `aux` and lists softfloat-int, whose wide
// product mul_div takes; kernels.ts).
//
// MODE (an override, kernels.ts): 0 max pool (kernel, stride, padding,
// dilation), 1 adaptive ([floor(o I / O), ceil((o + 1) I / O))),
// 2 fractional (starts in `aux`).

// Fractional windows: `aux` holds, per plane, the window starts along D, H
// and W (out_d + out_h + out_w entries, in that order).

struct Span {
  start: i32,  // the first tap, clipped (may be >= end: empty)
  end: i32,    // exclusive
  step: i32,
}

// The window of output o along one dim (dim 0 D, 1 H, 2 W).
fn span(dim: u32, o: u32, plane: u32) -> Span {
  let g = dim_of(dim);
  let n_in = g.n_in; let n_out = g.n_out; let k = g.k; let s = g.s; let p = g.p; let d = g.d;
  if (MODE == 1u) {
    let start = mul_div(o, n_in, n_out, false);
    let end = mul_div(o + 1u, n_in, n_out, true) + 1u;
    return Span(i32(start), i32(end), 1);
  }
  if (MODE == 2u) {
    let start = aux[starts_at(plane, dim) + o];
    return Span(i32(start), i32(start + k), 1);
  }
  var start = i32(o * s) - i32(p);
  let end = min(start + i32((k - 1u) * d) + 1, i32(n_in));
  if (start < 0) { start = start + ((-start + i32(d) - 1) / i32(d)) * i32(d); }
  return Span(start, end, i32(d));
}

// floor(a * b / c) for a * b < 2^32 * c (the quotient fits a u32), with the
// product taken in 64 bits; minus_one: floor((a * b - 1) / c), a * b >= 1.
fn mul_div(a: u32, b: u32, c: u32, minus_one: bool) -> u32 {
  let product = sf_mul32_wide(a, b);  // softfloat-int.wgsl
  var lo = product.x;
  var hi = product.y;
  if (minus_one) {
    hi = hi - select(0u, 1u, lo == 0u);
    lo = lo - 1u;
  }
  if (hi == 0u) { return lo / c; }
  // Restoring division of (hi, lo) by c, hi < c: one quotient bit a step.
  var r = hi;
  var q = 0u;
  for (var i = 0u; i < 32u; i = i + 1u) {
    let carry = r >> 31u;
    r = (r << 1u) | ((lo >> (31u - i)) & 1u);
    q = q << 1u;
    if (carry != 0u || r >= c) {
      r = r - c;
      q = q | 1u;
    }
  }
  return q;
}
