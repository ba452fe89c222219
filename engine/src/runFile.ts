/**
 * The one reader of a run's JSON files (`state.json`, `run.json`, `summary.json`) and of a
 * journal's bytes: each is untrusted, so what is not a regular file, cannot be read, is not JSON
 * or has the wrong shape becomes `RunDamaged` with one line saying what, never an exception from
 * deeper in a reader. A FIFO or a folder in a file's place is never opened.
 */
import { closeSync, constants, lstatSync, openSync, readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { RunDamaged } from './errors';
import { PARTIAL_FILE } from './protocol/layout';
import { problemOf, problemText, type Shape } from './protocol/shape';
import { shorten } from '../../scenario/src/plainText';

/**
 * The largest run file read back. A journal holds every reply cut at 50,000 characters, so even a
 * month of turns stays far below it; a file past it was planted or broken, and reading it whole
 * would take gigabytes of memory before saying so.
 */
export const RUN_FILE_MAX_BYTES = 512 * 1024 * 1024;

/** Characters of a parser's own message kept: it may quote the file, which may be anything. */
const MAX_REASON_CHARS = 100;

/** Whether a character is shown as `?`: control characters, lone surrogates, the replacement character of undecodable bytes. */
function unprintable(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0xd800 && code <= 0xdfff) || code === 0xfffd;
}

/** A text of the file's or a parser's as one short printable line. */
export function oneLine(text: string, max = MAX_REASON_CHARS): string {
  let flat = '';
  for (const char of text.slice(0, max + 1)) flat += unprintable(char.codePointAt(0)!) ? '?' : char;
  return shorten(flat, max);
}

/**
 * `file` for a regular file within the bound, undefined for none, else the problem. Links are never
 * followed, neither the file nor its run's folder: a link planted in results/ would otherwise show
 * an outside file's first bytes in a parser's message.
 */
function kindOf(path: string): string | undefined {
  if (lstatSync(dirname(path), { throwIfNoEntry: false })?.isSymbolicLink()) return 'its run folder is a link, which is never followed';
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat) return undefined;
  const tooLarge = `a file of ${mebibytes(stat.size)} (at most ${mebibytes(RUN_FILE_MAX_BYTES)} is read)`;
  if (stat.isFile() && stat.size > RUN_FILE_MAX_BYTES) return tooLarge;
  if (stat.isFile()) return 'file';
  if (stat.isSymbolicLink()) return 'a link where a file goes (never followed)';
  return `${stat.isDirectory() ? 'a folder' : 'a special file (a FIFO, a socket or a device)'} where a file goes`;
}

/** The bytes of a run's file, or undefined when there is none; anything but a readable regular file is damage. */
export function readRunBytes(path: string): Buffer | undefined {
  const file = basename(path);
  let kind: string | undefined;
  try {
    kind = kindOf(path);
    if (kind === 'file') return readWithoutFollowing(path);
  } catch (e) {
    throw new RunDamaged(path, file, `cannot be read (${(e as NodeJS.ErrnoException).code ?? oneLine(String(e))})`, { cause: e });
  }
  if (kind === undefined) return undefined;
  throw new RunDamaged(path, file, kind);
}

/** The file's bytes through a descriptor opened without following a link swapped in since the check. */
function readWithoutFollowing(path: string): Buffer {
  const descriptor = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    return readFileSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

function mebibytes(bytes: number): string {
  return `${Math.round(bytes / 1024 / 1024).toLocaleString('en')} MiB`;
}

/** The JSON of a run's file with `shape`, or undefined when there is no file. */
export function readRunJson<T>(path: string, shape: Shape<T>): { value: T; bytes: number } | undefined {
  const bytes = readRunBytes(path);
  if (bytes === undefined) return undefined;
  return { value: parseRunJson(bytes.toString('utf8'), shape, path), bytes: bytes.length };
}

/** `text`, read from `path`, as JSON with `shape`: otherwise `RunDamaged` saying what is wrong. */
export function parseRunJson<T>(text: string, shape: Shape<T>, path: string, where = ''): T {
  const file = basename(path);
  if (!text.trim()) throw new RunDamaged(path, file, `${where}empty`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new RunDamaged(path, file, `${where}not JSON (${oneLine((e as Error).message)})`, { cause: e });
  }
  const problem = problemOf(shape, value);
  if (problem) throw new RunDamaged(path, file, `${where}${oneLine(problemText(problem), 300)}`);
  return value as T;
}

/** A damaged run's problem with what to do about it, one line: `damaged: <file>: <what>; …`. */
export function damagedLine(damaged: RunDamaged): string {
  const id = basename(dirname(damaged.path));
  const remedy =
    damaged.file === PARTIAL_FILE
      ? `start the phase run again (\`mmb run --from <chapter.md>:<phase>\` or the editor), or delete results/${id}`
      : `start it over with \`mmb run ${id} --restart\` (its results are deleted), or delete results/${id}`;
  return `${damaged.message}; ${remedy}.`;
}
