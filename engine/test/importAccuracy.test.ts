/**
 * The dataset's metric in the report: accuracy per question type with 95 % Wilson intervals,
 * pooled over the full runs of imported benchmarks by dataset and agent (a stand-in rehearsal
 * apart, partial runs and other benchmarks not counted), as literal figures and lines, for each dataset.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { datasetAccuracy, datasetAccuracyLines, ON_POLICY_NOTE, type DatasetRunFigures } from '../src/report/datasetAccuracy';

const run = (title: string, scores: number[], more: Partial<DatasetRunFigures> = {}): DatasetRunFigures => ({
  title,
  agent: 'hermes',
  standIn: false,
  partial: false,
  grades: scores.map((score, k) => ({ id: `1.${k + 1}`, score })),
  ...more,
});

const RUNS: DatasetRunFigures[] = [
  run('LongMemEval q1 · knowledge-update', [10]),
  run('LongMemEval q2 · knowledge-update', [8]),
  run('LongMemEval q3 · knowledge-update', [7.5]),
  run('LongMemEval q4 · multi-session', [0]),
  run('LongMemEval q5 · multi-session', [10], { partial: true }),
  run('LongMemEval q6 · multi-session', [10], { agent: 'chatbot', standIn: true }),
  run('Starter: Sam moves flat', [10, 10]),
  run('LongMemEval q7 · temporal-reasoning', []),
];

test('accuracy per type: checks at or above the pass score of those graded, with 95 % Wilson intervals', () => {
  const groups = datasetAccuracy(RUNS, 8);
  assert.deepEqual(
    groups.map((g) => [g.group, g.runs]),
    [
      ['LongMemEval @ chatbot on the stand-in', 1],
      ['LongMemEval @ hermes', 5],
    ],
  );
  const hermes = groups[1]!;
  const figures = hermes.rates.map((r) => [r.key, r.passed, r.graded, r.rate === null ? null : Number(r.rate.toFixed(4))]);
  assert.deepEqual(figures, [
    ['knowledge-update', 2, 3, 0.6667],
    ['multi-session', 0, 1, 0],
    ['temporal-reasoning', 0, 0, null],
    ['all', 2, 4, 0.5],
  ]);
  const intervals = hermes.rates.map((r) => r.interval?.map((x) => Number(x.toFixed(4))) ?? null);
  assert.deepEqual(intervals, [[0.2077, 0.9385], [0, 0.7935], null, [0.15, 0.85]]);
  // The pass score moves the line: at 7, the 7.5 counts.
  assert.equal(datasetAccuracy(RUNS, 7)[1]!.rates[0]!.passed, 3);
});

test('the lines: a heading per group, a row per type, the on-policy note once; none without an imported run', () => {
  assert.deepEqual(datasetAccuracyLines(datasetAccuracy(RUNS, 8), 8), [
    'LongMemEval @ chatbot on the stand-in: accuracy (a check at or above 8/10 counts as correct) over 1 run, with 95 % Wilson intervals:',
    '  multi-session      1/1  100 % (21–100 %)',
    '  all                1/1  100 % (21–100 %)',
    'LongMemEval @ hermes: accuracy (a check at or above 8/10 counts as correct) over 5 runs, with 95 % Wilson intervals:',
    '  knowledge-update        2/3  67 % (21–94 %)',
    '  multi-session           0/1  0 % (0–79 %)',
    '  temporal-reasoning      0/0  —',
    '  all                     2/4  50 % (15–85 %)',
    ON_POLICY_NOTE,
  ]);
  assert.deepEqual(datasetAccuracyLines(datasetAccuracy([run('Starter: Sam moves flat', [10])], 8), 8), []);
});

test("LoCoMo: each check's category is its id's first number", () => {
  const grades = [
    { id: '2.1', score: 10 },
    { id: '2.2', score: 3 },
    { id: '5.1', score: 10 },
    { id: '1.1', score: 0 },
    { id: '4.1', score: 9 },
    { id: '9.1', score: 10 },
  ];
  const [locomo] = datasetAccuracy([run('LoCoMo conv-26 · by category', [], { grades })], 8);
  assert.deepEqual(
    locomo!.rates.map((r) => `${r.key} ${r.passed}/${r.graded}`),
    ['adversarial 1/1', 'multi-hop 0/1', 'other 1/1', 'single-hop 1/1', 'temporal 1/2', 'all 4/6'],
  );
  assert.equal(locomo!.group, 'LoCoMo @ hermes');
});

test('MemoryAgentBench: each row is of one type, single-hop or multi-hop, pooled over rows of every length', () => {
  const rows = [
    run('MemoryAgentBench factconsolidation_sh_6k · single-hop', [10, 0, 9]),
    run('MemoryAgentBench factconsolidation_sh_32k · single-hop', [0]),
    run('MemoryAgentBench factconsolidation_mh_6k · multi-hop', [10, 2]),
  ];
  const [mab] = datasetAccuracy(rows, 8);
  assert.equal(mab!.group, 'MemoryAgentBench @ hermes');
  assert.equal(mab!.runs, 3);
  assert.deepEqual(
    mab!.rates.map((r) => `${r.key} ${r.passed}/${r.graded}`),
    ['multi-hop 1/2', 'single-hop 2/4', 'all 3/6'],
  );
});
