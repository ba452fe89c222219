/**
 * A copy of an agent's memory folder as the engine keeps it under `results/<id>/memory/<n>/`:
 * regular UTF-8 text files only, each masked with the run's keys before it is written. The
 * folder is the agent's, so untrusted: no link is followed or copied (a link to `~/.ssh` or to
 * the engine's own environment file stays behind), no dot entry (`.git`, `.env`), nothing that
 * is not text, no name that holds a key, and the copy is bounded in depth, entries, file size and total size.
 */
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readSync, realpathSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { writingFile } from '../diskFull';
import { boundedEntries } from '../folderEntries';
import type { SecretMasker } from '../secrets';

/** The bounds of one snapshot; what lies beyond them is left out, not cut (a cut file could split a key below the masker's window). */
export const SNAPSHOT_LIMITS = {
  /** Folders below the memory folder. */
  maxDepth: 8,
  /** Files and folders looked at, kept or not. */
  maxEntries: 2000,
  /** A bigger file is left out. */
  maxFileBytes: 1024 * 1024,
  /** The text copied in all; the files after it are left out. */
  maxTotalBytes: 16 * 1024 * 1024,
} as const;

/** Opened so that a link is never followed (ELOOP) and a FIFO planted in place of a file never blocks. */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

export interface SnapshotCopy {
  files: number;
  /** Entries left out: links, dot entries, files that are not text or are over a bound. */
  leftOut: number;
}

/**
 * Copies the memory folder `from` into `to` (created; it must not exist), masked with `masker`.
 * A `from` that is a link, or no folder, gives an empty copy: the agent's memory is its own folder.
 */
export function copyMemoryFolder(from: string, to: string, masker: SecretMasker): SnapshotCopy {
  mkdirSync(to, { recursive: true });
  const copy: SnapshotCopy = { files: 0, leftOut: 0 };
  const top = realFolder(from);
  if (top === undefined) return copy;
  const budget = { entries: 0, bytes: 0 };
  const queue: { from: string; to: string; depth: number }[] = [{ from, to, depth: 0 }];
  for (let folder = queue.shift(); folder; folder = queue.shift()) {
    // The agent runs on while it is copied: a folder it swapped for a link since it was listed is not entered.
    if (!stillInside(folder.from, top)) {
      copy.leftOut++;
      continue;
    }
    // One more than the room left: an entry over the bound is seen, and counted as left out.
    for (const entry of boundedEntries(folder.from, SNAPSHOT_LIMITS.maxEntries - budget.entries + 1)) {
      if (++budget.entries > SNAPSHOT_LIMITS.maxEntries) return { ...copy, leftOut: copy.leftOut + 1 };
      const source = join(folder.from, entry.name);
      const target = join(folder.to, entry.name);
      // A name that holds a key would write the key into the name of a file of results/.
      if (entry.name.startsWith('.') || masker.holdsSecret(entry.name)) copy.leftOut++;
      else if (entry.isDirectory() && folder.depth < SNAPSHOT_LIMITS.maxDepth) {
        mkdirSync(target);
        queue.push({ from: source, to: target, depth: folder.depth + 1 });
      } else if (entry.isFile() && copyTextFile(source, target, masker, budget)) copy.files++;
      else copy.leftOut++;
    }
  }
  return copy;
}

/** The real path of a folder that is no link itself; undefined for a link, a file, or nothing. */
function realFolder(path: string): string | undefined {
  try {
    return lstatSync(path).isDirectory() ? realpathSync(path) : undefined;
  } catch {
    return undefined;
  }
}

function stillInside(folder: string, top: string): boolean {
  try {
    const real = realpathSync(folder);
    return real === top || real.startsWith(top + sep);
  } catch {
    return false;
  }
}

/** Copies one file if it is a regular file of UTF-8 text within the bounds; whether it did. */
function copyTextFile(source: string, target: string, masker: SecretMasker, budget: { bytes: number }): boolean {
  const text = textOf(source, SNAPSHOT_LIMITS.maxTotalBytes - budget.bytes);
  if (text === undefined) return false;
  budget.bytes += Buffer.byteLength(text);
  writingFile(target, () => writeFileSync(target, masker.mask(text)));
  return true;
}

/** The file's text, or undefined: a link, not a regular file, bigger than the bounds, not UTF-8, or holding a NUL. */
function textOf(path: string, room: number): string | undefined {
  let handle: number | undefined;
  try {
    handle = openSync(path, READ_FLAGS);
    const stat = fstatSync(handle);
    if (!stat.isFile() || stat.size > Math.min(SNAPSHOT_LIMITS.maxFileBytes, room)) return undefined;
    // One byte more than the size: a file that grew since is seen to be over it.
    const buffer = Buffer.alloc(stat.size + 1);
    const read = readSync(handle, buffer, 0, buffer.length, 0);
    if (read > stat.size) return undefined;
    const text = STRICT_UTF8.decode(buffer.subarray(0, read));
    return text.includes('\0') ? undefined : text;
  } catch {
    return undefined;
  } finally {
    if (handle !== undefined) closeSync(handle);
  }
}
