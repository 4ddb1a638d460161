// Run from the folder the tarball was installed into: imports 'unpool' the
// way a user's Node script does and prints the example's result as JSON.
import * as unpool from 'unpool';
import { example } from './example.js';

await unpool.init();
const result = example(unpool);
if (!result.consistent) throw new Error('node smoke: pooled values and indices disagree');
process.stdout.write(JSON.stringify(result));
