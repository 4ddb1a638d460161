// The one uniform block every kernel reads (binding 0 of group 0), declared
// here once: the WGSL struct is generated from this list, and a call fills
// it from the plan's geometry (the core's, read back by planGeometry()).

/** The u32 fields of `Params`, in struct order. */
export const PARAM_FIELDS = [
  'count',     // work items (elements or words) of the dispatch
  'groups_x',  // workgroups along x (a dispatch folds into x and y)
  'planes', 'channels', 'channels_last',
  'in_plane', 'out_plane',
  'in_d', 'in_h', 'in_w', 'out_d', 'out_h', 'out_w',
  'k_d', 'k_h', 'k_w', 's_d', 's_h', 's_w', 'p_d', 'p_h', 'p_w', 'd_d', 'd_h', 'd_w',
  'flags',     // per family (pool backward: the window-free path; pool: a box's items)
  // A box of outputs (pool: a max pool's interior, or an edge around it)
  'box_d0', 'box_h0', 'box_w0', 'box_d', 'box_h', 'box_w',
  'base',      // the chunk's first element (of the tensor whose positions are recorded)
] as const;

export type ParamField = typeof PARAM_FIELDS[number];
export type Params = Partial<Record<ParamField, number>>;

/** The struct and its binding, as WGSL. */
export const PARAMS_WGSL =
    `struct Params {\n${PARAM_FIELDS.map((f) => `  ${f}: u32,\n`).join('')}}\n` +
    '@group(0) @binding(0) var<uniform> P: Params;\n';

/** Bytes of the uniform buffer (a multiple of 16). */
export const PARAMS_BYTES = Math.ceil(PARAM_FIELDS.length * 4 / 16) * 16;

const SLOT = new Map<string, number>(PARAM_FIELDS.map((f, i) => [f, i]));

/** The block's words for `p` (absent fields 0). */
export function paramWords(p: Params): Uint32Array {
  const words = new Uint32Array(PARAMS_BYTES / 4);
  for (const [k, v] of Object.entries(p)) words[SLOT.get(k)!] = v as number;
  return words;
}
