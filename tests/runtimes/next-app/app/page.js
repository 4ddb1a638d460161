// A server component page that renders the client component: the
// WebAssembly runs in the browser only (docs/runtimes.md, the Next.js recipe).
import Pool from './pool';

export default function Page() {
  return (
    <main>
      <h1>unpool</h1>
      <Pool />
    </main>
  );
}
