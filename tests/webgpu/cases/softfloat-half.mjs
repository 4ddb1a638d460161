// The softfloat library's 16-bit part (softfloat-half.wgsl, after
// softfloat-int.wgsl): binary16 and bfloat16 to and from binary32, against
// a reference written here from exact double arithmetic (cross-checked with
// Float16Array where the engine has it), bit for bit. The machinery:
// ../softfloat-harness.mjs.
import { softfloatSuite, unary } from '../softfloat-harness.mjs';
import {
  bits32, f32ToBf16Ref, half2num, isNaN32, num2half, seqU16, toBf16Inputs, toF16Inputs, val32,
} from '../softfloat-inputs.mjs';

const PARTS = [
  new URL('../../../js/src/webgpu/wgsl/softfloat-int.wgsl', import.meta.url),
  new URL('../../../js/src/webgpu/wgsl/softfloat-half.wgsl', import.meta.url),
];

// The reference for binary16 is this suite's; where the engine has
// Float16Array, check that reference against it first (all binary16 values
// and a few million binary32 inputs would be slow: the inputs' own set).
function crossCheckHalfReference(inputs) {
  if (typeof Float16Array === 'undefined') return 'Float16Array not available: own reference only';
  const h = new Float16Array(1);
  const hu = new Uint16Array(h.buffer);
  for (let i = 0; i < 65536; i++) {
    hu[0] = i;
    const a = h[0];
    const b = half2num(i);
    if (!(Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b)))) throw new Error(`half2num(${i}) = ${b}, Float16Array says ${a}`);
  }
  for (const u of inputs) {
    const x = val32(u);
    h[0] = x;
    const want = Number.isNaN(x) ? NaN : hu[0];
    const got = num2half(x);
    if (!(Object.is(want, got) || (Number.isNaN(want) && Number.isNaN(got)))) {
      throw new Error(`num2half(0x${u.toString(16)}) = ${got}, Float16Array says ${want}`);
    }
  }
  return 'own reference agrees with Float16Array';
}

export const { tests, cases, runChecks } = softfloatSuite(PARTS, [
  unary('f16_to_f32', {
    body: 'dst[i] = sf_f16_to_f32(src[i]);',
    inputs: () => seqU16(65536),
    size: 'all16',
    ref: (w) => (Number.isNaN(half2num(w[0])) ? NaN : bits32(half2num(w[0]))),
    nanOf: (g) => isNaN32(g[0]),
  }),
  unary('bf16_to_f32', {
    body: 'dst[i] = sf_bf16_to_f32(src[i]);',
    inputs: () => seqU16(65536),
    size: 'all16',
    ref: (w) => (isNaN32(w[0] << 16) ? NaN : (w[0] << 16) >>> 0),
    nanOf: (g) => isNaN32(g[0]),
  }),
  unary('f32_to_f16', {
    body: 'dst[i] = sf_f32_to_f16(src[i]);',
    inputs: toF16Inputs,
    size: 'big32',
    ref: (w) => num2half(val32(w[0])),
    nanOf: (g) => (g[0] & 0x7fff) > 0x7c00 && g[0] <= 0xffff,
    extra: crossCheckHalfReference,
  }),
  unary('f32_to_bf16', {
    body: 'dst[i] = sf_f32_to_bf16(src[i]);',
    inputs: toBf16Inputs,
    size: 'big32',
    ref: (w) => f32ToBf16Ref(w[0]),
    nanOf: (g) => (g[0] & 0x7fff) > 0x7f80 && g[0] <= 0xffff,
  }),
]);
