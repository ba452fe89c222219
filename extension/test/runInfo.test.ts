/** The run view's rows, the reasons of failed runs, check durations and the paid models, on plain values. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseConfig } from '../../scenario/src';
import type { RunView } from '../src/results';
import { checkDurations, failureFromLog, paidModels, runRow, stableOrder, whereLabel } from '../src/runInfo';

/** The engine's line for a missing key, after the run's name. */
const KEY_REASON =
  'persona: model "deepseek-v4-flash" needs an API key: set the environment variable DEEPSEEK_API_KEY ' +
  '(or, in VS Code, the command "MarathonMemBench: Set an API key…").';
const KEY_LOG = `rehearsal.phase-chapter3-1: starting\nmmb: run "rehearsal.phase-chapter3-1": ${KEY_REASON}\n`;

test("a missing key: the engine's own line without the run name, the variable to fill in, and that it could not start", () => {
  const f = failureFromLog('rehearsal.phase-chapter3-1', KEY_LOG, 2, '2026-12-01T10:00:00.000Z');
  assert.equal(f.reason, KEY_REASON);
  assert.equal(f.missingKey, 'DEEPSEEK_API_KEY');
  assert.equal(f.couldNotStart, true);
});

test('a crash is the last mmb: line, not a key problem; a silent engine still gets a reason; a reason is bounded', () => {
  const crash = failureFromLog(
    'r',
    'progress 1\nmmb: run "r" crashed: 401 from https://x/v1/chat/completions: bad key\nr finished\n',
    1,
    'now',
  );
  assert.equal(crash.reason, 'crashed: 401 from https://x/v1/chat/completions: bad key');
  assert.equal(crash.couldNotStart, false);
  assert.equal(crash.missingKey, undefined);
  assert.equal(failureFromLog('r', '', 2, 'now').reason, 'the engine ended with status 2 and wrote nothing');
  const notice = 'mmb: notice: run "r": its program runs without a sandbox: bwrap is not installed.\n';
  assert.equal(failureFromLog('r', `${notice}Error: boom\n`, 1, 'now').reason, 'Error: boom', 'a notice is never the reason');
  assert.equal(failureFromLog('r', `${notice}mmb: run "r" crashed: gone\n`, 1, 'now').reason, 'crashed: gone');
  assert.equal(failureFromLog('r', 'Error: boom\n', 1, 'now').reason, 'Error: boom');
  const long = failureFromLog('r', `mmb: ${'x'.repeat(5000)}`, 2, 'now');
  assert.equal(long.reason.length, 500);
  assert.ok(long.reason.endsWith('…'));
});

const view = (over: Partial<RunView>): RunView => ({
  name: 'r',
  benchmark: 'starter',
  agent: 'chatbot',
  status: 'finished',
  configured: true,
  average: 7.5,
  graded: 5,
  ...over,
});

test('rows: a failed start shows its reason until the run has newer events; statuses keep their icons and actions', () => {
  const failure = failureFromLog('r', KEY_LOG.replaceAll('rehearsal.phase-chapter3-1', 'r'), 2, '2026-12-01T10:00:00.000Z');
  const failed = runRow(view({ status: 'not started', average: null, graded: 0 }), failure);
  assert.equal(failed.status, 'could not start');
  assert.match(failed.description, /^could not start: persona: model "deepseek-v4-flash" needs an API key/);
  assert.equal(failed.contextValue, 'run-failed');
  assert.equal(failed.icon, 'warning');
  const later = runRow(view({ lastEventAt: '2026-12-01T11:00:00.000Z' }), failure);
  assert.equal(later.status, 'finished', 'a run that went since is not shown as failed');
  assert.equal(later.description, '7.50/10 · finished · 5 graded');
  assert.equal(later.contextValue, 'run-finished-results');
  const running = runRow(view({ status: 'running', chapter: 'chapter2.md', phase: 1, graded: 2 }), undefined);
  assert.equal(running.description, 'chapter2.md ph 1 · 2 graded');
  assert.equal(running.icon, 'sync~spin');
  assert.equal(runRow(view({ status: 'not started', average: null, graded: 0 }), undefined).contextValue, 'run-notstarted');
});

test('a finished run is not "now" anywhere', () => {
  assert.equal(whereLabel('finished', 'chapter3.md, phase 1'), 'Ended after chapter3.md, phase 1');
  assert.equal(whereLabel('running', 'chapter3.md, phase 1'), 'Now chapter3.md, phase 1');
});

test('the order of rows holds while runs go: configured first, the others by start, not by last event', () => {
  const views = [
    view({ name: 'b', configured: false, lastEventAt: '3' }),
    view({ name: 'conf' }),
    view({ name: 'a', configured: false, lastEventAt: '1' }),
  ];
  const started: Record<string, string> = { a: '2026-12-01T10:00:00Z', b: '2026-12-01T09:00:00Z' };
  assert.deepEqual(
    stableOrder(views, (n) => started[n]).map((v) => v.name),
    ['conf', 'a', 'b'],
  );
  // b's last event moves past a's: the order stays.
  views[0] = view({ name: 'b', configured: false, lastEventAt: '9' });
  assert.deepEqual(
    stableOrder(views, (n) => started[n]).map((v) => v.name),
    ['conf', 'a', 'b'],
  );
});

const grade = (at: string) => [
  { score: 5, effective: 5, attempt: 1 as const, answer: '', comment: '', at, position: { chapter: 'c.md', chapterIndex: 0, phase: 0 } },
];

test("check durations add up to the run's own time, not each the time since the start", () => {
  const state = {
    startedAt: '2026-12-01T10:00:00.000Z',
    activeMs: 9000,
    grades: { a: grade('2026-12-01T10:00:05.000Z'), b: grade('2026-12-01T10:00:07.000Z'), c: grade('2026-12-01T10:00:09.000Z') },
  };
  const durations = checkDurations(state);
  assert.deepEqual(
    [...durations],
    [
      ['a', 5000],
      ['b', 2000],
      ['c', 2000],
    ],
  );
  // Stopped for an hour in the middle: scaled to the 9 active seconds.
  const resumed = checkDurations({ ...state, grades: { ...state.grades, c: grade('2026-12-01T11:00:07.000Z') } });
  assert.equal([...resumed.values()].reduce((x, y) => x + y, 0) <= 9001, true);
});

test('the paid models a run calls; none for the stand-in', () => {
  const config = parseConfig(
    JSON.stringify({
      persona: { model: 'deepseek-v4-flash', base_url: 'https://api.deepseek.com/v1', api_key_env: 'DEEPSEEK_API_KEY' },
      runs: {
        real: { benchmark: 'starter', agent: 'chatbot', agent_model: { model: 'gpt-x', base_url: 'https://x/v1', api_key_env: 'X_KEY' } },
        rehearsal: { benchmark: 'starter', agent: 'chatbot' },
      },
    }),
  ).config;
  assert.deepEqual(paidModels(config, 'real'), ['persona deepseek-v4-flash', 'agent_model gpt-x']);
  const free = parseConfig(
    JSON.stringify({ persona: { model: 'stand-in' }, runs: { rehearsal: { benchmark: 'starter', agent: 'chatbot' } } }),
  ).config;
  assert.deepEqual(paidModels(free, 'rehearsal'), []);
});

test("a running run that waits on its agent says so in its row and tooltip: waiting for the agent's reply: 40 s of 300", () => {
  const waiting = "waiting for the agent's reply: 40 s of 300";
  const row = runRow(view({ status: 'running', chapter: 'chapter2.md', phase: 1, graded: 3, waiting }), undefined);
  assert.equal(row.description, `chapter2.md ph 1 · 3 graded · ${waiting}`);
  assert.ok(row.tooltip.includes(waiting));
});
