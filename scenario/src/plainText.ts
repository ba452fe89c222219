/**
 * Plain-text helpers every folder may import: the words of a text, the stop words, and a text
 * shortened or flattened for a message. A leaf: it imports nothing, so an adapter, a persona tool,
 * the stand-in model, the server and the extension all reach it without an import cycle.
 */

/**
 * English function words: they carry no content, so they would make any two texts look alike.
 * Callers that need more (a persona's manners, a request to search notes) add their own.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about after again all also am an and any are as at be been before being but by can could did do does doing done for from
had has have he her here him his how i if in into is it its just let me more most much many my no not now of on once only or
other our ours out over own please same she should so some such than that the their them then there these they this those
through to too under until up very was we were what when where which while who whom why will with would you your yours`.split(/\s+/),
);

/** A word (letters only) or a number (digits with one optional decimal or time part). */
const WORD_OR_NUMBER = /\p{L}+|\d+(?:[.,:]\d+)?/gu;

/**
 * The words and numbers of a text, in order, lower case and NFKC-normalised (full-width letters
 * become plain ones). A word is a run of letters of any script: apostrophes, hyphens and digits
 * end it (`don't` → `don`, `t`). A number keeps one decimal or time separator (`3.5`, `10:30`).
 */
export function words(text: string): string[] {
  return text.toLowerCase().normalize('NFKC').match(WORD_OR_NUMBER) ?? [];
}

/** Whether a token of `words` is a number rather than a word. */
export function isNumberToken(token: string): boolean {
  return /^\d/.test(token);
}

const ELLIPSIS = '…';

/**
 * The text cut to at most `max` UTF-16 units, its last one "…" when it was cut. A cut never
 * leaves half of a surrogate pair (an emoji) behind. `max` below 1 is taken as 1.
 */
export function shorten(text: string, max: number): string {
  const limit = Math.max(1, Math.floor(max));
  if (text.length <= limit) return text;
  let end = limit - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}${ELLIPSIS}`;
}

/**
 * The text cut in the middle to at most `max` UTF-16 units, "…" where it was cut: a quarter of it
 * from the start, the rest from the end, for names that differ at their end (`starter.phase-chapter3-1.rehearsal`
 * and `…chapter2-1.rehearsal`, `chatbot-1` and `chatbot-2`). No half of a surrogate pair is left at
 * either side of the cut. `max` below 3 is taken as 3.
 */
export function shortenMiddle(text: string, max: number): string {
  const limit = Math.max(3, Math.floor(max));
  if (text.length <= limit) return text;
  let head = Math.max(1, Math.floor((limit - 1) / 4));
  let tail = text.length - (limit - 1 - head);
  const before = text.charCodeAt(head - 1);
  if (before >= 0xd800 && before <= 0xdbff) head--;
  const after = text.charCodeAt(tail);
  if (after >= 0xdc00 && after <= 0xdfff) tail++;
  return `${text.slice(0, head)}${ELLIPSIS}${text.slice(tail)}`;
}

/** White space, control characters (C0, DEL, C1) and the line and paragraph separators. */
// eslint-disable-next-line no-control-regex
const LINE_BREAKING = /[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/**
 * The text on one line: each run of white space and control characters (line breaks, a
 * terminal's ESC sequences' lead byte) becomes one space, and the ends are trimmed. Agents' and
 * models' words shown this way cannot pass for lines of the program's own.
 */
export function oneLine(text: string): string {
  return text.replace(LINE_BREAKING, ' ').trim();
}
