/** Progress: live bars on a terminal, plain lines in a log. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Progress } from '../src/cli/progress';
import { applyEvent, emptyState, type RunEvent } from '../src/state/runState';
import { starter } from './helpers';

function feed(progress: Progress): void {
  const state = emptyState();
  const events: RunEvent[] = [
    { type: 'start', at: '2026-01-01T00:00:00Z', run: 'r1', benchmark: 'starter', agent: 'chatbot', startTime: '2026-01-01 00:00', position: { chapter: 'chapter1.md', chapterIndex: 0, phase: 0 }, sheets: {}, templates: {} },
    { type: 'phase', at: '2026-01-01T00:00:01Z', callId: 'start', position: { chapter: 'chapter1.md', chapterIndex: 0, phase: 0 }, effects: [] },
    { type: 'usage', at: '2026-01-01T00:00:02Z', model: 'stand-in', promptTokens: 1500, completionTokens: 20 },
    { type: 'tool-done', at: '2026-01-01T00:00:03Z', callId: 'c1', name: 'log_evaluation', content: 'ok', effects: [{ kind: 'grade', checkId: '3.1', grade: { score: 10, effective: 10, attempt: 1, answer: 'a', comment: 'c', at: 'x', position: { chapter: 'chapter3.md', chapterIndex: 2, phase: 0 } } }] },
    { type: 'finish', at: '2026-01-01T00:00:04Z', status: 'finished' },
  ];
  progress.start('r1', starter());
  for (const e of events) {
    applyEvent(state, e);
    progress.event('r1', state, e);
  }
  progress.stop();
}

test('without a terminal, progress is plain lines', () => {
  let out = '';
  feed(new Progress((s) => { out += s; }, false));
  assert.equal(out, 'r1: started (3 chapters, 6 phases, 5 checks)\nr1: chapter1.md, phase 1\nr1: check 3.1 graded 10/10\nr1: finished\n');
});

test('on a terminal, progress is a bar per run, redrawn in place', () => {
  let out = '';
  feed(new Progress((s) => { out += s; }, true));
  // eslint-disable-next-line no-control-regex -- the terminal escapes are what is tested
  assert.match(out, /\x1b\[2Kr1 +█{24} phase 6\/6 {2}checks 1\/5 {2}1\.5k tok {2}done\n$/);
  assert.doesNotMatch(out, /started \(/);
});

test('a retry reads "retrying (n/m) in … s: <error>", the agent\'s marked as such; a journal of before the count says only "retrying"', () => {
  let out = '';
  const progress = new Progress((s) => { out += s; }, false);
  progress.start('r1', starter());
  const state = emptyState();
  const retries: RunEvent[] = [
    { type: 'retry', at: 'x', model: 'gpt-x', by: 'persona', error: '503 from http://h/v1/chat/completions: busy', retry: 2, retries: 7, delayMs: 4200 },
    { type: 'retry', at: 'x', model: 'agent-x', by: 'agent', error: '429 from http://a/v1/chat/completions: slow\ndown', retry: 1, retries: 7, delayMs: 250 },
    { type: 'retry', at: 'x', model: 'gpt-x', error: 'old error' },
  ];
  for (const e of retries) progress.event('r1', state, e);
  assert.deepEqual(out.split('\n').slice(1, 4), [
    'r1: model gpt-x retrying (2/7) in 4 s: 503 from http://h/v1/chat/completions: busy',
    "r1: the agent's model agent-x retrying (1/7) in 0.3 s: 429 from http://a/v1/chat/completions: slow down",
    'r1: model gpt-x retrying: old error',
  ]);
  let drawn = '';
  const live = new Progress((s) => { drawn += s; }, true, 200);
  live.start('r1', starter());
  live.event('r1', state, retries[0]!);
  live.stop();
  assert.match(drawn, /tok {2}retrying \(2\/7\) in 4 s: 503 from http:\/\/h\/v1\/chat\/completions: busy\n$/);
});
