/**
 * Numbers written as words, rewritten as digits for the stand-in grader: "four thousand" is 4000,
 * "eight point four" is 8.4, "ninth floor" is "9th floor", "an hour and a half" is "1.5 hour".
 * Only the words are changed; the rest of the text stays as it was, so positions keep their sense.
 */

const UNITS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const SCALES: Record<string, number> = { hundred: 100, thousand: 1000, million: 1_000_000 };
const ORDINALS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  thirteenth: 13,
  fourteenth: 14,
  fifteenth: 15,
  sixteenth: 16,
  seventeenth: 17,
  eighteenth: 18,
  nineteenth: 19,
  twentieth: 20,
  thirtieth: 30,
};
const MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december';

const CARDINAL = [...Object.keys(UNITS), ...Object.keys(TENS), ...Object.keys(SCALES)].join('|');
const NUMBER_WORD = `(?:${CARDINAL})(?:-(?:${Object.keys(UNITS).join('|')}))?`;
/** A run of number words: "twenty-six thousand two hundred and eighty", "a thousand", "eight point four". */
const RUN = new RegExp(
  String.raw`\b(?:an?\s+(?=hundred|thousand|million))?${NUMBER_WORD}(?:(?:\s+and\s+|\s+|-)${NUMBER_WORD})*` +
    String.raw`(?:\s+point(?:\s+(?:${Object.keys(UNITS).slice(0, 10).join('|')}))+)?\b`,
  'gi',
);
const ORDINAL = new RegExp(String.raw`\b(?:(${Object.keys(TENS).join('|')})-)?(${Object.keys(ORDINALS).join('|')})\b`, 'gi');
/** "first" and "second" are ordinals only where a floor or a date says so ("the second attempt" is no number). */
const AMBIGUOUS_ORDINAL_CONTEXT = new RegExp(String.raw`^\s+(?:floor|of\s+(?:${MONTHS})|(?:${MONTHS}))\b`, 'i');

/** The value of a run of cardinal number words, or undefined when the run is no number ("one" alone is too often a pronoun). */
function cardinalValue(run: string): number | undefined {
  const [whole = '', decimals] = run.toLowerCase().split(/\s+point\s+/);
  const words = whole.split(/[\s-]+/).filter((word) => word !== 'and' && word !== 'a' && word !== 'an');
  if (words.length === 1 && words[0] === 'one' && decimals === undefined) return undefined;
  let total = 0;
  let current = 0;
  for (const word of words) {
    const scale = SCALES[word];
    if (scale === 100) current = (current || 1) * 100;
    else if (scale !== undefined) {
      total += (current || 1) * scale;
      current = 0;
    } else current += UNITS[word] ?? TENS[word] ?? 0;
  }
  const digits = decimals === undefined ? '' : decimals.split(/\s+/).map((word) => UNITS[word.toLowerCase()] ?? 0);
  return Number(`${total + current}${digits === '' ? '' : `.${digits.join('')}`}`);
}

/** The English suffix of an ordinal: 1st, 2nd, 3rd, 11th, 22nd. */
function ordinalSuffix(value: number): string {
  const last = value % 10;
  if (value % 100 >= 11 && value % 100 <= 13) return 'th';
  return last === 1 ? 'st' : last === 2 ? 'nd' : last === 3 ? 'rd' : 'th';
}

/** The text with numbers written as words rewritten as digits. */
export function digitsForWords(text: string): string {
  const ordinals = text.replace(ORDINAL, (word: string, tens: string | undefined, unit: string, offset: number, whole: string) => {
    const value = (tens ? (TENS[tens.toLowerCase()] ?? 0) : 0) + (ORDINALS[unit.toLowerCase()] ?? 0);
    const after = whole.slice(offset + word.length, offset + word.length + 20);
    if (!tens && value <= 2 && !AMBIGUOUS_ORDINAL_CONTEXT.test(after)) return word;
    return `${value}${ordinalSuffix(value)}`;
  });
  const cardinals = ordinals.replace(RUN, (run) => {
    const value = cardinalValue(run);
    return value === undefined ? run : String(value);
  });
  return cardinals
    .replace(/\b(?:an?|one|1)\s+(hours?|days?|weeks?)\s+and\s+a\s+half\b/gi, '1.5 $1')
    .replace(/\bhalf\s+an?\s+(hour|day|week)\b/gi, '0.5 $1')
    .replace(/\b(\d+)\s+and\s+a\s+half\b/gi, (_whole, number: string) => String(Number(number) + 0.5));
}
