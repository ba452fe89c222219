/**
 * The quantities a text gives, each with what it measures, for the stand-in grader: `$1,100` and
 * "1100 dollars" are the same money, 8400 metres is 8.4 km, 1.5 h is 90 minutes, "7 pm" is 19:00,
 * "3 May", "May 3rd" and 2026-05-03 are one date. A quantity's dimension is its role where a unit
 * says it ("65 m²" an area, "9th floor" a floor): the same number in another role is another value.
 * Run it on text whose number words are digits already (numberWords.ts).
 */

export type Dimension =
  '' | 'money' | 'length' | 'area' | 'mass' | 'duration' | 'clock' | 'date' | 'temperature' | 'iu' | 'percent' | 'floor';

/** One way to read a quantity: its amount in the dimension's base unit (metres, grams, minutes, month × 100 + day). */
export interface Reading {
  dimension: Dimension;
  amount: number;
}

export interface Quantity {
  /** The text it was read from. */
  text: string;
  start: number;
  end: number;
  /** The number as written (after "k" or "thousand"), which a bare number in a reply is compared with; NaN when it has none. */
  written: number;
  readings: Reading[];
}

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = `(${['jan(?:uary)?', 'feb(?:ruary)?', 'mar(?:ch)?', 'apr(?:il)?', 'may', 'june?', 'july?', 'aug(?:ust)?', 'sept?(?:ember)?']
  .concat(['oct(?:ober)?', 'nov(?:ember)?', 'dec(?:ember)?'])
  .join('|')})`;
const monthNumber = (name: string) => MONTH_NAMES.indexOf(name.slice(0, 3).toLowerCase()) + 1;

/** A unit after a number: what it measures and its factor to the dimension's base unit. */
const UNITS: { pattern: RegExp; dimension: Dimension; factor: number }[] = [
  { pattern: /^\s?(?:m²|m\^2|m2\b|sq\.?\s?m\b|sqm\b|square\s+met(?:re|er)s?\b)/i, dimension: 'area', factor: 1 },
  { pattern: /^\s?(?:km\b|kilomet(?:re|er)s?\b|kms\b)/i, dimension: 'length', factor: 1000 },
  { pattern: /^\s?(?:cm\b|centimet(?:re|er)s?\b)/i, dimension: 'length', factor: 0.01 },
  { pattern: /^\s?(?:mm\b|millimet(?:re|er)s?\b)/i, dimension: 'length', factor: 0.001 },
  { pattern: /^\s?(?:m\b|met(?:re|er)s?\b)/i, dimension: 'length', factor: 1 },
  { pattern: /^\s?(?:mi\b|miles?\b)/i, dimension: 'length', factor: 1609.344 },
  { pattern: /^\s?(?:kg\b|kgs\b|kilos?\b|kilogram(?:me)?s?\b)/i, dimension: 'mass', factor: 1000 },
  { pattern: /^\s?(?:g\b|gr\b|grams?\b|grammes?\b)/i, dimension: 'mass', factor: 1 },
  { pattern: /^\s?(?:h\b|hrs?\b|hours?\b)/i, dimension: 'duration', factor: 60 },
  { pattern: /^\s?(?:min\b|mins\b|minutes?\b)/i, dimension: 'duration', factor: 1 },
  { pattern: /^\s?(?:s\b|secs?\b|seconds?\b)/i, dimension: 'duration', factor: 1 / 60 },
  { pattern: /^\s?(?:days?\b)/i, dimension: 'duration', factor: 24 * 60 },
  { pattern: /^\s?(?:weeks?\b)/i, dimension: 'duration', factor: 7 * 24 * 60 },
  { pattern: /^\s?(?:°\s?c\b|℃|°|degrees?\b(?:\s+c(?:elsius)?\b)?)/i, dimension: 'temperature', factor: 1 },
  { pattern: /^\s?(?:iu\b|i\.u\.|international\s+units?\b|units?\b)/i, dimension: 'iu', factor: 1 },
  { pattern: /^\s?(?:%|percent\b|per\s+cent\b)/i, dimension: 'percent', factor: 1 },
  { pattern: /^\s?(?:dollars?\b|bucks\b|usd\b|pounds?\b|quid\b|gbp\b|euros?\b|eur\b|lari\b|gel\b)/i, dimension: 'money', factor: 1 },
];

const NUMBER = /(?<![\p{L}\d.,]|\p{L}-)(?:([$£€])\s?)?(\d{1,3}(?:,\d{3})+(?!\d)|\d+)(\.\d+)?/gu;

/** The spans already read as dates or clock times, which the plain numbers skip. */
type Taken = { start: number; end: number }[];
const isTaken = (taken: Taken, start: number, end: number) => taken.some((span) => start < span.end && end > span.start);

function push(found: Quantity[], taken: Taken, match: RegExpMatchArray, written: number, readings: Reading[]): void {
  const start = match.index ?? 0;
  const end = start + match[0].length;
  if (isTaken(taken, start, end) || readings.some((reading) => !Number.isFinite(reading.amount))) return;
  taken.push({ start, end });
  found.push({ text: match[0], start, end, written, readings });
}

function dates(text: string, found: Quantity[], taken: Taken): void {
  const date = (match: RegExpMatchArray, month: number, day: number) => {
    if (month >= 1 && month <= 12 && day >= 1 && day <= 31)
      push(found, taken, match, day, [{ dimension: 'date', amount: month * 100 + day }]);
  };
  for (const m of text.matchAll(/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g)) date(m, Number(m[2]), Number(m[3]));
  // "03.05" or "3.5.2026" is day and month, as Europe writes them; "8.4" and "12.10" alone are decimals.
  for (const m of text.matchAll(/\b(\d{1,2})\.(\d{1,2})\.(?:\d{4}|\d{2})\b|\b(0[1-9])\.(0[1-9]|1[0-2])\b(?!\.\d)/g))
    date(m, Number(m[2] ?? m[4]), Number(m[1] ?? m[3]));
  // "7/3" is 7 March, as Europe writes it; "142/95" is no date (a blood pressure).
  for (const m of text.matchAll(/(?<![\d/.])(\d{1,2})\/(\d{1,2})(?![\d/])/g)) date(m, Number(m[2]), Number(m[1]));
  const dayMonth = new RegExp(String.raw`\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?${MONTH}\b`, 'gi');
  for (const m of text.matchAll(dayMonth)) date(m, monthNumber(m[2] ?? ''), Number(m[1]));
  const monthDay = new RegExp(String.raw`\b${MONTH}\.?\s+(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\b(?![:.]\d)`, 'gi');
  for (const m of text.matchAll(monthDay)) date(m, monthNumber(m[1] ?? ''), Number(m[2]));
}

function clockTimes(text: string, found: Quantity[], taken: Taken): void {
  const clock = (match: RegExpMatchArray, hour: number, minute: number, half?: string) => {
    const pm = half?.toLowerCase().startsWith('p');
    const hour24 = half ? (hour % 12) + (pm ? 12 : 0) : hour;
    if (minute > 59) return;
    if (hour24 > 23) {
      // "25:40" is no time of day: a run's time in minutes and seconds.
      if (!half) push(found, taken, match, Number.NaN, [{ dimension: 'duration', amount: hour + minute / 60 }]);
      return;
    }
    push(found, taken, match, minute === 0 ? hour24 : Number.NaN, [{ dimension: 'clock', amount: hour24 * 60 + minute }]);
  };
  const HALF = String.raw`(a\.?m\.?|p\.?m\.?)`;
  for (const m of text.matchAll(new RegExp(String.raw`\b(\d{1,2}):(\d{2})(?:\s*${HALF}(?![a-z]))?`, 'gi')))
    clock(m, Number(m[1]), Number(m[2]), m[3]);
  for (const m of text.matchAll(new RegExp(String.raw`\b(\d{1,2})(?:\.(\d{2}))?\s*${HALF}(?![a-z])`, 'gi')))
    clock(m, Number(m[1]), Number(m[2] ?? 0), m[3]);
  for (const m of text.matchAll(/\b(\d{1,2})\s*o\s?['’]?\s?clock\b/gi)) clock(m, Number(m[1]), 0);
  for (const m of text.matchAll(/\b(noon|midday|midnight)\b/gi)) clock(m, m[1]?.toLowerCase() === 'midnight' ? 0 : 12, 0);
}

/** A plain number and what follows it: a multiplier ("k", "thousand"), an ordinal's ending, a unit. */
function plainNumber(text: string, match: RegExpMatchArray): Omit<Quantity, 'start' | 'text'> & { length: number } {
  const start = match.index ?? 0;
  let end = start + match[0].length;
  let value = Number(`${(match[2] ?? '').replace(/,/g, '')}${match[3] ?? ''}`);
  const currency = match[1] !== undefined || /(?:\b(?:usd|gbp|eur)\s?)$/i.test(text.slice(Math.max(0, start - 4), start));
  const multiplier = /^\s?(k\b|thousand\b|million\b|mn\b|m\b(?=\s*(?:$|[^²2])))/i.exec(text.slice(end));
  if (multiplier && (currency || !/^\s?m\b/i.test(multiplier[0]))) {
    value *= /^\s?k|^\s?thousand/i.test(multiplier[0]) ? 1000 : 1_000_000;
    end += multiplier[0].length;
  }
  const ordinal = /^(?:st|nd|rd|th)\b/i.exec(text.slice(end));
  if (ordinal) end += ordinal[0].length;
  const after = text.slice(end, end + 40);
  const before = text.slice(Math.max(0, start - 12), start);
  if ((ordinal && /^\s+floor\b/i.test(after)) || /\bfloor\s+(?:no\.?\s*)?$/i.test(before))
    return { written: value, readings: [{ dimension: 'floor', amount: value }], end, length: end - start };
  const unit = UNITS.find((candidate) => candidate.pattern.test(after));
  if (currency || unit?.dimension === 'money') {
    const money = unit?.dimension === 'money' ? (unit.pattern.exec(after)?.[0].length ?? 0) : 0;
    return { written: value, readings: [{ dimension: 'money', amount: value }], end: end + money, length: end + money - start };
  }
  if (!unit) return { written: value, readings: [{ dimension: '', amount: value }], end, length: end - start };
  const unitLength = unit.pattern.exec(after)?.[0].length ?? 0;
  return {
    written: value,
    readings: [{ dimension: unit.dimension, amount: value * unit.factor }],
    end: end + unitLength,
    length: end + unitLength - start,
  };
}

/** Two durations side by side ("1 h 30 min") are one. */
function joinDurations(text: string, found: Quantity[]): Quantity[] {
  const out: Quantity[] = [];
  for (const quantity of found) {
    const last = out.at(-1);
    const between = last ? text.slice(last.end, quantity.start) : '';
    const lastDuration = last?.readings[0]?.dimension === 'duration' && Number.isFinite(last.written);
    if (last && lastDuration && quantity.readings[0]?.dimension === 'duration' && /^\s*(?:,|and)?\s*$/.test(between)) {
      const amount = (last.readings[0]?.amount ?? 0) + (quantity.readings[0]?.amount ?? 0);
      out[out.length - 1] = {
        ...last,
        text: text.slice(last.start, quantity.end),
        end: quantity.end,
        readings: [{ dimension: 'duration', amount }],
      };
    } else out.push(quantity);
  }
  return out;
}

/** The quantities of a text, in the order they appear. */
export function quantities(text: string): Quantity[] {
  const found: Quantity[] = [];
  const taken: Taken = [];
  dates(text, found, taken);
  clockTimes(text, found, taken);
  for (const match of text.matchAll(NUMBER)) {
    const start = match.index ?? 0;
    const number = plainNumber(text, match);
    if (isTaken(taken, start, start + number.length)) continue;
    taken.push({ start, end: number.end });
    found.push({ text: text.slice(start, number.end), start, end: number.end, written: number.written, readings: number.readings });
  }
  return joinDurations(
    text,
    found.sort((a, b) => a.start - b.start),
  );
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * Whether a reply's quantity gives the expected one: the same amount in the same dimension, or the
 * same number where either says no unit. Two different units (an area and a floor) never match.
 */
export function sameQuantity(expected: Quantity, reply: Quantity): boolean {
  return expected.readings.some((wanted) =>
    reply.readings.some((given) => {
      if (wanted.dimension === given.dimension) return close(wanted.amount, given.amount);
      if (wanted.dimension !== '' && given.dimension !== '') return false;
      return Number.isFinite(expected.written) && Number.isFinite(reply.written) && close(expected.written, reply.written);
    }),
  );
}
