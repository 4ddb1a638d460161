// Pipelines of one device: a shader module per distinct source (a family's
// generated source serves every dtype, index type and mode: those are
// override constants, set per pipeline), a bind group layout per family,
// and a pipeline per entry point, constants and generated taps.
import type {
  GpuBindGroupLayoutLike, GpuComputePipelineLike, GpuDeviceLike, GpuShaderModuleLike,
} from './gpu.js';
import { interiorTaps } from './geometry.js';
import {
  checkConstants, ENTRIES, EntryName, FAMILIES, Family, FamilyName, layoutEntries, sourceOf, wgslName,
} from './kernels.js';

export class Pipelines {
  private readonly modules = new Map<string, GpuShaderModuleLike>();
  private readonly layouts = new Map<FamilyName, { group: GpuBindGroupLayoutLike; pipeline: unknown }>();
  private readonly pipelines = new Map<string, GpuComputePipelineLike>();

  constructor(private readonly device: GpuDeviceLike) {}

  /** The bind group layout of `family` (and its pipeline layout). */
  layoutOf(family: FamilyName): { group: GpuBindGroupLayoutLike; pipeline: unknown } {
    let l = this.layouts.get(family);
    if (l === undefined) {
      const group = this.device.createBindGroupLayout({ label: `unpool ${family}`, entries: layoutEntries(family) });
      l = { group, pipeline: this.device.createPipelineLayout({ bindGroupLayouts: [group] }) };
      this.layouts.set(family, l);
    }
    return l;
  }

  /**
   * The pipeline of `entry` with override `constants`; `taps`: the kernel
   * shape whose interior taps pool_interior is generated for.
   */
  get(entry: EntryName, constants: Record<string, number>, taps?: readonly number[]): GpuComputePipelineLike {
    const key = `${entry}/${JSON.stringify(constants)}/${taps?.join('x') ?? '1x1x1'}`;
    let p = this.pipelines.get(key);
    if (p === undefined) {
      const { family } = ENTRIES[entry];
      checkConstants(family, constants);
      const f: Family = FAMILIES[family];
      const code = sourceOf(family, f.taps ? interiorTaps(taps ?? [1, 1, 1]) : '');
      let module = this.modules.get(code);
      if (module === undefined) {
        module = this.device.createShaderModule({ code, label: `unpool ${family}` });
        this.modules.set(code, module);
      }
      p = this.device.createComputePipeline({
        layout: this.layoutOf(family).pipeline, label: `unpool ${key}`,
        compute: { module, entryPoint: wgslName(entry), constants },
      });
      this.pipelines.set(key, p);
    }
    return p;
  }
}
