// A page's outcome for browser-cells.mjs: window.__result is the checks'
// summary, or { error } with the stack.
export function report(run) {
  run().then((summary) => { window.__result = summary; },
             (error) => { window.__result = { error: String((error && error.stack) || error) }; });
}

export async function text(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.text();
}
