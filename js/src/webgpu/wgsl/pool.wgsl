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
  let bits = elem_bits();
  if (bits == 64u) {
    if (item >= P.count) { return; }
    let r = pool_one(item);
    write_index(item, r.index);
    y[2u * item] = r.value.x;
    y[2u * item + 1u] = r.value.y;
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
