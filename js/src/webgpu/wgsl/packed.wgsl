// Outputs that share a word (16- and 8-bit values) are one invocation's, so
// no two invocations race on a word. For the families that bind `y` and
// define lane_value(e), the bits of output e (pool, unpool; kernels.ts).

// Writes word `item` of y: the lanes of its outputs below P.count; lanes
// past the last output keep what the word held.
fn write_packed(item: u32, bits: u32) {
  let per = 32u / bits;
  let first = item * per;
  if (first >= P.count) { return; }
  var word = 0u;
  if (first + per > P.count) { word = y[item]; }
  for (var j = 0u; j < per && first + j < P.count; j = j + 1u) {
    let shift = j * bits;
    let mask = select(0xffffffffu, ((1u << bits) - 1u) << shift, bits < 32u);
    word = (word & ~mask) | ((lane_value(first + j) << shift) & mask);
  }
  y[item] = word;
}
