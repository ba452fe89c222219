/**
 * `mmb run`'s result lines: ids of any length (60 characters here) keep the columns of every line in line, and no id
 * is cut; in process, and through the built CLI on the stand-in.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resultLines, type ResultFigures } from '../src/cli/resultLines';
import { mmb, workspace } from './helpers';

const figures = (average: number | null, seconds: number): ResultFigures => ({
  status: 'finished',
  average,
  coverage: { graded: 5, planned: 5, missing: [] },
  runTimeSeconds: seconds,
  runTimeMinutes: Math.round(seconds / 6) / 10,
});

const LONG_ID = `${'long-run-id-'.repeat(5)}`;

test('the id column is as wide as the longest id, 24 at least; the other columns stay in line', () => {
  assert.equal(LONG_ID.length, 60);
  assert.deepEqual(
    resultLines([
      { run: LONG_ID, summary: figures(5, 3) },
      { run: 'short', summary: { ...figures(null, 90), status: 'crashed' } },
    ]),
    [`${LONG_ID} finished  average 5.00/10  coverage 5/5  3 s`, `short${' '.repeat(55)} crashed   average —/10  coverage 5/5  1.5 min`],
  );
  assert.deepEqual(resultLines([{ run: 'rehearsal', summary: figures(2, 1) }]), [
    'rehearsal                finished  average 2.00/10  coverage 5/5  1 s',
  ]);
  assert.deepEqual(resultLines([]), []);
});

test('mmb run with a 60-character run id: its result line and the next one share their columns', () => {
  const dir = workspace({
    persona: { model: 'stand-in' },
    runs: { [LONG_ID]: { benchmark: 'starter', agent: 'chatbot' }, short: { benchmark: 'starter', agent: 'chatbot' } },
  });
  const r = mmb(['run'], dir);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const lines = r.stdout.split('\n').filter((line) => / finished +average /.test(line));
  assert.equal(lines.length, 2, r.stdout);
  assert.ok(
    lines.some((line) => line.startsWith(`${LONG_ID} finished`)),
    'the long id whole',
  );
  assert.deepEqual(
    lines.map((line) => line.indexOf(' finished')),
    [60, 60],
  );
});
