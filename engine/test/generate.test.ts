/**
 * Generated worlds as a whole: a world is valid and its answer audit is clean, on both shapes; the
 * same spec and seed give the same bytes; a world of two months starts with the one-month world's
 * chapters, byte for byte (what `--extend` relies on); two seeds give two worlds; the bundled month
 * is what its world.jsonc generates.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CHECK_TYPES, TRAP_TYPES } from '../../scenario/src';
import { auditBenchmark } from '../src/audit/answerAudit';
import { generateBenchmark } from '../src/generate';
import type { WorldSpec } from '../src/generate/model';
import { DEFAULT_SEED, parseWorldSpec } from '../src/generate/spec';
import { benchmarkFrom, ROOT } from './helpers';

const SPEC: WorldSpec = {
  topics: 4,
  factsPerTopic: 12,
  checkedFacts: 12,
  editsPerCheckedFact: 2,
  plainChecks: 4,
  traps: { RECONSIDER: 1, STALE: 1, 'SELF-FIX': 1, XREF: 1, CASCADE: 1, 'LATE-ADD': 1, RETIRE: 1 },
  checks: { RECALL: 2, AGG: 1, NEG: 1, VOID: 1, HIST: 1, SERIES: 1 },
  distance: { chapters: 3, sessionSwitches: 0 },
  filler: 0.3,
  shape: 'single-day',
  chapters: 12,
  days: 30,
  checksAt: ['exam', 'woven'],
  sessionSwitches: 2,
  offlineDays: 0.1,
  start: '2026-03-01 20:00',
};
const MONTH: WorldSpec = { ...SPEC, shape: 'multi-day', days: 30 };

const load = (files: ReadonlyMap<string, string>) => benchmarkFrom(Object.fromEntries(files));

for (const [name, spec] of [
  ['single-day', SPEC],
  ['multi-day', MONTH],
] as const)
  test(`a ${name} world validates, has every trap and check type, and its audit is clean`, async () => {
    const trapTypes = new Set<string>();
    const checkTypes = new Set<string>();
    for (const seed of [1, 2]) {
      const { files, summary } = generateBenchmark(spec, seed);
      const benchmark = load(files);
      assert.deepEqual(
        benchmark.diagnostics.map((d) => `${d.file}:${d.range.start.line + 1} ${d.code} ${d.message}`),
        [],
      );
      assert.equal(benchmark.checks.length, summary.checks);
      assert.equal(benchmark.traps.length, summary.traps);
      assert.ok(summary.checks >= 12 && summary.traps >= 12, JSON.stringify(summary));
      const audit = await auditBenchmark(benchmark);
      assert.deepEqual(
        audit.map((d) => `${d.file}:${d.range.start.line + 1} ${d.code} ${d.message}`),
        [],
      );
      for (const located of benchmark.traps) trapTypes.add(located.trap.type);
      for (const located of benchmark.checks) checkTypes.add(located.check.type ?? 'untyped');
    }
    assert.deepEqual([...trapTypes].sort(), Object.keys(TRAP_TYPES).sort());
    assert.deepEqual([...checkTypes].sort(), Object.keys(CHECK_TYPES).sort());
  });

test('the same spec and seed give the same bytes; another seed another world', () => {
  const first = generateBenchmark(MONTH, 7).files;
  const again = generateBenchmark(MONTH, 7).files;
  assert.deepEqual([...again], [...first]);
  const other = generateBenchmark(MONTH, 8).files;
  assert.notEqual(other.get('week2.md'), first.get('week2.md'));
});

test('a world of two months starts with the one-month world, byte for byte', () => {
  const one = generateBenchmark(MONTH, 3, 1).files;
  const two = generateBenchmark(MONTH, 3, 2).files;
  for (const [file, text] of one) {
    if (['README.md', 'benchmark.json', 'world.jsonc', 'week5.md'].includes(file)) continue;
    assert.equal(two.get(file), text, file);
  }
  assert.ok(two.has('week9.md'), [...two.keys()].join(' '));
  assert.match(two.get('benchmark.json') ?? '', /"week9\.md"/);
});

test('benchmarks/month is what its world.jsonc generates, byte for byte', () => {
  const folder = join(ROOT, 'benchmarks', 'month');
  const read = parseWorldSpec(readFileSync(join(folder, 'world.jsonc'), 'utf8'), 'world.jsonc');
  if ('error' in read) assert.fail(read.error);
  const { files } = generateBenchmark(read.spec, read.seed ?? DEFAULT_SEED, read.blocks);
  const fix = 'the generator changed: rm -r benchmarks/month && mmb generate month --preset month (seed 31)';
  assert.deepEqual(readdirSync(folder).sort(), [...files.keys()].sort(), fix);
  for (const [file, text] of files) assert.equal(readFileSync(join(folder, file), 'utf8'), text, `${file}: ${fix}`);
});
