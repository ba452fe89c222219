/**
 * A check's correct answer as the facts the stand-in grader looks for, and how a reply's words and
 * values are found. The answer's main part ("£1,290") holds the facts that count; its bracketed
 * part ("(£950 rent + £340 movers)") holds the working, the parts an aggregate's score falls back
 * on when the total is missing. Facts are split at commas, semicolons, "+" and "and".
 */
import { STOP_WORDS } from '../../../scenario/src/plainText';
import { digitsForWords } from './numberWords';
import { quantities, sameQuantity, type Quantity } from './quantities';

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

/** Weekdays as agents shorten them ("Tue & Thu"). */
const WEEKDAYS: Record<string, string> = {
  mon: 'monday',
  tue: 'tuesday',
  tues: 'tuesday',
  wed: 'wednesday',
  thu: 'thursday',
  thur: 'thursday',
  thurs: 'thursday',
  fri: 'friday',
  sat: 'saturday',
  sun: 'sunday',
};

/** Significant words with their positions, lower case, roughly stemmed; letters and digits together ("rav4", "cx-5") are words. */
export function termsOf(text: string): Term[] {
  return [...text.toLowerCase().matchAll(/\p{L}[\p{L}\d'’-]*/gu)]
    .map((match) => ({ term: (match[0] ?? '').replace(/['’]s$/, '').replace(/[-'’]+$/, ''), index: match.index ?? 0 }))
    .map(({ term, index }) => ({ term: WEEKDAYS[term.replace(/\.$/, '')] ?? term, index }))
    .filter(({ term }) => term.length > 2 && !STOP.has(term))
    .map(({ term, index }) => ({ term: term.replace(/(?<=[a-z]{3})(ing|ed|es|e|s)$/, ''), index }));
}

/** Two stemmed words are one when equal or when they share most of a long beginning ("agent", "agency"). */
export function sameTerm(a: string, b: string): boolean {
  if (a === b) return true;
  let common = 0;
  while (common < a.length && a[common] === b[common]) common++;
  return common >= 4 && common >= 0.8 * Math.min(a.length, b.length);
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
/** Inside a single fact that is no aggregate, a time after a day is a fact of its own: "on the 14th at 11:00". */
const AT_A_VALUE = /\s+at\s+(?=[$£€\d])/;
const CALENDAR_WORDS = /^(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/i;

function splitFacts(text: string, separator: RegExp = FACT_SEPARATOR): Fact[] {
  return text
    .split(separator)
    .map(factOf)
    .filter((fact) => fact.values.length > 0 || fact.words.length > 0);
}

/** "Toyota RAV4 $24,000" is two facts, the car and its price: a name (capitalised, no weekday or month) before a value. */
function namesAndValues(fact: Fact): Fact[] {
  const firstValue = fact.values[0];
  if (!firstValue) return [fact];
  const before = fact.text.slice(0, firstValue.start);
  const named = [...before.matchAll(/[\p{Lu}][\p{L}\d-]*/gu)].some((match) => !CALENDAR_WORDS.test(match[0]));
  return named ? [factOf(before), factOf(fact.text.slice(firstValue.start))] : [fact];
}

/**
 * The parts of an aggregate's working. Parts split by semicolons when each gives values of its own
 * ("the living room …, $936; the bedroom 10.4 m², $468"); a segment that repeats another's value
 * is a note ("the $500 deposit is part of the 24,000") and no part; else at commas and "+".
 */
function partsOf(inner: string): Fact[] {
  const segments = inner.split(/;\s*/).map(factOf);
  const notes = segments.filter((segment) =>
    segments.some((other) => other !== segment && segment.values.some((value) => other.values.some((its) => sameQuantity(value, its)))),
  );
  const kept = segments.filter((segment) => !notes.includes(segment) || segment === segments[0]);
  if (kept.length > 1 && kept.every((segment) => segment.values.length > 1)) return kept;
  return kept.flatMap((segment) => splitFacts(segment.text));
}

/** The facts of a correct answer. Number words count only in an answer without digits ("five nights", not "the two of us"). */
export function answerFacts(type: string | undefined, answer: string): AnswerFacts {
  const text = /\d/.test(answer) ? answer : digitsForWords(answer);
  const bracketed = [...text.matchAll(/\(([^()]*(?:\([^()]*\)[^()]*)*)\)/g)].map((match) => match[1] ?? '');
  const outside = text.replace(/\([^()]*(?:\([^()]*\)[^()]*)*\)/g, ' ');
  // What follows a dash explains the answer ("$55 per m² — the same tile as in the bathroom").
  const said = outside.split(/\s[—–-]\s/)[0] ?? '';
  const parts = bracketed.flatMap((inner) => partsOf(inner.replace(/\([^()]*\)/g, ' ')));
  const saidFacts = splitFacts(said);
  const first = saidFacts[0];
  const aggregate = type === 'AGG' || type === 'NEG';
  if (first !== undefined && first.values[0]?.start === 0 && aggregate)
    return { main: saidFacts, parts, values: quantities(text), total: first };
  const main = aggregate ? saidFacts : saidFacts.flatMap((fact) => splitFacts(fact.text, AT_A_VALUE)).flatMap(namesAndValues);
  return { main, parts, values: quantities(text) };
}
