/**
 * The agent's memory snapshots of a run (`results/<id>/memory/<n>/`, the memory after
 * conversation n), read bounded, for the report to show beside a failed answer with the lines
 * that hold the expected value marked. The agent wrote these files: every count and size is capped.
 */
import { closeSync, openSync, readdirSync, readSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { memorySnapshotsDir } from '../protocol/layout';

export interface MemoryFile {
  /** The path inside the snapshot, `/`-separated. */
  name: string;
  text: string;
  /** True when the file was longer than the report shows. */
  cut: boolean;
}

export interface MemorySnapshot {
  conversation: number;
  files: MemoryFile[];
}

const MAX_SNAPSHOTS = 50;
const MAX_FILES = 100;
const MAX_FILE_CHARS = 20_000;
const MAX_DEPTH = 4;

/** The snapshots of the run in `dirOfRun`, by conversation; none when the agent keeps no memory folder. */
export function readMemorySnapshots(dirOfRun: string): MemorySnapshot[] {
  const root = memorySnapshotsDir(dirOfRun);
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  const numbers = names.filter((n) => /^\d{1,6}$/.test(n)).map(Number).sort((a, b) => a - b).slice(-MAX_SNAPSHOTS);
  return numbers.map((conversation) => ({ conversation, files: readFiles(join(root, String(conversation))) }));
}

/** Text files under `dir`, depth-bounded and without following links out (stat, not a symlink walk), sorted by name. */
function readFiles(dir: string): MemoryFile[] {
  const files: MemoryFile[] = [];
  const queue: { path: string; name: string; depth: number }[] = [{ path: dir, name: '', depth: 0 }];
  while (queue.length && files.length < MAX_FILES) {
    const current = queue.shift()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(current.path, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(current.path, entry.name);
      const name = current.name ? `${current.name}/${entry.name}` : entry.name;
      if (entry.isDirectory() && current.depth < MAX_DEPTH && !entry.name.startsWith('.')) queue.push({ path, name, depth: current.depth + 1 });
      else if (entry.isFile() && files.length < MAX_FILES) files.push(readOne(path, name));
    }
  }
  return files.sort((a, b) => a.name.localeCompare(b.name));
}

/** The start of a file: at most 4 bytes a character are read, so a huge file is never loaded whole. */
function readOne(path: string, name: string): MemoryFile {
  const shown = name.slice(0, 300);
  let handle: number | undefined;
  try {
    const size = statSync(path).size;
    const buffer = Buffer.alloc(Math.min(size, MAX_FILE_CHARS * 4));
    handle = openSync(path, 'r');
    const read = readSync(handle, buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, read).toString('utf8');
    return { name: shown, text: text.slice(0, MAX_FILE_CHARS), cut: text.length > MAX_FILE_CHARS || size > buffer.length };
  } catch {
    return { name: shown, text: '', cut: false };
  } finally {
    if (handle !== undefined) closeSync(handle);
  }
}

/**
 * The words of an expected answer that a memory line must hold to be about it: its numbers, and
 * its words of five letters or more (so "the", "and" mark nothing). At most 20.
 */
export function expectedTokens(expected: string): string[] {
  const tokens = String(expected).slice(0, 2000).match(/\d+(?:[.,]\d+)?|\p{L}{5,}/gu) ?? [];
  return [...new Set(tokens.map((t) => t.toLowerCase()))].slice(0, 20);
}

/**
 * Whether a memory line holds one of the tokens: a number as a whole number (8 is not in 18 nor in
 * 8.4, but is in "8." at a sentence's end), a word anywhere, case-insensitive.
 */
export function lineHolds(line: string, tokens: readonly string[]): boolean {
  const lower = line.toLowerCase();
  return tokens.some((t) => {
    if (!/^\d/.test(t)) return lower.includes(t);
    let from = lower.indexOf(t);
    while (from >= 0) {
      const before = lower[from - 1] ?? ' ';
      const after = lower.slice(from + t.length, from + t.length + 2);
      if (!/[\d.,]/.test(before) && !/^(?:\d|[.,]\d)/.test(after)) return true;
      from = lower.indexOf(t, from + 1);
    }
    return false;
  });
}
