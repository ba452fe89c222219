/**
 * The JSON-lines files adapters keep their own state in (the chatbot's conversation, the
 * notebook's journal). A kill mid-write, or a full disk, can leave the last line cut short; it is
 * cut off when the file is loaded, so the next line is not appended onto it.
 */
import { existsSync, readFileSync, truncateSync } from 'node:fs';

const NEWLINE = 0x0a;

/**
 * The entries of `file` (none when it does not exist), after dropping a cut last line from the
 * file itself. Only the process that holds the run (its `run.lock`) may call it.
 */
export function loadJsonLines<T>(file: string): T[] {
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
