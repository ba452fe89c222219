/** Reading benchmark folders and config.jsonc from disk into the pure scenario model. */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { UsageError } from '../errors';
import {
  configFileProblem,
  decodeConfigBytes,
  diagnostic,
  lineRange,
  MANIFEST_FILE,
  parseConfig,
  type BenchmarkFiles,
  type Config,
  type Diagnostic,
} from '../../../scenario/src';
import {
  isBenchmarkFileName,
  readBenchmarkFiles,
  readFolderBytes,
  type FolderBytes,
  type FolderRead,
} from '../../../scenario/node/safeRead';

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
    if (!statSync(dir).isDirectory())
      throw new UsageError(`${shown} is not a folder: give the path of a benchmark folder (one with a ${MANIFEST_FILE}).`);
    if (!readdirSync(dir).includes(MANIFEST_FILE)) throw new UsageError(`${shown} is not a benchmark folder: it has no ${MANIFEST_FILE}.`);
    read = readBenchmarkFiles(dir, isBenchmarkFileName);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read ${shownPath(shown)}: ${describeFsError(e)}`);
  }
  return { name: basename(dir.replace(/[\\/]+$/, '')) || dir, files: read.files, refused: read.refused };
}

export { isBenchmarkFileName };

/** config.jsonc as read: its settings and diagnostics, exactly as `mmb check` lists them. */
export interface ConfigRead {
  config: Config;
  diagnostics: Diagnostic[];
}

/**
 * Reads and parses a workspace's config.jsonc: the one reader of `mmb check` and `mmb run`, so
 * that both refuse the same files with the same line. The file is read by the rule of benchmark
 * files (a regular file of its folder, under the size cap, not a link that leaves it; else an
 * `unsafe-file` error), decoded as UTF-8 with at most one byte order mark (else an
 * `invalid-config` error), then parsed. Throws a UsageError only when nothing can be read at all.
 */
export function readConfigFile(path: string, shown: string, file = basename(path)): ConfigRead {
  let read: FolderBytes;
  try {
    read = readFolderBytes(realpathSync(dirname(path)), basename(path));
  } catch (e) {
    throw new UsageError(`cannot read ${shownPath(shown)}: ${describeFsError(e)}`);
  }
  const refusal = (code: 'unsafe-file' | 'invalid-config', message: string) => ({
    config: parseConfig('{}').config,
    diagnostics: [diagnostic(code, file, lineRange(0, 0, 0), message)],
  });
  if ('refused' in read)
    return refusal('unsafe-file', `${file} is not read: ${read.refused}. A workspace reads only regular files inside its own folder.`);
  const problem = configFileProblem(read.bytes, file);
  if (problem) return refusal('invalid-config', problem);
  return parseConfig(read.bytes.toString('utf8'), file);
}

/**
 * A workspace's config.jsonc as text, for readers that parse it themselves (the editor's results
 * view): the same checks as `readConfigFile`, a refusal thrown as a UsageError.
 */
export function readConfigText(path: string, shown: string): string {
  let read: FolderBytes;
  try {
    read = readFolderBytes(realpathSync(dirname(path)), basename(path));
  } catch (e) {
    throw new UsageError(`cannot read ${shownPath(shown)}: ${describeFsError(e)}`);
  }
  if ('refused' in read) throw new UsageError(`${shown} is not read: ${read.refused}.`);
  const decoded = decodeConfigBytes(read.bytes);
  if ('problem' in decoded) throw new UsageError(`${shown} is not read: ${decoded.problem}.`);
  return decoded.text;
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
  return names
    .sort()
    .map((n) => join(dir, n))
    .filter(isBenchmarkFolder);
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

export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return 'no such file or folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  // Node's own text repeats the path, which the caller has named already.
  if (code === 'ENAMETOOLONG') return 'a name in the path is too long';
  if (code === 'ENOTDIR') return 'a file stands where a folder should be';
  if (code === 'ELOOP') return 'too many symbolic links';
  if (code) return code;
  return error instanceof Error ? error.message : String(error);
}
