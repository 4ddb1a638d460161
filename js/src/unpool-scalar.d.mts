// Types of the scalar build's Emscripten glue (unpool-scalar.mjs): the same
// module interface as the SIMD build's (unpool.d.mts).
export * from './unpool.mjs';
export { default } from './unpool.mjs';
