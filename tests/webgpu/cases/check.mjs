// gpu.check(...tensors) (issue 44): one content check for a whole chain.
// It resolves when no call that made the tensors found bad contents, and
// rejects with the error t.check() gives (the first in call order)
// otherwise; every status word not read yet is read back in ONE mapAsync
// (the statuses are copied into one staging buffer), where reading each
// call's status took one mapAsync a call. mapAsync is counted on the
// prototype of the device's buffers, which every stack has.
import * as unpool from '../../../dist/index.js';
import { initWebGPU } from '../../../dist/webgpu/index.js';

function countMaps(device) {
  const probe = device.createBuffer({ size: 16, usage: 0x01 | 0x08 });  // MAP_READ | COPY_DST
  const proto = Object.getPrototypeOf(probe);
  probe.destroy();
  const real = proto.mapAsync;
  const calls = { count: 0, restore: () => { proto.mapAsync = real; } };
  proto.mapAsync = function (...args) {
    calls.count++;
    return real.apply(this, args);
  };
  return calls;
}

/** A chain of `n` unpool -> pool steps on `gpu`; `bad` (a set of step numbers) get out-of-range indices. */
function chain(gpu, n, bad = new Set()) {
  const x = { data: Float32Array.from({ length: 64 }, (_, i) => Math.sin(i * 1.3) * 10), shape: [1, 1, 8, 8] };
  const p = unpool.maxPool2d(x, { kernelSize: 2 });
  let y = gpu.upload(p.output);
  const made = [];
  for (let k = 0; k < n; ++k) {
    const idx = bad.has(k) ? p.indices.data.map((v, i) => (i === 3 ? 64 + k : v)) : p.indices.data;
    const u = gpu.maxUnpool2d(y, gpu.upload({ data: idx, shape: p.indices.shape }), { kernelSize: 2 });
    y = gpu.maxPool2d(u, { kernelSize: 2 }).output;
    made.push(u, y);
  }
  return made;
}

async function rejection(p) {
  try { await p; } catch (e) { return e; }
  return undefined;
}

export const cases = [
  {
    name: 'gpu.check: a clean chain in one mapAsync; the first error in call order, equal to t.check()\'s',
    run: async (ctx) => {
      await unpool.init();
      const gpu = await initWebGPU({ device: ctx.device });
      const maps = countMaps(gpu.device);
      try {
        // Twelve calls that each check contents: one map for all their statuses.
        const clean = chain(gpu, 6);
        const before = maps.count;
        await gpu.check(...clean);
        if (maps.count - before !== 1) throw new Error(`gpu.check of 6 unpools mapped ${maps.count - before} times, want 1`);
        // Their outcomes are known now: t.check() maps nothing more.
        await clean[clean.length - 1].check();
        await gpu.check(clean[3]);
        if (maps.count - before !== 1) throw new Error(`checks after gpu.check mapped ${maps.count - before - 1} more times`);
        await gpu.check();  // nothing to check
        // t.check() alone reads its whole chain in one map too.
        const alone = chain(gpu, 4);
        const b2 = maps.count;
        await alone[alone.length - 1].check();
        if (maps.count - b2 !== 1) throw new Error(`t.check() of a 4-step chain mapped ${maps.count - b2} times, want 1`);

        // Steps 2 and 4 bad: the error is step 2's (first in call order), as t.check() of the
        // same chain made again gives it; the statuses in one map, then the failing step's
        // indices read back for the message's hint (one map more for each bad step).
        const a = chain(gpu, 5, new Set([2, 4]));
        const b = chain(gpu, 5, new Set([2, 4]));
        const b3 = maps.count;
        const e = await rejection(gpu.check(...a));
        const mapped = maps.count - b3;
        const f = await rejection(b[b.length - 1].check());
        if (!(e instanceof unpool.UnpoolError) || !(f instanceof unpool.UnpoolError)) throw new Error(`not UnpoolErrors: ${e}, ${f}`);
        if (e.message !== f.message || e.code !== f.code) throw new Error(`gpu.check: ${e.code} ${e.message}; t.check(): ${f.code} ${f.message}`);
        if (!/^maxUnpool2d: indices\[3\]=66 is out of range for output plane 8x8 \(64 elements\)/.test(e.message)) {
          throw new Error(`not step 2's error: ${e.message}`);
        }
        if (mapped !== 3) throw new Error(`gpu.check of a chain with two bad steps mapped ${mapped} times, want 1 + 2`);
        // A tensor made before the bad step: clean.
        await gpu.check(a[0], a[3]);
        // Later steps carry the first error too.
        const g = await rejection(gpu.check(a[a.length - 1]));
        if (g?.message !== e.message) throw new Error(`downstream: ${g?.message}`);

        // Arguments: GpuTensors of this backend, not arrays, not destroyed.
        const refused = async (what, p, pattern) => {
          const r = await rejection(p);
          if (!(r instanceof TypeError) || !pattern.test(r.message)) throw new Error(`${what}: ${r}`);
        };
        await refused('an array', gpu.check(clean), /^gpu\.check: tensors\[0\] is an array; pass the tensors as arguments: gpu\.check\(\.\.\.tensors\)$/);
        await refused('host data', gpu.check(clean[0], { data: new Float32Array(4), shape: [4] }),
                      /^gpu\.check: tensors\[1\] must be a GpuTensor \(gpu\.upload\(\) or gpu\.wrap\(\)\), got an Object; pass gpu\.upload\(tensors\[1\]\)/);
        const other = await initWebGPU({ device: ctx.device });
        await refused('another backend', gpu.check(other.upload({ data: Float32Array.of(1), shape: [1] })), /another device/);
        clean[0].destroy();
        await refused('destroyed', gpu.check(clean[0]), /^gpu\.check: tensors\[0\] is a destroyed GpuTensor$/);
      } finally {
        maps.restore();
      }
    },
  },
];
