/** Reading benchmark folders and config.jsonc from disk into the pure scenario model. */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { UsageError } from '../errors';
import { MANIFEST_FILE, stripBom, type BenchmarkFiles } from '../../../scenario/src';
import { isBenchmarkFileName, readBenchmarkFiles, readFolderFile, type FolderFile, type FolderRead } from '../../../scenario/node/safeRead';

/** The folder of a workspace (beside config.jsonc) that holds the benchmarks runs play. */
export const BENCHMARKS_DIR = 'benchmarks';

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
    throw new UsageError(`cannot read ${shownPath(shown)}: ${describeFsError(e)}`);
  }
  return { name: basename(dir.replace(/[\\/]+$/, '')) || dir, files: read.files, refused: read.refused };
}

export { isBenchmarkFileName };

/**
 * Reads a workspace's config.jsonc by the same rule as benchmark files: a regular file of its
 * folder, under the size cap, not a link that leaves the folder. A refusal is a usage problem.
 */
export function readConfigText(path: string, shown: string): string {
  let file: FolderFile;
  try {
    file = readFolderFile(realpathSync(dirname(path)), basename(path));
  } catch (e) {
    throw new UsageError(`cannot read ${shownPath(shown)}: ${describeFsError(e)}`);
  }
  if ('refused' in file) throw new UsageError(`${shown} is not read: ${file.refused}.`);
  return stripBom(file.text);
}

/**
 * The one rule for which folders are benchmarks that runs play: `<root>/benchmarks/<name>/`
 * holding a `benchmark.json` file. The CLI, `mmb check`'s default and the editor all use it (a
 * copy elsewhere would be given another benchmark's scores, which are found by name).
 */
export function isBenchmarkFolder(dir: string): boolean {
  try {
    return statSync(join(dir, MANIFEST_FILE)).isFile();
  } catch {
    return false;
  }
}

/** The benchmark folders under `<root>/benchmarks`, sorted by name. */
export function findBenchmarkFolders(root: string): string[] {
  const dir = join(root, BENCHMARKS_DIR);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.sort().map((n) => join(dir, n)).filter(isBenchmarkFolder);
}

/** The benchmark folder under `<root>/benchmarks` a file lies in, if it lies in one. */
export function benchmarkFolderOf(root: string, file: string): string | undefined {
  const inside = relative(join(root, BENCHMARKS_DIR), file).split(sep);
  if (inside.length < 2 || inside[0] === '..' || isAbsolute(inside.join(sep))) return undefined;
  const dir = join(root, BENCHMARKS_DIR, inside[0]!);
  return isBenchmarkFolder(dir) ? dir : undefined;
}

/** A path as a message shows it: a long one is cut in the middle, so both its start and its file stay. */
export function shownPath(path: string, max = 160): string {
  if (path.length <= max) return path;
  const half = Math.floor((max - 1) / 2);
  return `${path.slice(0, half)}…${path.slice(-half)}`;
}

export function describeFsError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return 'no such file or folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  // Node's own text repeats the path, which the caller has named already.
  if (code === 'ENAMETOOLONG') return 'a name in the path is too long';
  if (code === 'ENOTDIR') return 'a file stands where a folder should be';
  if (code === 'ELOOP') return 'too many symbolic links';
  if (code) return code;
  return e instanceof Error ? e.message : String(e);
}
