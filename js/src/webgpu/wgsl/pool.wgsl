// Max pooling with argmax indices: max pool, adaptive and fractional max
// pool forward. One invocation per output element (per two for 16-bit
// values, whose outputs share a word: one invocation writes the whole word,
// so no two race on it), scanning its window in PyTorch's order (d, h, w):
// a value is taken when it is NaN or greater than the running maximum (not
// NaN), so the first maximum and the last NaN win; the maximum starts at
// -inf at the window's first (clipped) position, which is what a window
// wholly in padding returns.

@group(0) @binding(1) var<storage, read> x: array<u32>;
@group(0) @binding(2) var<storage, read_write> y: array<u32>;
@group(0) @binding(3) var<storage, read_write> idx: array<u32>;
// Fractional: per plane, the window starts (windows.wgsl). Other modes: unused.
@group(0) @binding(4) var<storage, read> aux: array<u32>;

fn x_value(i: u32) -> vec2<u32> {
  let w = word_of(i);
  if (elem_bits() == 64u) { return vec2<u32>(x[w], x[w + 1u]); }
  return vec2<u32>(lane(x[w], i), 0u);
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
    o = e - plane * P.out_plane;
    base = plane * P.in_plane;
  } else {
    let r = e / P.channels;
    let c = e - r * P.channels;
    let n = r / P.out_plane;
    o = r - n * P.out_plane;
    base = n * P.in_plane * P.channels + c;
    step = P.channels;
    plane = 0u;  // fractional pools are channels-first only
  }
  let r = o / P.out_w;
  let ow = o - r * P.out_w;
  let od = r / P.out_h;
  let oh = r - od * P.out_h;
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

// A max pool's outputs split into boxes (device.ts): the interior box, whose
// windows lie wholly inside the input, runs pool_interior; the boxes around
// it (padding, ceil_mode clipping) run pool with P.flags bit 0 set. Work
// item i of a box of P.box_d x P.box_h x P.box_w outputs from (P.box_d0,
// P.box_h0, P.box_w0) is, channels-first, plane i / volume, box position
// i % volume; channels-last, channel i % C of box position (i / C) % volume
// of image i / (C volume). Its output element (flat, memory order):
fn boxed(i: u32) -> u32 {
  let volume = P.box_d * P.box_h * P.box_w;
  var q = i;
  var c = 0u;
  if (P.channels_last != 0u) {
    q = i / P.channels;
    c = i - q * P.channels;
  }
  let unit = q / volume;
  let b = q - unit * volume;
  let r = b / P.box_w;
  let bw = r * P.box_w;
  let bd = r / P.box_h;
  let o = ((P.box_d0 + bd) * P.out_h + P.box_h0 + r - bd * P.box_h) * P.out_w + P.box_w0 + b - bw;
  if (P.channels_last != 0u) { return (unit * P.out_plane + o) * P.channels + c; }
  return unit * P.out_plane + o;
}

// The tap counts of the interior box's windows (override constants, so the
// loops have constant trip counts), for kernels of at most 4 taps a dim.
override KD: u32 = 1u;
override KH: u32 = 1u;
override KW: u32 = 1u;

// One output of the interior box (32- and 64-bit values: one output a
// word or word pair): no clipping and no bounds test per tap, the
// coordinates from one division chain, and the running maximum's key kept.
// The same rule as pool_one: the maximum starts at -inf at the first tap,
// and a tap is taken when it is NaN, or greater than a maximum that is not.
@compute @workgroup_size(WG)
fn pool_interior(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let i = item_of(wid, lid);
  if (i >= P.count) { return; }
  let volume = P.box_d * P.box_h * P.box_w;
  var q = i;
  var c = 0u;
  var step = 1u;
  if (P.channels_last != 0u) {
    q = i / P.channels;
    c = i - q * P.channels;
    step = P.channels;
  }
  let unit = q / volume;
  let b = q - unit * volume;
  let r = b / P.box_w;
  let ow = P.box_w0 + b - r * P.box_w;
  let bd = r / P.box_h;
  let oh = P.box_h0 + r - bd * P.box_h;
  let od = P.box_d0 + bd;
  let o = (od * P.out_h + oh) * P.out_w + ow;
  var e = unit * P.out_plane + o;
  var base = unit * P.in_plane;
  if (P.channels_last != 0u) {
    e = e * P.channels + c;
    base = base * P.channels + c;
  }
  let w = P.in_w;
  let hw = P.in_h * w;
  let pos0 = (od * P.s_d - P.p_d) * hw + (oh * P.s_h - P.p_h) * w + ow * P.s_w - P.p_w;
  let jd = P.d_d * hw;
  let jh = P.d_h * w;
  let jw = P.d_w;
  var best = neg_inf();
  var best_key = key(best);
  var best_pos = pos0;
  var best_nan = false;
  for (var kd = 0u; kd < KD; kd = kd + 1u) {
    for (var kh = 0u; kh < KH; kh = kh + 1u) {
      for (var kw = 0u; kw < KW; kw = kw + 1u) {
        let pos = pos0 + kd * jd + kh * jh + kw * jw;
        let v = x_value(base + pos * step);
        let nan = is_nan(v);
        let k = key(v);
        if (nan || (!best_nan && (k.y > best_key.y || (k.y == best_key.y && k.x > best_key.x)))) {
          best = v;
          best_key = k;
          best_pos = pos;
          best_nan = nan;
        }
      }
    }
  }
  write_index(e, best_pos);
  if (elem_bits() == 64u) {
    y[2u * e] = best.x;
    y[2u * e + 1u] = best.y;
  } else {
    y[e] = best.x;
  }
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
  let bits = elem_bits();
  if (bits >= 32u) {
    if (item >= P.count) { return; }
    // A box's item (a max pool's edge), else the element itself.
    var e = item;
    if ((P.flags & 1u) != 0u) { e = boxed(item); }
    let r = pool_one(e);
    write_index(e, r.index);
    if (bits == 64u) {
      y[2u * e] = r.value.x;
      y[2u * e + 1u] = r.value.y;
    } else {
      y[e] = r.value.x;
    }
    return;
  }
  // Outputs that share a word (16- and 8-bit values) are one invocation's,
  // so no two race on it; past the last output a word keeps its other lanes.
  let per = 32u / bits;
  let first = item * per;
  if (first >= P.count) { return; }
  var word = 0u;
  if (first + per > P.count) { word = y[item]; }
  for (var j = 0u; j < per; j = j + 1u) {
    let e = first + j;
    if (e >= P.count) { break; }
    let r = pool_one(e);
    write_index(e, r.index);
    let shift = j * bits;
    let mask = select(0xffffffffu, ((1u << bits) - 1u) << shift, bits < 32u);
    word = (word & ~mask) | ((r.value.x << shift) & mask);
  }
  y[item] = word;
}
