// The WebGPU suite's runner core, shared by every stack (Vitest in Chromium,
// run-deno.mjs, run-node.mjs). Plain JavaScript with no Node, Deno or DOM
// import, so the same file runs everywhere.
//
// A case module is any file tests/webgpu/cases/*.mjs (every one is picked
// up: a backend suite needs no registration). It exports
//
//   export const cases = [
//     { name: 'copy', run: async (ctx) => { ...; throw on failure } },
//     { name: 'f16 keys', requires: ['shader-f16'], run: async (ctx) => {} },
//   ];
//
// `requires` (optional): adapter features the case needs; where the adapter
// lacks one the case is skipped and listed as such (never counted as passed),
// elsewhere ctx.device is created with them as requiredFeatures.
// 'core-features-and-limits' counts as present on every stack but the
// compatibility one (wgpu, Deno's WebGPU, does not list it at all).
//
// Each case gets a ctx of its own:
//   ctx.gpu            the GPU object (navigator.gpu, or Dawn's create(...))
//   ctx.label          the stack's name: 'chromium', 'firefox', 'deno',
//                      'node-vulkan-swiftshader', 'node-opengles'
//   ctx.adapter        a fresh GPUAdapter for this case, requested with
//   ctx.adapterOptions the stack's options ({ featureLevel: 'compatibility' }
//                      on node-opengles)
//   ctx.compat         true on a compatibility adapter (no
//                      'core-features-and-limits'): WGSL and limits of
//                      WebGPU compatibility mode apply
//   ctx.device         a GPUDevice of the case's own, from ctx.adapter with
//                      the default limits and `requires` as its features
//   ctx.requestDevice(descriptor?)
//                      another GPUDevice, from a new adapter (an adapter
//                      gives one device only), for other limits or features.
// The harness destroys every device after the case, and an uncaptured error
// on one (validation, out of memory) fails the case even when the case did
// not notice.
//   ctx.vectors(name)  Promise of the parsed JSON of tests/vectors/<name>
//                      ('golden_public' or 'golden_public.json').
//   ctx.log(...args)   a line in the runner's output, prefixed by the case.
//
// A case that takes longer than timeoutMs (WEBGPU_CASE_TIMEOUT_MS, default
// 120 s: SwiftShader and llvmpipe compile shaders slowly) fails, so a lost
// mapAsync cannot hang the stage.

export const DEFAULT_CASE_TIMEOUT_MS = 120_000;

/** Case modules from { path: module } (import.meta.glob's shape), in path order. */
export function collectCases(modules) {
  const out = [];
  for (const path of Object.keys(modules).sort()) {
    const mod = modules[path];
    if (!Array.isArray(mod.cases)) throw new Error(`${path}: no exported array 'cases'`);
    const file = path.replace(/^.*\//, '');
    for (const c of mod.cases) {
      if (typeof c?.name !== 'string' || typeof c.run !== 'function') {
        throw new Error(`${path}: every case needs a string name and an async run(ctx)`);
      }
      out.push({ ...c, file, id: `${file.replace(/\.mjs$/, '')} > ${c.name}` });
    }
  }
  return out;
}

export function isCompat(adapter, adapterOptions) {
  return adapterOptions?.featureLevel === 'compatibility' && !adapter.features.has('core-features-and-limits');
}

/** The features in `requires` that this adapter lacks. */
export function missingFeatures(c, adapter, adapterOptions) {
  return (c.requires ?? []).filter((f) =>
    f === 'core-features-and-limits' ? isCompat(adapter, adapterOptions) : !adapter.features.has(f));
}

/** A plain object of what the stack's adapter is, for the log. */
export function adapterSummary(adapter, adapterOptions) {
  const info = adapter.info ?? {};
  return {
    vendor: info.vendor ?? '',
    architecture: info.architecture ?? '',
    device: info.device ?? '',
    description: info.description ?? '',
    // GPUAdapterInfo.isFallbackAdapter is the current spelling,
    // GPUAdapter.isFallbackAdapter the old one.
    fallback: Boolean(info.isFallbackAdapter ?? adapter.isFallbackAdapter),
    compat: isCompat(adapter, adapterOptions),
    shaderF16: adapter.features.has('shader-f16'),
    features: [...adapter.features].sort(),
    maxComputeInvocationsPerWorkgroup: adapter.limits.maxComputeInvocationsPerWorkgroup,
    maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
  };
}

export function formatAdapter(label, s) {
  return [
    `webgpu-${label}: adapter vendor=${JSON.stringify(s.vendor)} architecture=${JSON.stringify(s.architecture)}` +
      ` device=${JSON.stringify(s.device)} description=${JSON.stringify(s.description)}`,
    `webgpu-${label}: fallback=${s.fallback} compat=${s.compat} shader-f16=${s.shaderF16}` +
      ` maxComputeInvocationsPerWorkgroup=${s.maxComputeInvocationsPerWorkgroup}` +
      ` maxStorageBufferBindingSize=${s.maxStorageBufferBindingSize}`,
    `webgpu-${label}: features ${s.features.join(' ') || '(none)'}`,
  ];
}

/** Requests the stack's adapter; throws (never returns null) when there is none. */
export async function requestAdapter(gpu, adapterOptions, label) {
  if (!gpu) throw new Error(`webgpu-${label}: no GPU object (navigator.gpu is missing)`);
  const adapter = await gpu.requestAdapter(adapterOptions);
  if (!adapter) throw new Error(`webgpu-${label}: requestAdapter(${JSON.stringify(adapterOptions ?? {})}) found no adapter`);
  return adapter;
}

function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Runs one case on a fresh adapter. Resolves to 'passed' or 'skipped: ...',
 * throws the case's error (or the device's uncaptured errors) on failure.
 */
export async function runCase(c, env) {
  const { gpu, label, adapterOptions, vectors, log = () => {} } = env;
  const timeoutMs = env.timeoutMs ?? DEFAULT_CASE_TIMEOUT_MS;
  const adapter = await requestAdapter(gpu, adapterOptions, label);
  const missing = missingFeatures(c, adapter, adapterOptions);
  if (missing.length) return `skipped: the adapter lacks ${missing.join(', ')}`;
  const devices = [];
  const errors = [];
  const track = (device) => {
    device.addEventListener('uncapturederror', (e) => errors.push(e.error?.message ?? String(e.error)));
    devices.push(device);
    return device;
  };
  const requiredFeatures = (c.requires ?? []).filter((f) => adapter.features.has(f));
  const ctx = {
    gpu,
    label,
    adapter,
    adapterOptions,
    compat: isCompat(adapter, adapterOptions),
    device: track(await adapter.requestDevice({ requiredFeatures })),
    vectors,
    log: (...args) => log(`${c.id}:`, ...args),
    async requestDevice(descriptor) {
      return track(await (await requestAdapter(gpu, adapterOptions, label)).requestDevice(descriptor));
    },
  };
  try {
    await withTimeout(c.run(ctx), timeoutMs, c.id);
    // Let errors of work the case did not wait for arrive before judging.
    await withTimeout(Promise.all(devices.map((d) => d.queue.onSubmittedWorkDone())), timeoutMs, `${c.id} (queue drain)`);
  } finally {
    for (const d of devices) d.destroy();
  }
  if (errors.length) throw new Error(`uncaptured WebGPU error(s): ${errors.join(' | ')}`);
  return 'passed';
}
