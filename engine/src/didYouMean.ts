/**
 * "Did you mean" for every name typed at `mmb`: run ids, `--benchmark`, agents, chapters of --from and
 * --filter, options, commands, judges, presets, result folders. One rule of nearness for the whole
 * project, the scenario's (`nearNames`: case-insensitive edit distance, a swap of two neighbouring
 * letters one edit, at most a quarter of the name's length), so the editor, `mmb check` and every
 * refusal of the CLI suggest the same names, in the same words.
 */
import { didYouMeanText, editDistance, nearNames } from '../../scenario/src/suggest';

/** A typed name longer than this gets no suggestion: a typo is short, and a pasted paragraph is not a name. */
const MAX_TYPED_LENGTH = 120;

/** The candidate nearest to `typed` (nearest first, then alphabetical), or undefined when none is near enough to be meant. */
export function didYouMean(typed: string, candidates: readonly string[]): string | undefined {
  return nearCandidates(typed, candidates, 1)[0];
}

/**
 * ` Did you mean \`x\`?` to end a refusal with (\`x\` or \`y\` when several are equally near, at most
 * three); the empty string when nothing is near. `… its runs: rehearsal. Did you mean \`rehearsal\`?`
 */
export function didYouMeanSentence(typed: string, candidates: readonly string[]): string {
  return didYouMeanText(nearestCandidates(typed, candidates));
}

/** The candidates `didYouMeanSentence` offers, for a caller that turns them into whole values (`chapter2.md` → `chapter2.md:1`). */
export function nearestCandidates(typed: string, candidates: readonly string[]): string[] {
  const near = nearCandidates(typed, candidates, 3);
  // `chaptr1.md` means chapter1.md, one edit away, not chapter2.md, two: only the nearest are offered.
  const nearest = Math.min(...near.map((name) => editDistance(typed, name)));
  return near.filter((name) => editDistance(typed, name) === nearest);
}

function nearCandidates(typed: string, candidates: readonly string[], max: number): string[] {
  if (typed.length > MAX_TYPED_LENGTH) return [];
  // The same name in another case is the name meant (`Rehearsal` for `rehearsal`): nearNames skips only the exact one.
  // A candidate that shares nothing with the name (`a` for a run typed `b`) is another name, not a typo of it.
  return nearNames(typed, candidates, max).filter((name) => editDistance(typed, name) < typed.length);
}
