/** Seeded draws a world is made with: a weighted choice and a shuffle, from the one generator given. */

/** A key drawn by its weight among `allowed`; keys at 0 are never drawn; undefined when all are 0. */
export function weighted<T extends string>(
  weights: Readonly<Record<T, number>>,
  allowed: readonly T[],
  random: () => number,
): T | undefined {
  const choices = allowed.filter((key) => (weights[key] ?? 0) > 0);
  const total = choices.reduce((sum, key) => sum + weights[key], 0);
  let draw = random() * total;
  for (const key of choices) if ((draw -= weights[key]) < 0) return key;
  return choices[choices.length - 1];
}

/** A shuffled copy (Fisher–Yates). */
export function shuffled<T>(list: readonly T[], random: () => number): T[] {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
