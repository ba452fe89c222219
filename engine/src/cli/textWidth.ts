/**
 * Terminal columns of text, so that a progress line can be cut to fit and never wraps. A count
 * that errs is safe only when it errs high: a line counted too wide is cut early, one counted too
 * narrow wraps and breaks the redraw.
 */

/** Ranges of East Asian wide and fullwidth characters (CJK, Hangul, fullwidth forms), which take 2 columns. */
const WIDE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
];

const EMOJI_PRESENTATION = /\p{Emoji_Presentation}/u;
const ZERO_WIDTH = /\p{Mn}|\p{Me}/u;
/** Control and format characters (escapes, bidi overrides, joiners): none may reach the terminal from untrusted text. */
const UNSAFE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

/** Untrusted text made safe to draw: every control or format character becomes a space. */
export function printable(text: string): string {
  return text.replace(UNSAFE, ' ');
}

/** Columns one code point takes: 0 for a combining mark, 2 for wide and emoji, 1 otherwise. */
export function charWidth(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (ZERO_WIDTH.test(char)) return 0;
  // Beyond the Basic Multilingual Plane most of what a terminal draws is emoji or CJK: counted wide, to err high.
  if (code > 0xffff || EMOJI_PRESENTATION.test(char)) return 2;
  return WIDE_RANGES.some(([low, high]) => code >= low && code <= high) ? 2 : 1;
}

/** Columns of a printable text; a character followed by U+FE0F (shown as emoji) counts 2. */
export function textWidth(text: string): number {
  return fitting(text, Number.MAX_SAFE_INTEGER).width;
}

/** The text cut to at most `columns` columns, with an ellipsis where it was cut. */
export function cutToWidth(text: string, columns: number): string {
  if (columns <= 0) return '';
  const whole = fitting(text, columns);
  if (whole.length === text.length) return text;
  const cut = fitting(text, columns - 1);
  return `${text.slice(0, cut.length)}…`;
}

/** How much of the text (in UTF-16 units) fits in `columns` columns, and how wide that is. */
function fitting(text: string, columns: number): { length: number; width: number } {
  const chars = [...text];
  let width = 0;
  let length = 0;
  for (let index = 0; index < chars.length; index++) {
    const char = chars[index]!;
    const emojiNext = chars[index + 1] === '\ufe0f';
    const own = emojiNext ? 2 : charWidth(char);
    if (width + own > columns) break;
    width += own;
    length += char.length;
    if (emojiNext) {
      length += 1;
      index++;
    }
  }
  return { length, width };
}
