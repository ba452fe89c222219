/**
 * The stand-in note (report/standInNote.ts): one line, the same words in the terminal's closing lines,
 * report.md and the HTML report, for a run whose persona was the stand-in and for no other.
 * (The editor's run view: extension/test/runLabels.test.ts; `mmb run` and `mmb demo`: cli-init and cli-run tests.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { closingLines } from '../src/cli/runClosing';
import { renderRunReport, runView } from '../src/report/html';
import { reportEntry } from '../src/report/markdown';
import { computeTrends, groupName } from '../src/report/trends';
import { standInNote } from '../src/report/standInNote';
import { summarize } from '../src/report/summary';
import type { RunState } from '../src/state/runState';
import { reportMultiday as multiday, reportRun as run } from './helpers';

const NOTE =
  "A stand-in run: no model, so its scores show the benchmark at work, not an agent's quality. " +
  'The chatbot keeps nothing past a session switch, so its low scores after one are expected; ' +
  'the notebook keeps notes, and its scores show a memory at work. ' +
  'Next: mmb report chatbot-2 --html, then a real model (docs/real-model.md).';

const usage = { requests: 3, promptTokens: 10, completionTokens: 5 };
/** chatbot-2 (its persona on the stand-in) with its persona's usage under other model names. */
function withPersona(...models: string[]): RunState {
  const state = run('chatbot-2');
  state.usage = Object.fromEntries(models.map((model) => [model, { ...usage }]));
  return state;
}

test('the note: for a run whose persona was the stand-in (plain or chaos), never for a real model or a run with no request', () => {
  assert.equal(standInNote(run('chatbot-2')), NOTE);
  assert.equal(standInNote(withPersona('stand-in:chaos?rate=0.1&seed=1')), NOTE);
  assert.equal(standInNote(withPersona('deepseek-v4-flash')), undefined);
  assert.equal(standInNote(withPersona('stand-in', 'gpt-4o-mini')), undefined, 'a persona that was real for part of the run');
  assert.equal(standInNote(withPersona()), undefined);
  assert.doesNotMatch(NOTE, /\n/);
});

test('report.md and the HTML report carry the note once for a stand-in run, and not for a real one', () => {
  const when = new Date(2026, 0, 1, 9, 30);
  const standIn = reportEntry(summarize(run('chatbot-2'), multiday()), when);
  assert.equal(standIn.split('\n').filter((line) => line === `- 💡 ${NOTE}`).length, 1);
  const real = reportEntry(summarize(withPersona('deepseek-v4-flash'), multiday()), when);
  assert.doesNotMatch(real, /💡|stand-in run/);

  const html = renderRunReport(runView(run('chatbot-2'), multiday()), { nonce: 'x' });
  assert.equal(html.split(`<p class="note stand-in-note">💡 ${NOTE.replace("'", '&#39;')}</p>`).length - 1, 1);
  assert.doesNotMatch(renderRunReport(runView(withPersona('deepseek-v4-flash'), multiday()), { nonce: 'x' }), /stand-in-note/);
});

test("the terminal's closing lines: the report's path, then the note, or the HTML command for a real run", () => {
  const root = process.cwd();
  const standIn = summarize(run('chatbot-2'), multiday());
  const real = summarize(withPersona('deepseek-v4-flash'), multiday());
  assert.equal(closingLines(root, [standIn]), `Full entries: results/report.md\n${NOTE}\n`);
  assert.equal(closingLines(root, [real]), "Full entries: results/report.md; a run's HTML report: mmb report chatbot-2 --html\n");
  assert.equal(closingLines(root, []), '', 'no result, no closing lines');
  const other = { ...standIn, run: 'chatbot-9' };
  assert.match(
    closingLines(root, [standIn, other], { nextRun: 'chatbot-9', explanation: 'Why.' }),
    /^\nWhy\.\nFull entries: .*\n.* Next: mmb report chatbot-9 --html/,
  );
});

test('trends keep stand-in runs apart from real ones of the same benchmark and agent, and say which is which', () => {
  const real = (id: string) => ({ ...withPersona('deepseek-v4-flash'), run: id });
  const trends = computeTrends([run('chatbot-1'), real('real-1'), run('chatbot-2'), real('real-2')], () => ({ benchmark: multiday() }));
  assert.deepEqual(
    trends.groups.map((g) => [groupName(g), g.runs.map((r) => r.run)]),
    [
      ['multiday @ chatbot on the stand-in', ['chatbot-1', 'chatbot-2']],
      ['multiday @ chatbot', ['real-1', 'real-2']],
    ],
  );
});
