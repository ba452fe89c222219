/**
 * The reader of grading sets: `<benchmark>/grading.jsonl`, one labelled item a line (gradingItem.ts
 * declares its fields). A set comes with a benchmark from anyone, so it is read like the benchmark's
 * own files (scenario/node/safeRead.ts: no link out of the folder, no FIFO, at most 1 MiB), each line
 * is bounded before it is parsed, and a bad line is one error `file:line: what is wrong, what to do`
 * that never stops the lines after it.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { basename, join } from 'node:path';
import { oneLine, shorten } from '../../../scenario/src/plainText';
import { readFolderFile } from '../../../scenario/node/safeRead';
import { gradingItemOf, thousands } from './gradingItem';
import type { GradingItem } from './item';

/** The name of a benchmark's grading set, beside its benchmark.json. */
export const GRADING_SET_FILE = 'grading.jsonl';
/** The longest line read: a buried answer of a few thousand characters fits many times over. */
export const MAX_GRADING_LINE_CHARS = 16_000;
/** The most items one set may hold: some fifteen times the shipped sets together. */
export const MAX_GRADING_ITEMS = 5_000;

/** A line of a set that is not read, and why (a clause that says what to do). */
export interface GradingSetError {
  file: string;
  /** 1-based. */
  line: number;
  message: string;
}

export interface GradingSets {
  items: GradingItem[];
  errors: GradingSetError[];
}

/** An error as `mmb check` prints one: `benchmarks/max/grading.jsonl:12: …`. */
export function gradingSetErrorText(error: GradingSetError): string {
  return `${error.file}:${error.line}: ${error.message}`;
}

/** What JSON.parse said, on one line and short: its message may quote the untrusted line. */
function jsonProblem(error: unknown): string {
  return shorten(oneLine(error instanceof Error ? error.message : String(error)), 80);
}

/** The item of one line, or why it is not one. */
function parseLine(text: string, file: string, line: number, benchmark: string | undefined): { item: GradingItem } | { problem: string } {
  if (text.length > MAX_GRADING_LINE_CHARS) {
    const over = `over the ${thousands(MAX_GRADING_LINE_CHARS)} an item may have`;
    return { problem: `the line is ${thousands(text.length)} characters, ${over}: shorten its answer` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `the line is not valid JSON (${jsonProblem(error)}): write each item as one JSON object on one line` };
  }
  const read = gradingItemOf(value, file, line);
  if ('problem' in read) return read;
  if (benchmark !== undefined && read.item.benchmark !== benchmark) {
    const given = JSON.stringify(shorten(read.item.benchmark, 40));
    return { problem: `\`benchmark\` is ${given}, but the set lies in the folder of benchmark "${benchmark}": write "${benchmark}"` };
  }
  return read;
}

/**
 * The items of a set's text and its bad lines. `benchmark`, when given, is the name every item must
 * carry (the folder the set lies in). Blank lines are skipped; keys are not compared here
 * (`withUniqueKeys` does it across sets).
 */
export function parseGradingSet(text: string, file: string, benchmark?: string): GradingSets {
  const result: GradingSets = { items: [], errors: [] };
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  let count = 0;
  for (const [index, raw] of lines.entries()) {
    const lineText = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (lineText.trim() === '') continue;
    const line = index + 1;
    if (++count > MAX_GRADING_ITEMS) {
      const message = `the set has more than ${thousands(MAX_GRADING_ITEMS)} items: the lines from here on are not read; split it`;
      result.errors.push({ file, line, message });
      break;
    }
    const read = parseLine(lineText, file, line, benchmark);
    if ('item' in read) result.items.push(read.item);
    else result.errors.push({ file, line, message: read.problem });
  }
  return result;
}

/** The sets with each key kept once: a later item with a key seen before is an error at its line. */
export function withUniqueKeys(sets: GradingSets): GradingSets {
  const seen = new Map<string, GradingItem>();
  const result: GradingSets = { items: [], errors: [...sets.errors] };
  for (const item of sets.items) {
    const first = seen.get(item.key);
    if (!first) {
      seen.set(item.key, item);
      result.items.push(item);
      continue;
    }
    const message = `the key "${item.key}" is the key of ${first.file}:${first.line} already: give each item its own key`;
    result.errors.push({ file: item.file ?? '', line: item.line ?? 0, message });
  }
  result.errors.sort((left, right) => left.file.localeCompare(right.file) || left.line - right.line);
  return result;
}

/** True when nothing, not even a dangling link, stands at `path`. */
function isAbsent(path: string): boolean {
  try {
    lstatSync(path);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException)?.code === 'ENOENT';
  }
}

/**
 * The grading set of one benchmark folder (none when it has no grading.jsonl); `file` names the set
 * as its errors show it. Every item must name the folder's benchmark (its real folder's name), and
 * a key used twice is an error at its second line.
 */
export function readGradingSet(dir: string, file = join(dir, GRADING_SET_FILE)): GradingSets {
  if (isAbsent(join(dir, GRADING_SET_FILE))) return { items: [], errors: [] };
  let realFolder: string;
  try {
    realFolder = realpathSync(dir);
  } catch {
    return { items: [], errors: [{ file, line: 1, message: 'its folder cannot be read: check the path and its permissions' }] };
  }
  const read = readFolderFile(realFolder, GRADING_SET_FILE);
  if ('refused' in read) {
    const message = `the set is not read: ${read.refused}. A grading set is read only as a regular file inside its benchmark's folder`;
    return { items: [], errors: [{ file, line: 1, message }] };
  }
  return withUniqueKeys(parseGradingSet(read.text, file, basename(realFolder)));
}

/** The grading sets of these benchmark folders, read in order, each key kept once across them all. */
export function readGradingSets(benchmarkDirs: readonly string[]): GradingSets {
  const all: GradingSets = { items: [], errors: [] };
  for (const dir of benchmarkDirs) {
    const set = readGradingSet(dir);
    all.items.push(...set.items);
    all.errors.push(...set.errors);
  }
  return withUniqueKeys(all);
}
