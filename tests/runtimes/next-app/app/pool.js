'use client';
// The client component: `import 'unpool'` as an app does and `init()` with no
// options inside useEffect, so it runs in the browser and not during the
// server prerender. The bundler (webpack or Turbopack) emits the .wasm files
// from the package's new URL('./unpool.wasm', import.meta.url).
import { useEffect, useState } from 'react';
import * as api from 'unpool';
import { runChecks } from './checks.mjs';

export default function Pool() {
  const [text, setText] = useState('loading');
  useEffect(() => {
    fetch('/vectors.json')
      .then((response) => response.text())
      .then((vectors) => runChecks(api, vectors))
      .then((summary) => {
        window.__result = summary;
        setText(`pooled ${summary.quickStart[0]}`);
      }, (error) => {
        window.__result = { error: String((error && error.stack) || error) };
        setText('failed');
      });
  }, []);
  return <p id="out">{text}</p>;
}
