/**
 * A check's stale values as the stand-in grader uses them: each with the value of the correct answer
 * it stands in for, so that "$1,500 sofa budget" is held against the sofa's $1,450 and not against
 * the curtains' $250. A stale value goes with the answer's fact that shares its words ("sofa"), else
 * with the answer's value that measures the same thing and is closest in size ($1,000 for $1,100).
 * A stale value whose fact has no value (a cancelled "TV wall $400") stands in for nothing: the
 * answer's "no TV wall" judges it.
 */
import { sameTerm, termsOf, type AnswerFacts } from './answerFacts';
import { quantities, sameQuantity, type Quantity } from './quantities';

export interface StaleValue {
  old: Quantity;
  replaces: Quantity | undefined;
}

export interface Stale {
  values: StaleValue[];
  /** Words of a stale value that has no number ("locked"), absent from the answer. */
  words: Set<string>;
}

const roleOf = (quantity: Quantity) => quantity.readings[0]?.dimension ?? '';
const amountOf = (quantity: Quantity) => Math.abs(quantity.readings[0]?.amount ?? 0) + 1e-9;

/** Of the values, the one measuring the same thing as `old` (or any, when none does) closest to it in size. */
function closestOf(old: Quantity, values: readonly Quantity[]): Quantity | undefined {
  const sameKind = values.filter((value) => roleOf(value) === roleOf(old));
  const distance = (value: Quantity) => Math.abs(Math.log(amountOf(value) / amountOf(old)));
  return [...(sameKind.length ? sameKind : values)].sort((a, b) => distance(a) - distance(b))[0];
}

/** The stale values of a check, each with the answer's value it stands in for; those the answer itself gives are none. */
export function staleOf(strings: readonly string[], facts: AnswerFacts): Stale {
  const allFacts = [...facts.main, ...facts.parts];
  const expectedWords = allFacts.flatMap((fact) => fact.words);
  const values: StaleValue[] = [];
  const words = new Set<string>();
  for (const text of strings) {
    const olds = quantities(text).filter((old) => !facts.values.some((wanted) => sameQuantity(wanted, old)));
    const terms = termsOf(text).map((term) => term.term);
    if (olds.length === 0) {
      // A stale value of a few words ("locked"), not a whole old sentence.
      if (terms.length <= 3) for (const term of terms) if (!expectedWords.some((word) => sameTerm(word, term))) words.add(term);
      continue;
    }
    const shared = (words: readonly string[]) => terms.filter((term) => words.some((word) => sameTerm(word, term))).length;
    const best = [...allFacts].sort((a, b) => shared(b.words) - shared(a.words))[0];
    const candidates = best && shared(best.words) > 0 ? best.values : facts.values;
    for (const old of olds) values.push({ old, replaces: candidates.length ? closestOf(old, candidates) : undefined });
  }
  return { values, words };
}
