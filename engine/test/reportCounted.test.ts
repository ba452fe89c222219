/**
 * Colour means the same everywhere (issue #33 item 6): on the run page and in the runs index a failure
 * is red only when it counts against the agent; a partial run's failure at a check whose trap writes
 * it did not play is grey (`g-muted`), and its trap is "not counted", never "caught".
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareRuns, indexRow, renderComparison, renderRunsIndex, renderRunReport, runsIndex, runView } from '../src/report/html';
import { countsAgainstAgent, gradeTone } from '../src/report/counted';
import type { RunState } from '../src/state/runState';
import { reportMultiday as multiday, reportRun as run } from './helpers';

/** chatbot-2 as if it had played only from `chapter` (index `chapterIndex`) phase 0 to the exam. */
function partialFrom(chapter: string, chapterIndex: number): RunState {
  const state = run('chatbot-2');
  state.phases = { from: { chapter, chapterIndex, phase: 0 }, to: { chapter: 'exam.md', chapterIndex: 2, phase: 0 } };
  return state;
}

/** The grade badge of a check on the run page's imperfect answers, and the answer card's class. */
function answerOf(html: string, id: string): { card: string; badge: string } {
  const escaped = id.replace('.', '\\.');
  const match = new RegExp(`<article class="answer ([a-z]+)" data-check="${escaped}">\\n<header><span class="grade ([a-z-]+)"`).exec(html);
  assert.ok(match, `the answer of ${id} is on the page`);
  return { card: match[1]!, badge: match[2]! };
}

test('the rule: a grade counts when its run played every trap write aimed at the check before grading it', () => {
  const at = (chapter: number, phase: number) => ({ chapter, phase });
  assert.equal(countsAgainstAgent({ traps: [at(1, 0)], gradedAt: at(2, 0) }), true, 'a full run played the write');
  assert.equal(countsAgainstAgent({ traps: [], gradedAt: at(2, 0) }), true, 'a full run with no trap: it told the facts');
  assert.equal(countsAgainstAgent({ traps: [at(1, 0)], gradedAt: at(2, 0), partialFrom: at(2, 0) }), false, 'the write came before');
  assert.equal(countsAgainstAgent({ traps: [at(1, 2)], gradedAt: at(2, 0), partialFrom: at(1, 0) }), true, 'the partial run played it');
  assert.equal(countsAgainstAgent({ traps: [], gradedAt: at(2, 0), partialFrom: at(1, 0) }), false, 'a partial run may skip the facts');
  assert.equal(countsAgainstAgent({ traps: [at(3, 0)], gradedAt: at(2, 0) }), false, 'a write after the grade was not played before');
  assert.deepEqual(
    [gradeTone('poor', true), gradeTone('fair', true), gradeTone('poor', false), gradeTone('fair', false), gradeTone('good', false)],
    ['poor', 'fair', 'muted', 'muted', 'good'],
  );
});

test('the run page of a full run: failures red, its traps caught', () => {
  const html = renderRunReport(runView(run('chatbot-2'), multiday()), { nonce: 'x' });
  assert.deepEqual(answerOf(html, '15.1'), { card: 'poor', badge: 'g-poor' });
  assert.ok(!html.includes('class="grade g-muted"'), 'nothing muted in a full run');
  assert.match(html, /<tr class="trap-caught" id="trap-1" data-trap="1" data-trap-type="XREF">/);
});

test('the run page of a partial run: a failure whose trap write it did not play is grey, with why, and its trap is not counted', () => {
  const html = renderRunReport(runView(partialFrom('exam.md', 2), multiday()), { nonce: 'x' });
  assert.deepEqual(answerOf(html, '15.1'), { card: 'muted', badge: 'g-muted' });
  assert.ok(
    html.includes('<p class="note">not counted against the agent: the run did not play the trap write aimed at it (week2.md:18).</p>'),
    'the card says why',
  );
  assert.match(html, /<tr class="trap-not-counted" id="trap-1" data-trap="1" data-trap-type="XREF">/);
  assert.match(html, /<span class="verdict v-muted">not counted<\/span>/);
  assert.doesNotMatch(html, /class="trap-caught"/, 'no trap caught the agent');
  assert.doesNotMatch(html, /class="grade g-poor"|class="grade g-fair"/, 'no red or amber badge anywhere: averages muted too');
  assert.match(html, /"label":"not counted against the agent","data":\[(\d+,){10}\d+\],"backgroundColor":"#8b949e"/);
  assert.match(html, /<div class="grade-inline failed uncounted" data-check="15\.1"/);
});

test('a partial run that played the trap write: that failure counts (red); a check with no trap does not', () => {
  const html = renderRunReport(runView(partialFrom('week2.md', 1), multiday()), { nonce: 'x' });
  assert.equal(answerOf(html, '15.1').badge, 'g-poor');
  assert.equal(answerOf(html, '15.5').badge, 'g-muted');
  assert.match(html, /<tr class="trap-caught" id="trap-1" data-trap="1" data-trap-type="XREF">/);
});

test('the runs index: a partial run’s low average is grey, a full run’s red', () => {
  const rows = [
    indexRow('full', run('chatbot-2'), 'finished', undefined),
    indexRow('part', partialFrom('exam.md', 2), 'finished', undefined),
  ];
  const html = renderRunsIndex(runsIndex(rows), { nonce: 'x' });
  const badge = (id: string) => new RegExp(`data-run="${id}"[\\s\\S]*?<span class="grade ([a-z-]+)"`).exec(html)?.[1];
  assert.equal(badge('full'), 'g-poor');
  assert.equal(badge('part'), 'g-muted');
  assert.match(html, /<span class="grade g-muted" title="a partial run: its averages are not a score of the agent">/);
});

test('the comparison: the partial run’s failure at 15.1 is grey, the full run’s red', () => {
  const full = run('chatbot-2');
  full.run = 'full';
  const part = partialFrom('exam.md', 2);
  part.run = 'part';
  const html = renderComparison(compareRuns([full, part], multiday()), { nonce: 'x' });
  const row = /<tr[^>]*data-check="15\.1"[^>]*>[\s\S]*?<\/tr>/.exec(html)?.[0] ?? '';
  assert.deepEqual(
    [...row.matchAll(/<span class="grade ([a-z-]+)"/g)].map((m) => m[1]),
    ['g-poor', 'g-muted'],
  );
});
