// Max pooling with argmax indices: max pool, adaptive and fractional max
// pool forward. One invocation per output element (per two for 16-bit
// values, whose outputs share a word: one invocation writes the whole word,
// so no two race on it), scanning its window in PyTorch's order (d, h, w):
// a value is taken when it is NaN or greater than the running maximum (not
// NaN), so the first maximum and the last NaN win; the maximum starts at
// -inf at the window's first (clipped) position, which is what a window
// wholly in padding returns.

// Windows: 0 max pool (kernel, stride, padding, dilation), 1 adaptive
// ([floor(o I / O), ceil((o + 1) I / O))), 2 fractional (starts in `aux`).
override MODE: u32 = 0u;

@group(0) @binding(1) var<storage, read> x: array<u32>;
@group(0) @binding(2) var<storage, read_write> y: array<u32>;
@group(0) @binding(3) var<storage, read_write> idx: array<u32>;
// Fractional: per plane, the window starts along D, H and W (out_d + out_h +
// out_w entries, in that order). Other modes: unused.
@group(0) @binding(4) var<storage, read> aux: array<u32>;

fn x_value(i: u32) -> vec2<u32> {
  switch DTYPE {
    case 1u: { return vec2<u32>(x[2u * i], x[2u * i + 1u]); }
    case 2u, 3u: { return vec2<u32>((x[i >> 1u] >> ((i & 1u) * 16u)) & 0xffffu, 0u); }
    default: { return vec2<u32>(x[i], 0u); }
  }
}

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

struct Best {
  value: vec2<u32>,
  index: u32,
}

// Output element e (flat, in the output's memory order).
fn pool_one(e: u32) -> Best {
  var plane: u32;
  var o: u32;
  var base: u32;  // the input plane's first element
  var step = 1u;  // elements between spatial neighbours
  if (P.channels_last == 0u) {
    plane = e / P.out_plane;
    o = e % P.out_plane;
    base = plane * P.in_plane;
  } else {
    let c = e % P.channels;
    let r = e / P.channels;
    o = r % P.out_plane;
    base = (r / P.out_plane) * P.in_plane * P.channels + c;
    step = P.channels;
    plane = 0u;  // fractional pools are channels-first only
  }
  let ow = o % P.out_w;
  let oh = (o / P.out_w) % P.out_h;
  let od = o / (P.out_w * P.out_h);
  let sd = span(0u, od, plane);
  let sh = span(1u, oh, plane);
  let sw = span(2u, ow, plane);
  let w = i32(P.in_w);
  let hw = i32(P.in_h) * w;
  var best = Best(neg_inf(), u32(sd.start * hw + sh.start * w + sw.start));
  var best_nan = false;
  for (var id = sd.start; id < sd.end; id = id + sd.step) {
    for (var ih = sh.start; ih < sh.end; ih = ih + sh.step) {
      let row = id * hw + ih * w;
      for (var iw = sw.start; iw < sw.end; iw = iw + sw.step) {
        let pos = u32(row + iw);
        let v = x_value(base + pos * step);
        let nan = is_nan(v);
        if (nan || (!best_nan && greater(v, best.value))) {
          best = Best(v, pos);
          best_nan = nan;
        }
      }
    }
  }
  return best;
}

fn write_index(e: u32, i: u32) {
  if (INDEX64) {
    idx[2u * e] = i;
    idx[2u * e + 1u] = 0u;
  } else {
    idx[e] = i;
  }
}

@compute @workgroup_size(WG)
fn pool(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let item = item_of(wid, lid);
  if (DTYPE >= 2u) {
    // Two 16-bit outputs a word; the word past an odd count's last output
    // keeps its other half.
    let e = 2u * item;
    if (e >= P.count) { return; }
    let a = pool_one(e);
    write_index(e, a.index);
    var word = a.value.x;
    if (e + 1u < P.count) {
      let b = pool_one(e + 1u);
      write_index(e + 1u, b.index);
      word = word | (b.value.x << 16u);
    } else {
      word = word | (y[item] & 0xffff0000u);
    }
    y[item] = word;
    return;
  }
  if (item >= P.count) { return; }
  let r = pool_one(item);
  write_index(item, r.index);
  if (DTYPE == 1u) {
    y[2u * item] = r.value.x;
    y[2u * item + 1u] = r.value.y;
  } else {
    y[item] = r.value.x;
  }
}
