/** Edit distance between two short strings (Levenshtein, case-insensitive). */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      row.push(Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost));
    }
    prev = row;
  }
  return prev[t.length] ?? 0;
}

/** The candidates close enough to `name` to be what the author meant, nearest first. */
export function nearNames(name: string, candidates: Iterable<string>, max = 3): string[] {
  const limit = Math.max(1, Math.floor(name.length / 3));
  return [...new Set(candidates)]
    .map((c) => ({ c, d: editDistance(name, c) }))
    .filter(({ c, d }) => d <= limit && c !== name)
    .sort((x, y) => x.d - y.d || x.c.localeCompare(y.c))
    .slice(0, max)
    .map(({ c }) => c);
}

/** `" Did you mean `x`?"`, or an empty string when nothing is near. */
export function didYouMean(suggestions: readonly string[]): string {
  if (suggestions.length === 0) return '';
  return ` Did you mean ${suggestions.map((s) => `\`${s}\``).join(' or ')}?`;
}
