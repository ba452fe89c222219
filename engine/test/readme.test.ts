/**
 * The README is a landing page whose commands CI runs as written (.ci/run), and the docs it leads to hold
 * together: every relative link and image of the README and of docs/ reaches a file (and a heading, for an
 * anchor), and the tarball of the README's global install holds the CLI and the bundled benchmarks.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { test } from 'node:test';
import { ROOT } from './helpers';

/** The documents a reader moves between; their links must land. */
const LINKED_DOCUMENTS = [
  'README.md',
  'ARCHITECTURE.md',
  'benchmarks/AUTHORING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The commands of a markdown text's `sh` blocks, one per `&&` part, comments and blank lines left out. */
function shellCommands(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((match) => match[1]!);
  return blocks
    .flatMap((block) => block.split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '')
    .flatMap((line) => line.split('&&').map((part) => part.trim()));
}

/** A line of .ci/run with what only CI adds (quieter npm, a scratch prefix) taken out. */
const withoutCiFlags = (line: string) => line.replace(/ --no-audit| --no-fund| --prefix "\$prefix"/g, '');

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces made `-`. */
function headingAnchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a markdown file's headings, outside fenced blocks. */
function anchorsOf(markdown: string): Set<string> {
  const outsideBlocks = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...outsideBlocks.matchAll(/^#{1,6} (.+)$/gm)].map((match) => headingAnchor(match[1]!.trim())));
}

/** The relative targets of a markdown file's links and images, outside fenced blocks and code spans. */
function relativeTargets(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  const targets = [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
  return targets.filter((target) => !/^[a-z][\w+.-]*:/i.test(target));
}

/** The targets of `file` that reach no file, or no heading of the file they name. */
function brokenTargets(file: string): string[] {
  return relativeTargets(read(file)).filter((target) => {
    const [path = '', anchor] = target.split('#');
    const resolved = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)));
    if (resolved.startsWith('..') || !existsSync(join(ROOT, resolved))) return true;
    return anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(read(resolved)).has(anchor);
  });
}

test('the README is a landing page: what it is, a picture, the commands, then links', () => {
  const readme = read('README.md');
  assert.ok(readme.split('\n').length <= 60, `README.md has ${readme.split('\n').length} lines; reference goes to docs/`);
  assert.match(readme, /!\[[^\]]+\]\(docs\/images\/[\w-]+\.png\)/, 'a picture');
  assert.deepEqual(shellCommands(readme).slice(0, 3), ['npm install', 'npm run demo', 'npm test']);
});

test("every command of the README's blocks is in .ci/run, as a new user types it", () => {
  const ci = read('.ci/run').split('\n').map(withoutCiFlags).join('\n');
  const commands = shellCommands(read('README.md'));
  assert.ok(commands.length >= 7, commands.join(' | '));
  assert.deepEqual(
    commands.filter((command) => !ci.includes(command)),
    [],
    '.ci/run does not run these commands of the README',
  );
  assert.equal(withoutCiFlags('npm install --no-audit --no-fund && npm run demo'), 'npm install && npm run demo');
});

test("the README's tarball is the one npm pack makes, and it holds the CLI, the benchmarks and AUTHORING.md", () => {
  const manifest = JSON.parse(read('package.json')) as { name: string; version: string };
  const tarball = `./${manifest.name}-${manifest.version}.tgz`;
  assert.ok(read('README.md').includes(`npm install -g --ignore-scripts ${tarball}`), `the README installs ${tarball}`);
  const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(pack.status, 0, pack.stderr);
  const [listing] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  assert.equal(`./${listing!.filename}`, tarball);
  const files = new Set(listing!.files.map((file) => file.path));
  for (const needed of ['dist/cli.js', 'dist/cli-main.js', 'benchmarks/AUTHORING.md', 'benchmarks/starter/benchmark.json', 'agent.d.ts']) {
    assert.ok(files.has(needed), `the tarball holds ${needed}`);
  }
});

test('every relative link and image of the README and docs/ reaches a file, and a heading for an anchor', () => {
  assert.ok(LINKED_DOCUMENTS.length > 10, LINKED_DOCUMENTS.join(' '));
  for (const file of LINKED_DOCUMENTS) assert.deepEqual(brokenTargets(file), [], `${file} links to nothing`);
  // The check itself: a missing file, a missing heading and a way out of the repository are caught.
  assert.equal(headingAnchor('`mmb view`'), 'mmb-view');
  assert.equal(headingAnchor('The notebook agent'), 'the-notebook-agent');
  assert.deepEqual(relativeTargets('[a](b.md#c) ![i](images/x.png) [w](https://x.y) `[n](no.md)`'), ['b.md#c', 'images/x.png']);
});
