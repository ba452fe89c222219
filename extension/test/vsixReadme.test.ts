/**
 * The packaged extension's page: `npm run package`'s own commands (but the build, which `npm test` has done) make a
 * .vsix, and its README is opened from the archive. VS Code's extension page draws images only from http(s) URLs and
 * follows only http, https and mailto links, and the project has no web address: so the README may hold no image and
 * no link, and every file it names must be in the archive.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { test } from 'node:test';
import { zipEntries } from './zipEntries';

const ROOT = join(__dirname, '..', '..');

/** The `package` script's commands after the build, writing the .vsix to `out`. */
function packageCommands(out: string): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const [build, ...rest] = pkg.scripts.package!.split(' && ');
  assert.equal(build, 'npm run build');
  const commands = rest.join(' && ');
  assert.match(commands, / -o dist\/marathon-mem-bench\.vsix$/);
  return commands.replace(/ -o dist\/marathon-mem-bench\.vsix$/, ` -o ${out}`);
}

/** The package, made as `npm run package` makes it, file by file. */
function packagedFiles(): Map<string, Buffer> {
  const folder = mkdtempSync(join(tmpdir(), 'mmb-vsix-'));
  try {
    const vsix = join(folder, 'extension.vsix');
    const path = [join(ROOT, 'node_modules', '.bin'), process.env.PATH ?? ''].join(delimiter);
    const made = spawnSync('sh', ['-c', packageCommands(vsix)], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, PATH: path } });
    assert.equal(made.status, 0, `${made.stdout}${made.stderr}`);
    return zipEntries(readFileSync(vsix));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

test("the .vsix's README has no image or link the extension's page cannot show, and names only files it holds", () => {
  const files = packagedFiles();
  const readmes = [...files.keys()].filter((name) => /^extension\/readme\.md$/i.test(name));
  assert.deepEqual(readmes, ['extension/readme.md'], 'one README, the generated one');
  const readme = files.get('extension/readme.md')!.toString('utf8');
  assert.match(readme, /^# MarathonMemBench\n\nMeasure the long-term memory of AI agents/);
  assert.doesNotMatch(readme, /\.invalid|\]\(images\/|\]\(docs\//);

  assert.equal([...readme.matchAll(/!\[[^\]]*\]\(/g)].length, 0, 'no image: the page would draw none of them');
  const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
  assert.deepEqual(links, [], 'no link: the page could follow none to a file of the package');

  const named = [...readme.matchAll(/^- `([\w/.-]+\.md)`/gm)].map((match) => match[1]!);
  assert.deepEqual(named.slice(0, 2), ['docs/commands.md', 'benchmarks/AUTHORING.md']);
  assert.deepEqual(
    named.filter((path) => !files.has(`extension/${path}`)),
    [],
    'the docs the README names are in the package',
  );
  assert.doesNotMatch(files.get('extension/changelog.md')!.toString('utf8'), /\]\((?!https:)[^)]*\)/, 'the changelog links only to https');
});
