// A page as a user bundles it: import 'unpool', init with no options.
import { init, maxPool2d, maxUnpool2d, maxPool2dBackward } from 'unpool';
import { example } from './example.js';

try {
  await init();
  window.__result = example({ maxPool2d, maxUnpool2d, maxPool2dBackward });
  document.getElementById('out').textContent = 'done';
} catch (error) {
  window.__result = { error: String(error && error.stack || error) };
}
