/** What the benches print of a series of times: the median and the range, and A/B runs interleaved. */

export function median(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** `median 12.3 ms (min–max 10.1–20.4, n = 30)`; `unit` for other measures than milliseconds. */
export function summary(values: readonly number[], unit = 'ms', digits = 1): string {
  const fixed = (v: number) => v.toFixed(digits);
  return (
    `median ${fixed(median(values))} ${unit} ` +
    `(min–max ${fixed(Math.min(...values))}–${fixed(Math.max(...values))}, n = ${values.length})`
  );
}

/**
 * Runs A and B alternately, A B A B…, so that a machine busy with other work slows both alike;
 * returns each side's times and the ratio of each pair (A ÷ B).
 */
export async function interleaved(
  rounds: number,
  runA: () => Promise<number> | number,
  runB: () => Promise<number> | number,
): Promise<{ a: number[]; b: number[]; ratios: number[] }> {
  const out = { a: [] as number[], b: [] as number[], ratios: [] as number[] };
  for (let i = 0; i < rounds; i++) {
    const timeA = await runA();
    const timeB = await runB();
    out.a.push(timeA);
    out.b.push(timeB);
    out.ratios.push(timeA / timeB);
  }
  return out;
}

/** The time one call takes, in milliseconds. */
export async function timed(fn: () => unknown): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}
