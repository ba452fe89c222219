/**
 * The packaged extension's page: `npm run package`'s own commands (but the build, which `npm test` has done) make a
 * .vsix, and its README is opened from the archive. VS Code's extension page shows images only from https or data:
 * URLs and follows only http, https and mailto links: so every image must be a data: PNG of docs/images, no link may
 * be relative, and every file the README names must be in the archive.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { test } from 'node:test';
import { zipEntries } from './zipEntries';

const ROOT = join(__dirname, '..', '..');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

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

test("the .vsix's README shows its screenshots from inside itself and links to nothing it lacks", () => {
  const files = packagedFiles();
  const readmes = [...files.keys()].filter((name) => /^extension\/readme\.md$/i.test(name));
  assert.deepEqual(readmes, ['extension/readme.md'], 'one README, the generated one');
  const readme = files.get('extension/readme.md')!.toString('utf8');
  assert.match(readme, /^# MarathonMemBench\n\nMeasure the long-term memory of AI agents/);
  assert.doesNotMatch(readme, /\.invalid|\]\(images\/|\]\(docs\//);

  const shipped = readdirSync(join(ROOT, 'docs', 'images')).map((name) => readFileSync(join(ROOT, 'docs', 'images', name)));
  const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
  assert.equal(images.length, 7, "docs/extension.md's seven screenshots");
  for (const image of images) {
    assert.ok(image.startsWith('data:image/png;base64,'), image.slice(0, 60));
    const bytes = Buffer.from(image.slice('data:image/png;base64,'.length), 'base64');
    assert.ok(bytes.subarray(0, 8).equals(PNG_SIGNATURE), 'a PNG');
    assert.ok(
      shipped.some((png) => png.equals(bytes)),
      'the bytes of a screenshot of docs/images',
    );
  }
  const links = [...readme.replace(/!\[[^\]]*\]\([^)]*\)/g, '').matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
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
