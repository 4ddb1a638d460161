// Every relative link of the packed README, and of the docs it ships, must
// resolve inside the tarball (issue 32): on npmjs.com and in node_modules
// the repository is not there. A link's #anchor must name a heading of its
// target (GitHub's slugs). A link into the package's own repository online
// (package.json's repository, .../blob|tree/<branch>/<path>), which is how
// the docs point at what the package leaves out (issue 44: tests/webgpu/models),
// must name a path the repository has (run from its root). Other absolute
// URLs are not checked.
//   node tests/js/pack/readme-links.mjs <extracted package folder>
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const root = process.argv[2];
if (!root) throw new Error('usage: node readme-links.mjs <package folder>');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to '-'. */
const slug = (heading) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');

function anchors(file) {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.*)$/gm)].map((m) => slug(m[1].replace(/`/g, ''))));
}

/** [target, line] of the links (markdown links and images, <img src>) of a file: relative ones, or `absolute` too. */
function links(file, absolute = false) {
  const text = readFileSync(file, 'utf8');
  const out = [];
  text.split('\n').forEach((line, i) => {
    if (/^\s*(```|    )/.test(line)) return;
    for (const m of line.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)|<img[^>]*\bsrc="([^"]+)"/g)) {
      const target = m[1] ?? m[2];
      if (absolute === /^[a-z][a-z0-9+.-]*:/i.test(target)) out.push([target, i + 1]);
    }
  });
  // Code blocks hold no links.
  return out.filter(([, n]) => !insideFence(text, n));
}

function insideFence(text, lineNo) {
  let inside = false;
  const lines = text.split('\n');
  for (let i = 0; i < lineNo - 1; ++i) if (lines[i].trim().startsWith('```')) inside = !inside;
  return inside;
}

const docs = existsSync(join(root, 'docs'))
  ? readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f)) : [];
const problems = [];
let checked = 0;
for (const doc of ['README.md', ...docs]) {
  for (const [target, line] of links(join(root, doc))) {
    checked += 1;
    const [path, anchor] = target.split('#');
    const file = path === '' ? join(root, doc) : normalize(join(root, dirname(doc), decodeURI(path)));
    const where = `${doc}:${line}: ${target}`;
    if (relative(root, file).startsWith('..')) problems.push(`${where} leaves the package`);
    else if (!existsSync(file)) problems.push(`${where} is not in the tarball`);
    else if (anchor !== undefined && file.endsWith('.md') && !anchors(file).has(anchor)) {
      problems.push(`${where}: no heading #${anchor} in ${relative(root, file)}`);
    }
  }
}
// Links into the repository online: the path must be one the repository has.
const repoUrl = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).repository?.url
  ?.replace(/^git\+/, '').replace(/\.git$/, '');
let online = 0;
if (repoUrl) {
  const prefix = new RegExp(`^${repoUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/(?:blob|tree)/[^/]+/([^#?]+)`);
  for (const doc of ['README.md', ...docs]) {
    for (const [target, line] of links(join(root, doc), true)) {
      const m = prefix.exec(target);
      if (m === null) continue;
      online += 1;
      if (!existsSync(decodeURI(m[1]))) problems.push(`${doc}:${line}: ${target} names ${m[1]}, which the repository lacks`);
    }
  }
}
if (problems.length) {
  console.error(`test-pack: ${problems.length} relative link(s) of the packed docs do not resolve:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`test-pack: ${checked} relative links of README.md and ${docs.length} docs resolve inside the tarball, ` +
  `${online} into the repository online name its files`);
