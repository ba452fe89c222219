/**
 * A dataset's text made safe to stand inside a written benchmark: one line, bounded, and unable to
 * become anything of the format but words. The datasets hold markdown, emoji, code fences and
 * `❓`-like characters; written raw, a turn could open a check, a trap, a heading, a JS block, a
 * sheet or fact reference, a date template or a timed line. Every text an importer writes goes
 * through `safeText` (or `safeQuoted` inside quotes), and the writer puts its own words first on
 * every line, so no line starts with the dataset's text.
 */
import { oneLine, shorten } from '../../../scenario/src/plainText';

/** The longest turn an importer writes: a few paragraphs; a pasted document is cut. */
export const MAX_TURN_CHARS = 1500;
/** The longest question or answer written. */
export const MAX_QUESTION_CHARS = 1000;

/** Each rewrite, with why: the format's marks and grammars that a text must never reach. */
const REWRITES: readonly [RegExp, string][] = [
  // A check's and a trap's marks (and the variation selector that may follow one).
  [/\u2753\uFE0F?/gu, '?'],
  [/\u{1FAA4}\uFE0F?/gu, '(trap)'],
  // Backticks open code fences and inline code, and a backticked word names a sheet.
  [/`/g, "'"],
  // `~~~` opens a fence too.
  [/~{3,}/g, '~'],
  // `{{TODAY}}` and its kin are date templates the engine would expand.
  [/\{\{/g, '{ {'],
  [/\}\}/g, '} }'],
  // `family#1.2` refers to a fact of a sheet: a space before the `#` makes it plain text.
  [/([\p{L}\p{N}_-])#(?=\d)/gu, '$1 #'],
  // The check grammar splits at the first "Correct answer:": a question may not hold one.
  [/(correct\s+answer)\s*:/giu, '$1 -'],
  // Angle brackets: no HTML (`<script>`, `<!--` that would hide what follows) in a file a reader renders.
  [/</g, '‹'],
  [/>/g, '›'],
];

/** The text as one safe line of at most `max` characters; an empty text reads "(nothing)". */
export function safeText(text: string, max: number = MAX_TURN_CHARS): string {
  let line = oneLine(text);
  for (const [pattern, replacement] of REWRITES) line = line.replace(pattern, replacement);
  // A lone dash is how a sheet deletes a fact.
  if (/^[—–-]+$/.test(line)) line = `(a dash: ${line})`;
  if (line === '') line = '(nothing)';
  return shorten(line, max);
}

/** A safe line for inside double quotes ("…"), as sheet edits and quoted speech need: no double quote of its own. */
export function safeQuoted(text: string, max: number = MAX_TURN_CHARS): string {
  return safeText(text.replace(/["“”]/g, "'"), max);
}

/** A name a dataset gives (a question id) as a folder or file name part: letters, digits, `-` and `_`, bounded. */
export function safeName(text: string, max = 60): string {
  const name = text
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max);
  return name === '' ? 'item' : name;
}
