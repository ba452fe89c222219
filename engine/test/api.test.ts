/**
 * The engine's api as the editor uses it: run requests survive the trip through `mmb run`'s
 * parser, the score bands and the pass score agree everywhere, the JSONL reader tells a cut line
 * from damage, and webview messages are accepted in their declared shapes only.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import {
  benchmarkFolderOf,
  DEFAULT_PASS_SCORE,
  findBenchmarkFolders,
  OPEN_SOURCE,
  parseJsonLines,
  parsePanelMessage,
  parseReportMessage,
  passes,
  requestedRunName,
  runArguments,
  scoreBand,
  validPassScore,
  type RunRequest,
} from '../src/api';
import { runCommandInput } from '../src/cli/main';
import { usageText } from '../src/cli/helpText';
import { COMMANDS } from '../src/cli/options';
import { parseArguments } from '../src/cli/parseArguments';
import type { RunCommandInput } from '../src/cli/run';

const CWD = '/work/space';
const CONFIG = resolve(CWD, 'config.jsonc');

test("every run request the editor makes parses back, through mmb run's own parser, to what it asked", () => {
  const cases: [RunRequest, Omit<RunCommandInput, 'configPath'>, string][] = [
    [{ kind: 'configured', run: 'chatbot-1', start: 'resume' }, { ids: ['chatbot-1'], restart: false }, 'chatbot-1'],
    [{ kind: 'configured', run: 'chatbot-1', start: 'restart' }, { ids: ['chatbot-1'], restart: true }, 'chatbot-1'],
    [
      { kind: 'partial', base: { run: 'notes' }, from: { chapter: 'chapter2.md', phase: 3 }, scope: 'phase-only', mode: 'real' },
      { ids: ['notes'], restart: false, partial: { from: 'chapter2.md:3', only: true, rehearse: false } },
      'notes.phase-chapter2-3',
    ],
    [
      { kind: 'partial', base: { run: 'notes' }, from: { chapter: 'week1.md', phase: 1 }, scope: 'to-end', mode: 'rehearsal' },
      { ids: ['notes'], restart: false, partial: { from: 'week1.md:1', only: false, rehearse: true } },
      'notes.from-week1-1.rehearsal',
    ],
    [
      {
        kind: 'partial',
        base: { benchmark: 'starter' },
        from: { chapter: 'chapter1.md', phase: 2 },
        scope: 'phase-only',
        mode: 'rehearsal',
      },
      { ids: [], restart: false, partial: { from: 'chapter1.md:2', only: true, rehearse: true, benchmark: 'starter' } },
      'starter.phase-chapter1-2.rehearsal',
    ],
    [
      { kind: 'rehearsal', base: { benchmark: 'max' } },
      { ids: [], restart: false, partial: { only: false, rehearse: true, benchmark: 'max' } },
      'max.rehearsal',
    ],
    [
      { kind: 'rehearsal', base: { run: 'notes' } },
      { ids: ['notes'], restart: false, partial: { only: false, rehearse: true } },
      'notes.rehearsal',
    ],
  ];
  for (const [request, expected, name] of cases) {
    const args = runArguments(request);
    assert.deepEqual(runCommandInput(parseArguments(['run', ...args]), CWD), { ...expected, configPath: CONFIG }, args.join(' '));
    assert.equal(requestedRunName(request), name);
  }
});

test("mmb's option table: run declares every option a request uses, values are never taken for words, the usage lists them", () => {
  const run = COMMANDS.find((c) => c.name === 'run')!;
  const used = new Set(
    runArguments({ kind: 'partial', base: { benchmark: 'b' }, from: { chapter: 'c.md', phase: 1 }, scope: 'phase-only', mode: 'rehearsal' })
      .concat(runArguments({ kind: 'configured', run: 'r', start: 'restart' }))
      .concat(runArguments({ kind: 'rehearsal', base: { benchmark: 'b' } }))
      .filter((a) => a.startsWith('--')),
  );
  for (const option of used)
    assert.ok(
      run.options.some((o) => o.name === option),
      option,
    );
  assert.deepEqual(parseArguments(['run', '--from', 'x.md:1', 'a', '--benchmark', 'b']).words, ['a']);
  assert.deepEqual(parseArguments(['experiment', 'filing', '--seed', '7']).words, ['filing']);
  assert.throws(() => parseArguments(['run', '--html']), /^Error: unknown option --html for run\. See `mmb run --help`\.$/);
  assert.throws(() => parseArguments(['report', '--out']).option('--out'), /--out needs a value, as in --out /);
  for (const command of COMMANDS) for (const option of command.options) assert.ok(usageText().includes(option.name), option.name);
});

test('score bands: good from the pass score, fair from half of it, poor below; a check passes exactly when good', () => {
  assert.equal(DEFAULT_PASS_SCORE, 8);
  assert.deepEqual(
    [10, 8, 7.5, 4, 3.5, 0].map((s) => scoreBand(s)),
    ['good', 'good', 'fair', 'fair', 'poor', 'poor'],
  );
  assert.deepEqual(
    [10, 6, 5, 3, 2].map((s) => scoreBand(s, 6)),
    ['good', 'good', 'fair', 'fair', 'poor'],
  );
  for (const pass of [0, 5, 8, 10]) for (let s = 0; s <= 10; s += 0.5) assert.equal(passes(s, pass), scoreBand(s, pass) === 'good');
  assert.equal(passes(7.5, 7), true);
  assert.deepEqual([7, 0, 10, 11, -1, Number.NaN, '9', undefined].map(validPassScore), [7, 0, 10, 8, 8, 8, 8, 8]);
});

test('JSONL: a last line cut by a kill is dropped without a word; a bad line before it is named and the rest still read', () => {
  assert.deepEqual(parseJsonLines('{"a":1}\n{"a":2}\n{"a":'), {
    entries: [
      { line: 1, value: { a: 1 } },
      { line: 2, value: { a: 2 } },
    ],
  });
  assert.deepEqual(parseJsonLines('{"a":1}\n{"a":\n').entries.length, 1);
  assert.equal(parseJsonLines('{"a":1}\n{"a":\n').damaged, undefined);
  const damaged = parseJsonLines<{ a: number }>('{"a":1}\nnot json\n\n{"a":3}\n');
  assert.equal(damaged.damaged?.line, 2);
  assert.deepEqual(
    damaged.entries.map((e) => [e.line, e.value.a]),
    [
      [1, 1],
      [4, 3],
    ],
  );
  assert.deepEqual(parseJsonLines(''), { entries: [] });
});

test('webview messages: the shapes the panel and the report pages post are accepted, anything else is not', () => {
  assert.deepEqual(parsePanelMessage({ type: 'ready' }), { type: 'ready' });
  assert.deepEqual(parsePanelMessage({ type: 'stop', run: 'a' }), { type: 'stop', run: 'a' });
  assert.deepEqual(parsePanelMessage({ type: 'select', run: 'a', extra: 1 }), { type: 'select', run: 'a' });
  assert.deepEqual(parsePanelMessage({ type: 'cause', check: '2.1' }), { type: 'cause', check: '2.1' });
  assert.deepEqual(parsePanelMessage({ type: 'compare', run: '' }), { type: 'compare' });
  for (const bad of [
    null,
    'stop',
    { type: 'stop' },
    { type: 'stop', run: 3 },
    { type: 'delete', run: 'a' },
    { type: 'cause' },
    { type: 'log', run: 'x'.repeat(1001) },
  ]) {
    assert.equal(parsePanelMessage(bad), undefined, JSON.stringify(bad));
  }
  assert.equal(OPEN_SOURCE, 'mmb.openSource');
  assert.deepEqual(parseReportMessage({ type: OPEN_SOURCE, file: 'benchmarks/a/c.md', line: 4 }), {
    type: OPEN_SOURCE,
    file: 'benchmarks/a/c.md',
    line: 4,
  });
  assert.deepEqual(parseReportMessage({ type: OPEN_SOURCE, file: 'benchmarks/a/c.md', line: -2 }), {
    type: OPEN_SOURCE,
    file: 'benchmarks/a/c.md',
    line: 1,
  });
  assert.equal(parseReportMessage({ type: OPEN_SOURCE, line: 4 }), undefined);
  assert.equal(parseReportMessage({ type: 'other', file: 'a' }), undefined);
});

test('one rule for played benchmarks: benchmarks/<name>/ with a benchmark.json file, for folders and for the files in them', () => {
  const root = mkdtempSync(join(tmpdir(), 'mmb-folders-'));
  for (const dir of ['benchmarks/alpha', 'benchmarks/beta', 'benchmarks/alpha/nested', 'copies/alpha'])
    mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, 'benchmarks/alpha/benchmark.json'), '{}');
  writeFileSync(join(root, 'copies/alpha/benchmark.json'), '{}');
  mkdirSync(join(root, 'benchmarks/gamma/benchmark.json'), { recursive: true });
  assert.deepEqual(findBenchmarkFolders(root), [join(root, 'benchmarks/alpha')]);
  assert.equal(benchmarkFolderOf(root, join(root, 'benchmarks/alpha/chapter1.md')), join(root, 'benchmarks/alpha'));
  assert.equal(benchmarkFolderOf(root, join(root, 'benchmarks/alpha/nested/notes.md')), join(root, 'benchmarks/alpha'));
  for (const file of [
    'benchmarks/beta/chapter1.md',
    'benchmarks/gamma/benchmark.json/x.md',
    'copies/alpha/chapter1.md',
    'benchmarks/readme.md',
    '../elsewhere/benchmarks/alpha/c.md',
  ]) {
    assert.equal(benchmarkFolderOf(root, join(root, file)), undefined, file);
  }
});
