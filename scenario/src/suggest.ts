/**
 * Edit distance between two short strings, case-insensitive, where swapping two neighbouring
 * letters counts as one edit (optimal string alignment), since that is the commonest typo.
 */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const rows: number[][] = [Array.from({ length: t.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min((rows[i - 1]?.[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (rows[i - 1]?.[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d = Math.min(d, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      row.push(d);
    }
    rows.push(row);
  }
  return rows[s.length]?.[t.length] ?? 0;
}

/** The candidates close enough to `name` to be what the author meant, nearest first. */
export function nearNames(name: string, candidates: Iterable<string>, max = 3): string[] {
  const limit = Math.max(1, Math.floor(name.length / 4));
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
