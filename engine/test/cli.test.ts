/** `mmb check` as users run it: the built CLI in a child process, on fixture folders. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DIAGNOSTIC_CODES, type DiagnosticCode } from '../../scenario/src';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const WORKSPACE = join(__dirname, 'fixtures', 'workspace');

function mmb(args: string[], cwd = WORKSPACE) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface JsonDiagnostic {
  folder: string;
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: string;
  code: string;
  message: string;
  related?: { file: string; line: number }[];
}

/** Every planted diagnostic, at the line where the fixture plants it. */
const PLANTED = [
  'benchmark.json:3 missing-chapter',
  'benchmark.json:4 missing-sheet',
  'benchmark.json:6 invalid-manifest',
  'benchmark.json:7 unknown-key',
  'car.md:1 sheet-never-told',
  'chapter1.md:2 outside-phase',
  'chapter1.md:6 unknown-sheet',
  'chapter1.md:8 unknown-sheet',
  'chapter1.md:8 unknown-sheet',
  'chapter1.md:8 unknown-fact',
  'chapter1.md:9 malformed-template',
  'chapter1.md:13 unknown-bench-api',
  'chapter1.md:16 js-block-not-first',
  'chapter1.md:22 js-syntax-error',
  'chapter2.md:4 malformed-check',
  'chapter2.md:5 malformed-check',
  'chapter2.md:6 unknown-check-type',
  'chapter2.md:7 malformed-trap',
  'chapter2.md:8 unknown-trap-type',
  'chapter2.md:9 trap-target-missing',
  'chapter2.md:12 malformed-time-anchor',
  'chapter2.md:13 malformed-time-anchor',
  'chapter2.md:15 time-anchor-order',
  'chapter2.md:16 trap-target-before-write',
  'chapter3.md:5 duplicate-check-id',
  'chapter3.md:6 duplicate-check-id',
  'chapter3.md:6 hist-without-trap',
  'chapter4.md:1 unlisted-chapter',
  'family.md:4 duplicate-fact-id',
  'family.md:6 duplicate-fact-id',
  'family.md:10 malformed-fact-line',
];

/** The last line of `mmb check` on the planted folder, counted from `PLANTED` by each code's severity in its table row. */
function plantedCountLine(): string {
  const severities = PLANTED.map((entry) => DIAGNOSTIC_CODES[entry.split(' ')[1] as DiagnosticCode].severity);
  const count = (severity: string) => {
    const n = severities.filter((s) => s === severity).length;
    return `${n} ${severity}${n === 1 ? '' : 's'}`;
  };
  return `benchmarks/planted: ${count('error')}, ${count('warning')}`;
}

test('every planted diagnostic is reported with its code at its line, and the exit status is 1', () => {
  const r = mmb(['check', 'benchmarks/planted', '--json']);
  assert.equal(r.code, 1, r.stderr);
  const { diagnostics } = JSON.parse(r.stdout) as { diagnostics: JsonDiagnostic[] };
  assert.deepEqual(
    diagnostics.map((d) => `${d.file}:${d.line} ${d.code}`),
    PLANTED,
  );
  for (const d of diagnostics) {
    assert.equal(d.folder, 'benchmarks/planted');
    assert.ok(d.line >= 1 && d.column >= 1 && (d.endLine > d.line || (d.endLine === d.line && d.endColumn >= d.column)), JSON.stringify(d));
    assert.ok(['error', 'warning'].includes(d.severity));
    assert.ok(d.message.length > 20);
  }
  const dup = diagnostics.find((d) => d.code === 'duplicate-check-id' && d.line === 6);
  assert.deepEqual(
    dup?.related?.map((x) => `${x.file}:${x.line}`),
    ['chapter3.md:5'],
  );
  assert.deepEqual([dup?.column, dup?.endColumn], [3, 6]);
});

test('human output reads like a compiler: file:line:col severity code message', () => {
  const r = mmb(['check', 'benchmarks/planted']);
  assert.equal(r.code, 1);
  const lines = r.stdout.trim().split('\n');
  assert.ok(
    lines.includes(
      'benchmarks/planted/chapter2.md:9:28 error trap-target-missing This trap aims at check 3.9, but no check has that id: ' +
        'add `❓ 3.9 …` where the value is asked, or fix the id. Did you mean `3.1`?',
    ),
    r.stdout,
  );
  assert.ok(
    lines.includes(
      'benchmarks/planted/car.md:1:1 warning sheet-never-told No phase names the `car` sheet, so the persona never tells it: ' +
        'add "tell the `car` sheet" to a phase, or remove the file.',
    ),
  );
  assert.equal(lines.at(-1), plantedCountLine());
});

test('the clean fixture has zero diagnostics and exits 0', () => {
  const r = mmb(['check', 'benchmarks/clean/']);
  assert.equal(r.code, 0, r.stdout);
  assert.equal(r.stdout, 'benchmarks/clean: 0 errors, 0 warnings\n');
  assert.deepEqual(JSON.parse(mmb(['check', '--json', 'benchmarks/clean']).stdout), { diagnostics: [] });
});

test('with no folder given, every benchmark of the workspace and config.jsonc are checked', () => {
  const r = mmb(['check', '--json']);
  assert.equal(r.code, 1);
  const { diagnostics } = JSON.parse(r.stdout) as { diagnostics: JsonDiagnostic[] };
  assert.equal(diagnostics.filter((d) => d.folder === 'benchmarks/planted').length, PLANTED.length);
  assert.deepEqual(
    diagnostics.filter((d) => d.file === 'config.jsonc').map((d) => [d.line, d.code, d.message.includes('Did you mean `planted`?')]),
    [[6, 'invalid-config', true]],
  );
});

test('--coverage prints facts, told sheets, checks and traps by type, and trap distances', () => {
  const r = mmb(['check', 'benchmarks/clean', '--coverage']);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /Coverage of clean: 3 chapters, 4 phases/);
  assert.match(r.stdout, /profile +3 facts +day1\.md:5 "Evening"/);
  assert.match(r.stdout, /Checks: 7 +RECALL 2 · AGG 1 · NEG 1 · VOID 1 · HIST 1 · SERIES 1/);
  assert.match(r.stdout, /Traps: 7 +RECONSIDER 1 · STALE 1 · SELF-FIX 1 · XREF 1 · CASCADE 1 · LATE-ADD 1 · RETIRE 1/);
  assert.match(r.stdout, /day2\.md:4 +SELF-FIX +runs#1\.2 → 9\.2 \(1 chapter later, across a session switch\)/);
  const json = JSON.parse(mmb(['check', 'benchmarks/clean', '--coverage', '--json']).stdout);
  assert.equal(json.coverage[0].traps.list[0].checks[0].sessionSwitch, true);
  assert.equal(json.coverage[0].sheets.find((s: { name: string }) => s.name === 'runs').facts, 4);
});

test('usage errors and unreadable folders exit 2 with one clear line, no stack trace', () => {
  const empty = mkdtempSync(join(tmpdir(), 'mmb-'));
  mkdirSync(join(empty, 'notes'));
  writeFileSync(join(empty, 'file.md'), '# x');
  const cases: [string[], RegExp][] = [
    [['check', 'nowhere'], /^mmb: cannot read nowhere: no such file or folder$/],
    [['check', 'notes'], /^mmb: notes is not a benchmark folder: it has no benchmark\.json\.$/],
    [['check', 'file.md'], /^mmb: file\.md is not a folder/],
    [['check'], /^mmb: nothing to check in /],
    [['check', '--jsn'], /^mmb: unknown option --jsn for check\. Did you mean `--json`\? See `mmb check --help`\.$/],
    [['frobnicate'], /^mmb: unknown command "frobnicate"\. See `mmb --help`\.$/],
  ];
  for (const [args, message] of cases) {
    const r = mmb(args, empty);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr.split('\n')[0] ?? '', message);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, `${args.join(' ')}: one line`);
  }
});

test('the README quick start: npm run mmb -- check benchmarks/starter is clean', () => {
  const r = spawnSync('npm', ['run', '-s', 'mmb', '--', 'check', 'benchmarks/starter'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.equal(r.stdout, 'benchmarks/starter: 0 errors, 0 warnings\n');
});

test('every bundled benchmark passes its own check', () => {
  const r = mmb(['check', '--json'], ROOT);
  const { diagnostics } = JSON.parse(r.stdout) as { diagnostics: JsonDiagnostic[] };
  assert.deepEqual(diagnostics, []);
  assert.equal(r.code, 0);
});
