/** Reading benchmark folders and config.jsonc from disk into the pure scenario model. */
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { didYouMean } from '../didYouMean';
import { UsageError } from '../errors';
import {
  CONFIG_FILE,
  configFileProblem,
  didYouMeanText,
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
    if (!readdirSync(dir).includes(MANIFEST_FILE)) throw notABenchmarkFolder(dir, shown);
    read = readBenchmarkFiles(dir, isBenchmarkFileName);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read ${shownPath(shown)}: ${describeFsError(e)}${nearFolder(dir, shown, e)}`);
  }
  return { name: basename(dir.replace(/[\\/]+$/, '')) || dir, files: read.files, refused: read.refused };
}

export { isBenchmarkFileName };

/** At most this many benchmarks are named when a workspace is given for a benchmark folder. */
const MAX_BENCHMARKS_NAMED = 8;

/**
 * A folder given for a benchmark that has no benchmark.json. A workspace (config.jsonc, benchmarks/) and
 * its benchmarks/ are the commonest such folders: each is named for what it is, with the commands that
 * check what it holds.
 */
function notABenchmarkFolder(dir: string, shown: string): UsageError {
  const folder = shown.replace(/[\\/]+$/, '') || shown;
  const workspace = existsSync(join(dir, CONFIG_FILE)) || findBenchmarkFolders(dir).length > 0;
  const benchmarks = (workspace ? findBenchmarkFolders(dir) : benchmarkFoldersIn(dir)).map((path) => basename(path));
  if (!workspace && benchmarks.length === 0) return new UsageError(`${shown} is not a benchmark folder: it has no ${MANIFEST_FILE}.`);
  const here = resolve(dir) === process.cwd();
  const inside = `${here ? '' : `${folder}/`}${workspace ? `${BENCHMARKS_DIR}/` : ''}`;
  const listed = benchmarks.slice(0, MAX_BENCHMARKS_NAMED).join(', ') + (benchmarks.length > MAX_BENCHMARKS_NAMED ? ', …' : '');
  const one = benchmarks.length
    ? `\`mmb check ${inside}${benchmarks.includes('starter') ? 'starter' : benchmarks[0]}\` checks one of its benchmarks (${listed})`
    : 'it has no benchmarks yet (`mmb new <name>` makes one)';
  if (!workspace) return new UsageError(`${shownPath(folder)} holds benchmark folders but is not one: ${one}.`);
  const all = here ? '`mmb check` alone checks all of it' : `\`cd ${folder} && mmb check\` checks all of it`;
  return new UsageError(
    `${shownPath(folder)} is a workspace (${CONFIG_FILE}, ${BENCHMARKS_DIR}/), not a benchmark folder: ${one}; ${all}.`,
  );
}

/** The benchmark folders right inside `dir` (a workspace's benchmarks/), sorted by name; none when it cannot be read. */
export function benchmarkFoldersIn(dir: string): string[] {
  try {
    return readdirSync(dir)
      .sort()
      .map((name) => join(dir, name))
      .filter(isBenchmarkFolder);
  } catch {
    return [];
  }
}

/** ` Did you mean \`benchmarks/starter\`?` for a folder not found whose sibling is near its name; else empty. */
function nearFolder(dir: string, shown: string, error: unknown): string {
  if ((error as NodeJS.ErrnoException)?.code !== 'ENOENT') return '';
  let siblings: string[];
  try {
    siblings = readdirSync(dirname(dir), { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? [entry.name] : []));
  } catch {
    return '';
  }
  const meant = didYouMean(basename(dir), siblings);
  if (meant === undefined) return '';
  const parent = dirname(shown.replace(/[\\/]+$/, ''));
  // After `no such file or folder`, which has no full stop of its own.
  return `.${didYouMeanText([parent === '.' ? meant : join(parent, meant)])}`;
}

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
