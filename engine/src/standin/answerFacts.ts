/**
 * A check's correct answer as the facts the stand-in grader looks for, and how a reply's words and
 * values are found. The answer's main part ("£1,290") holds the facts that count; its bracketed
 * part ("(£950 rent + £340 movers)") holds the working, the parts an aggregate's score falls back
 * on when the total is missing. Facts are split at commas, semicolons, "+" and "and".
 */
import { STOP_WORDS } from '../../../scenario/src/plainText';
import { digitsForWords } from './numberWords';
import { quantities, type Quantity } from './quantities';

export interface Fact {
  text: string;
  /** The values the fact gives; a fact with none is looked for by its words. */
  values: Quantity[];
  words: string[];
  /** "no wine fridge": right when the reply leaves it out or says it is out. */
  negated: boolean;
}

export interface AnswerFacts {
  main: Fact[];
  /** The bracketed working of the answer. */
  parts: Fact[];
  /** Every value the answer names, main and working: none of them is a wrong value in a reply. */
  values: Quantity[];
  /** The total, when an aggregate's answer starts with it. */
  total?: Fact;
}

/** Words that say nothing about the fact: "the", "our", "about". */
const STOP = new Set([...STOP_WORDS, ...'around about approximately roughly per up each same both all total'.split(' ')]);

/** A word and where it starts. */
export interface Term {
  term: string;
  index: number;
}

/** Significant words with their positions, lower case, roughly stemmed; letters and digits together ("rav4", "cx-5") are words. */
export function termsOf(text: string): Term[] {
  return [...text.toLowerCase().matchAll(/\p{L}[\p{L}\d'’-]*/gu)]
    .map((match) => ({ term: (match[0] ?? '').replace(/['’]s$/, '').replace(/[-'’]+$/, ''), index: match.index ?? 0 }))
    .filter(({ term }) => term.length > 2 && !STOP.has(term))
    .map(({ term, index }) => ({ term: term.replace(/(?<=[a-z]{3})(ing|ed|es|e|s)$/, ''), index }));
}

function factOf(text: string): Fact {
  const trimmed = text.trim().replace(/[.!?]+$/, '');
  return {
    text: trimmed,
    values: quantities(trimmed),
    words: [...new Set(termsOf(trimmed).map((term) => term.term))],
    negated: /^(?:no|not|without)\b/i.test(trimmed),
  };
}

const FACT_SEPARATOR = /;\s*|,\s+|\s+\+\s+|\s+and\s+|\s+&\s+/;

function splitFacts(text: string): Fact[] {
  return text
    .split(FACT_SEPARATOR)
    .map(factOf)
    .filter((fact) => fact.values.length > 0 || fact.words.length > 0);
}

/** The facts of a correct answer. Number words count only in an answer without digits ("five nights", not "the two of us"). */
export function answerFacts(type: string | undefined, answer: string): AnswerFacts {
  const text = /\d/.test(answer) ? answer : digitsForWords(answer);
  const bracketed = [...text.matchAll(/\(([^()]*(?:\([^()]*\)[^()]*)*)\)/g)].map((match) => match[1] ?? '');
  const outside = text.replace(/\([^()]*(?:\([^()]*\)[^()]*)*\)/g, ' ');
  // What follows a dash explains the answer ("$55 per m² — the same tile as in the bathroom").
  const main = splitFacts(outside.split(/\s[—–-]\s/)[0] ?? '');
  const parts = bracketed.flatMap((inner) => splitFacts(inner.replace(/\([^()]*\)/g, ' ')));
  const first = main[0];
  const startsWithValue = first !== undefined && first.values[0]?.start === 0;
  return {
    main,
    parts,
    values: quantities(text),
    ...(startsWithValue && (type === 'AGG' || type === 'NEG') ? { total: first } : {}),
  };
}
