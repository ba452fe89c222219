/** Small text tools of the stand-in model: words, numbers, token estimates. */
import { STOP_WORDS } from '../../../scenario/src/plainText';

/** The words of a request to a memory agent on top of the function words: "tell me", "search your notes". */
const STOP = new Set([...STOP_WORDS, ...'tell say said search memory notes first end'.split(' ')]);

/**
 * Significant words, lower case, roughly stemmed (`quoted`, `quotes` → `quot`). Not `words` of
 * scenario/src/plainText on purpose: the stand-in keeps `follow-up` and `don't` whole and drops a
 * possessive `'s`, and its recall (and the figures of every stand-in run) rests on that.
 */
export function keywords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z][a-z'’-]+/g) ?? [])
    .map((w) => w.replace(/['’]s$/, ''))
    .filter((w) => w.length > 2 && !STOP.has(w))
    .map((w) => w.replace(/(?<=[a-z]{3})(ing|ed|es|e|s)$/, ''));
}

/** Numbers and clock times as written, without thousands separators: `£1,290` → `1290`. */
export function numbers(text: string): string[] {
  return (text.match(/\d[\d,]*(?:\.\d+)?(?::\d\d)?/g) ?? []).map((n) => n.replace(/,(?=\d{3}\b)/g, '').replace(/,$/, ''));
}

/** A rough token count (4 characters a token): deterministic, for the stand-in's usage figures. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

const DONT_KNOW_PHRASES = [
  'never told',
  "didn[’']t tell",
  'did not tell',
  "haven[’']t told",
  'have not told',
  "don[’']t know",
  'do not know',
  'no record',
  'not sure',
  "can[’']t find",
  'cannot find',
  'no information',
];
const DONT_KNOW = new RegExp(DONT_KNOW_PHRASES.join('|'), 'i');

export function saysDontKnow(reply: string): boolean {
  return DONT_KNOW.test(reply);
}
