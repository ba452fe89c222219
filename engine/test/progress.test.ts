/** Progress: live bars on a terminal, plain lines in a log. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Progress } from '../src/cli/progress';
import { applyEvent, emptyState, type RunEvent } from '../src/state/runState';
import { starter } from './helpers';

function feed(progress: Progress): void {
  const state = emptyState();
  const events: RunEvent[] = [
    {
      type: 'start',
      at: '2026-01-01T00:00:00Z',
      run: 'r1',
      benchmark: 'starter',
      agent: 'chatbot',
      startTime: '2026-01-01 00:00',
      position: { chapter: 'chapter1.md', chapterIndex: 0, phase: 0 },
      sheets: {},
      templates: {},
    },
    {
      type: 'phase',
      at: '2026-01-01T00:00:01Z',
      callId: 'start',
      position: { chapter: 'chapter1.md', chapterIndex: 0, phase: 0 },
      effects: [],
    },
    { type: 'usage', at: '2026-01-01T00:00:02Z', model: 'stand-in', promptTokens: 1500, completionTokens: 20 },
    {
      type: 'tool-done',
      at: '2026-01-01T00:00:03Z',
      callId: 'c1',
      name: 'log_evaluation',
      content: 'ok',
      effects: [
        {
          kind: 'grade',
          checkId: '3.1',
          grade: {
            score: 10,
            effective: 10,
            attempt: 1,
            answer: 'a',
            comment: 'c',
            at: 'x',
            position: { chapter: 'chapter3.md', chapterIndex: 2, phase: 0 },
          },
        },
      ],
    },
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
  feed(
    new Progress(
      (s) => {
        out += s;
      },
      { terminal: false },
    ),
  );
  assert.equal(out, 'r1: started (3 chapters, 6 phases, 5 checks)\nr1: chapter1.md, phase 1\nr1: check 3.1 graded 10/10\nr1: finished\n');
});

test('on a terminal, progress is a bar per run, redrawn in place', () => {
  let out = '';
  feed(
    new Progress(
      (s) => {
        out += s;
      },
      { terminal: true, width: 100 },
    ),
  );
  // eslint-disable-next-line no-control-regex -- the terminal escapes are what is tested
  assert.match(out, /\x1b\[2Kr1 +█{24} phase 6\/6 {2}checks 1\/5 {2}1\.5k tok {2}finished\n$/);
  assert.doesNotMatch(out, /started \(/);
});

test('a retry reads "retrying (n/m) in … s: <error>", the agent\'s marked so; a journal from before the count says "retrying"', () => {
  let out = '';
  const progress = new Progress(
    (s) => {
      out += s;
    },
    { terminal: false },
  );
  progress.start('r1', starter());
  const state = emptyState();
  const retries: RunEvent[] = [
    {
      type: 'retry',
      at: 'x',
      model: 'gpt-x',
      by: 'persona',
      error: '503 from http://h/v1/chat/completions: busy',
      retry: 2,
      retries: 7,
      delayMs: 4200,
    },
    {
      type: 'retry',
      at: 'x',
      model: 'agent-x',
      by: 'agent',
      error: '429 from http://a/v1/chat/completions: slow\ndown',
      retry: 1,
      retries: 7,
      delayMs: 250,
    },
    { type: 'retry', at: 'x', model: 'gpt-x', error: 'old error' },
  ];
  for (const e of retries) progress.event('r1', state, e);
  assert.deepEqual(out.split('\n').slice(1, 4), [
    'r1: model gpt-x retrying (2/7) in 4 s: 503 from http://h/v1/chat/completions: busy',
    "r1: the agent's model agent-x retrying (1/7) in 0.3 s: 429 from http://a/v1/chat/completions: slow down",
    'r1: model gpt-x retrying: old error',
  ]);
  let drawn = '';
  const live = new Progress(
    (s) => {
      drawn += s;
    },
    { terminal: true, width: 200 },
  );
  live.start('r1', starter());
  live.event('r1', state, retries[0]!);
  live.stop();
  assert.match(drawn, /tok {2}retrying \(2\/7\) in 4 s: 503 from http:\/\/h\/v1\/chat\/completions: busy\n$/);
});

// eslint-disable-next-line no-control-regex -- the terminal escapes are what is split on
const ESCAPE = /\r|\x1b\[\d*[A-Za-z]/g;

/** The lines a terminal shows: the text between cursor moves, clears and newlines. */
function shownLines(out: string): string[] {
  return out
    .split('\n')
    .flatMap((line) => line.split(ESCAPE))
    .filter((text) => text.length > 0);
}

/** Columns, counting the wide characters these tests use (CJK, emoji) as 2. */
function columns(text: string): number {
  return [...text].reduce((n, char) => n + (/[\u4e00-\u9fff]|\p{Emoji_Presentation}/u.test(char) ? 2 : 1), 0);
}

function liveRuns(width: number): string {
  let out = '';
  const progress = new Progress(
    (s) => {
      out += s;
    },
    { terminal: true, width },
  );
  const names = [
    'a-run-with-a-name-far-longer-than-any-column-of-the-progress-block',
    '记忆基准测试运行名称很长很长很长很长很长很长',
    'r🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂',
  ];
  const state = emptyState();
  for (const name of names) progress.start(name, starter());
  progress.event(names[0]!, state, {
    type: 'phase',
    at: 'x',
    callId: 'c',
    position: { chapter: 'chapter-with-a-very-long-title-about-the-weekend-in-the-mountains.md', chapterIndex: 0, phase: 0 },
    effects: [],
  });
  progress.event(names[1]!, state, {
    type: 'retry',
    at: 'x',
    model: 'gpt-x',
    by: 'agent',
    error: `503 from http://h/v1/chat/completions: ${'busy '.repeat(40)}`,
    retry: 2,
    retries: 7,
    delayMs: 4200,
  });
  progress.event(names[2]!, state, {
    type: 'phase',
    at: 'x',
    callId: 'c',
    position: { chapter: '第一章：很长的标题很长的标题很长的标题.md', chapterIndex: 0, phase: 0 },
    effects: [],
  });
  progress.stop();
  progress.stop();
  return out;
}

for (const width of [40, 80]) {
  test(`at ${width} columns no line is wider than the terminal: long names, long phase titles, a retry note, wide characters`, () => {
    const out = liveRuns(width);
    const lines = shownLines(out);
    assert.equal(lines.length, 6, 'three runs drawn twice');
    for (const line of lines) assert.ok(columns(line) <= width, `${columns(line)} columns: ${line}`);
    assert.ok(
      lines.some((line) => line.endsWith('…')),
      'the long lines are cut with an ellipsis',
    );
    assert.ok(
      lines.every((line) => line.includes('phase 0/6') || width < 80),
      'at 80 the figures survive the cut',
    );
  });
}

test('a redraw moves up exactly the lines it drew, each cleared', () => {
  const out = liveRuns(80);
  const [first, second] = out.split(/(?=\r)/);
  // eslint-disable-next-line no-control-regex -- the terminal escapes are what is tested
  assert.doesNotMatch(first!, /\x1b\[\d+A/, 'the first draw moves over nothing');
  // eslint-disable-next-line no-control-regex -- the terminal escapes are what is tested
  assert.match(second!, /^\r\x1b\[3A(\x1b\[2K[^\n\x1b]*\n){3}$/);
});

test('off a terminal, progress is plain lines with no escape code, even from escapes in a name or an error', () => {
  let out = '';
  const progress = new Progress(
    (s) => {
      out += s;
    },
    { terminal: false },
  );
  const state = emptyState();
  progress.start('r\x1b[2J1', starter());
  progress.event('r\x1b[2J1', state, { type: 'retry', at: 'x', model: 'gpt-x', error: 'bad\x1b]0;title\x07 thing\u202e' });
  progress.event('r\x1b[2J1', state, { type: 'finish', at: 'x', status: 'crashed', error: 'died\x1b[31m red' });
  progress.stop();
  // eslint-disable-next-line no-control-regex -- no control character may be in the output
  assert.doesNotMatch(out, /[\x00-\x09\x0b-\x1f\x7f\u202e]/);
  assert.equal(out.split('\n').length, 4);
});

test('after Ctrl-C the block is drawn once, and the final state once below the notice', () => {
  let out = '';
  const progress = new Progress(
    (s) => {
      out += s;
    },
    { terminal: true, width: 80 },
  );
  progress.start('r1', starter());
  progress.stop();
  out += '\nmmb: stopping after the current step\n';
  progress.interrupt();
  const state = emptyState();
  progress.event('r1', state, {
    type: 'phase',
    at: 'x',
    callId: 'c',
    position: { chapter: 'chapter1.md', chapterIndex: 0, phase: 0 },
    effects: [],
  });
  progress.stop();
  const [before, after] = out.split('mmb: stopping after the current step');
  assert.equal(shownLines(before!).length, 1);
  assert.equal(shownLines(after!).length, 1);
  // eslint-disable-next-line no-control-regex -- the final draw must not move up over the notice
  assert.doesNotMatch(after!, /\x1b\[\d+A/);
  assert.match(after!, /r1 .* chapter1\.md · phase 1\n$/);
});

test('a run resumed finished shows as finished with its phases and checks, live and in a log', () => {
  const state = emptyState();
  state.status = 'finished';
  state.grades = { '1.1': [], '2.1': [], '3.1': [] };
  let live = '';
  const progress = new Progress(
    (s) => {
      live += s;
    },
    { terminal: true, width: 80 },
  );
  progress.start('r1', starter(), state);
  progress.stop();
  assert.match(live, /phase 6\/6 {2}checks 3\/5 {2}0 tok {2}finished\n$/);
  let log = '';
  new Progress(
    (s) => {
      log += s;
    },
    { terminal: false },
  ).start('r1', starter(), state);
  assert.equal(log, 'r1: finished already (phase 6/6, checks 3/5)\n');
});
