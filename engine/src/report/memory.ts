/**
 * The agent's memory snapshots of a run (`results/<id>/memory/<n>/`, the memory after
 * conversation n), read bounded, for the report to show beside a failed answer with the lines
 * that hold the expected value marked. The agent wrote these files and anyone may have planted
 * more: every count and size is capped, only what the engine writes is read (real folders and
 * regular files inside results/, never a link: lstat, realpath, O_NOFOLLOW), and the text is
 * masked again with the keys of this process, which an older engine or another machine may not
 * have known.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { boundedEntries } from '../folderEntries';
import { memorySnapshotsDir } from '../protocol/layout';
import type { SecretMasker } from '../secrets';
import { workspaceMasker } from '../workspaceSecrets';

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
/** Names read of one folder: a planted folder of a million is not listed whole. */
const MAX_FOLDER_ENTRIES = 2000;
/** Folders of one snapshot read: a planted tree of empty folders is not walked whole. */
const MAX_FOLDERS = 200;
/** A link is never followed (ELOOP), and a FIFO planted in place of a file never blocks the reader. */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * The snapshots of the run in `dirOfRun` (`<root>/results/<id>`), by conversation; none when the
 * agent keeps no memory folder. `masker` defaults to the keys of this process and of
 * `<root>/config.jsonc` (`workspaceMasker`).
 */
export function readMemorySnapshots(dirOfRun: string, masker?: SecretMasker): MemorySnapshot[] {
  const numbers = memorySnapshotNumbers(dirOfRun);
  if (numbers.length === 0) return [];
  const keys = masker ?? defaultMasker(dirOfRun);
  return numbers.flatMap((conversation) => readMemorySnapshot(dirOfRun, conversation, keys) ?? []);
}

/** The numbers of the run's snapshot folders that are real folders inside results/, ascending, the last MAX_SNAPSHOTS. */
export function memorySnapshotNumbers(dirOfRun: string): number[] {
  const root = memorySnapshotsDir(dirOfRun);
  const results = realFolder(dirname(dirOfRun));
  if (!results || !isRealFolderInside(root, results)) return [];
  const names = boundedEntries(root, MAX_FOLDER_ENTRIES).map((entry) => entry.name);
  const numbers = names
    .filter((n) => /^\d{1,6}$/.test(n))
    .map(Number)
    .sort((a, b) => a - b);
  return numbers.filter((n) => isRealFolderInside(join(root, String(n)), results)).slice(-MAX_SNAPSHOTS);
}

/** One snapshot of the run, bounded and masked; undefined when it is missing, a link, or leads out of results/. */
export function readMemorySnapshot(dirOfRun: string, conversation: number, masker?: SecretMasker): MemorySnapshot | undefined {
  const folder = join(memorySnapshotsDir(dirOfRun), String(conversation));
  const results = realFolder(dirname(dirOfRun));
  if (!results || !isRealFolderInside(memorySnapshotsDir(dirOfRun), results) || !isRealFolderInside(folder, results)) return undefined;
  return { conversation, files: readFiles(folder, masker ?? defaultMasker(dirOfRun)) };
}

function defaultMasker(dirOfRun: string): SecretMasker {
  return workspaceMasker(join(dirname(dirname(dirOfRun)), 'config.jsonc'), process.env);
}

function realFolder(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** Whether `path` is a folder and no link (lstat), and its real path lies inside `results` (no link above it leads out). */
function isRealFolderInside(path: string, results: string): boolean {
  try {
    return lstatSync(path).isDirectory() && realpathSync(path).startsWith(results + sep);
  } catch {
    return false;
  }
}

/** Text files under `dir`, depth-bounded, no link followed (Dirent types are lstat's), no dot entry, sorted by name. */
function readFiles(dir: string, masker: SecretMasker): MemoryFile[] {
  const files: MemoryFile[] = [];
  const queue: { path: string; name: string; depth: number }[] = [{ path: dir, name: '', depth: 0 }];
  let folders = 0;
  while (queue.length && files.length < MAX_FILES && ++folders <= MAX_FOLDERS) {
    const current = queue.shift()!;
    for (const entry of boundedEntries(current.path, MAX_FOLDER_ENTRIES)) {
      if (entry.name.startsWith('.')) continue;
      const path = join(current.path, entry.name);
      const name = current.name ? `${current.name}/${entry.name}` : entry.name;
      if (entry.isDirectory() && current.depth < MAX_DEPTH && queue.length < MAX_FOLDERS)
        queue.push({ path, name, depth: current.depth + 1 });
      else if (entry.isFile() && files.length < MAX_FILES) files.push(readOne(path, name, masker));
    }
  }
  return files.sort((a, b) => a.name.localeCompare(b.name));
}

/** The start of a regular file, masked: at most 4 bytes a character are read, so a huge file is never loaded whole. */
function readOne(path: string, name: string, masker: SecretMasker): MemoryFile {
  const shown = masker.mask(name.slice(0, 300));
  let handle: number | undefined;
  try {
    handle = openSync(path, READ_FLAGS);
    const stat = fstatSync(handle);
    if (!stat.isFile()) return { name: shown, text: '', cut: false };
    const buffer = Buffer.alloc(Math.min(stat.size, MAX_FILE_CHARS * 4));
    const read = readSync(handle, buffer, 0, buffer.length, 0);
    // Masked before it is cut: a key at the cut is still seen whole.
    const text = masker.mask(buffer.subarray(0, read).toString('utf8'));
    return { name: shown, text: text.slice(0, MAX_FILE_CHARS), cut: text.length > MAX_FILE_CHARS || stat.size > buffer.length };
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
  const tokens =
    String(expected)
      .slice(0, 2000)
      .match(/\d+(?:[.,]\d+)?|\p{L}{5,}/gu) ?? [];
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
