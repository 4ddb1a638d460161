// What the runner uses of ONNX Runtime, structurally: the namespace the user
// imported (onnxruntime-node, onnxruntime-web or onnxruntime-web/webgpu) is
// passed in, so the package depends on none of them. Parameters typed
// `never` accept every real signature (a parameter type is checked the other
// way round); the runner calls them with what ORT documents.
import { TensorProto_DataType as DT } from './onnx_pb.js';

/** An ort.Tensor, as the runner reads it. */
export interface OrtTensorLike {
  readonly type: string;
  readonly dims: readonly number[];
  readonly location?: string;
  readonly data?: unknown;
  dispose(): void;
}

/** What the runner reads of a session's output metadata (ORT >= 1.22). */
export interface OrtValueMetadata {
  readonly name: string;
  readonly isTensor?: boolean;
  readonly type?: string;
}

/** An ort.InferenceSession, as the runner uses it. */
export interface OrtSessionLike {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  readonly outputMetadata?: readonly OrtValueMetadata[];
  /** run(feeds, options?) or run(feeds, fetches, options?), as ORT's. */
  run(feeds: never, fetchesOrOptions?: never, options?: never): Promise<Record<string, OrtTensorLike>>;
  release(): Promise<void>;
}

/** The ORT namespace: `import * as ort from 'onnxruntime-web'` (or -node, or onnxruntime-web/webgpu). */
export interface OrtNamespace<T extends OrtTensorLike = OrtTensorLike> {
  readonly InferenceSession: { create(model: never, options?: never): Promise<OrtSessionLike> };
  readonly Tensor: (new (type: never, data: never, dims: never) => T) & {
    fromGpuBuffer?(buffer: never, options: never): T;
  };
  readonly env?: { readonly webgpu?: object };
}

/** The ort.Tensor class of namespace `O`. */
export type TensorOf<O> = O extends { Tensor: new (...args: never[]) => infer T } ? T : OrtTensorLike;

/** ORT's type names and ONNX's element types, for the types of sub-sessions' inputs. */
const ELEM_TYPES: Readonly<Record<string, number>> = {
  float32: DT.FLOAT, uint8: DT.UINT8, int8: DT.INT8, uint16: DT.UINT16, int16: DT.INT16, int32: DT.INT32,
  int64: DT.INT64, string: DT.STRING, bool: DT.BOOL, float16: DT.FLOAT16, float64: DT.DOUBLE,
  // INT4 and UINT4 (ONNX 1.16) postdate the schema this is generated from.
  uint32: DT.UINT32, uint64: DT.UINT64, uint4: 21, int4: 22,
};

/** ONNX's element type of ORT type name `t`, or undefined. */
export const elemTypeOf = (t: string | undefined): number | undefined =>
  t === undefined ? undefined : ELEM_TYPES[t];

/** ORT's type name of ONNX element type `e`, or undefined. */
export function ortTypeOf(e: number): string | undefined {
  return Object.keys(ELEM_TYPES).find((k) => ELEM_TYPES[k] === e);
}

/** Options of any shape: where the namespace's own session options cannot be read. */
export interface AnySessionOptions {
  readonly [option: string]: unknown;
}

/**
 * ORT's session options of namespace `O` (its InferenceSession.SessionOptions,
 * read from `create(buffer: Uint8Array, options?)`, the last overload
 * onnxruntime-common declares, which is the one `infer` reads), so that a
 * misspelt or mistyped option fails to compile as in ORT's own create();
 * AnySessionOptions where `O` declares no such thing.
 */
export type SessionOptionsOf<O> = O extends {
  readonly InferenceSession: { create(model: Uint8Array, options?: infer S): unknown };
} ? ([NonNullable<S>] extends [never] ? AnySessionOptions
    : NonNullable<S> extends { readonly executionProviders?: unknown } ? NonNullable<S> : AnySessionOptions)
  : AnySessionOptions;
