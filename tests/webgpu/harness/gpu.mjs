// Small WebGPU helpers for case modules (buffers from typed arrays, a compute
// dispatch, readback). Plain WebGPU: the same on every stack. Usage flags are
// numbers because GPUBufferUsage is not a global in every harness.
export const MAP_READ = 0x1;
export const COPY_SRC = 0x4;
export const COPY_DST = 0x8;
export const UNIFORM = 0x40;
export const STORAGE = 0x80;

const pad4 = (n) => Math.max(4, Math.ceil(n / 4) * 4);

/** A buffer holding `data` (a typed array), by writeBuffer. */
export function bufferFrom(device, data, usage = STORAGE | COPY_SRC | COPY_DST) {
  const buffer = device.createBuffer({ size: pad4(data.byteLength), usage: usage | COPY_DST });
  device.queue.writeBuffer(buffer, 0, data.buffer, data.byteOffset, data.byteLength);
  return buffer;
}

/** `count` u32 words of `src` from `offset` bytes: copyBufferToBuffer into a MAP_READ buffer, mapAsync. */
export async function readU32(device, src, count, offset = 0) {
  const staging = device.createBuffer({ size: pad4(count * 4), usage: MAP_READ | COPY_DST });
  const encoder = device.createCommandEncoder();
  encoder.copyBufferToBuffer(src, offset, staging, 0, count * 4);
  device.queue.submit([encoder.finish()]);
  await staging.mapAsync(1 /* GPUMapMode.READ */);
  const out = new Uint32Array(staging.getMappedRange().slice(0));
  staging.unmap();
  staging.destroy();
  return out.subarray(0, count);
}

/** Compiles `code`, throwing with the compiler's messages on a validation error. */
export async function computePipeline(device, code, entryPoint = 'main') {
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ code });
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint } });
  const error = await device.popErrorScope();
  if (error) {
    const info = await module.getCompilationInfo?.();
    const messages = (info?.messages ?? []).map((m) => `${m.lineNum}:${m.linePos} ${m.message}`).join('; ');
    throw new Error(`pipeline: ${error.message}${messages ? ` (${messages})` : ''}`);
  }
  return pipeline;
}

/** One dispatch of `pipeline` with `buffers` at @group(0) @binding(0, 1, ...). */
export function dispatch(device, pipeline, buffers, x, y = 1, z = 1) {
  const bindGroup = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: buffers.map((buffer, binding) => ({ binding, resource: { buffer } })),
  });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindGroup);
  pass.dispatchWorkgroups(x, y, z);
  pass.end();
  device.queue.submit([encoder.finish()]);
}

/** Throws with the first differing words. */
export function expectU32(got, want, what) {
  if (got.length !== want.length) throw new Error(`${what}: ${got.length} words, want ${want.length}`);
  const bad = [];
  for (let i = 0; i < want.length && bad.length < 5; i++) {
    if (got[i] !== want[i] >>> 0) bad.push(`[${i}] 0x${got[i].toString(16)} want 0x${(want[i] >>> 0).toString(16)}`);
  }
  if (bad.length) throw new Error(`${what}: ${bad.join(', ')}`);
}
