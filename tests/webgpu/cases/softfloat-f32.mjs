// The softfloat library's binary32 part (softfloat-f32.wgsl, after
// softfloat-int.wgsl) against JavaScript: Math.fround(a op b) of the decoded
// doubles (double rounding is harmless for + * / of binary32), bit for bit.
// The machinery: ../softfloat-harness.mjs.
import { binary32, softfloatSuite, unary } from '../softfloat-harness.mjs';
import { bits32, ints, toIntInputs32, truncSat, val32 } from '../softfloat-inputs.mjs';

const PARTS = [
  new URL('../../../js/src/webgpu/wgsl/softfloat-int.wgsl', import.meta.url),
  new URL('../../../js/src/webgpu/wgsl/softfloat-f32.wgsl', import.meta.url),
];

export const { tests, cases, runChecks } = softfloatSuite(PARTS, [
  binary32('f32_add', 'sf_f32_add', 'add', (a, b) => a + b),
  binary32('f32_mul', 'sf_f32_mul', 'mul', (a, b) => a * b),
  binary32('f32_div', 'sf_f32_div', 'div', (a, b) => a / b),
  unary('f32_from_i32', {
    body: 'dst[i] = sf_f32_from_i32(i32(src[i]));',
    inputs: ints,
    size: 'big32',
    ref: (w) => bits32(Math.fround(w[0] | 0)),
  }),
  unary('f32_to_i32_trunc', {
    body: 'dst[i] = u32(sf_f32_to_i32_trunc(src[i]));',
    inputs: toIntInputs32,
    size: 'big32',
    ref: (w) => truncSat(val32(w[0])),
  }),
]);
