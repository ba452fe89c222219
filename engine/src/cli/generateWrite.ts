/**
 * The disk side of `mmb generate`: a new folder written whole (aside, then renamed into place, so a
 * stop or a full disk leaves no half benchmark), an extended one written file by file in an order
 * that keeps it readable at every step, and the folder's files grouped for the command's lines.
 */
import { existsSync, lstatSync, readdirSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { makeFolder, writeWholeFile, writingFile } from '../diskFull';

/** A name the generator may give a file: one plain file of the folder, never a path. */
const FILE_NAME = /^[A-Za-z0-9][\w.-]*$/;

/** The files a reader of the folder reads first: written last when extending, so they name only files that exist. */
const WRITTEN_LAST = ['benchmark.json', 'world.jsonc'];

function checkedName(name: string): string {
  // The generator is ours: a name that is not a plain file is its bug, not the user's.
  if (!FILE_NAME.test(name) || name.includes('..')) throw new Error(`the generator named a file ${JSON.stringify(name)}`);
  return name;
}

/** Why `target` cannot be generated into, or undefined when it is absent or an empty folder. */
export function existingFolderProblem(target: string, shown: string): string | undefined {
  let isFolder: boolean;
  try {
    isFolder = lstatSync(target).isDirectory();
  } catch {
    return undefined;
  }
  if (!isFolder) return `${shown} exists and is not a folder: pick another name.`;
  if (readdirSync(target).length === 0) return undefined;
  return `${shown} exists and is not empty: pick another name, or carry a generated world on with mmb generate --extend ${shown}.`;
}

/** Writes `files` as the folder `target` (absent or empty): all of them, or none. */
export function writeFolderWhole(target: string, files: ReadonlyMap<string, string>): void {
  const parent = dirname(target);
  makeFolder(parent);
  const aside = join(parent, `.${basename(target)}.generating-${process.pid}`);
  try {
    rmSync(aside, { recursive: true, force: true });
    makeFolder(aside);
    for (const [name, text] of files) writingFile(join(target, name), () => writeFileSync(join(aside, checkedName(name)), text));
    writingFile(target, () => {
      // An empty folder stands where the benchmark goes (existingFolderProblem let it): it makes way; a full one would refuse.
      if (existsSync(target)) rmdirSync(target);
      renameSync(aside, target);
    });
  } catch (e) {
    rmSync(aside, { recursive: true, force: true });
    throw e;
  }
}

/**
 * Writes what an extension changed in `folder`: new files first, then the rewritten ones, then
 * benchmark.json and world.jsonc, each whole; a stop halfway leaves a folder whose manifest names
 * only files that exist, and running the command again finishes it.
 */
export function writeExtension(
  folder: string,
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): { added: string[]; changed: string[] } {
  const names = sortedFileNames([...after.keys()]);
  const added = names.filter((name) => !before.has(name));
  const changed = names.filter((name) => before.has(name) && before.get(name) !== after.get(name));
  const order = [...added, ...changed].sort((x, y) => WRITTEN_LAST.indexOf(x) - WRITTEN_LAST.indexOf(y));
  for (const name of order) writeWholeFile(join(folder, checkedName(name)), after.get(name)!);
  return { added, changed };
}

/** Chapters and weeks by their number (chapter2 before chapter10), the rest by name. */
function sortedFileNames(names: readonly string[]): string[] {
  const numbered = (name: string) => /^([a-z-]+?)(\d+)\.md$/.exec(name);
  return [...names].sort((x, y) => {
    const [mx, my] = [numbered(x), numbered(y)];
    if (mx && my && mx[1] === my[1]) return Number(mx[2]) - Number(my[2]);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/** The most names a group lists before it says how many more. */
const MAX_LISTED = 8;

/** Names as a line lists them: all of a few, the first few of many and how many more. */
export function listedNames(names: readonly string[]): string {
  return names.length > MAX_LISTED ? `${names.slice(0, MAX_LISTED).join(', ')} and ${names.length - MAX_LISTED} more` : names.join(', ');
}

/** A benchmark folder's files, one line per group: the benchmark, the persona, the sheets, the chapters or weeks. */
export function fileGroups(names: readonly string[]): string[] {
  const sorted = sortedFileNames(names);
  const benchmark = ['benchmark.json', 'README.md', 'world.jsonc'].filter((name) => names.includes(name));
  const persona = ['instructions.md', 'profile.md'].filter((name) => names.includes(name));
  const chapters = sorted.filter((name) => /^chapter\d+\.md$/.test(name));
  const weeks = sorted.filter((name) => /^week\d+\.md$/.test(name));
  const grouped = new Set([...benchmark, ...persona, ...chapters, ...weeks]);
  const sheets = sorted.filter((name) => /\.md$/.test(name) && !grouped.has(name));
  const others = sorted.filter((name) => !grouped.has(name) && !sheets.includes(name));
  const list = listedNames;
  const range = (group: readonly string[]) => (group.length > 2 ? `${group[0]} … ${group[group.length - 1]}` : group.join(', '));
  const count = (size: number, one: string) => `${size} ${one}${size === 1 ? '' : 's'}`;
  return [
    benchmark.length ? `the benchmark: ${list(benchmark)}` : '',
    persona.length ? `the persona: ${list(persona)}` : '',
    sheets.length ? `${count(sheets.length, 'sheet')}: ${list(sheets)}` : '',
    chapters.length ? `${count(chapters.length, 'chapter')}: ${range(chapters)}` : '',
    weeks.length ? `${count(weeks.length, 'week')}: ${range(weeks)}` : '',
    others.length ? `${count(others.length, 'other file')}: ${list(others)}` : '',
  ].filter(Boolean);
}
