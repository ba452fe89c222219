/**
 * What sits beside a failed answer on the run page, and the rest of issue #22's leftovers: the
 * agent's tool calls (folded under its reply and beside the grade, escaped, counted in report.md),
 * the memory lines holding a stale value marked apart from the expected ones, the comparison's
 * links from a differing check to its trap, JUnit's date templates, old states rendering as before.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { noteChange, staleTokens } from '../src/report/staleValues';
import { turnToolCalls } from '../src/report/turnToolCalls';
import { compareRuns, renderComparison, renderRunReport, runView } from '../src/report/html';
import { junitDocument } from '../src/report/junit';
import { lineHolds, readMemorySnapshots } from '../src/report/memory';
import { reportEntry } from '../src/report/markdown';
import { summarize } from '../src/report/summary';
import { applyEvent, type RunState } from '../src/state/runState';
import { reportMultiday as multiday, reportRun as run, tempDir, templatedRun, joinedPattern } from './helpers';

const when = new Date(2026, 11, 1, 12, 0);

/** chatbot-2 with tool calls on two agent replies of the exam: the one that answered 15.2 (graded 0) and the one before it. */
function withToolCalls(): RunState {
  const state = run('chatbot-2');
  const agentReplies = state.transcript.filter((e) => e.from === 'agent' && e.position.chapter === 'exam.md');
  const graded = state.grades['15.2']!.at(-1)!.at;
  const answering = agentReplies.filter((e) => e.at < graded).at(-1)!;
  const before = agentReplies[agentReplies.indexOf(answering) - 1]!;
  answering.toolCalls = [
    { name: 'search_notes', arguments: '{"query":"<script>alert(3)</script> Wednesday run"}', result: 'no note matches <b>Wednesday</b>' },
    { name: 'read_note', arguments: '{"path":"runs.md"}' },
  ];
  before.toolCalls = [{ name: 'list_notes', arguments: '{}', result: 'EARLIER-TURN' }];
  return state;
}

test('a turn of more calls than are kept: the count says how many it made, how many are listed, and names the rest', () => {
  const state = withToolCalls();
  const graded = state.grades['15.2']!.at(-1)!.at;
  const answering = state.transcript.filter((e) => e.from === 'agent' && e.at < graded).at(-1)!;
  answering.toolCalls = Array.from({ length: 50 }, (_, i) => ({ name: i % 2 ? 'read_note' : 'search_notes', arguments: `{"n":${i}}` }));
  answering.toolCallsLeftOut = 23;
  const html = renderRunReport(runView(state, multiday()), { nonce: 'x' });
  const card = /<div class="grade-inline failed" data-check="15\.2"[\s\S]*?<\/details><\/div>/.exec(html)?.[0] ?? '';
  assert.ok(card.includes('🔧 73 tool calls in the turn it answered in, 50 listed: search_notes, read_note'), card.slice(0, 400));
  assert.ok(card.includes('and 23 more calls in the same turn, not kept'), 'the rest named at the end of the list');
  assert.ok(
    html.includes('<summary>🔧 73 tool calls, 50 listed: search_notes, read_note</summary>'),
    'under the reply in the conversation',
  );
  assert.equal(summarize(state, multiday()).toolCalls?.calls, 73 + 1, "counted in the summary with the earlier turn's call");
  answering.toolCallsLeftOut = -1e9;
  assert.ok(
    !renderRunReport(runView(state, multiday()), { nonce: 'x' }).includes('more calls'),
    'a count from a damaged state is no count',
  );
});

test("tool calls: folded under the agent's reply, beside their failed answer, escaped; counted but not listed in report.md", () => {
  const state = withToolCalls();
  const view = runView(state, multiday());
  const graded = state.grades['15.2']!.at(-1)!.at;
  assert.deepEqual(
    turnToolCalls(state, graded).calls.map((c) => c.name),
    ['search_notes', 'read_note'],
    'the calls of the turn that answered, not the one before',
  );
  const html = renderRunReport(view, { nonce: 'x' });
  const card = /<div class="grade-inline failed" data-check="15\.2"[\s\S]*?<\/details><\/div>/.exec(html)?.[0] ?? '';
  assert.ok(card.includes('🔧 2 tool calls in the turn it answered in: search_notes, read_note'), 'beside the failed answer');
  assert.ok(
    card.includes('<pre class="tool-args">{&quot;query&quot;:&quot;&lt;script&gt;alert(3)&lt;/script&gt; Wednesday run&quot;}</pre>'),
    'the arguments escaped',
  );
  assert.ok(card.includes('<pre>no note matches &lt;b&gt;Wednesday&lt;/b&gt;</pre>'), 'the result escaped');
  assert.ok(!card.includes('EARLIER-TURN'), "another turn's call is not its");
  assert.ok(!html.includes('<script>alert(3)') && !html.includes('<b>Wednesday'));
  const message = joinedPattern([
    /<div class="msg agent"[^>]*><div class="who">agent<\/div>[^<]*/,
    /<details class="tool-calls"><summary>🔧 2 tool calls: search_notes, read_note<\/summary>/,
  ]).exec(html);
  assert.ok(message, "folded under the agent's reply in the conversation");
  assert.ok(html.includes('<summary>🔧 1 tool call: list_notes</summary>'));
  const article = /<article class="answer [^"]*" data-check="15\.2">[\s\S]*?<\/article>/.exec(html)?.[0] ?? '';
  assert.ok(article.includes('2 tool calls in the turn it answered in'), 'and in the imperfect answers list');
  const entry = reportEntry(summarize(state, multiday()), when);
  assert.match(entry, /^- 📊 Agent tool calls: 3 in 2 replies \(listed in the HTML report\)$/m);
  assert.ok(!entry.includes('search_notes') && !entry.includes('alert(3)'), 'the calls themselves stay out of report.md');
});

test('a state from before tool calls were kept loads and renders as it did: no calls, no count', () => {
  const state = run('chatbot-1');
  assert.ok(state.transcript.every((e) => !('toolCalls' in e)));
  const html = renderRunReport(runView(state, multiday()), { nonce: 'x' });
  assert.ok(!html.includes('class="tool-calls"'));
  assert.match(html, /<div class="grade-inline failed" data-check="15\.2"/);
  assert.doesNotMatch(reportEntry(summarize(state, multiday()), when), /tool calls/);
  // A state edited by hand is still bounded and checked on the page.
  state.transcript.find((e) => e.from === 'agent')!.toolCalls = [
    { name: 'x', arguments: 'y'.repeat(50_000) },
    { arguments: 'no name' } as never,
    'junk' as never,
  ];
  const edited = renderRunReport(runView(state, multiday()), { nonce: 'x' });
  assert.ok(edited.includes('🔧 1 tool call: x') && !edited.includes('y'.repeat(2100)));
});

test("stale values: a trap note's old value, the text a fact edit replaced, a named fact of an old state; numbers whole", () => {
  assert.deepEqual(noteChange('8 km becomes 8.4 km'), { before: '8 km', after: '8.4 km' });
  assert.deepEqual(noteChange('8.4 km, not 8'), { before: '8', after: '8.4 km' });
  assert.equal(noteChange("Sunday's run, told a day late"), undefined);
  assert.ok(!lineHolds('Wed: 8.4 km', ['8']) && lineHolds('Wed: 8 km.', ['8']) && lineHolds('it was 8.', ['8']), '8 is not in 8.4');
  const benchmark = multiday();
  const state = run('chatbot-2');
  assert.deepEqual(staleTokens(state, benchmark, '15.2', '8.4 km.'), ['8'], 'SELF-FIX: 8 km becomes 8.4 km');
  assert.deepEqual(staleTokens(state, benchmark, '15.8', '53.4 km.'), ['8'], 'not 8.4, which is current');
  assert.deepEqual(staleTokens(state, benchmark, '15.4', '5 km.'), [], 'a LATE-ADD replaces nothing');
  // The trap's phase edits a fact: the text it replaced is stale, less what the new text keeps.
  const trapPhase = state.transcript.find((e) => e.position.chapter === 'week2.md')!.position;
  state.position = { ...trapPhase };
  applyEvent(state, {
    type: 'tool-done',
    at: state.lastEventAt,
    callId: 'edit',
    name: 'update_fact',
    content: 'ok',
    effects: [{ kind: 'fact-edit', sheet: 'profile', id: '1.3', text: 'Training for the Bath half in June; runs before work' }],
  });
  assert.deepEqual(
    state.factEdits?.map((e) => [e.before, e.position.chapter, e.position.phase]),
    [['Training for the Bristol 10K in May; runs before work', 'week2.md', 0]],
  );
  assert.deepEqual(staleTokens(state, benchmark, '15.4', '5 km.'), ['bristol', '10']);
  // A state from before edits were kept: a fact the trap names, as written against its text at the end.
  const old = run('chatbot-2');
  const named = multiday();
  const ref = {
    sheet: 'work',
    id: '1.2',
    range: named.traps[0]!.trap.range,
    sheetRange: named.traps[0]!.trap.range,
    idRange: named.traps[0]!.trap.range,
  };
  named.traps[0]!.trap.facts = [ref];
  old.sheets.work!.facts.find((f) => f.id === '1.2')!.text = 'The campaign goes live on Monday 16 March';
  assert.deepEqual(staleTokens(old, named, '15.4', '5 km.'), ['tuesday', '10']);
});

test('beside a failed answer (conversation and card), stale memory lines are marked apart from expected ones, with a legend', () => {
  const dir = tempDir('mmb-stale-');
  mkdirSync(join(dir, 'memory', '2'), { recursive: true });
  writeFileSync(
    join(dir, 'memory', '2', 'runs.md'),
    '# Runs\nWed 11 Mar: 8 km along the harbourside\nWed 11 Mar, synced: 8.4 km\nSat 14 Mar: parkrun 5 km\n',
  );
  const html = renderRunReport(runView(run('chatbot-2'), multiday(), { memory: readMemorySnapshots(dir) }), { nonce: 'x' });
  const card = /<div class="grade-inline failed" data-check="15\.2"[\s\S]*?<\/details><\/div>/.exec(html)?.[0] ?? '';
  assert.ok(card.includes('1 file, 1 line holding the expected value, 1 line holding a stale value'));
  assert.ok(card.includes('<span class="mem-line stale">Wed 11 Mar: 8 km along the harbourside</span>'), 'the old 8 km');
  assert.ok(card.includes('<span class="mem-line hit">Wed 11 Mar, synced: 8.4 km</span>'), 'the expected 8.4 km, not stale');
  assert.ok(card.includes('<span class="mem-line">Sat 14 Mar: parkrun 5 km</span>'));
  assert.ok(
    card.includes(
      '<span class="mem-line hit">expected</span> the expected value ' +
        '<span class="mem-line stale">stale</span> a value a trap write replaced (8)',
    ),
    'the legend',
  );
  const other = /<div class="grade-inline failed" data-check="15\.1"[\s\S]*?<\/details><\/div>/.exec(html)?.[0] ?? '';
  assert.ok(!other.includes('stale'), 'a check whose traps replaced nothing marks nothing stale');
  // The same snapshot in the check's card under Imperfect answers.
  const imperfect = /<article class="answer[^"]*" data-check="15\.2">[\s\S]*?<\/article>/.exec(html)?.[0] ?? '';
  assert.ok(
    imperfect.includes('<span class="mem-line stale">Wed 11 Mar: 8 km along the harbourside</span>'),
    'the card shows the memory too',
  );
  assert.ok(imperfect.includes('1 file, 1 line holding the expected value, 1 line holding a stale value'));
});

test('compare: a differing check links to its trap and names its type; the trap with its result in each run, on the page', () => {
  const benchmark = multiday();
  benchmark.traps[0]!.trap.type = '<b>LATE</b>' as never;
  const c = compareRuns([run('chatbot-1'), run('chatbot-2')], benchmark);
  const row = c.rows.find((r) => r.id === '15.4')!;
  assert.equal(row.differs, true);
  assert.deepEqual(row.traps, [{ index: 0, type: '<b>LATE</b>' }]);
  assert.deepEqual(
    c.traps.map((t) => [t.index, t.checks, t.results]),
    [[0, ['15.4'], ['caught', 'caught']]],
  );
  const html = renderComparison(c, { nonce: 'x' });
  const cell = /<tr class="differs" data-check="15\.4">[\s\S]*?<\/tr>/.exec(html)?.[0] ?? '';
  assert.ok(cell.includes('<a class="story-link" href="#trap-0" data-trap="0">🪤 &lt;b&gt;LATE&lt;/b&gt;</a>'));
  assert.ok(
    html.includes(
      '<tr id="trap-0" data-trap="0" data-trap-type="&lt;b&gt;LATE&lt;/b&gt;"><td class="trap-type">🪤 &lt;b&gt;LATE&lt;/b&gt;</td>',
    ),
    'the anchor it leads to',
  );
  assert.ok(
    !/<tr class="" data-check="15\.1">[\s\S]*?story-link/.exec(html.split('Graded the same')[1] ?? '')?.[0],
    'a check graded the same links nothing',
  );
  const page = renderRunReport(runView(run('chatbot-2'), benchmark), { nonce: 'x' });
  assert.match(page, /<tr class="trap-caught" id="trap-0" data-trap="0"/, "the run page's trap story has the same anchors");
});

test('JUnit names a check and gives its expected answer with the dates the run expanded', () => {
  const { benchmark, state } = templatedRun();
  const xml = junitDocument([{ kind: 'played', state, benchmark }]);
  assert.ok(xml.includes('name="15.4 [RECALL] What did I plan for 22 March 2026?"'));
  assert.ok(xml.includes('expected: Hiking on 22 March 2026, for a week, back by 27 February 2026.'));
  assert.ok(!xml.includes('{{'), 'no template left raw');
});
