/**
 * The one rule of full and partial runs (state/partialRule.ts) and every surface that says "partial": a
 * rehearsal of a whole benchmark (`--benchmark <name> --rehearse`, or `--from` its first phase) is full in
 * its state, summary.json, report.md, the runs index (data and HTML), trends, compare and `mmb report`'s
 * list; a run from a later phase is partial in each. The editor's side: extension/test/partialRuns.test.ts.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { main } from '../src/cli/main';
import type { Io } from '../src/cli/run';
import { isPartialRun, isPartialState } from '../src/state/partialRule';
import { FileRunStore } from '../src/run/store';
import type { RunState } from '../src/state/runState';
import { describeRun } from '../src/report/compare';
import { computeTrends } from '../src/report/trends';
import { indexRow, renderRunsIndex, runsIndex } from '../src/report/html';
import { starter, workspace } from './helpers';

/** `mmb` in this process: its exit status and what it printed. */
async function mmbHere(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { out: (s) => (out += s), err: (s) => (err += s), tty: false, env: {} };
  const code = await main(args, cwd, io);
  return { code, out, err };
}

const stateOf = (dir: string, id: string): RunState => new FileRunStore(join(dir, 'results', id)).load()!;

test('isPartialRun: full from the first phase to the last with no filter, partial otherwise', () => {
  const cases: [Parameters<typeof isPartialRun>[0], boolean][] = [
    [{}, false],
    [{ phases: { from: 0 } }, false],
    [{ phases: { from: 0, to: 6 } }, false],
    [{ phases: { from: 0, to: 5 } }, true],
    [{ phases: { from: 1 } }, true],
    [{ phases: { from: 3, to: 3 } }, true],
    [{ phases: { from: 0 }, filter: 'HIST' }, true],
    [{ filter: 'chapter1' }, true],
  ];
  assert.deepEqual(
    cases.map(([selection]) => isPartialRun(selection, 7)),
    cases.map(([, partial]) => partial),
  );
  assert.equal(isPartialRun({ phases: { from: 0, to: 0 } }, 1), false, 'the one phase of a one-phase benchmark is all of it');
  assert.equal(isPartialState({}), false);
  assert.equal(isPartialState({ filter: 'HIST' }), true);
});

test('a whole-benchmark rehearsal is a full run wherever the word appears; a run from a later phase is partial', async () => {
  const dir = workspace({ persona: { model: 'stand-in' }, runs: {} });
  const whole = await mmbHere(['run', '--benchmark', 'starter', '--rehearse'], dir);
  assert.equal(whole.code, 0, whole.err);
  assert.match(whole.out, /^starter\.rehearsal +finished +average [\d.]+\/10 +coverage 5\/5 /m);
  const first = await mmbHere(['run', '--benchmark', 'starter', '--from', 'chapter1.md:1', '--rehearse'], dir);
  assert.equal(first.code, 0, first.err);
  const later = await mmbHere(['run', '--benchmark', 'starter', '--from', 'chapter2.md:1', '--rehearse'], dir);
  assert.equal(later.code, 0, later.err);
  const ids = ['starter.rehearsal', 'starter.from-chapter1-1.rehearsal', 'starter.from-chapter2-1.rehearsal'];
  const states = ids.map((id) => stateOf(dir, id));
  const expected = [false, false, true];

  assert.deepEqual(
    states.map((s) => s.phases !== undefined),
    expected,
    'the start journals a phase range for a partial run only',
  );
  assert.deepEqual(states.map(isPartialState), expected);
  const summaries = ids.map((id) => JSON.parse(readFileSync(join(dir, 'results', id, 'summary.json'), 'utf8')) as { partial?: unknown });
  assert.deepEqual(
    summaries.map((s) => s.partial !== undefined),
    expected,
  );
  assert.deepEqual(
    states.map((s) => describeRun(s).partial),
    expected,
    'compare',
  );
  const rows = ids.map((id, i) => indexRow(id, states[i]!, 'finished', starter()));
  assert.deepEqual(
    rows.map((r) => r.partial),
    expected,
    'the runs index',
  );
  const page = renderRunsIndex(runsIndex(rows), { nonce: 'x' });
  assert.equal(page.split('>partial<').length - 1, 1, 'one partial tag on the index page: the run from chapter 2');

  const trends = computeTrends(states, () => ({ benchmark: starter() }));
  assert.deepEqual(
    trends.groups.flatMap((g) => g.runs.map((r) => r.run)),
    ids.slice(0, 2),
    'trends count both full rehearsals',
  );
  assert.deepEqual(
    trends.skipped.map((s) => s.run),
    [ids[2]],
  );

  const report = readFileSync(join(dir, 'results', 'report.md'), 'utf8');
  assert.equal(report.split('🧩 Partial run').length - 1, 1, 'report.md marks only the run from chapter 2');
  assert.match(report, /🧩 Partial run: chapter2\.md:1 to chapter3\.md:\d/);
  const list = await mmbHere(['report'], dir);
  assert.equal(list.code, 0, list.err);
  assert.deepEqual(
    ids.map((id) => new RegExp(`^${id.replace(/\./g, '\\.')} .* partial *$`, 'm').test(list.out)),
    expected,
    '`mmb report` lists only the run from chapter 2 as partial',
  );

  assert.ok(existsSync(join(dir, 'results', 'starter.rehearsal', 'run.json')), 'the whole rehearsal keeps its settings');
  const again = await mmbHere(['run', 'starter.rehearsal'], dir);
  assert.equal(again.code, 0, again.err);
  assert.match(again.out, /^starter\.rehearsal: finished already/m, 'and resumes by its name');
});

test('--rehearse alone needs a run or a benchmark, and --benchmark alone still needs --rehearse', async () => {
  const dir = workspace({ persona: { model: 'stand-in' }, runs: { a: { benchmark: 'starter', agent: 'chatbot' } } });
  const bare = await mmbHere(['run', '--rehearse'], dir);
  assert.equal(bare.code, 2);
  assert.match(
    bare.err,
    /^mmb: --rehearse needs the run to take the agent from: mmb run <run-id> --rehearse \(or --benchmark <name> --rehearse\)\.$/m,
  );
  const real = await mmbHere(['run', '--benchmark', 'starter'], dir);
  assert.equal(real.code, 2);
  assert.match(real.err, /add --rehearse, or name a run/);
  const ofRun = await mmbHere(['run', 'a', '--rehearse'], dir);
  assert.equal(ofRun.code, 0, ofRun.err);
  assert.match(ofRun.out, /^a\.rehearsal +finished +average [\d.]+\/10 +coverage 5\/5 /m);
});
