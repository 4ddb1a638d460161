// Nothing unpool-specific: neither bundler needs a rule for the .wasm files.
// The roots are the tool cache the app is built in (its node_modules holds
// next and react), given so that Next.js does not guess from lock files.
const root = process.env.UNPOOL_NEXT_ROOT;

export default {
  ...(root ? { outputFileTracingRoot: root, turbopack: { root } } : {}),
};
