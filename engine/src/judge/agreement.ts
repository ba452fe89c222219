/**
 * How far a judge's grades agree with gold grades: pure statistics over pairs of effective scores
 * (0–10, after the second attempt's halving). The judge audit (`mmb judge audit`), `mmb regrade`
 * and `mmb doctor` read every agreement figure from here, so one figure means one thing everywhere.
 */
import { DEFAULT_PASS_SCORE, passes } from '../protocol/scores';

/** One graded item: the gold effective score and the judge's, both 0–10. */
export interface ScorePair {
  gold: number;
  judge: number;
}

/** Pass/fail at a pass score, gold by rows and the judge by columns. */
export interface PassFailTable {
  bothPass: number;
  /** Gold passes, the judge fails it: the judge is harsh here. */
  goldPassJudgeFail: number;
  /** Gold fails, the judge passes it: the judge is lenient here. */
  goldFailJudgePass: number;
  bothFail: number;
  /** Share of pairs on the same side of the pass score; null without pairs. */
  agreement: number | null;
}

export interface Agreement {
  count: number;
  /** Share of pairs with the same effective score; null without pairs. */
  exact: number | null;
  /** Mean of |judge − gold|; null without pairs. */
  meanAbsoluteError: number | null;
  /** Mean of judge − gold: above 0 the judge is lenient, below 0 harsh; null without pairs. */
  bias: number | null;
  /** Quadratic-weighted Cohen's κ; null without pairs or when neither side's grades vary. */
  kappa: number | null;
  passFail: PassFailTable;
}

/** Test–retest over repeated grading of the same items. */
export interface Retest {
  /** Items graded at least twice (a no-grade repeat is not a grade). */
  items: number;
  /** Items whose grade changed between repeats. */
  changed: number;
  /** changed / items; null when no item was graded twice. */
  changedShare: number | null;
  /** Mean over items of (highest − lowest grade); null when no item was graded twice. */
  meanSpread: number | null;
}

/** The categories of κ: the whole scores 0..10. */
const CATEGORIES = 11;

/** Two scores count as equal when they differ by less than this (effective scores are halves at finest). */
const SAME_SCORE = 1e-9;

function mean(values: readonly number[]): number | null {
  return values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : null;
}

/**
 * A score's κ category. A second attempt halves the score, so effective scores may end in .5; they
 * round half up (2.5 → 3, 7.5 → 8), the same for gold and judge, so equal scores always share a
 * category and a half point of difference counts as at most one category. Out of range clamps to 0..10.
 */
export function kappaCategory(score: number): number {
  return Math.min(CATEGORIES - 1, Math.max(0, Math.round(score)));
}

/**
 * Quadratic-weighted Cohen's κ over the 11 categories 0..10: 1 − Σ w·observed / Σ w·expected with
 * w = (i − j)², expected from the two raters' marginals. Null without pairs or when the expected
 * disagreement is 0 (both sides gave one category throughout: κ is not defined there).
 */
export function quadraticKappa(pairs: readonly ScorePair[]): number | null {
  if (!pairs.length) return null;
  const goldCounts = new Array<number>(CATEGORIES).fill(0);
  const judgeCounts = new Array<number>(CATEGORIES).fill(0);
  let observed = 0;
  for (const pair of pairs) {
    const gold = kappaCategory(pair.gold);
    const judge = kappaCategory(pair.judge);
    goldCounts[gold] = (goldCounts[gold] ?? 0) + 1;
    judgeCounts[judge] = (judgeCounts[judge] ?? 0) + 1;
    observed += (gold - judge) ** 2;
  }
  let expected = 0;
  goldCounts.forEach((goldCount, gold) =>
    judgeCounts.forEach((judgeCount, judge) => {
      expected += (goldCount * judgeCount * (gold - judge) ** 2) / pairs.length;
    }),
  );
  return expected === 0 ? null : 1 - observed / expected;
}

export function passFailTable(pairs: readonly ScorePair[], passScore: number = DEFAULT_PASS_SCORE): PassFailTable {
  const table = { bothPass: 0, goldPassJudgeFail: 0, goldFailJudgePass: 0, bothFail: 0 };
  for (const pair of pairs) {
    const goldPasses = passes(pair.gold, passScore);
    const judgePasses = passes(pair.judge, passScore);
    if (goldPasses && judgePasses) table.bothPass++;
    else if (goldPasses) table.goldPassJudgeFail++;
    else if (judgePasses) table.goldFailJudgePass++;
    else table.bothFail++;
  }
  const agreement = pairs.length ? (table.bothPass + table.bothFail) / pairs.length : null;
  return { ...table, agreement };
}

/** Every agreement figure of a list of pairs. */
export function agreementOf(pairs: readonly ScorePair[], passScore: number = DEFAULT_PASS_SCORE): Agreement {
  const exact = mean(pairs.map((pair) => (Math.abs(pair.judge - pair.gold) < SAME_SCORE ? 1 : 0)));
  return {
    count: pairs.length,
    exact,
    meanAbsoluteError: mean(pairs.map((pair) => Math.abs(pair.judge - pair.gold))),
    bias: mean(pairs.map((pair) => pair.judge - pair.gold)),
    kappa: quadraticKappa(pairs),
    passFail: passFailTable(pairs, passScore),
  };
}

/** Share of scores at or above the pass score (e.g. the judge's scores of the vague-but-topical answers); null for none. */
export function passRate(scores: readonly number[], passScore: number = DEFAULT_PASS_SCORE): number | null {
  return mean(scores.map((score) => (passes(score, passScore) ? 1 : 0)));
}

/** Test–retest: each entry is one item's effective scores over the repeats, no-grades left out. */
export function retestOf(gradesPerItem: readonly (readonly number[])[]): Retest {
  const repeated = gradesPerItem.filter((grades) => grades.length >= 2);
  const spreads = repeated.map((grades) => Math.max(...grades) - Math.min(...grades));
  const changed = spreads.filter((spread) => spread >= SAME_SCORE).length;
  return {
    items: repeated.length,
    changed,
    changedShare: repeated.length ? changed / repeated.length : null,
    meanSpread: mean(spreads),
  };
}
