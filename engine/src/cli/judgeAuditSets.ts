/**
 * The grading sets a judge audit reads: the `grading.jsonl` of every benchmark folder of the
 * workspace (the bundled benchmarks' when the workspace has none), or the files `--set` names.
 * A malformed line is one error with file and line; the good lines are audited all the same.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { UsageError } from '../errors';
import { GRADING_SET_FILE, parseGradingSet, readGradingSets, withUniqueKeys, type GradingSets } from '../judge/gradingSet';
import { findBenchmarkFolders, shownPath } from '../workspace/folders';

/** A set file larger than this is refused: the shipped sets together are a few hundred kilobytes. */
const MAX_SET_BYTES = 16 * 1024 * 1024;

export interface AuditSets extends GradingSets {
  /** The set files read, as the user would type them. */
  files: string[];
}

/** A path as messages and reports show it: relative to the folder the command runs in when inside it. */
function shown(cwd: string, path: string): string {
  const inside = relative(cwd, path);
  return shownPath(inside && !inside.startsWith('..') ? inside : path);
}

/** One set file named by `--set`: a regular file, bounded; its benchmark is each item's own. */
function readSetFile(cwd: string, file: string): GradingSets {
  const path = resolve(cwd, file);
  const name = shown(cwd, path);
  let size: number;
  try {
    const stat = lstatSync(path);
    if (!stat.isFile()) throw new UsageError(`--set ${name}: not a regular file: give a grading set's .jsonl file.`);
    size = stat.size;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--set ${name}: no such file: give a grading set's .jsonl file (one item a line).`);
  }
  if (size > MAX_SET_BYTES) throw new UsageError(`--set ${name}: ${size} bytes is more than a grading set may hold (16 MB): split it.`);
  return parseGradingSet(readFileSync(path, 'utf8'), name);
}

/** The sets of `--set`, or of the workspace's benchmark folders (the bundled ones when it has none). */
export function readAuditSets(cwd: string, root: string, setFiles: readonly string[], bundled: string): AuditSets {
  if (setFiles.length) {
    const sets = setFiles.map((file) => readSetFile(cwd, file));
    const unique = withUniqueKeys({ items: sets.flatMap((set) => set.items), errors: sets.flatMap((set) => set.errors) });
    return { ...unique, files: setFiles.map((file) => shown(cwd, resolve(cwd, file))) };
  }
  const here = findBenchmarkFolders(root);
  const folders = here.length ? here : findBenchmarkFolders(dirname(bundled));
  const files = folders.map((folder) => join(folder, GRADING_SET_FILE)).filter((file) => existsAsFile(file));
  const sets = readGradingSets(folders);
  return { ...sets, files: files.map((file) => shown(cwd, file)) };
}

function existsAsFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}
