/** The judge's agreement figures (judge/agreement.ts) against values computed by hand. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agreementOf, kappaCategory, passFailTable, passRate, quadraticKappa, retestOf, type ScorePair } from '../src/judge/agreement';
import { DEFAULT_PASS_SCORE } from '../src/protocol/scores';

const pairs = (list: [number, number][]): ScorePair[] => list.map(([gold, judge]) => ({ gold, judge }));

function near(actual: number | null, expected: number, what: string): void {
  assert.ok(actual !== null && Math.abs(actual - expected) < 1e-12, `${what}: ${actual} ≠ ${expected}`);
}

test('a symmetric disagreement: exact ½, MAE 2.5, bias 0, κ 7/11', () => {
  // Observed Σ(i−j)² = 25 + 25 = 50. Marginals {10:2, 0:1, 5:1} on both sides, so the expected
  // Σ r_i·c_j·(i−j)²/N = (200 + 50 + 200 + 25 + 50 + 25) / 4 = 137.5, and κ = 1 − 50/137.5 = 7/11.
  const figures = agreementOf(
    pairs([
      [10, 10],
      [0, 0],
      [10, 5],
      [5, 10],
    ]),
  );
  assert.equal(figures.count, 4);
  near(figures.exact, 0.5, 'exact');
  near(figures.meanAbsoluteError, 2.5, 'MAE');
  near(figures.bias, 0, 'bias');
  near(figures.kappa, 7 / 11, 'κ');
  assert.deepEqual(figures.passFail, { bothPass: 1, goldPassJudgeFail: 1, goldFailJudgePass: 1, bothFail: 1, agreement: 0.5 });
});

test('a lenient judge: bias and MAE 10/3, κ 0.4, the failing gold passed', () => {
  // Observed 100; marginals gold {0:2, 10:1}, judge {10:2, 0:1}: expected (2·2·100 + 1·1·100)/3 = 500/3, κ = 1 − 0.6.
  const figures = agreementOf(
    pairs([
      [0, 10],
      [10, 10],
      [0, 0],
    ]),
  );
  near(figures.exact, 2 / 3, 'exact');
  near(figures.meanAbsoluteError, 10 / 3, 'MAE');
  near(figures.bias, 10 / 3, 'bias');
  near(figures.kappa, 0.4, 'κ');
  assert.equal(figures.passFail.goldFailJudgePass, 1);
  near(figures.passFail.agreement, 2 / 3, '2×2 agreement');
});

test('a harsh judge has a negative bias', () => {
  near(agreementOf(pairs([[10, 0]])).bias, -10, 'bias');
});

test('κ is not defined when neither side varies, nor without pairs; the other figures are null without pairs', () => {
  assert.equal(quadraticKappa(pairs([[10, 10]])), null);
  assert.equal(quadraticKappa([]), null);
  const none = agreementOf([]);
  assert.deepEqual(
    [none.count, none.exact, none.meanAbsoluteError, none.bias, none.kappa, none.passFail.agreement],
    [0, null, null, null, null, null],
  );
});

test('half points round half up into the categories 0..10; the 2×2 keeps the score as it is', () => {
  assert.deepEqual([2.5, 7.5, 0.5, 10, -1, 11, 4.4].map(kappaCategory), [3, 8, 1, 10, 0, 10, 4]);
  // 2.5 and 3 share a category, so κ sees full agreement; the 2×2 sees 7.5 fail and 8 pass.
  near(
    quadraticKappa(
      pairs([
        [2.5, 3],
        [10, 10],
      ]),
    ),
    1,
    'κ',
  );
  assert.deepEqual(passFailTable(pairs([[7.5, 8]])), {
    bothPass: 0,
    goldPassJudgeFail: 0,
    goldFailJudgePass: 1,
    bothFail: 0,
    agreement: 0,
  });
});

test('pass rates at the pass score, the default from protocol/scores.ts', () => {
  assert.equal(DEFAULT_PASS_SCORE, 8);
  near(passRate([10, 8, 7.5, 0]), 0.5, 'at 8');
  near(passRate([10, 8, 7.5, 0], 7), 0.75, 'at 7');
  assert.equal(passRate([]), null);
});

test('test–retest: items graded twice or more, the share that changed, the mean spread', () => {
  const retest = retestOf([[10, 10, 10], [0, 5, 10], [5, 5], [7]]);
  assert.equal(retest.items, 3);
  assert.equal(retest.changed, 1);
  near(retest.changedShare, 1 / 3, 'changed share');
  near(retest.meanSpread, 10 / 3, 'mean spread');
  assert.deepEqual(retestOf([[4]]), { items: 0, changed: 0, changedShare: null, meanSpread: null });
});
