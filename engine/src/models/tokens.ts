/**
 * Token counts of chat messages with the GPT tokenizer (cl100k/o200k family): other models'
 * tokenizers differ by some percent, which is fine for the thresholds the persona's and the
 * notebook's compactions use. Here, with the chat types, so that agents need not import the persona.
 */
import { tokenizerChunk } from './chunks/load';
import type { ChatMessage } from '../protocol/chat';

/**
 * Special tokens (`<|endoftext|>`) are counted as the text they are: by default the tokenizer
 * throws on one, and any message (a benchmark's, an agent's reply) may hold one.
 */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/** The tokenizer is loaded on the first count (`chunks/load.ts`): most commands count nothing. */
function count(text: string): number {
  return tokenizerChunk().countTokens(text, AS_TEXT);
}

const counted = new WeakMap<ChatMessage, number>();

/** Tokens of one message: its text and tool calls, plus a few for the message's framing. */
export function messageTokens(message: ChatMessage): number {
  let n = counted.get(message);
  if (n === undefined) {
    const calls = message.role === 'assistant' && message.tool_calls ? JSON.stringify(message.tool_calls) : '';
    n = countTextTokens(`${message.content ?? ''}${calls}`) + 4;
    counted.set(message, n);
  }
  return n;
}

export function countTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((a, m) => a + messageTokens(m), 0);
}

/**
 * Tokens of a text, in linear time. The GPT tokenizer's byte-pair merge is quadratic in the length of
 * one pre-token, and a run without whitespace is one pre-token: a 1 MiB reply with no spaces
 * took minutes. Runs longer than `LONG_RUN` characters are therefore counted in slices of that
 * size, which costs the same per character however long the run; other text is counted whole.
 * The slices' counts differ from the exact one by a token or so per slice, fine for thresholds.
 */
/** Below this length a run is tokenized whole (measured: well under 0.01 ms); above it, in slices. */
const LONG_RUN = 256;

/**
 * Long texts counted lately, by text: a persona's system prompt and compaction note are counted
 * again at every turn, the same text each time. A few entries, so memory stays bounded.
 */
const recentCounts = new Map<string, number>();
const RECENT_COUNTS = 16;
const REMEMBERED_FROM_CHARS = 1024;

export function countTextTokens(text: string): number {
  if (text.length < REMEMBERED_FROM_CHARS) return countUnremembered(text);
  const known = recentCounts.get(text);
  if (known !== undefined) return known;
  const counted = countUnremembered(text);
  if (recentCounts.size >= RECENT_COUNTS) recentCounts.delete(recentCounts.keys().next().value!);
  recentCounts.set(text, counted);
  return counted;
}

/**
 * A text is counted line by line, each line looked up first: an agent reads the same note again
 * and again (the notebook's `notes.md` grows by a line a turn), and a line's tokens do not depend
 * on the lines around it. A line starts after a line feed that a character other than white space
 * or `/` follows: no pre-token of the GPT tokenizers' split spans such a place (a letter or number
 * run never holds a line feed; a punctuation run ends with line feeds and slashes only; a white
 * space run holds no other character), so the sum is the count of the whole text, exactly.
 */
const lineCounts = new Map<string, number>();
const LINE_COUNTS = 20_000;
const MAX_KEPT_LINE = 2048;
/** Texts shorter than this are counted whole; shorter lines are joined with the next. */
const MIN_LINE_CHARS = 48;

function countUnremembered(text: string): number {
  if (text.length < 2 * MIN_LINE_CHARS) return countWhole(text);
  let total = 0;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) {
    const next = text.charCodeAt(i + 1);
    if (i + 1 - start < MIN_LINE_CHARS || isSpace(next) || next === 0x2f) continue;
    total += countLine(text.slice(start, i + 1));
    start = i + 1;
  }
  return total + countLine(text.slice(start));
}

function countLine(line: string): number {
  // A line longer than a note's is counted, not kept: the cache holds at most LINE_COUNTS × MAX_KEPT_LINE characters.
  if (line.length > MAX_KEPT_LINE) return countWhole(line);
  let n = lineCounts.get(line);
  if (n === undefined) {
    n = countWhole(line);
    if (lineCounts.size >= LINE_COUNTS) lineCounts.clear();
    lineCounts.set(line, n);
  }
  return n;
}

/** Tokens of a text as one piece, long runs without a change of white space counted in slices. */
export function countWhole(text: string): number {
  let total = 0;
  let countedTo = 0;
  let runStart = 0;
  let runIsSpace = text.length > 0 && isSpace(text.charCodeAt(0));
  for (let i = 1; i <= text.length; i++) {
    const space = i < text.length && isSpace(text.charCodeAt(i));
    if (i < text.length && space === runIsSpace) continue;
    if (i - runStart > LONG_RUN) {
      total += count(text.slice(countedTo, runStart));
      for (let at = runStart; at < i; at += LONG_RUN) total += count(text.slice(at, Math.min(i, at + LONG_RUN)));
      countedTo = i;
    }
    runStart = i;
    runIsSpace = space;
  }
  return total + count(text.slice(countedTo));
}

/** The characters `\s` matches, without a regular expression per character. */
function isSpace(code: number): boolean {
  return (
    (code >= 9 && code <= 13) ||
    code === 32 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
