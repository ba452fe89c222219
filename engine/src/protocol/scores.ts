/**
 * Score bands, one rule for every view (code lenses, decorations, the run panel, the Test
 * Explorer, the HTML report): a standing grade (0–10, after the second-attempt halving) is
 * `good` from the pass score, `fair` from half of it, `poor` below. The pass score is the
 * editor's `marathonMemBench.passScore` setting (8 unless set); a check passes in the Test
 * Explorer, and its lens shows ✓, exactly when it is `good`.
 */

export type ScoreBand = 'good' | 'fair' | 'poor';

export const SCORE_BANDS: readonly ScoreBand[] = ['good', 'fair', 'poor'];

/** The pass score when none is set: the default of `marathonMemBench.passScore`. */
export const DEFAULT_PASS_SCORE = 8;

/** A pass score from a setting: a number from 0 to 10, or the default (settings are user text). */
export function validPassScore(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 10 ? value : DEFAULT_PASS_SCORE;
}

export function scoreBand(score: number, passScore: number = DEFAULT_PASS_SCORE): ScoreBand {
  return score >= passScore ? 'good' : score >= passScore / 2 ? 'fair' : 'poor';
}

export function passes(score: number, passScore: number = DEFAULT_PASS_SCORE): boolean {
  return scoreBand(score, passScore) === 'good';
}

/** A run's average as every view says it (the run view, the panel, the runs index): `2.00/10`, `—` before any grade. */
export function averageLabel(average: number | null | undefined): string {
  return average === null || average === undefined || !Number.isFinite(average) ? '—' : `${average.toFixed(2)}/10`;
}
