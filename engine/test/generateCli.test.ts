/**
 * `mmb generate` through the built CLI, as a user's shell runs it: each preset writes a folder that
 * `mmb check` passes, with its spec and seed in world.jsonc; the same command writes the same bytes;
 * a spec's typo, a bad seed, preset or name, and an existing folder are one line and exit 2 with
 * nothing written; `--extend` carries a generated world on and refuses a folder that is not one; a
 * full or read-only disk is exit 75 with no half folder left (on a real tmpfs, where mounting works).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse as parseJsonc } from 'jsonc-parser';
import { DEFAULT_SEED, parseWorldSpec, PRESET_NAMES, PRESETS } from '../src/generate/spec';
import { mmb, tempDir } from './helpers';

/** Every file of a folder, by name, as bytes read back. */
function folderFiles(dir: string): Map<string, string> {
  return new Map(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
}

function worldOf(dir: string) {
  const read = parseWorldSpec(readFileSync(join(dir, 'world.jsonc'), 'utf8'), 'world.jsonc');
  if ('error' in read) assert.fail(read.error);
  return read;
}

/** A usage problem: exit 2, the one line on stderr, nothing on stdout. */
function refused(result: ReturnType<typeof mmb>, line: string): void {
  assert.deepEqual([result.code, result.stderr, result.stdout], [2, `mmb: ${line}\n`, '']);
}

test('each preset writes a folder that mmb check passes, its spec and seed in world.jsonc, and says what it wrote', () => {
  const dir = tempDir('mmb-generate-');
  for (const preset of PRESET_NAMES) {
    const r = mmb(['generate', `w-${preset}`, '--preset', preset], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(
      lines[0],
      `Generated benchmarks/w-${preset} from preset ${preset}, seed ${DEFAULT_SEED} (the default: --seed N for another world):`,
    );
    assert.equal(lines[1], '  the benchmark: benchmark.json, README.md, world.jsonc');
    assert.match(lines.at(-2)!, /^ {2}[\d,]+ facts?, [\d,]+ checks?, [\d,]+ trap writes?, [\d,]+ chapters?, [\d,]+ session switch(es)?$/);
    assert.equal(lines.at(-1), `Next: mmb check --audit benchmarks/w-${preset}. The same command writes the same folder, byte for byte.`);
    const folder = join(dir, 'benchmarks', `w-${preset}`);
    assert.deepEqual(worldOf(folder).spec, PRESETS[preset], preset);
    assert.equal(worldOf(folder).seed, DEFAULT_SEED);
    const check = mmb(['check', `benchmarks/w-${preset}`], dir);
    assert.equal(check.code, 0, check.stdout);
  }
  // No temporary folder is left beside them.
  assert.deepEqual(readdirSync(join(dir, 'benchmarks')).sort(), PRESET_NAMES.map((preset) => `w-${preset}`).sort());
});

test('the same spec and seed write the same folder, byte for byte; another seed, another world.jsonc', () => {
  const [first, second] = [tempDir('mmb-generate-a-'), tempDir('mmb-generate-b-')];
  for (const dir of [first, second]) {
    writeFileSync(join(dir, 'world.jsonc'), '{ "preset": "month", "seed": 12, "factsPerTopic": 12 }\n');
    const r = mmb(['generate', 'same', '--spec', 'world.jsonc'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Generated benchmarks\/same from spec world\.jsonc, preset month, seed 12:\n/);
  }
  assert.deepEqual(folderFiles(join(first, 'benchmarks', 'same')), folderFiles(join(second, 'benchmarks', 'same')));
  assert.equal(mmb(['generate', 'other', '--spec', 'world.jsonc', '--seed', '13'], first).code, 0);
  assert.equal(worldOf(join(first, 'benchmarks', 'other')).seed, 13, '--seed wins over the file');
  assert.deepEqual(worldOf(join(first, 'benchmarks', 'other')).spec, { ...PRESETS.month, factsPerTopic: 12 });
});

test("a spec's problem is its line at file:LINE:COL with the near key, exit 2, and nothing written", () => {
  const dir = tempDir('mmb-generate-');
  writeFileSync(join(dir, 'world.jsonc'), '{\n  // three topics\n  "topcs": 3\n}\n');
  refused(mmb(['generate', 'typo', '--spec', 'world.jsonc'], dir), 'world.jsonc:3:3: unknown key "topcs" — did you mean "topics"?');
  writeFileSync(join(dir, 'two.jsonc'), '{ "factsPerTopic": 5000,\n  "shape": "single-dya" }');
  const two = mmb(['generate', 'typo', '--spec', 'two.jsonc'], dir);
  assert.equal(two.code, 2);
  assert.deepEqual(two.stderr.split('\n'), [
    'mmb: two.jsonc:1:20: "factsPerTopic" is 5000: give a whole number from 4 to 1,000.',
    'two.jsonc:2:12: "shape" is "single-dya" — did you mean "single-day"? Give one of "single-day", "multi-day".',
    '',
  ]);
  refused(mmb(['generate', 'typo', '--spec', 'missing.jsonc'], dir), 'cannot read missing.jsonc: no such file or folder');
  writeFileSync(join(dir, 'utf16.jsonc'), Buffer.from('\uFEFF{}', 'utf16le'));
  assert.match(mmb(['generate', 'typo', '--spec', 'utf16.jsonc'], dir).stderr, /^mmb: utf16\.jsonc is not read: it is saved as UTF-16/);
  assert.equal(existsSync(join(dir, 'benchmarks', 'typo')), false);
});

test('a bad seed, preset or name, and an option out of place, are one line and exit 2', () => {
  const dir = tempDir('mmb-generate-');
  const seedLine = (got: string) => `--seed needs a whole number from 0 to 4294967295, as in --seed 7 (got ${got}).`;
  refused(mmb(['generate', 'w', '--seed=abc'], dir), seedLine('abc'));
  refused(mmb(['generate', 'w', '--seed=-1'], dir), seedLine('-1'));
  refused(mmb(['generate', 'w', '--seed', '4294967296'], dir), seedLine('4294967296'));
  refused(mmb(['generate', 'w', '--seed', '1.5'], dir), seedLine('1.5'));
  refused(
    mmb(['generate', 'w', '--preset', 'hrad'], dir),
    'unknown preset "hrad": the presets are max-like, hard, month. Did you mean `hard`?',
  );
  refused(mmb(['generate', 'w', '--preset', 'easy'], dir), 'unknown preset "easy": the presets are max-like, hard, month.');
  refused(mmb(['generate', 'My World'], dir), '"My World" cannot name a benchmark folder: use lower-case letters, digits and "-".');
  refused(mmb(['generate'], dir), 'mmb generate needs a name: mmb generate my-world --preset hard.');
  refused(mmb(['generate', 'a', 'b'], dir), 'mmb generate takes one name (got b too).');
  refused(
    mmb(['generate', 'w', '--months', '2'], dir),
    '--months goes with --extend <folder>: mmb generate --extend benchmarks/my-world --months 1.',
  );
  assert.equal(existsSync(join(dir, 'benchmarks')), false);
});

test('an existing folder that is not empty is refused, untouched; an empty one is filled', () => {
  const dir = tempDir('mmb-generate-');
  mkdirSync(join(dir, 'benchmarks', 'mine'), { recursive: true });
  writeFileSync(join(dir, 'benchmarks', 'mine', 'notes.md'), 'mine\n');
  refused(
    mmb(['generate', 'mine'], dir),
    'benchmarks/mine exists and is not empty: pick another name, or carry a generated world on with mmb generate --extend benchmarks/mine.',
  );
  assert.deepEqual([...folderFiles(join(dir, 'benchmarks', 'mine'))], [['notes.md', 'mine\n']]);
  writeFileSync(join(dir, 'benchmarks', 'file'), '');
  refused(mmb(['generate', 'file'], dir), 'benchmarks/file exists and is not a folder: pick another name.');
  mkdirSync(join(dir, 'benchmarks', 'empty'));
  assert.equal(mmb(['generate', 'empty'], dir).code, 0);
  assert.ok(existsSync(join(dir, 'benchmarks', 'empty', 'world.jsonc')));
});

test('--extend carries a generated world on: new chapters, benchmark.json and world.jsonc rewritten', () => {
  const dir = tempDir('mmb-generate-');
  writeFileSync(join(dir, 'world.jsonc'), '{ "topics": 3 }');
  assert.equal(mmb(['generate', 'arc', '--seed', '5', '--spec', 'world.jsonc'], dir).code, 0);
  const folder = join(dir, 'benchmarks', 'arc');
  const before = folderFiles(folder);
  const chaptersOf = (files: Map<string, string>) => (parseJsonc(files.get('benchmark.json')!) as { chapters: string[] }).chapters;
  const r = mmb(['generate', '--extend', 'benchmarks/arc', '--months', '2'], dir);
  assert.equal(r.code, 0, r.stderr);
  const after = folderFiles(folder);
  assert.match(
    r.stdout,
    /^Extended benchmarks\/arc by 2 months:\n {2}\d+ new files \(.+\), \d+ rewritten \(.*benchmark\.json.*world\.jsonc\)\n/,
  );
  assert.ok(chaptersOf(after).length > chaptersOf(before).length);
  for (const chapter of chaptersOf(after)) assert.ok(after.has(chapter), `${chapter} is written`);
  assert.deepEqual([worldOf(folder).seed, worldOf(folder).blocks], [5, 3]);
  assert.equal(mmb(['check', 'benchmarks/arc'], dir).code, 0);
  // The chapters there were are there still, word for word: a finished run plays on into the new ones.
  for (const chapter of chaptersOf(before)) assert.equal(after.get(chapter), before.get(chapter), chapter);
  // Once more from the start gives the same folder: extending is as deterministic as generating.
  const again = tempDir('mmb-generate-');
  writeFileSync(join(again, 'world.jsonc'), '{ "topics": 3 }');
  mmb(['generate', 'arc', '--seed', '5', '--spec', 'world.jsonc'], again);
  mmb(['generate', '--extend', 'benchmarks/arc', '--months=2'], again);
  assert.deepEqual(folderFiles(join(again, 'benchmarks', 'arc')), after);
  // And the extended world.jsonc, given back as a spec, regenerates the extended folder.
  assert.equal(mmb(['generate', 'copy', '--spec', 'benchmarks/arc/world.jsonc'], dir).code, 0);
  assert.deepEqual(folderFiles(join(dir, 'benchmarks', 'copy')), after);
});

test('--extend refuses a world an author edited, naming the files, and writes nothing', () => {
  const dir = tempDir('mmb-generate-');
  writeFileSync(join(dir, 'world.jsonc'), '{ "topics": 3 }');
  assert.equal(mmb(['generate', 'arc', '--seed', '5', '--spec', 'world.jsonc'], dir).code, 0);
  const folder = join(dir, 'benchmarks', 'arc');
  const chapter = join(folder, 'chapter3.md');
  writeFileSync(chapter, `${readFileSync(chapter, 'utf8')}\nSay you also bought a kettle.\n`);
  const before = folderFiles(folder);
  refused(
    mmb(['generate', '--extend', 'benchmarks/arc'], dir),
    'benchmarks/arc: chapter3.md changed since the world was generated, and --extend writes it from its spec: ' +
      'copy your changes aside and extend, or extend a fresh copy (mmb generate <name> --spec world.jsonc).',
  );
  assert.deepEqual(folderFiles(folder), before);
});

test('--extend refuses a folder that is not a generated world, and options that would change the world', () => {
  const dir = tempDir('mmb-generate-');
  assert.equal(mmb(['new', 'hand'], dir).code, 0);
  refused(
    mmb(['generate', '--extend', 'benchmarks/hand'], dir),
    'benchmarks/hand is not a generated world: it has no world.jsonc (mmb generate writes one).',
  );
  refused(mmb(['generate', '--extend', 'nowhere'], dir), 'cannot read nowhere: no such file or folder');
  assert.equal(mmb(['generate', 'arc'], dir).code, 0);
  refused(
    mmb(['generate', '--extend', 'benchmarks/arc', '--seed', '3'], dir),
    '--extend carries a world on with its own spec and seed (its world.jsonc): drop --preset, --seed and --spec.',
  );
  refused(
    mmb(['generate', 'x', '--extend', 'benchmarks/arc'], dir),
    '--extend takes the folder, not a name (got x): mmb generate --extend benchmarks/my-world.',
  );
  refused(
    mmb(['generate', '--extend', 'benchmarks/arc', '--months', '0'], dir),
    '--months needs a whole number from 1 to 120, as in --months 1 (got 0).',
  );
  writeFileSync(join(dir, 'benchmarks', 'arc', 'world.jsonc'), '{ "sed": 3 }');
  refused(mmb(['generate', '--extend', 'benchmarks/arc'], dir), 'benchmarks/arc/world.jsonc:1:3: unknown key "sed" — did you mean "seed"?');
  writeFileSync(join(dir, 'benchmarks', 'arc', 'world.jsonc'), '{}');
  refused(
    mmb(['generate', '--extend', 'benchmarks/arc'], dir),
    'benchmarks/arc/world.jsonc has no "seed": a generated world\'s has one; put it back.',
  );
});

/** Why a tmpfs cannot be mounted here (it needs root), or undefined when it can. */
function mountProblem(): string | undefined {
  const probe = tempDir('mmb-mount-');
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { encoding: 'utf8' });
  if (mounted.status !== 0) return `mounting a tmpfs is not permitted here (${(mounted.stderr || String(mounted.error)).trim()})`;
  spawnSync('umount', [probe]);
  return undefined;
}

test('a full or read-only disk is exit 75, one line naming what was written, and no half folder', { skip: mountProblem() ?? false }, () => {
  const dir = tempDir('mmb-generate-');
  const benchmarks = join(dir, 'benchmarks');
  mkdirSync(benchmarks);
  // One page: the first file fits, a later one does not.
  assert.equal(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4k', 'tmpfs', benchmarks]).status, 0);
  try {
    const full = mmb(['generate', 'big', '--preset', 'hard'], dir);
    assert.equal(full.code, 75, full.stderr);
    assert.match(
      full.stderr,
      /^mmb: the disk is full \(writing benchmarks\/big\/[\w.-]+, \d+ KiB free\): free at least \d+ KiB and run the command again\.\n$/,
    );
    assert.deepEqual(readdirSync(benchmarks), [], 'neither the folder nor its temporary copy is left');
    assert.equal(spawnSync('mount', ['-o', 'remount,ro', benchmarks]).status, 0);
    const readOnly = mmb(['generate', 'big'], dir);
    assert.equal(readOnly.code, 75, readOnly.stderr);
    assert.match(
      readOnly.stderr,
      /^mmb: the disk is read-only \(writing benchmarks\/[\w.-]+\): make it writable and run the command again\.\n$/,
    );
  } finally {
    spawnSync('umount', [benchmarks]);
  }
});
