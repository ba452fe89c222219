/**
 * Edit distance between two short strings, case-insensitive, where swapping two neighbouring
 * letters counts as one edit (optimal string alignment), since that is the commonest typo.
 */
export function editDistance(left: string, right: string): number {
  const s = left.toLowerCase();
  const t = right.toLowerCase();
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

/**
 * How much work "did you mean" may still do, in steps (a candidate looked at, a cell of an edit
 * distance). One budget is shared by a whole validation, so thousands of unknown names against
 * thousands of candidates stay linear: once it is spent, diagnostics come without suggestions.
 */
export interface SuggestionBudget {
  steps: number;
}

/** A validation's budget: enough for every suggestion of any real benchmark many times over. */
export function suggestionBudget(): SuggestionBudget {
  return { steps: 20_000_000 };
}

/** Names longer than this get no suggestions: a typo is short, and edit distance is quadratic. */
const MAX_SUGGESTED_LENGTH = 128;

/** The candidates close enough to `name` to be what the author meant, nearest first. */
export function nearNames(name: string, candidates: Iterable<string>, max = 3, budget?: SuggestionBudget): string[] {
  if (name.length > MAX_SUGGESTED_LENGTH) return [];
  const limit = Math.max(1, Math.floor(name.length / 4));
  const near = new Map<string, number>();
  for (const c of candidates) {
    if (budget) {
      if (budget.steps <= 0) break;
      budget.steps -= 1;
    }
    if (c === name || near.has(c) || Math.abs(c.length - name.length) > limit) continue;
    if (budget) budget.steps -= name.length * c.length;
    const d = editDistance(name, c);
    if (d <= limit) near.set(c, d);
  }
  return [...near]
    .sort(([x, dx], [y, dy]) => dx - dy || x.localeCompare(y))
    .slice(0, max)
    .map(([c]) => c);
}

/** `" Did you mean `x`?"`, or an empty string when nothing is near. */
export function didYouMeanText(suggestions: readonly string[]): string {
  if (suggestions.length === 0) return '';
  return ` Did you mean ${suggestions.map((s) => `\`${s}\``).join(' or ')}?`;
}

/**
 * The fact ids an unknown `N.M` may have meant, the one list both the diagnostic's "did you mean"
 * and its quick fixes offer: the live ids near it by spelling, then the ids of the same category
 * nearest by number (`1.9` on a category ending at 1.4 offers 1.4, 1.3, 1.2), or of the nearest
 * category; `max` at most.
 */
export function nearFactIds(wrong: string, live: readonly string[], max = 3, budget?: SuggestionBudget): string[] {
  const out = nearNames(wrong, live, max, budget);
  const [category = NaN, number = NaN] = wrong.split('.').map(Number);
  const parts = live.map((id) => ({ id, category: Number(id.split('.')[0]), number: Number(id.split('.')[1]) }));
  if (budget) budget.steps -= parts.length;
  const categories = [...new Set(parts.map((p) => p.category))];
  const nearest = categories.includes(category)
    ? category
    : categories.sort((a, b) => Math.abs(a - category) - Math.abs(b - category) || a - b)[0];
  const byNumber = parts
    .filter((p) => p.category === nearest)
    .sort((a, b) => Math.abs(a.number - number) - Math.abs(b.number - number) || a.number - b.number);
  for (const p of byNumber) {
    if (out.length >= max) break;
    if (!out.includes(p.id)) out.push(p.id);
  }
  return out;
}
