/**
 * Pass rates and their intervals, for one run or pooled over several: a rate is given with its
 * Wilson score interval, which stays inside 0–100 % and is honest for a few dozen checks; the mean
 * of repeated runs' averages with a Student t interval. Pure numbers, no run or benchmark, so the
 * trap story, the trends and the datasets' metric all count the same way.
 */

/** Checks of a kind (a trap type, a check type) that passed, of those graded. */
export interface Rate {
  key: string;
  passed: number;
  graded: number;
  /** passed / graded, 0–1; null when none was graded. */
  rate: number | null;
  /** 95 % Wilson score interval of the rate, 0–1; null when none was graded. */
  interval: [number, number] | null;
}

/** A rate with its 95 % Wilson interval. */
export function rate(key: string, passed: number, graded: number): Rate {
  return { key, passed, graded, rate: graded ? passed / graded : null, interval: wilson(passed, graded) };
}

/**
 * The Wilson score interval of `passed` successes in `trials` trials at 95 % (z = 1.96): unlike the
 * normal approximation it never leaves 0–1 and does not collapse to a point at 0 or 1.
 */
export function wilson(passed: number, trials: number, z = 1.96): [number, number] | null {
  if (trials <= 0) return null;
  const p = passed / trials;
  const denominator = 1 + (z * z) / trials;
  const centre = (p + (z * z) / (2 * trials)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / trials + (z * z) / (4 * trials * trials))) / denominator;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** Rates of several runs pooled by key: the checks of every run counted together, in first-seen order. */
export function pooledRates(perRun: readonly (readonly Rate[])[]): Rate[] {
  const sums = new Map<string, { passed: number; graded: number }>();
  for (const rates of perRun) {
    for (const r of rates) {
      const sum = sums.get(r.key) ?? { passed: 0, graded: 0 };
      sums.set(r.key, { passed: sum.passed + r.passed, graded: sum.graded + r.graded });
    }
  }
  return [...sums].map(([key, s]) => rate(key, s.passed, s.graded));
}

/** Student's t quantiles (97.5 %) for 1–30 degrees of freedom; past that, 1.96. */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086,
  2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** The mean of repeated runs' averages with its 95 % Student t interval (sample standard deviation); null under two runs. */
export function meanInterval(values: readonly number[]): { mean: number; interval: [number, number] } | null {
  if (values.length < 2) return null;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1));
  const half = (T975[values.length - 2] ?? 1.96) * (sd / Math.sqrt(values.length));
  return { mean, interval: [Math.max(0, mean - half), Math.min(10, mean + half)] };
}
