// The geometry of a planned call as the WebGPU engine uses it: what the
// core resolved (planGeometry()), its uniform fields, the max pool's
// interior/edge boxes and kernel shapes, and how tensors split into
// per-binding parts (device.ts runs the kernels).
import type { PlanGeometry } from '../block.js';
import type { Runtime } from '../runtime.js';
import type { GpuBufferLike } from './gpu.js';
import type { Params } from './params.js';
import type { GpuTensor } from './tensor.js';

export type { PlanGeometry } from '../block.js';

/** The geometry the core resolved for the plan planGeometry() was last called on. */
export function readPlanGeometry(rt: Runtime): PlanGeometry {
  return rt.params.planGeometry();
}

export const prod = (a: readonly number[]) => a[0] * a[1] * a[2];

/** The uniform fields of a geometry. */
export function geometryParams(g: PlanGeometry): Params {
  return {
    planes: g.planes, channels: g.channels, channels_last: g.layout,
    in_plane: prod(g.in), out_plane: prod(g.out),
    in_d: g.in[0], in_h: g.in[1], in_w: g.in[2], out_d: g.out[0], out_h: g.out[1], out_w: g.out[2],
    k_d: g.kernel[0], k_h: g.kernel[1], k_w: g.kernel[2],
    s_d: g.stride[0], s_h: g.stride[1], s_w: g.stride[2],
    p_d: g.pad[0], p_h: g.pad[1], p_w: g.pad[2],
    d_d: g.dilation[0], d_h: g.dilation[1], d_w: g.dilation[2],
  };
}

/**
 * The max pool's tap counts (D, H, W) for pool.wgsl's pool_interior when
 * every kernel dim is at most SPECIALISED_TAPS, which keeps its pipelines
 * per dtype and index type to at most 4^3; none for larger kernels (the
 * general kernel alone).
 */
const SPECIALISED_TAPS = 4;
export function tapCounts(g: PlanGeometry): number[] | undefined {
  if (g.kernel.some((k) => k < 1 || k > SPECIALISED_TAPS)) return undefined;
  return [...g.kernel];
}

/**
 * pool.wgsl's interior_taps() for a kernel of kd x kh x kw taps: one take()
 * per tap, in (d, h, w) order, written out (not a loop: see pool.wgsl).
 */
export function interiorTaps([kd, kh, kw]: readonly number[]): string {
  const lines: string[] = [];
  const term = (n: number, j: string) => (n === 0 ? '' : ` + ${n}u * ${j}`);
  for (let d = 0; d < kd; d++) {
    for (let h = 0; h < kh; h++) {
      for (let w = 0; w < kw; w++) {
        const pos = `pos0${term(d, 'jd')}${term(h, 'jh')}${term(w, 'jw')}`;
        lines.push(`  { let pos = ${pos}; m = take(m, pos, x_value(base + pos * step)); }`);
      }
    }
  }
  return '\nfn interior_taps(base: u32, step: u32, pos0: u32, jd: u32, jh: u32, jw: u32) -> Running {\n' +
      '  let lowest = neg_inf();\n  var m = Running(lowest, key(lowest), pos0, false);\n' +
      `${lines.join('\n')}\n  return m;\n}\n`;
}

/** A box of outputs: its first (d, h, w) and its extent (d, h, w). */
export type Box = readonly [number, number, number, number, number, number];

/**
 * A max pool's outputs as boxes: first the interior one (outputs whose
 * window lies wholly inside the input: no padding tap, no clipping; maybe
 * empty), then the non-empty boxes around it, which together cover every
 * other output once: the D slabs before and after it, the H slabs of its D
 * range, the W slabs of its D and H ranges.
 */
export function boxesOf(g: PlanGeometry): Box[] {
  const lo: number[] = [], hi: number[] = [];
  for (let i = 0; i < 3; i++) {
    const { in: n, out, kernel: k, stride: s, pad: p, dilation: d } = g;
    // o is interior along i when o s - p >= 0 and o s - p + (k - 1) d <= n - 1.
    const first = Math.min(out[i], Math.ceil(p[i] / s[i]));
    const top = n[i] - 1 + p[i] - (k[i] - 1) * d[i];
    const end = top < 0 ? 0 : Math.min(out[i], Math.floor(top / s[i]) + 1);
    lo.push(first);
    hi.push(Math.max(first, end));
  }
  const o = g.out;
  const all: Box[] = [
    [lo[0], lo[1], lo[2], hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]],
    [0, 0, 0, lo[0], o[1], o[2]],
    [hi[0], 0, 0, o[0] - hi[0], o[1], o[2]],
    [lo[0], 0, 0, hi[0] - lo[0], lo[1], o[2]],
    [lo[0], hi[1], 0, hi[0] - lo[0], o[1] - hi[1], o[2]],
    [lo[0], lo[1], 0, hi[0] - lo[0], hi[1] - lo[1], lo[2]],
    [lo[0], lo[1], hi[2], hi[0] - lo[0], hi[1] - lo[1], o[2] - hi[2]],
  ];
  return [all[0], ...all.slice(1).filter((b) => b[3] * b[4] * b[5] > 0)];
}

/** Part of a buffer bound to a kernel. */
export interface Range {
  buffer: GpuBufferLike;
  offset: number;
  size: number;
}

/** A call's units: its (n, c) planes, or its images when channels-last (their planes interleave). */
export function unitsOf(g: PlanGeometry): number {
  return g.layout === 1 ? (g.channels === 0 ? 0 : g.planes / g.channels) : g.planes;
}

/** Units [u0, u1) of tensor t (of `units` units): whole words, within its buffer. */
export function rangeOf(t: GpuTensor, units: number, u0: number, u1: number): Range {
  const unitBytes = units === 0 ? 0 : t.byteLength / units;
  const offset = u0 * unitBytes;
  const size = Math.ceil(((u1 - u0) * unitBytes) / 4) * 4;
  return { buffer: t.raw, offset, size: Math.max(4, Math.min(size, Math.floor((t.raw.size - offset) / 4) * 4)) };
}

export const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
export const lcm = (a: number, b: number): number => (a / gcd(a, b)) * b;

/**
 * The bytes of a buffer a kernel binds: from 0 (tensors start there), whole
 * words, at most a binding's limit (chunks() made sure each part fits).
 */
export function bindBytes(b: GpuBufferLike, limit: number): number {
  return Math.floor(Math.min(b.size, limit) / 4) * 4;
}
