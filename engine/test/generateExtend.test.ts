/**
 * A finished run goes on into the next month of its world: `mmb generate --extend` appends a month
 * to a generated folder and the run, started again on the same results folder, plays the new days
 * after the old ones (nothing replayed, nothing lost) and grades every check of both months.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadBenchmark } from '../../scenario/src';
import { FileRunStore } from '../src/run/store';
import { summarize } from '../src/report/summary';
import { readBenchmarkFolder } from '../src/workspace/folders';
import { mmb, runOnStandIn, tempDir } from './helpers';

/** Virtual time skips every wait at once: the test measures the run, not the clock. */
const FAST = { timeMaster: { minSleepToSkipMs: 0, preWakeDelayMs: 0, pollIntervalMs: 1 } };

test('a finished run of a generated month continues into the month --extend appends, and grades every check', async () => {
  const dir = tempDir('mmb-extend-');
  const spec = join(dir, 'small.jsonc');
  const small = { preset: 'month', topics: 3, factsPerTopic: 8, checkedFacts: 4, plainChecks: 2, days: 30 };
  writeFileSync(spec, JSON.stringify(small));
  assert.equal(mmb(['generate', 'world', '--spec', spec, '--seed', '5'], dir).code, 0);
  const folder = join(dir, 'benchmarks', 'world');
  const first = loadBenchmark(readBenchmarkFolder(folder));
  const runDir = join(dir, 'results', 'world-run');
  const month1 = await runOnStandIn(first, { dir: runDir, store: new FileRunStore(runDir), extra: FAST });
  assert.equal(month1.state.status, 'finished', month1.state.error);
  const graded1 = Object.keys(month1.state.grades).sort();
  const sent1 = month1.state.transcript.filter((entry) => entry.from === 'persona').length;

  const extended = mmb(['generate', '--extend', folder, '--months', '1'], dir);
  assert.equal(extended.code, 0, extended.stderr);
  const second = loadBenchmark(readBenchmarkFolder(folder));
  assert.ok(second.chapters.length > first.chapters.length, readFileSync(join(folder, 'benchmark.json'), 'utf8'));
  const month2 = await runOnStandIn(second, { dir: runDir, store: new FileRunStore(runDir), extra: FAST });
  assert.equal(month2.state.status, 'finished', month2.state.error);
  // The first month is not played again: its messages and grades stand as they were, and the new ones follow.
  const persona = month2.state.transcript.filter((entry) => entry.from === 'persona');
  assert.ok(persona.length > sent1);
  for (const id of graded1) assert.deepEqual(month2.state.grades[id], month1.state.grades[id], id);
  const summary = summarize(month2.state, second);
  assert.deepEqual(summary.coverage.missing, []);
  assert.ok(Object.keys(month2.state.grades).length > graded1.length);
  assert.ok(
    second.checks.some((located) => Number(located.check.id.split('.')[0]) > 30),
    'checks of the second month',
  );
});
