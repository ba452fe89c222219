/**
 * The labels and states of runs as the user reads them (issue #33 item 8), on plain values: a
 * failure's notification says what happened in one word and carries the actions that fix it, with
 * the severity its row shows; a stored key offers *Start again*; a resumed run says "resuming",
 * never "stopped", until its engine reports; an average reads `2.00/10` in the runs index as
 * everywhere else.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { join } from 'node:path';
import { averageLabel, indexRow, readRunState, renderRunsIndex, runsIndex } from '../../engine/src/api';
import { REPORTS } from '../../engine/test/helpers';
import type { RunView } from '../src/results';
import { failureFromLog, ROW_ACTIONS, runRow, SEVERITY_ICONS, startWord } from '../src/runInfo';
import { ACTION, ActionError, errorToast, failureSeverity, failureToast, keyStoredToast } from '../src/toasts';

const KEY_LOG =
  'mmb: run "local-broken": agent_model: model "local" needs an API key: set the environment variable MMB_LOCAL_KEY ' +
  '(or, in VS Code, the command "MarathonMemBench: Set an API key…").\n';
const CRASH_LOG = 'local-broken: chapter1.md phase 1\nmmb: run "local-broken" crashed: 401 from http://127.0.0.1:9/v1: bad key\n';

const view = (over: Partial<RunView>): RunView => ({
  name: 'local-broken',
  benchmark: 'starter',
  agent: 'chatbot',
  status: 'not started',
  configured: true,
  average: null,
  graded: 0,
  ...over,
});

test('could not start: amber in the row and in the notification, with the key, the rehearsal, the config and the log', () => {
  const failure = failureFromLog('local-broken', KEY_LOG, 2, '2026-12-04T05:00:00.000Z');
  const toast = failureToast(failure, { configExists: true, configured: true, real: true });
  assert.equal(toast.severity, 'warning');
  assert.match(toast.text, /^local-broken could not start: agent_model: model "local" needs an API key/);
  assert.deepEqual(toast.actions, ['Set an API key…', 'Rehearse instead', 'Open config.jsonc'], 'three buttons show whole');
  const noKey = failureToast({ ...failure, missingKey: undefined }, { configExists: true, configured: true, real: true });
  assert.deepEqual(noKey.actions, ['Rehearse instead', 'Open config.jsonc', 'Open the log']);
  assert.deepEqual(toast.subject, { run: 'local-broken' });
  const row = runRow(view({}), failure);
  assert.equal(row.status, 'could not start');
  assert.deepEqual([row.icon, row.colour], ['warning', 'list.warningForeground']);
  assert.deepEqual(SEVERITY_ICONS[toast.severity], { icon: row.icon, colour: row.colour }, 'one severity for the row and the toast');
  // On the stand-in already, a rehearsal is no way forward: it is not offered.
  const standIn = failureToast({ ...failure, missingKey: undefined }, { configExists: false, configured: true, real: false });
  assert.deepEqual(standIn.actions, ['Open the log']);
});

test('a crash says "crashed" once, is red in the row and the notification, and offers to resume or start again', () => {
  const failure = failureFromLog('local-broken', CRASH_LOG, 1, '2026-12-04T05:00:00.000Z');
  const toast = failureToast(failure, { configExists: true, configured: true, real: true });
  assert.equal(toast.text, 'local-broken crashed: 401 from http://127.0.0.1:9/v1: bad key');
  assert.equal(toast.severity, 'error');
  assert.deepEqual(toast.actions, ['Resume', 'Open the log']);
  assert.deepEqual(failureToast(failure, { configExists: true, configured: false, real: true }).actions, ['Start again', 'Open the log']);
  assert.equal(
    failureToast({ ...failure, reason: 'Error: boom' }, { configExists: true, configured: true, real: true }).text,
    'local-broken crashed: Error: boom',
  );
  const row = runRow(view({ status: 'crashed', average: 2, graded: 1 }), failure);
  assert.deepEqual(SEVERITY_ICONS[failureSeverity(failure)], { icon: row.icon, colour: row.colour });
});

test('a stored key offers to start again the runs that could not start without it', () => {
  const lacking = failureFromLog('local-broken', KEY_LOG, 2, '2026-12-04T05:00:00.000Z');
  const other = { ...failureFromLog('other', 'mmb: boom\n', 2, '2026-12-04T05:01:00.000Z') };
  const toast = keyStoredToast('MMB_LOCAL_KEY', [other, lacking]);
  assert.equal(toast.text, 'MMB_LOCAL_KEY is stored; runs started from the editor get it. local-broken could not start without it.');
  assert.deepEqual(toast.actions, ['Start again']);
  assert.deepEqual(toast.runs, ['local-broken']);
  assert.deepEqual(keyStoredToast('OTHER_KEY', [lacking]).actions, [], 'nothing waits on another key');
});

test('a thrown error keeps its actions; any other error is amber with config.jsonc to open, never a bare red toast', () => {
  const own = errorToast(
    new ActionError('config.jsonc has no run of max', [ACTION.rehearse, ACTION.addRun], 'warning', { benchmark: 'max' }),
  );
  assert.deepEqual([own.severity, own.actions, own.subject], ['warning', ['Rehearse instead', 'Add a run…'], { benchmark: 'max' }]);
  const other = errorToast(new Error('boom'));
  assert.deepEqual([other.severity, other.text, other.actions], ['warning', 'boom', ['Open config.jsonc']]);
});

test("no red toast without actions: every error toast of the extension goes through notify.ts's showToast", () => {
  const src = join(import.meta.dirname, '..', 'src');
  const bare: string[] = [];
  for (const file of readdirSync(src).filter((f) => f.endsWith('.ts') && f !== 'notify.ts')) {
    readFileSync(join(src, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/\bshowErrorMessage\b/.test(line)) bare.push(`${file}:${i + 1}`);
      });
  }
  assert.deepEqual(bare, [], 'build the notification in toasts.ts (an ActionError, or errorToast) and show it with showToast');
});

test('after Resume the row says "resuming" until the engine reports; after Start, "starting"', () => {
  assert.equal(startWord({ kind: 'configured', run: 'r', start: 'resume' }, 'stopped'), 'resuming');
  assert.equal(startWord({ kind: 'configured', run: 'r', start: 'resume' }, 'not started'), 'starting');
  assert.equal(startWord({ kind: 'configured', run: 'r', start: 'restart' }, 'stopped'), 'starting');
  assert.equal(startWord({ kind: 'rehearsal', base: { benchmark: 'max' } }, undefined), 'starting');
  const stopped = view({ status: 'stopped', average: 5, graded: 2, chapter: 'chapter2.md', phase: 1 });
  const resuming = runRow(stopped, undefined, 'resuming');
  assert.equal(resuming.status, 'resuming');
  assert.equal(resuming.description, 'resuming · 5.00/10');
  assert.equal(resuming.icon, 'loading~spin');
  assert.ok(!resuming.tooltip.join('\n').includes('Stopped'), 'nothing says stopped while it resumes');
  assert.deepEqual(ROW_ACTIONS.resuming, ['log']);
  assert.equal(runRow({ ...stopped, status: 'running' }, undefined, 'resuming').status, 'running', 'the lock taken, the engine reports');
  assert.equal(runRow(view({}), undefined).status, 'not started', 'no engine starting: the run as it is');
});

test('an average reads 2.00/10 in the run view, the panel and the runs index alike', () => {
  assert.deepEqual([averageLabel(2), averageLabel(7.456), averageLabel(null)], ['2.00/10', '7.46/10', '—']);
  assert.equal(runRow(view({ status: 'finished', average: 2, graded: 3 }), undefined).description, '2.00/10 · finished · 3 graded');
  const fixture = readRunState(join(REPORTS, 'runs', 'chatbot-1'))!;
  // Every grade 2: the run's average is a whole number, which the index once showed bare.
  const grades = Object.fromEntries(
    Object.entries(fixture.grades).map(([id, g]) => [id, g.map((x) => ({ ...x, score: 2, effective: 2 }))]),
  );
  const html = renderRunsIndex(runsIndex([indexRow('chatbot-1', { ...fixture, grades }, 'finished', undefined)]), { nonce: 'n' });
  assert.match(html, />2\.00\/10</, 'the index says 2.00/10');
  assert.doesNotMatch(html, /class="grade g-[a-z]+">2</, 'not a bare "2"');
});
