// A CommonJS consumer (module node16), strict mode: require()
// types come from the package's .d.cts files.
import unpool = require('unpool');
import inline = require('unpool/inline');
import { maxPool2d, type Tensor } from 'unpool';

async function main(): Promise<number> {
  await unpool.init({ wasmBinary: new Uint8Array(0) });
  await inline.init();
  const x: Tensor<Float32Array> = { data: new Float32Array(16), shape: [1, 1, 4, 4] };
  const { output } = maxPool2d(x, { kernelSize: 2 });
  const layer = new unpool.MaxUnpool2d(2);
  void layer;
  return output.data.length;
}
export = main;
