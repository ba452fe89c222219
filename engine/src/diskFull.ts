/**
 * A full disk (ENOSPC, or a quota: EDQUOT) is not a crash: nothing about the run is wrong, and
 * once space is back it resumes where it stopped. The engine stops the run, the CLI says so in one
 * line and exits with `DISK_FULL_EXIT`.
 */
import { relative } from 'node:path';
import { DiskFull } from './errors';

/** `mmb`'s exit status for a run stopped by a full disk (sysexits' EX_TEMPFAIL: try again later). */
export const DISK_FULL_EXIT = 75;

const CODES = new Set(['ENOSPC', 'EDQUOT']);

/** Whether the error, or one of its causes (an adapter may wrap it), is a full disk. */
export function isDiskFull(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof DiskFull) return true;
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && CODES.has(code)) return true;
  }
  return false;
}

/** The one line the CLI prints: what happened, where, and how to go on. */
export function diskFullMessage(error: unknown, run?: string): string {
  let path: string | undefined;
  for (let e = error, depth = 0; e && !path && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const p = (e as { path?: unknown }).path;
    if (typeof p === 'string') path = (relative(process.cwd(), p) || p).slice(0, 500);
  }
  return `the disk is full${path ? ` (writing ${path})` : ''}: free space and run \`mmb run${run ? ` ${run}` : ''}\` again to resume where it stopped.`;
}
