/** The reports as they read for a run: dates written out, whole answers, a crashed run's page, the agent's compactions at their place. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { compareRuns, computeTrends, renderComparison, renderRunReport, renderTrends, runView } from '../src/report/html';
import { comparisonText as comparisonTextOf } from '../src/report/compare';
import { trendsText } from '../src/report/trends';
import { meanInterval, wilson } from '../src/report/rates';
import { readMemorySnapshots } from '../src/report/memory';
import { reportEntry } from '../src/report/markdown';
import { summarize } from '../src/report/summary';
import { applyEvent, type RunState } from '../src/state/runState';
import { reportMultiday as multiday, reportRun as run, templatedRun as templated } from './helpers';

const when = new Date(2026, 11, 1, 12, 0);

test('date templates read as the run expanded them: report.md, the run page and the comparison', () => {
  const { benchmark, state } = templated();
  const entry = reportEntry(summarize(state, benchmark), when);
  assert.match(
    entry,
    /\| 15\.4 \| What did I plan for 22 March 2026\? \| Hiking on 22 March 2026, for a week, back by 27 February 2026\. \|/,
  );
  const page = renderRunReport(runView(state, benchmark), { nonce: 'x' });
  assert.ok(page.includes('What did I plan for 22 March 2026?'), 'the run page expands the question');
  assert.ok(
    page.includes('Hiking on 22 March 2026, for a week, back by 27 February 2026.'),
    'and the expected answer, from the start time where the run fixed none',
  );
  const compare = renderComparison(compareRuns([run('chatbot-1'), state], benchmark), { nonce: 'x' });
  assert.ok(compare.includes('What did I plan for 22 March 2026?'), 'the comparison expands it with the first run that has it');
  for (const text of [entry, page, compare]) assert.ok(!text.includes('{{FUTURE'), 'no template left as written');
});

test('report.md gives every imperfect answer whole, on one escaped line', () => {
  const state = run('chatbot-2');
  const long = `${'the long answer '.repeat(60)}END-OF-ANSWER`;
  state.grades['15.4']!.at(-1)!.answer = `${long}\n## 2026-01-01 forged entry <!-- \`x\``;
  state.grades['15.4']!.at(-1)!.comment = `${'a long comment '.repeat(40)}END-OF-COMMENT`;
  const benchmark = multiday();
  benchmark.checks.find((c) => c.check.id === '15.4')!.check.question = `${'a long question '.repeat(30)}END-OF-QUESTION`;
  const entry = reportEntry(summarize(state, benchmark), when);
  const line = entry.split('\n').find((l) => l.includes('| 15.4 |'))!;
  assert.ok(
    line.includes(`${long} ## 2026-01-01 forged entry \\<!-- \\\`x\\\``),
    'the answer whole, its line break flattened and its markup escaped',
  );
  assert.ok(line.includes('END-OF-COMMENT') && line.includes('END-OF-QUESTION'), 'comment and question whole too');
  assert.doesNotMatch(entry, /^## 2026-01-01 forged/m);
});

/** A run that crashed on its first phase: the persona's model kept failing, behind a proxy that answers with HTML. */
function crashed(): RunState {
  const state = run('chatbot-1');
  state.status = 'crashed';
  state.error = 'the persona model failed: <html><body><h1>502 Bad Gateway</h1><script>alert(1)</script></body></html>';
  state.grades = {};
  state.retryLog = [{ at: state.startedAt, model: 'big-model<b>', error: '502', by: 'persona' }];
  return state;
}

test("a crashed run's page: the error as escaped text, no empty chart, nothing called perfect, the failing model in the cost table", () => {
  const html = renderRunReport(runView(crashed(), multiday()), { nonce: 'x' });
  assert.ok(
    html.includes(
      '<pre class="error-text">the persona model failed: ' +
        '&lt;html&gt;&lt;body&gt;&lt;h1&gt;502 Bad Gateway&lt;/h1&gt;&lt;script&gt;alert(1)&lt;/script&gt;',
    ),
  );
  assert.ok(!html.includes('<h1>502') && !html.includes('<script>alert(1)'));
  assert.doesNotMatch(html, /<canvas/, 'no chart without a grade');
  assert.ok(!html.includes('Every graded answer was perfect'));
  assert.ok(html.includes('No answer was graded.'));
  assert.match(html, /<td>big-model&lt;b&gt;<\/td><td class="num">0 \(never answered\)<\/td>/);
  const long = crashed();
  long.error = 'x'.repeat(10_000);
  assert.ok(!renderRunReport(runView(long, multiday()), { nonce: 'x' }).includes('x'.repeat(4001)), 'the error bounded');
});

test('the grade distribution stands on a 0–10 axis, one bar per whole point', () => {
  const html = renderRunReport(runView(run('chatbot-2'), multiday()), { nonce: 'x' });
  const charts = JSON.parse(/<script type="application\/json" id="mmb-charts">([^<]*)<\/script>/.exec(html)![1]!) as {
    canvas: string;
    config: { data: { labels: string[]; datasets: { data: number[] }[] } };
  }[];
  const distribution = charts.find((c) => c.canvas === 'chart-distribution')!.config.data;
  assert.deepEqual(distribution.labels, ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
  const counts = summarize(run('chatbot-2'), multiday()).scores;
  assert.equal(
    distribution.datasets[0]!.data.reduce((a, b) => a + b, 0),
    counts.reduce((a, [, n]) => a + n, 0),
    'every graded check counted',
  );
  assert.equal(distribution.datasets[0]!.data[4], counts.find(([g]) => g === 4)?.[1], 'a 4 stands at 4');
});

test("the agent's compactions at the phase they were seen in, with their size, in report.md and in the conversation", () => {
  const state = run('chatbot-1');
  const exam = state.transcript.find((e) => e.position.chapter === 'exam.md')!;
  const week2 = state.transcript.find((e) => e.position.chapter === 'week2.md')!;
  state.position = { ...week2.position };
  const first = { at: '2020-01-01', tokensBefore: 100_000, tokensAfter: 41_000 };
  applyEvent(state, { type: 'observe', at: week2.at, status: { state: 'idle', contextTokens: null, compactions: [first] } });
  state.position = { ...exam.position };
  // The first cut is reported again with the second: it keeps the phase it was first seen in.
  applyEvent(state, {
    type: 'observe',
    at: exam.at,
    status: { state: 'idle', contextTokens: null, compactions: [first, { at: '2020-01-02' }] },
  });
  assert.deepEqual(
    state.agentCompactions?.map((c) => [c.position.chapter, c.position.phase, c.tokensBefore]),
    [
      ['week2.md', week2.position.phase, 100_000],
      ['exam.md', exam.position.phase, undefined],
    ],
  );
  const entry = reportEntry(summarize(state, multiday()), when);
  assert.match(
    entry,
    new RegExp(
      `📊 Agent compactions: 2 \\(week2\\.md phase ${week2.position.phase + 1}: 100,000 → 41,000 tokens; ` +
        `exam\\.md phase ${exam.position.phase + 1}\\); session switches`,
    ),
  );
  const chapters = runView(state, multiday()).conversation;
  const cuts = (chapter: string) =>
    chapters
      .find((c) => c.chapter === chapter)!
      .items.flatMap((i) => (i.kind === 'marker' && i.marker === 'agent-compaction' ? [i.text] : []));
  assert.deepEqual(cuts('week2.md'), ['The agent compacted its context: 100,000 → 41,000 tokens']);
  assert.deepEqual(cuts('exam.md'), ['The agent compacted its context']);
  assert.ok(!chapters.some((c) => c.chapter === ''), 'nothing before the first phase');
});

/** chatbot-1 again under another name: a run graded check for check the same. */
const twin = (id: string): RunState => ({ ...structuredClone(run('chatbot-1')), run: id });

test("compare: run against run, so two identical runs of three read identical; a partial run's unplayed checks are no difference", () => {
  const c = compareRuns([run('chatbot-1'), twin('chatbot-1b'), run('chatbot-2')], multiday());
  assert.deepEqual(
    c.pairs.map((p) => [c.runs[p.a]!.run, c.runs[p.b]!.run, p.differing, p.compared]),
    [
      ['chatbot-1', 'chatbot-1b', 0, 10],
      ['chatbot-1', 'chatbot-2', 1, 10],
      ['chatbot-1b', 'chatbot-2', 1, 10],
    ],
  );
  assert.match(comparisonTextOf(c), /^chatbot-1 vs chatbot-1b: identical on 10 checks$/m);
  const html = renderComparison(c, { nonce: 'x' });
  assert.ok(
    html.includes(
      '<tr class="" data-pair="0-1"><td>chatbot-1</td><td>chatbot-1b</td>' +
        '<td class="num">0</td><td class="num">10</td><td>identical on 10 checks</td></tr>',
    ),
  );
  assert.ok(!html.includes('²'), 'no superscript that reads as squared');
  assert.match(html, /<span class="grade g-poor">0<\/span><span class="tag">2nd attempt<\/span>/);
  const partial = twin('exam-only');
  const benchmark = multiday();
  const exam = benchmark.chapters.findIndex((ch) => ch.file === 'exam.md');
  partial.phases = {
    from: { chapter: 'exam.md', chapterIndex: exam, phase: 0 },
    to: { chapter: 'exam.md', chapterIndex: exam, phase: benchmark.chapters[exam]!.phases.length - 1 },
  };
  delete partial.grades['12.1'];
  const withPartial = compareRuns([run('chatbot-1'), partial], benchmark);
  const row = withPartial.rows.find((r) => r.id === '12.1')!;
  assert.deepEqual([row.played, row.differs], [[true, false], false], 'a check the partial run never played does not differ');
  assert.equal(withPartial.differing, 0);
  const page = renderComparison(withPartial, { nonce: 'x' });
  assert.ok(page.includes('not played (a partial run)') && page.includes('Partial runs (some phases only'));
});

test('trends count only full runs as repeats, and one run says there is nothing to compare', () => {
  const partial = {
    ...twin('from-week2'),
    phases: { from: { chapter: 'week2.md', chapterIndex: 1, phase: 0 }, to: { chapter: 'exam.md', chapterIndex: 2, phase: 0 } },
  };
  const filtered = { ...twin('filter-hist'), filter: 'HIST' };
  const t = computeTrends([run('chatbot-1'), partial, filtered, run('chatbot-2')], () => ({ benchmark: multiday() }));
  assert.deepEqual(
    t.groups[0]!.runs.map((r) => r.run),
    ['chatbot-1', 'chatbot-2'],
  );
  assert.deepEqual(t.skipped.map((s) => s.run).sort(), ['filter-hist', 'from-week2'], 'a --filter run is partial too');
  assert.ok(t.skipped.every((s) => s.reason === 'a partial run (--from a later phase, --only or --filter): not a repeat'));
  const page = renderTrends(t, { nonce: 'x' });
  assert.ok(page.includes('from-week2 (a partial run (--from a later phase, --only or --filter): not a repeat)'));
  const single = computeTrends([run('chatbot-1')], () => ({ benchmark: multiday() }));
  assert.ok(single.groups[0]!.checks.every((c) => c.verdict === 'single' || c.verdict === 'ungraded'));
  const html = renderTrends(single, { nonce: 'x' });
  assert.ok(html.includes('nothing to compare yet'));
  assert.doesNotMatch(html, /<span class="verdict v-stable">|<tr class="stable"/, 'no check marked stable on one run');
  assert.match(trendsText(single), /one full run: nothing to compare yet/);
  assert.doesNotMatch(trendsText(single), /every check stable/);
});

test('the trap story: each write, its checks, how far apart in the run, and whether the agent held', () => {
  const state = run('chatbot-1');
  const week2 = state.transcript.find((e) => e.position.chapter === 'week2.md')!;
  state.position = { ...week2.position };
  applyEvent(state, {
    type: 'observe',
    at: week2.at,
    status: { state: 'idle', contextTokens: null, compactions: [{ at: 'x', tokensBefore: 9, tokensAfter: 3 }] },
  });
  const story = runView(state, multiday()).story;
  assert.deepEqual(
    story.traps.map((t) => [t.type, `${t.write.file}:${t.write.line}`, t.result, t.checks.map((c) => c.id)]),
    [
      ['LATE-ADD', 'benchmarks/multiday/week2.md:11', 'caught', ['15.4', '15.8']],
      ['XREF', 'benchmarks/multiday/week2.md:18', 'caught', ['15.1']],
      ['SELF-FIX', 'benchmarks/multiday/week2.md:33', 'caught', ['15.2', '15.3', '15.8']],
    ],
  );
  const first = story.traps[0]!.checks[0]!;
  // The write is in week2.md phase 1, the exam one chapter on; the run switched sessions and the persona compacted on entering
  // the exam; the agent's cut was seen in week2.md phase 1: after LATE-ADD's write (phase 1), before XREF's (phase 2).
  assert.deepEqual(first.distance, { chapters: 1, sessionSwitches: 1, personaCompactions: 1, agentCompactions: 1 });
  assert.equal(story.traps[1]!.checks[0]!.distance.agentCompactions, 0);
  assert.deepEqual(
    story.byTrapType.map((r) => [r.key, r.passed, r.graded]),
    [
      ['LATE-ADD', 0, 2],
      ['XREF', 0, 1],
      ['SELF-FIX', 0, 3],
    ],
  );
  assert.deepEqual(
    story.byCheckType.map((r) => [r.key, r.passed, r.graded]),
    [
      ['untyped', 1, 1],
      ['RECALL', 0, 4],
      ['HIST', 0, 1],
      ['SERIES', 0, 2],
      ['VOID', 1, 1],
      ['AGG', 0, 1],
    ],
  );
  const html = renderRunReport(runView(state, multiday()), { nonce: 'x' });
  assert.ok(html.indexOf('<h2 id="traps">The traps</h2>') < html.indexOf('<h2>Grades</h2>'), 'the story comes first');
  assert.match(html, /3 trap writes: 3 caught the agent, 0 held, 0 not graded/);
  assert.match(
    html,
    /<tr data-rate="LATE-ADD"><td>LATE-ADD<\/td><td class="num">0\/2<\/td><td class="num">0 %<\/td><td class="num">0 %–66 %<\/td><\/tr>/,
  );
  assert.ok(html.includes('1 chapter later · 1 session switch · 1 persona compaction · 1 agent compaction between'));
  assert.ok(html.includes('1 chapter later · 1 session switch · 1 persona compaction · 0 agent compactions between'));
});

test('the story escapes what the benchmark and the model wrote', () => {
  const benchmark = multiday();
  benchmark.traps[0]!.trap.note = '<img src=x onerror=alert(1)> note';
  benchmark.traps[0]!.trap.type = '<b>LATE</b>' as never;
  benchmark.checks.find((c) => c.check.id === '15.4')!.check.question = '<script>alert(2)</script>?';
  const html = renderRunReport(runView(run('chatbot-1'), benchmark), { nonce: 'x' });
  assert.ok(!html.includes('<img src=x') && !html.includes('<script>alert(2)') && !html.includes('<b>LATE'));
  assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt; note') && html.includes('🪤 &lt;b&gt;LATE&lt;/b&gt;'));
  assert.ok(html.includes('data-trap-type="&lt;b&gt;LATE&lt;/b&gt;"'));
});

test('Wilson intervals and the t interval of the mean on literal values', () => {
  const round = (pair: [number, number] | null) => pair && pair.map((x) => Math.round(x * 10_000) / 10_000);
  assert.deepEqual(round(wilson(0, 2)), [0, 0.6576]);
  assert.deepEqual(round(wilson(5, 10)), [0.2366, 0.7634]);
  assert.deepEqual(round(wilson(10, 10)), [0.7225, 1]);
  assert.equal(wilson(0, 0), null);
  assert.equal(meanInterval([5]), null, 'one run has no interval');
  const m = meanInterval([2, 2.4, 2])!;
  assert.equal(Math.round(m.mean * 1000) / 1000, 2.133);
  assert.deepEqual(
    m.interval.map((x) => Math.round(x * 1000) / 1000),
    [1.56, 2.707],
  );
});

test("trends of repeats: the average with its interval, each trap and check type's rate pooled over runs with its Wilson interval", () => {
  const t = computeTrends([run('chatbot-1'), run('chatbot-2'), run('chatbot-3')], () => ({ benchmark: multiday() }));
  const repeats = t.groups[0]!.repeats;
  assert.deepEqual(
    repeats.byTrapType.map((r) => [r.key, r.passed, r.graded]),
    [
      ['LATE-ADD', 0, 6],
      ['XREF', 0, 3],
      ['SELF-FIX', 0, 9],
    ],
  );
  assert.deepEqual(
    repeats.byCheckType.find((r) => r.key === 'RECALL') && [repeats.byCheckType.find((r) => r.key === 'RECALL')!.graded],
    [12],
  );
  assert.ok(repeats.average && repeats.average.interval[0] <= repeats.average.mean && repeats.average.mean <= repeats.average.interval[1]);
  const html = renderTrends(t, { nonce: 'x' });
  assert.match(html, /Over the 3 repeats/);
  assert.match(html, /Student t over the 3 run averages/);
  assert.match(
    html,
    /<tr data-rate="SELF-FIX"><td>SELF-FIX<\/td><td class="num">0\/9<\/td><td class="num">0 %<\/td><td class="num">0 %–30 %<\/td><\/tr>/,
  );
  assert.match(html, /the Wilson score interval/);
});

test('each grade stands in the conversation where the persona gave it; a failed one with the expected and given answers, escaped', () => {
  const state = run('chatbot-2');
  const v = runView(state, multiday());
  const exam = v.conversation.find((c) => c.chapter === 'exam.md')!;
  const grades = exam.items.flatMap((i) => (i.kind === 'grade' ? [i] : []));
  assert.equal(grades.length, 10);
  const given = state.grades['15.4']!.at(-1)!;
  const inline = grades.find((g) => g.check.id === '15.4' && g.standing)!;
  assert.equal(inline.at, given.at);
  // The grade comes after the agent's answer it judges and before the next persona message.
  const index = exam.items.indexOf(inline);
  assert.ok(exam.items.slice(0, index).some((i) => i.kind === 'message' && i.from === 'agent' && i.at <= given.at));
  const html = renderRunReport(v, { nonce: 'x' });
  const cards = [...html.matchAll(/<div class="grade-inline failed" data-check="15\.4"[^>]*>[\s\S]*?<\/dl><\/div>/g)].map((m) => m[0]);
  assert.equal(cards.length, 2, 'the replaced grade and the standing one');
  assert.ok(cards[0]!.includes('<span class="tag">2nd attempt</span><span class="tag">replaced by a later grade</span>'));
  const card = cards[1]!;
  assert.ok(card.includes('<span class="grade g-fair">4/10</span> graded'), 'the grade');
  assert.ok(
    card.includes(
      '<dt>got</dt><dd>About 5 km, I think &lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;</dd>',
    ),
    'the answer escaped',
  );
  assert.ok(card.includes('<dt>expected</dt>'));
  assert.match(
    html,
    /<div class="grade-inline" data-check="12\.1"[^>]*><span class="grade g-good">10\/10<\/span>/,
    'a passed grade without the detail',
  );
});

test("beside a failed answer, the agent's memory of that conversation, lines with the expected value marked, escaped and bounded", () => {
  const dir = mkdtempSync(join(tmpdir(), 'mmb-memory-'));
  try {
    mkdirSync(join(dir, 'memory', '2', 'notes'), { recursive: true });
    mkdirSync(join(dir, 'memory', '1'), { recursive: true });
    writeFileSync(
      join(dir, 'memory', '2', 'notes', 'runs.md'),
      '# Runs\nSunday 8 March: 5 km, no signal\nWednesday: 15 km <script>alert(9)</script>\n',
    );
    writeFileSync(join(dir, 'memory', '2', 'big.md'), 'y'.repeat(50_000));
    writeFileSync(join(dir, 'memory', '1', 'old.md'), 'nothing yet');
    const memory = readMemorySnapshots(dir);
    assert.deepEqual(
      memory.map((m) => [m.conversation, m.files.map((f) => [f.name, f.cut])]),
      [
        [1, [['old.md', false]]],
        [
          2,
          [
            ['big.md', true],
            ['notes/runs.md', false],
          ],
        ],
      ],
    );
    assert.equal(memory[1]!.files[0]!.text.length, 20_000, 'a file bounded');
    const state = run('chatbot-2');
    assert.equal(state.sessionSwitches.filter((s) => !s.ignored).length, 1, 'the exam is the second conversation');
    const html = renderRunReport(runView(state, multiday(), { memory }), { nonce: 'x' });
    const card =
      [...html.matchAll(/<div class="grade-inline failed" data-check="15\.4"[\s\S]*?<\/details><\/div>/g)].map((m) => m[0]).at(-1) ?? '';
    assert.ok(card.includes('The agent&#39;s memory after conversation 2: 2 files, 1 line holding the expected value'));
    assert.ok(
      card.includes('<span class="mem-line hit">Sunday 8 March: 5 km, no signal</span>'),
      '"5 km." marks the line with 5 as a whole number',
    );
    assert.ok(
      card.includes('<span class="mem-line">Wednesday: 15 km &lt;script&gt;alert(9)&lt;/script&gt;</span>'),
      '15 is not 5, and the text is escaped',
    );
    assert.ok(!html.includes('<script>alert(9)'));
    assert.deepEqual(readMemorySnapshots(join(dir, 'nowhere')), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
