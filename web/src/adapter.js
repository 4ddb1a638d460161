// Whether this browser gives a WebGPU adapter, and if not, why: shared by
// both pages (the single-op view's backend switch, the model page's).

/**
 * Looks for a WebGPU adapter: {adapter, name} (name: "vendor architecture
 * description") or {reason} when there is none.
 */
export async function findAdapter() {
  if (!globalThis.navigator?.gpu) {
    return {
      reason: globalThis.isSecureContext === false
        ? 'WebGPU needs a secure context (https:// or http://localhost); this page is not one'
        : 'this browser has no WebGPU (navigator.gpu is missing)',
    };
  }
  let adapter;
  try {
    adapter = await navigator.gpu.requestAdapter();
  } catch (e) {
    return { reason: `navigator.gpu.requestAdapter() failed: ${e.message}` };
  }
  if (!adapter) {
    return {
      reason: 'navigator.gpu gave no adapter (WebGPU is turned off or blocklisted here; ' +
        'Chromium on Linux needs --enable-unsafe-webgpu)',
    };
  }
  const info = adapter.info ?? {};
  const name = [info.vendor, info.architecture, info.description].filter(Boolean).join(' ') || 'unnamed adapter';
  return { adapter, name };
}
