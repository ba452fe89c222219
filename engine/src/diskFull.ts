/**
 * A full disk (ENOSPC, or a quota: EDQUOT) or a read-only one (EROFS) is not a crash: nothing
 * about the run is wrong, and once space is back (or the folder writable) it resumes where it
 * stopped. The engine stops the run, the CLI says so in one line naming the file and the space
 * free, and exits with `DISK_FULL_EXIT`.
 */
import { accessSync, constants, existsSync, mkdirSync, renameSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { DiskFull } from './errors';

/** `mmb`'s exit status for a run stopped by a full or read-only disk (sysexits' EX_TEMPFAIL: try again later). */
export const DISK_FULL_EXIT = 75;

const FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);
const READ_ONLY_CODE = 'EROFS';
/** The least space the message asks for: a run's next steps write a few files of some KiB each. */
const MIN_FREE_ASKED_KIB = 1024;
const MAX_CAUSES = 8;

/** The error and its causes (an adapter may wrap it), outermost first. */
function causes(error: unknown): unknown[] {
  const out: unknown[] = [];
  for (let e = error; e && out.length < MAX_CAUSES; e = (e as { cause?: unknown }).cause) out.push(e);
  return out;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** An error of the operating system, or of git's text, that says the disk is full or read-only. */
export function isDiskFullCode(code: string | undefined): boolean {
  return code !== undefined && (FULL_CODES.has(code) || code === READ_ONLY_CODE);
}

/** Whether the error, or one of its causes, is a full (or read-only) disk. */
export function isDiskFull(error: unknown): boolean {
  return causes(error).some((e) => e instanceof DiskFull || isDiskFullCode(codeOf(e)));
}

/** Whether the disk error is a read-only file system rather than a full one. */
function isReadOnly(error: unknown): boolean {
  return causes(error).some((e) => codeOf(e) === READ_ONLY_CODE || (e instanceof DiskFull && e.readOnly));
}

/** The space free where `path` is, in KiB; undefined when the file system does not say. */
function freeKib(path: string): number | undefined {
  for (let dir = dirname(path), depth = 0; depth < 64; dir = dirname(dir), depth++) {
    try {
      const stats = statfsSync(dir);
      return Math.floor((stats.bavail * stats.bsize) / 1024);
    } catch {
      if (dirname(dir) === dir) return undefined;
    }
  }
  return undefined;
}

/** The one line the CLI prints: what happened, where, how much space there is, and how to go on. */
export function diskFullMessage(error: unknown, run?: string): string {
  const all = causes(error);
  const path = all.map((e) => (e as { path?: unknown }).path).find((p): p is string => typeof p === 'string');
  const bytes = all.map((e) => (e instanceof DiskFull ? e.bytes : undefined)).find((b): b is number => b !== undefined);
  const shown = path ? (relative(process.cwd(), path) || path).slice(0, 500) : undefined;
  const again = run ? `run \`mmb run ${run}\` again to resume where it stopped` : 'run the command again';
  if (isReadOnly(error)) return `the disk is read-only${shown ? ` (writing ${shown})` : ''}: make it writable and ${again}.`;
  const free = path ? freeKib(path) : undefined;
  const asked = Math.max(MIN_FREE_ASKED_KIB, Math.ceil((2 * (bytes ?? 0)) / 1024));
  const where = [shown ? `writing ${shown}` : undefined, free !== undefined ? `${free} KiB free` : undefined].filter(Boolean).join(', ');
  return `the disk is full${where ? ` (${where})` : ''}: free at least ${asked} KiB and ${again}.`;
}

/**
 * `mkdirSync(dir, { recursive: true })`, whose failure on a read-only disk (Node reports ENOENT for
 * a recursive mkdir there) is reported as the disk's own error (EROFS), naming the folder above.
 */
export function makeFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    if (codeOf(e) !== 'ENOENT') throw e;
    let above = dirname(dir);
    while (!existsSync(above) && dirname(above) !== above) above = dirname(above);
    try {
      accessSync(above, constants.W_OK);
    } catch (probe) {
      if (isDiskFull(probe)) throw Object.assign(probe as Error, { path: dir });
    }
    throw e;
  }
}

/** One page of a file system: the least a write of a new file takes. */
const PROBE_BYTES = 4096;

/**
 * Whether a page can be written in `dir` now: the error of the write when the disk is full or
 * read-only, else undefined. For a program that failed without saying why (git often says only
 * "could not write" when the disk is full).
 */
export function spaceProblem(dir: string): NodeJS.ErrnoException | undefined {
  const probe = join(dir, `.mmb-space-probe-${process.pid}`);
  try {
    writeFileSync(probe, Buffer.alloc(PROBE_BYTES));
    return undefined;
  } catch (e) {
    return isDiskFull(e) ? (e as NodeJS.ErrnoException) : undefined;
  } finally {
    rmSync(probe, { force: true });
  }
}

/** Runs a write of `path`; a full or read-only disk's error (which names no file for a write) becomes `DiskFull` naming it. */
export function writingFile<T>(path: string, write: () => T): T {
  try {
    return write();
  } catch (e) {
    throw isDiskFull(e) && !(e instanceof DiskFull)
      ? new DiskFull(path, { cause: e, readOnly: causes(e).some((c) => codeOf(c) === READ_ONLY_CODE) })
      : e;
  }
}

/**
 * Writes a whole file of the user's (a report, a JUnit file): aside, then renamed over it, so a
 * full or read-only disk leaves neither half a file nor the temporary one, and is `DiskFull` naming it.
 */
export function writeWholeFile(path: string, text: string): void {
  makeFolder(dirname(path));
  const aside = `${path}.${process.pid}.tmp`;
  writingFile(path, () => {
    try {
      writeFileSync(aside, text);
      renameSync(aside, path);
    } catch (e) {
      rmSync(aside, { force: true });
      throw e;
    }
  });
}
