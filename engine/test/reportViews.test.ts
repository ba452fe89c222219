/** The report's view models on fixed state files: grades by type and chapter, trap links, conversation, cost, comparison, trends. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareRuns, comparisonText } from '../src/report/compare';
import { estimateCosts, priceOf, totalCost } from '../src/report/cost';
import { computeTrends, stats, trendsText, verdict } from '../src/report/trends';
import { runView } from '../src/report/runView';
import { joinedPattern, reportMultiday as multiday, reportRun as run, runOnStandIn, starter } from './helpers';

test('a run view: grades by check type and by chapter, imperfect answers linked to their trap writes', () => {
  const v = runView(run('chatbot-2'), multiday());
  assert.equal(v.summary.average, 2.4);
  assert.deepEqual(
    v.byType.map((g) => [g.key, g.checks, g.average]),
    [
      ['untyped', 1, 10],
      ['RECALL', 4, 1],
      ['HIST', 1, 0],
      ['SERIES', 2, 0],
      ['VOID', 1, 10],
      ['AGG', 1, 0],
    ],
  );
  assert.deepEqual(
    v.byChapter.map((g) => [g.key, g.checks, g.graded, g.average, g.perfect]),
    [
      ['week2.md', 1, 1, 10, 1],
      ['exam.md', 9, 9, 1.56, 1],
    ],
  );
  assert.deepEqual(
    v.imperfect.map((c) => c.id),
    ['15.1', '15.2', '15.3', '15.4', '15.5', '15.6', '15.8', '15.9'],
  );
  const c = v.imperfect.find((x) => x.id === '15.8')!;
  assert.deepEqual(c.source, { file: 'benchmarks/multiday/exam.md', line: 21 });
  assert.deepEqual(
    c.traps.map((t) => `${t.type} ${t.file}:${t.line}`),
    ['LATE-ADD benchmarks/multiday/week2.md:11', 'SELF-FIX benchmarks/multiday/week2.md:33'],
  );
  const flaky = v.imperfect.find((x) => x.id === '15.4')!;
  assert.deepEqual(flaky.grade, {
    score: 4,
    effective: 4,
    attempt: 1,
    got: 'About 5 km, I think <img src=x onerror="alert(1)"><script>alert(2)</script>',
    comment: 'right number, but hedged & "a guess"',
  });
  assert.equal(runView(run('chatbot-2'), multiday(), { benchmarkPath: 'b/m' }).checks[0]!.source.file, 'b/m/week2.md');
});

test('the conversation by chapter: phase boundaries, the session switch, the compaction and the clock jumps marked', () => {
  const chapters = runView(run('chatbot-1'), multiday()).conversation;
  assert.deepEqual(
    chapters.map((c) => [c.chapter, c.messages]),
    [
      ['week1.md', 28],
      ['week2.md', 20],
      ['exam.md', 20],
    ],
  );
  const markers = (i: number, kind: string) => chapters[i]!.items.flatMap((x) => (x.kind === 'marker' && x.marker === kind ? [x] : []));
  assert.deepEqual(
    markers(0, 'phase').map((m) => m.text),
    [
      'Phase 1/8 of week1.md — Day 1',
      'Phase 2/8 of week1.md — Day 2',
      'Phase 3/8 of week1.md — Day 3',
      'Phase 4/8 of week1.md — Day 4',
      'Phase 5/8 of week1.md — Day 5',
      'Phase 6/8 of week1.md — Day 6',
      'Phase 7/8 of week1.md — Day 7',
      'Phase 8/8 of week1.md — Day 8',
    ],
  );
  assert.deepEqual(markers(0, 'phase')[1]!.source, { file: 'benchmarks/multiday/week1.md', line: 14 });
  assert.equal(markers(0, 'time')[0]!.text, 'Virtual time jumps to 2026-03-01 20:30 (30 min skipped)');
  assert.deepEqual(
    markers(2, 'session').map((m) => m.text),
    ['the agent switches to a new conversation'],
  );
  assert.deepEqual(
    markers(2, 'compaction').map((m) => m.text),
    ["The persona's context was compacted: 6150 → 3353 tokens"],
  );
  const first = chapters[0]!.items.find((x) => x.kind === 'message');
  assert.equal(first?.kind === 'message' && first.from, 'persona');
});

test('cost: the stand-in costs 0, a listed model its list price, an unknown one no number; config prices override', () => {
  const usage = {
    'stand-in': { requests: 2, promptTokens: 1000, completionTokens: 10 },
    'openai/GPT-4o-mini': { requests: 1, promptTokens: 2_000_000, completionTokens: 1_000_000 },
    'deepseek-v4-flash': { requests: 1, promptTokens: 5, completionTokens: 5 },
  };
  const costs = estimateCosts(usage);
  assert.deepEqual(
    costs.map((c) => [c.model, c.cost]),
    [
      ['stand-in', 0],
      ['openai/GPT-4o-mini', 0.9],
      ['deepseek-v4-flash', null],
    ],
  );
  assert.deepEqual(totalCost(costs), { known: 0.9, unknownModels: ['deepseek-v4-flash'] });
  assert.deepEqual(priceOf('deepseek-v4-flash', { 'deepseek-v4-flash': { input: 0.1, output: 0.2 } }), { input: 0.1, output: 0.2 });
  assert.deepEqual(priceOf('gpt-4o', { 'gpt-4o': { input: 1, output: 1 } }), { input: 1, output: 1 });
});

test('comparison: check by check, the checks whose grade differs first, most spread first', () => {
  const c = compareRuns([run('chatbot-1'), run('in-context'), run('chatbot-2')], multiday());
  assert.deepEqual(
    c.runs.map((r) => [r.run, r.average, r.sessionBreaksIgnored]),
    [
      ['chatbot-1', 2, false],
      ['in-context', 2.33, true],
      ['chatbot-2', 2.4, false],
    ],
  );
  assert.equal(c.differing, 4);
  assert.deepEqual(
    c.rows.map((r) => `${r.id}${r.differs ? '*' : ''}`),
    ['15.3*', '15.7*', '15.4*', '15.9*', '12.1', '15.1', '15.2', '15.5', '15.6', '15.8'],
  );
  assert.deepEqual(
    c.rows[0]!.cells.map((g) => g && `${g.effective}/${g.attempt}`),
    ['0/2', '10/1', '0/2'],
  );
  assert.equal(
    comparisonText(c),
    [
      'check   chatbot-1   in-context  chatbot-2',
      'average 2.00        2.33        2.40',
      '15.3    0*          10          0*          What distance did the app show for that Wednesday run before',
      '15.7    10          0           10          What was my resting heart rate this week?',
      '15.4    0*          0*          4           How far did I run on Sunday, 8 March, the day without signal',
      '15.9    0*          3.3         0*          On which days did I do parkrun, and what was my best time?',
      '4 of 10 checks differ; 6 graded the same (* = 2nd attempt)',
      'chatbot-1 vs in-context: 3 of 10 checks differ',
      'chatbot-1 vs chatbot-2: 1 of 10 checks differ',
      'in-context vs chatbot-2: 4 of 10 checks differ',
      '',
    ].join('\n'),
  );
  const other = { ...run('chatbot-1'), run: 'x', benchmark: 'starter' };
  assert.throws(() => compareRuns([run('chatbot-1'), other], multiday()), /run x is of benchmark starter, not multiday/);
});

test('trends: repeats grouped by configuration; mean and spread per check and trap type; a flaky check told from a failing one', () => {
  const crashed = { ...run('chatbot-3'), run: 'chatbot-4', status: 'crashed' as const };
  const t = computeTrends([run('in-context'), run('chatbot-3'), run('chatbot-1'), run('chatbot-2'), crashed], () => ({
    benchmark: multiday(),
  }));
  assert.deepEqual(
    t.groups.map((g) => [g.agent, g.sessionBreaksIgnored, g.runs.map((r) => r.run)]),
    [
      ['chatbot', false, ['chatbot-1', 'chatbot-2', 'chatbot-3']],
      ['chatbot', true, ['in-context']],
    ],
  );
  assert.deepEqual(t.skipped, [{ run: 'chatbot-4', reason: 'crashed' }]);
  const g = t.groups[0]!;
  assert.deepEqual(g.average, { n: 3, mean: 2.13, min: 2, max: 2.4, stddev: 0.19 });
  const check = (id: string) => g.checks.find((c) => c.id === id)!;
  assert.deepEqual(
    [check('15.4').grades, check('15.4').stats, check('15.4').verdict],
    [[0, 4, 0], { n: 3, mean: 1.33, min: 0, max: 4, stddev: 1.89 }, 'flaky'],
  );
  assert.equal(check('15.1').verdict, 'failing');
  assert.equal(check('12.1').verdict, 'stable');
  assert.deepEqual(
    g.traps.map((x) => [x.type, x.checks, x.grades, x.verdict]),
    [
      ['LATE-ADD', ['15.4', '15.8'], [0, 2, 0], 'failing'],
      ['XREF', ['15.1'], [0, 0, 0], 'failing'],
      ['SELF-FIX', ['15.2', '15.3', '15.8'], [0, 0, 0], 'failing'],
    ],
  );
  assert.equal(
    computeTrends([run('chatbot-1'), run('chatbot-2')], () => ({ benchmark: multiday() }), 5).groups[0]!.checks.find(
      (c) => c.id === '15.4',
    )!.verdict,
    'failing',
    'a higher threshold',
  );
  assert.match(
    trendsText(t),
    joinedPattern([
      /^multiday @ chatbot on the stand-in: 3 runs \(chatbot-1, chatbot-2, chatbot-3\), /,
      /mean 2\.13, 2\.00–2\.40\n {2}flaky: {3}15\.4 \(0–4\)\n/,
    ]),
  );
  assert.match(trendsText(t), /^left out: chatbot-4 \(crashed\)$/m);
});

test('stats and verdicts on literal values', () => {
  assert.equal(stats([]), null);
  assert.deepEqual(stats([10, 10, 7]), { n: 3, mean: 9, min: 7, max: 10, stddev: 1.41 });
  assert.equal(verdict(stats([10, 10, 7]), 3), 'flaky');
  assert.equal(verdict(stats([10, 10, 8]), 3), 'stable');
  assert.equal(verdict(stats([6, 7, 7]), 3), 'failing');
  assert.equal(verdict(null, 3), 'ungraded');
});

test("the agent's own model use is counted and priced beside the persona's, for the chatbot and the notebook", async () => {
  for (const agent of [undefined, 'notebook']) {
    const { state } = await runOnStandIn(starter(), agent ? { agent } : {});
    const replies = state.transcript.filter((e) => e.from === 'agent').length;
    const usage = state.agentStatus?.usage?.['stand-in'];
    assert.ok(usage, `${agent ?? 'chatbot'} reports its model's usage`);
    if (!agent) assert.equal(usage.requests, replies, 'the chatbot: one request a reply');
    else assert.ok(usage.requests > replies, 'the notebook: tool rounds and consolidations too');
    assert.ok(usage.promptTokens > 0 && usage.completionTokens > 0);
    const costs = runView(state, starter()).costs;
    assert.deepEqual(
      costs.map((c) => [c.model, c.cost]),
      [
        ['stand-in', 0],
        ['stand-in (agent)', 0],
      ],
    );
    assert.equal(costs[1]!.requests, usage.requests);
  }
});
