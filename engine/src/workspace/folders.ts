/** Reading benchmark folders and config.jsonc from disk into the pure scenario model. */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { MANIFEST_FILE, stripBom, type BenchmarkFiles } from '../../../scenario/src';
import { readBenchmarkFiles, readFolderFile, type FolderFile, type FolderRead } from './safeRead';

/** A problem with what the user asked for, as opposed to a problem found inside a benchmark. */
export class UsageError extends Error {}

/**
 * Reads the top-level markdown files and the manifest of one benchmark folder, never anything
 * outside it: links that leave it, dangling links, FIFOs, folders and oversized files come back
 * in `refused` (each an `unsafe-file` error) instead of aborting. `shown` is the path as the
 * user typed it, for messages.
 */
export function readBenchmarkFolder(dir: string, shown = dir): BenchmarkFiles {
  let read: FolderRead;
  try {
    if (!statSync(dir).isDirectory()) throw new UsageError(`${shown} is not a folder: give the path of a benchmark folder (one with a ${MANIFEST_FILE}).`);
    if (!readdirSync(dir).includes(MANIFEST_FILE)) throw new UsageError(`${shown} is not a benchmark folder: it has no ${MANIFEST_FILE}.`);
    read = readBenchmarkFiles(dir, isBenchmarkFileName);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read ${shown}: ${describeFsError(e)}`);
  }
  return { name: basename(dir.replace(/[\\/]+$/, '')) || dir, files: read.files, refused: read.refused };
}

/** The names a benchmark folder's reader looks at: the manifest and the top-level markdown. */
export function isBenchmarkFileName(name: string): boolean {
  return name === MANIFEST_FILE || /\.md$/i.test(name);
}

/**
 * Reads a workspace's config.jsonc by the same rule as benchmark files: a regular file of its
 * folder, under the size cap, not a link that leaves the folder. A refusal is a usage problem.
 */
export function readConfigText(path: string, shown: string): string {
  let file: FolderFile;
  try {
    file = readFolderFile(realpathSync(dirname(path)), basename(path));
  } catch (e) {
    throw new UsageError(`cannot read ${shown}: ${describeFsError(e)}`);
  }
  if ('refused' in file) throw new UsageError(`${shown} is not read: ${file.refused}.`);
  return stripBom(file.text);
}

/** The benchmark folders under `<root>/benchmarks`, sorted by name. */
export function findBenchmarkFolders(root: string): string[] {
  const dir = join(root, 'benchmarks');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.sort().map((n) => join(dir, n)).filter((p) => {
    try {
      return statSync(join(p, MANIFEST_FILE)).isFile();
    } catch {
      return false;
    }
  });
}

export function describeFsError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return 'no such file or folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return e instanceof Error ? e.message : String(e);
}
