// The softfloat library's binary64 part (softfloat-f64.wgsl, after
// softfloat-int.wgsl) against JavaScript's doubles, bit for bit. The
// machinery: ../softfloat-harness.mjs.
import { binary64, softfloatSuite, unary } from '../softfloat-harness.mjs';
import { f64buf, ints, toIntInputs64, truncSat, u32of64 } from '../softfloat-inputs.mjs';

const PARTS = [
  new URL('../../../js/src/webgpu/wgsl/softfloat-int.wgsl', import.meta.url),
  new URL('../../../js/src/webgpu/wgsl/softfloat-f64.wgsl', import.meta.url),
];

const dbl = (w) => {
  u32of64[0] = w[0];
  u32of64[1] = w[1];
  return f64buf[0];
};
const dblBits = (x) => ((f64buf[0] = x), [u32of64[0], u32of64[1]]);

export const { tests, cases, runChecks } = softfloatSuite(PARTS, [
  binary64('f64_add', 'sf_f64_add', 'add', (a, b) => a + b),
  binary64('f64_mul', 'sf_f64_mul', 'mul', (a, b) => a * b),
  binary64('f64_div', 'sf_f64_div', 'div', (a, b) => a / b),
  unary('f64_from_i32', {
    outWords: 2,
    body: 'let r = sf_f64_from_i32(i32(src[i]));\n  dst[2u * i] = r.x;\n  dst[2u * i + 1u] = r.y;',
    inputs: ints,
    size: 'big64',
    ref: (w) => dblBits(w[0] | 0),
  }),
  unary('f64_to_i32_trunc', {
    inWords: 2,
    body: 'dst[i] = u32(sf_f64_to_i32_trunc(vec2<u32>(src[2u * i], src[2u * i + 1u])));',
    inputs: toIntInputs64,
    size: 'big64',
    ref: (w) => truncSat(dbl(w)),
  }),
]);
