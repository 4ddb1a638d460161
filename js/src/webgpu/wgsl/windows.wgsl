// The windows of the pools along one dim, shared by the pool and pool
// backward families (each binds `aux`; kernels.ts).
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

