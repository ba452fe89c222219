/**
 * The one reader of JSONL files (a JSON value a line, appended as things happen): the run
 * journal, the agents' own journals and logs, the experiment's answers. A process killed in the
 * middle of an append leaves its last line cut short: that line is dropped without a word.
 * A bad line before the last one is damage; the reader names the first such and reads on, and
 * each caller decides what damage means (the run journal refuses it, an agent's log skips it).
 */
import { appendFileSync, existsSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { isDiskFull } from './diskFull';
import { DiskFull } from './errors';

export interface JsonLines<T> {
  /** The values of the whole lines, in order, with their 1-based line numbers. */
  entries: { line: number; value: T }[];
  /** The first line that is not JSON and not the last one. */
  damaged?: { line: number; message: string };
}

/** The JSON values of a JSONL text; blank lines are skipped. */
export function parseJsonLines<T>(text: string): JsonLines<T> {
  const lines = text.split('\n');
  // The text of a whole file ends with a newline, so its last line is the empty string after it.
  const last = lines.at(-1) === '' ? lines.length - 2 : lines.length - 1;
  const out: JsonLines<T> = { entries: [] };
  lines.forEach((line, index) => {
    if (!line.trim()) return;
    try {
      out.entries.push({ line: index + 1, value: JSON.parse(line) as T });
    } catch (e) {
      if (index < last && !out.damaged) out.damaged = { line: index + 1, message: (e as Error).message };
    }
  });
  return out;
}

/** The values of a JSONL file, damaged lines skipped; none when the file does not exist. */
export function readJsonLines<T>(path: string): T[] {
  if (!existsSync(path)) return [];
  return parseJsonLines<T>(readFileSync(path, 'utf8')).entries.map((entry) => entry.value);
}

const NEWLINE = 0x0a;

/**
 * The entries of `file` (none when it does not exist), after dropping a cut last line from the
 * file itself, so that the next append does not land on it (an agent's own journal, before it
 * appends again). Only the process that holds the run (its `run.lock`) may call it.
 */
export function loadJsonLinesForAppend<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  const bytes = readFileSync(file);
  const entries: T[] = [];
  let offset = 0;
  let whole = 0;
  while (offset < bytes.length) {
    const end = bytes.indexOf(NEWLINE, offset);
    if (end < 0) break;
    const line = bytes.subarray(offset, end).toString('utf8');
    offset = end + 1;
    if (!line.trim()) {
      whole = offset;
      continue;
    }
    try {
      entries.push(JSON.parse(line) as T);
      whole = offset;
    } catch {
      // A damaged line in the middle is skipped, as before; only a damaged tail is cut off.
    }
  }
  if (whole < bytes.length) truncateSync(file, whole);
  return entries;
}

/**
 * Appends `value` to `file` as one whole line. On a full or read-only disk, whatever part of the
 * line reached the file is cut off again (the file keeps its length from before, or is removed if
 * it was new), so that the next append never lands on half a line; the error is `DiskFull` naming
 * the file.
 */
export function appendLine(file: string, value: unknown): void {
  const line = `${JSON.stringify(value)}\n`;
  let before: number | undefined;
  try {
    before = statSync(file).size;
  } catch {
    before = undefined;
  }
  try {
    appendFileSync(file, line);
  } catch (e) {
    if (!isDiskFull(e)) throw e;
    try {
      if (before === undefined) rmSync(file, { force: true });
      else truncateSync(file, before);
    } catch {
      // Left for the next load (`loadJsonLinesForAppend`) to cut off.
    }
    throw new DiskFull(file, { cause: e, bytes: Buffer.byteLength(line) });
  }
}
