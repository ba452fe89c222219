/**
 * Bounds on untrusted text, checked by linear scans before anything recursive or expensive sees
 * it: remark, acorn and jsonc-parser all recurse on nesting depth, so input that would overflow
 * their stacks (or take quadratic time) becomes a diagnostic instead.
 */

/** The UTF-8 byte order mark as JavaScript reads it. VS Code drops it from a document's text. */
const BOM = '\uFEFF';

/**
 * The text without a leading byte order mark. Editors drop the BOM from the text they show and
 * send, so positions computed on the stripped text match what the author sees.
 */
export function stripBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(BOM.length) : text;
}

/** JSON objects and arrays nested deeper than this are refused before parsing. */
export const MAX_JSON_DEPTH = 64;

/**
 * The offset of the first `[` or `{` that opens nesting deeper than `maxDepth`, or -1. Strings
 * and comments are skipped the way jsonc-parser reads them: a string ends at its closing quote
 * or at the end of its line.
 */
export function jsonDepthExceeded(text: string, maxDepth = MAX_JSON_DEPTH): number {
  let depth = 0;
  let index = 0;
  while (index < text.length) {
    const char = text.charCodeAt(index);
    if (char === 0x22) index = skipString(text, index + 1);
    else if (char === 0x2f && text.charCodeAt(index + 1) === 0x2f) index = skipLine(text, index);
    else if (char === 0x2f && text.charCodeAt(index + 1) === 0x2a) {
      const close = text.indexOf('*/', index + 2);
      index = close < 0 ? text.length : close + 2;
    } else {
      if (char === 0x5b || char === 0x7b) {
        depth++;
        if (depth > maxDepth) return index;
      } else if ((char === 0x5d || char === 0x7d) && depth > 0) depth--;
      index++;
    }
  }
  return -1;
}

function skipString(text: string, from: number): number {
  let index = from;
  while (index < text.length) {
    const char = text.charCodeAt(index);
    if (char === 0x5c) index += 2;
    else if (char === 0x22) return index + 1;
    else if (char === 0x0a || char === 0x0d) return index;
    else index++;
  }
  return index;
}

function skipLine(text: string, from: number): number {
  const newline = text.indexOf('\n', from);
  return newline < 0 ? text.length : newline;
}

/** A markdown line longer than this is refused: no author writes one, and remark slows on it. */
export const MAX_LINE_CHARS = 10_000;
/** Blockquote and list markers at the start of one line, beyond which a file is refused. */
export const MAX_CONTAINER_DEPTH = 32;
/** Indentation, in columns, beyond which a file is refused (lists nest by indentation too). */
export const MAX_INDENT_COLUMNS = 256;

/** Why a markdown text is beyond the parser's bounds, at which 0-based line; undefined if within. */
export interface MarkdownLimit {
  line: number;
  length: number;
  message: string;
}

/**
 * Checks every line of a markdown text against the bounds above, in one pass. remark nests a
 * node per blockquote or list marker and checks every open container on every later line, so
 * the depth of containers, not only the size of the text, decides its cost and its stack.
 */
export function markdownLimit(text: string): MarkdownLimit | undefined {
  let line = 0;
  let start = 0;
  while (start <= text.length) {
    let end = start;
    while (end < text.length && text.charCodeAt(end) !== 0x0a && text.charCodeAt(end) !== 0x0d) end++;
    const length = end - start;
    if (length > MAX_LINE_CHARS) {
      return {
        line,
        length,
        message:
          `Line ${line + 1} is ${length.toLocaleString('en-US')} characters long; ` +
          `a line may hold at most ${MAX_LINE_CHARS.toLocaleString('en-US')}: break it up. The file is not read until then.`,
      };
    }
    const prefix = containerPrefix(text, start, end);
    if (prefix.markers > MAX_CONTAINER_DEPTH) {
      return {
        line,
        length,
        message:
          `Line ${line + 1} opens ${prefix.markers} nested quotes or lists; at most ${MAX_CONTAINER_DEPTH} are read: ` +
          `flatten it. The file is not read until then.`,
      };
    }
    if (prefix.indent > MAX_INDENT_COLUMNS) {
      return {
        line,
        length,
        message:
          `Line ${line + 1} is indented by ${prefix.indent} columns; at most ${MAX_INDENT_COLUMNS} are read: ` +
          `flatten it. The file is not read until then.`,
      };
    }
    if (end >= text.length) break;
    start = end + (text.charCodeAt(end) === 0x0d && text.charCodeAt(end + 1) === 0x0a ? 2 : 1);
    line++;
  }
  return undefined;
}

/** Counts the `>` and list markers, and the columns of whitespace, that open a line. */
function containerPrefix(text: string, start: number, end: number): { markers: number; indent: number } {
  let markers = 0;
  let indent = 0;
  let index = start;
  while (index < end) {
    const char = text.charCodeAt(index);
    if (char === 0x20) indent++;
    else if (char === 0x09) indent += 4;
    else if (char === 0x3e) markers++;
    else if ((char === 0x2d || char === 0x2a || char === 0x2b) && isSpaceOrEnd(text, index + 1, end)) markers++;
    else if (char >= 0x30 && char <= 0x39) {
      let digit = index;
      while (digit < end && digit - index < 9 && text.charCodeAt(digit) >= 0x30 && text.charCodeAt(digit) <= 0x39) digit++;
      const mark = text.charCodeAt(digit);
      if ((mark !== 0x2e && mark !== 0x29) || !isSpaceOrEnd(text, digit + 1, end)) break;
      markers++;
      index = digit;
    } else break;
    index++;
  }
  return { markers, indent };
}

function isSpaceOrEnd(text: string, index: number, end: number): boolean {
  if (index >= end) return true;
  const char = text.charCodeAt(index);
  return char === 0x20 || char === 0x09;
}

/** The longest JS block that is statically checked; a phase's block is a few lines. */
export const MAX_JS_CHARS = 20_000;

/** A template amount beyond this many of any unit is refused: 10,000 years is 5.3e9 minutes. */
export const MAX_TEMPLATE_AMOUNT: Readonly<Record<string, number>> = {
  minutes: 10_000 * 366 * 24 * 60,
  hours: 10_000 * 366 * 24,
  days: 10_000 * 366,
  weeks: 10_000 * 53,
  months: 10_000 * 12,
  years: 10_000,
};

/**
 * Names that would collide with `Object.prototype` members when an object is keyed by them
 * (`__proto__`, `constructor`, `toString`, …). Sheets with such names are refused.
 */
export function isPrototypeName(name: string): boolean {
  return name in Object.prototype || name === '__proto__';
}
