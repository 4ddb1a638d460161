// The demo's own Vite config (web/vite.config.js), plus tests/engines'
// ERROR_HOOK as the first script of the page: every engine's test reads the
// page's console errors and uncaught errors the same way (WebDriver classic,
// WebKit's, has no console events). scripts/test-demo.sh serves with this.
import web from '../../web/vite.config.js';
import { ERROR_HOOK } from '../engines/engines.mjs';

export default {
  ...web,
  plugins: [...(web.plugins ?? []), {
    name: 'unpool-error-hook',
    transformIndexHtml: () => [{ tag: 'script', children: ERROR_HOOK, injectTo: 'head-prepend' }],
  }],
};
