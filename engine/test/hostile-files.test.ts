/**
 * `mmb check` on hostile benchmark folders, through the built CLI: links out of the folder, a
 * FIFO, a folder named like a chapter, input that overflowed the parser's stack or took it
 * quadratic time, BOMs, absurd values, prototype names. Each must end in a diagnostic with a
 * one-line message, never an abort, a hang or a read of anything outside the folder.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
  ftruncateSync,
} from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { expandTemplates, playOrder } from '../src/run/phases';
import { benchmarkFrom, CLI, STARTER, tempDir } from './helpers';

/** Planted outside every benchmark folder; no output may ever hold it. */
const CANARY = `canary-${process.pid}-7f3a9c`;

interface JsonDiagnostic {
  file: string;
  line: number;
  column: number;
  severity: string;
  code: string;
  message: string;
}

function mmb(args: string[], cwd: string) {
  // The canary is in the environment too, for the link to /proc/self/environ.
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, MMB_HOSTILE_CANARY: CANARY },
  });
  assert.equal(r.signal, null, `mmb ${args.join(' ')} was killed (a hang?)`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const CLEAN: Record<string, string> = {
  'benchmark.json': '{ "chapters": ["chapter1.md"] }\n',
  'instructions.md': 'You are Lena.\n',
  'family.md': '# Family\n\n## 1. Lena\n1.1 Lena is a UX designer\n',
  'chapter1.md': '## Start\nTell the `family` sheet.\n\n❓ 1.1 What is my job? Correct answer: UX designer.\n',
};

/** A fresh clean benchmark folder in its own temp workspace, with `files` written over it. */
function folder(files: Record<string, string | Buffer> = {}): { root: string; dir: string } {
  const root = tempDir('mmb-hostile-');
  const dir = join(root, 'bench');
  mkdirSync(dir);
  writeFileSync(join(root, 'outside.txt'), `${CANARY}\n`);
  for (const [name, text] of Object.entries({ ...CLEAN, ...files })) writeFileSync(join(dir, name), text);
  return { root, dir };
}

/** Checks the folder and asserts what every hostile case shares; returns the diagnostics. */
function check(dir: string, expectedStatus: number, target = '.'): JsonDiagnostic[] {
  const r = mmb(['check', target, '--json'], dir);
  assert.equal(r.code, expectedStatus, `${r.stdout}\n${r.stderr}`);
  assert.ok(!`${r.stdout}${r.stderr}`.includes(CANARY), 'something outside the folder reached the output');
  assert.ok(!/internal error|Maximum call stack|RangeError|NaN/.test(`${r.stdout}${r.stderr}`), r.stdout + r.stderr);
  const diagnostics = (JSON.parse(r.stdout) as { diagnostics: JsonDiagnostic[] }).diagnostics;
  for (const d of diagnostics) assert.ok(!/[\r\n]/.test(d.message), `a message of more than one line: ${d.message}`);
  return diagnostics;
}

function only(diagnostics: JsonDiagnostic[], code: string, file: string): JsonDiagnostic {
  const found = diagnostics.filter((d) => d.code === code && d.file === file);
  assert.equal(found.length, 1, JSON.stringify(diagnostics, null, 1));
  return found[0]!;
}

test('a profile.md linked to a file outside the folder is refused, and its text never appears', () => {
  const { root, dir } = folder({ 'chapter1.md': `${CLEAN['chapter1.md']}Tell the \`profile\` sheet, profile#1.1 first.\n` });
  symlinkSync(join(root, 'outside.txt'), join(dir, 'profile.md'));
  const diagnostics = check(dir, 1);
  const d = only(diagnostics, 'unsafe-file', 'profile.md');
  assert.equal(d.severity, 'error');
  // One clear error: the refs to the refused sheet are not reported again as unknown.
  assert.deepEqual(
    diagnostics.map((x) => x.code),
    ['unsafe-file'],
  );
  assert.match(d.message, /link that leads out of its folder/);
});

test('a link to /proc/self/environ is refused: the environment (with the canary) is never read', () => {
  const { dir } = folder();
  symlinkSync('/proc/self/environ', join(dir, 'profile.md'));
  assert.match(only(check(dir, 1), 'unsafe-file', 'profile.md').message, /leads out of its folder/);
});

test('a link that stays inside the folder is read like the file it points at', () => {
  const { dir } = folder();
  mkdirSync(join(dir, 'texts'));
  writeFileSync(join(dir, 'texts', 'profile.md'), '# Profile\n\n## 1. Me\n1.1 Lena, 31\n');
  symlinkSync(join('texts', 'profile.md'), join(dir, 'profile.md'));
  writeFileSync(join(dir, 'chapter1.md'), `${CLEAN['chapter1.md']}Tell the \`profile\` sheet.\n`);
  assert.deepEqual(check(dir, 0), []);
});

test('a listed chapter that is a dangling link is one unsafe-file error, not an abort and not also missing-chapter', () => {
  const { root, dir } = folder({ 'benchmark.json': '{ "chapters": ["chapter1.md", "chapter2.md"] }' });
  symlinkSync(join(root, 'gone.md'), join(dir, 'chapter2.md'));
  const diagnostics = check(dir, 1);
  assert.match(only(diagnostics, 'unsafe-file', 'chapter2.md').message, /dangling link/);
  assert.deepEqual(
    diagnostics.map((x) => x.code),
    ['unsafe-file'],
  );
});

test('a FIFO named chapter2.md is refused without being opened (the check does not hang)', () => {
  const { dir } = folder({ 'benchmark.json': '{ "chapters": ["chapter1.md", "chapter2.md"] }' });
  const made = spawnSync('mkfifo', [join(dir, 'chapter2.md')]);
  assert.equal(made.status, 0, 'mkfifo is needed for this test');
  assert.match(only(check(dir, 1), 'unsafe-file', 'chapter2.md').message, /named pipe \(FIFO\)/);
});

test('a folder named chapter3.md is refused', () => {
  const { dir } = folder({ 'benchmark.json': '{ "chapters": ["chapter1.md", "chapter3.md"] }' });
  mkdirSync(join(dir, 'chapter3.md'));
  assert.match(only(check(dir, 1), 'unsafe-file', 'chapter3.md').message, /a folder, not a regular file/);
});

test('a manifest nested 200,000 deep is invalid-manifest, not a stack overflow', () => {
  const { dir } = folder({ 'benchmark.json': '['.repeat(200_000) });
  assert.match(only(check(dir, 1), 'invalid-manifest', 'benchmark.json').message, /more than 64 levels deep/);
});

test('a 5 MB line is refused by size; a 200,000-character line under the cap is over-limit', () => {
  const big = folder({ 'chapter1.md': `## Start\n${'a'.repeat(5 * 1024 * 1024)}\n` });
  assert.match(only(check(big.dir, 1), 'unsafe-file', 'chapter1.md').message, /larger than the 1 MiB/);
  const long = folder({ 'chapter1.md': `## Start\n${'*a'.repeat(100_000)}\n` });
  const d = only(check(long.dir, 1), 'over-limit', 'chapter1.md');
  assert.equal(d.line, 2);
  assert.match(d.message, /200,000 characters long/);
});

test('blockquotes and lists nested 1,000 deep on one line are over-limit', () => {
  const { dir } = folder({ 'chapter1.md': `## Start\n${'> '.repeat(1000)}deep\n`, 'family.md': `# Family\n\n${'- '.repeat(1000)}x\n` });
  const diagnostics = check(dir, 1);
  assert.match(only(diagnostics, 'over-limit', 'chapter1.md').message, /1000 nested quotes or lists/);
  assert.match(only(diagnostics, 'over-limit', 'family.md').message, /nested quotes or lists/);
});

test('50,000 phases are all read (the parser is linear: this once took minutes)', () => {
  const phases = Array.from({ length: 50_000 }, (_, i) => `## Phase ${i}\nHi.\n`).join('');
  const { dir } = folder({ 'chapter1.md': `${CLEAN['chapter1.md']}${phases}` });
  const r = mmb(['check', '.', '--json', '--coverage'], dir);
  assert.equal(r.code, 0, r.stderr);
  const body = JSON.parse(r.stdout) as { diagnostics: unknown[]; coverage: { phases: number }[] };
  assert.deepEqual(body.diagnostics, []);
  assert.equal(body.coverage[0]?.phases, 50_001);
});

test('a 50 MB chapter is refused by its size before any of it is read', () => {
  const { dir } = folder();
  const fd = openSync(join(dir, 'chapter1.md'), 'w');
  ftruncateSync(fd, 50 * 1024 * 1024);
  closeSync(fd);
  assert.match(only(check(dir, 1), 'unsafe-file', 'chapter1.md').message, /larger than the 1 MiB/);
});

test('a BOM on benchmark.json, a sheet and a chapter is ignored, and columns count after it', () => {
  const manifest = '{ "chapters": ["chapter1.md"], "titel": "x" }';
  const { dir } = folder({
    'benchmark.json': `\uFEFF${manifest}`,
    'family.md': `\uFEFF${CLEAN['family.md']}`,
    'chapter1.md': `\uFEFF${CLEAN['chapter1.md']}`,
  });
  const diagnostics = check(dir, 0);
  const d = only(diagnostics, 'unknown-key', 'benchmark.json');
  assert.equal(d.column, manifest.indexOf('"titel"') + 1);
  assert.equal(diagnostics.length, 1);
});

test('an empty chapter list is an error, not a clean check', () => {
  const { dir } = folder({ 'benchmark.json': '{ "chapters": [] }' });
  assert.match(only(check(dir, 1), 'invalid-manifest', 'benchmark.json').message, /at least one chapter/);
});

test('a template amount of 99999999999999999999999 years is malformed-template', () => {
  const { dir } = folder({ 'chapter1.md': `${CLEAN['chapter1.md']}See you on {{FUTURE:99999999999999999999999:years}}.\n` });
  assert.match(only(check(dir, 1), 'malformed-template', 'chapter1.md').message, /more than 10,000 years/);
});

test('a sheet named __proto__.md (or constructor.md) is refused by name', () => {
  const { dir } = folder({ '__proto__.md': '# P\n\n## 1. x\n1.1 y\n', 'constructor.md': '# C\n' });
  const diagnostics = check(dir, 1);
  assert.match(only(diagnostics, 'unsafe-file', '__proto__.md').message, /reserved/);
  only(diagnostics, 'unsafe-file', 'constructor.md');
});

test('the folder named on the command line may be a link; config.jsonc linked out of its folder is refused', () => {
  const { root, dir } = folder();
  symlinkSync(dir, join(root, 'linked'));
  assert.deepEqual(check(root, 0, 'linked'), []);
  symlinkSync(join(root, 'outside.txt'), join(dir, 'config.jsonc'));
  const r = mmb(['check', 'config.jsonc', '--json'], dir);
  assert.equal(r.code, 1, r.stderr);
  assert.ok(!r.stdout.includes(CANARY));
  const d = (JSON.parse(r.stdout) as { diagnostics: JsonDiagnostic[] }).diagnostics;
  assert.deepEqual(
    d.map((x) => `${x.file} ${x.code}`),
    ['config.jsonc unsafe-file'],
  );
  const run = mmb(['run'], dir);
  assert.equal(run.code, 2, run.stdout + run.stderr);
  assert.match(run.stderr, /config\.jsonc is not read: it is a symbolic link that leads out of its folder/);
  assert.ok(!`${run.stdout}${run.stderr}`.includes(CANARY));
});

test('a rehearsal of a benchmark whose profile.md links out is refused, and results/ never holds its text', () => {
  const root = tempDir('mmb-hostile-run-');
  writeFileSync(join(root, 'outside.txt'), `${CANARY}\n`);
  const dir = join(root, 'benchmarks', 'starter');
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(STARTER)) writeFileSync(join(dir, name), readFileSync(join(STARTER, name)));
  const profile = join(dir, 'profile.md');
  const real = readFileSync(profile, 'utf8');
  unlinkSync(profile);
  symlinkSync(join(root, 'outside.txt'), profile);
  const r = mmb(['run', '--benchmark', 'starter', '--from', 'chapter1.md:1', '--only', '--rehearse'], root);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /profile\.md:1:1 unsafe-file/);
  assert.ok(!`${r.stdout}${r.stderr}`.includes(CANARY));
  assert.ok(!readAll(join(root, 'results')).includes(CANARY), 'the linked text reached results/');
  // The same folder with the real profile runs, so the refusal above is the link's doing.
  unlinkSync(profile);
  writeFileSync(profile, real);
  const ok = mmb(['run', '--benchmark', 'starter', '--from', 'chapter1.md:1', '--only', '--rehearse'], root);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
});

test('a template that still comes out as an invalid date stops the expansion with one line, never "NaN undefined NaN"', () => {
  const b = benchmarkFrom({
    'benchmark.json': '{ "chapters": ["chapter1.md"] }',
    'chapter1.md': '## Start\nSee you {{FUTURE:3:weeks}}.\n',
  });
  const order = playOrder(b);
  assert.deepEqual(expandTemplates(order, '2026-03-01 20:00'), { '{{FUTURE:3:weeks}}': '22 March 2026' });
  // What the checker refuses, forced past it: 10^20 weeks is past the end of JavaScript's dates.
  const template = order[0]!.phase.templates[0]!;
  (template as { amount: number }).amount = 1e20;
  assert.throws(
    () => expandTemplates(order, '2026-03-01 20:00'),
    (e: Error) => {
      assert.match(e.message, /^chapter1\.md:2: the date template \{\{FUTURE:3:weeks\}\} gives no valid date/);
      assert.ok(!/NaN|[\r\n]/.test(e.message));
      return true;
    },
  );
});

/** Every file under `dir`, concatenated; empty when the folder does not exist. */
function readAll(dir: string): string {
  let out = '';
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return '';
  }
  for (const name of names) {
    const path = join(dir, name);
    out += statSync(path).isDirectory() ? readAll(path) : readFileSync(path, 'utf8');
  }
  return out;
}
