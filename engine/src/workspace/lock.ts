/**
 * `results/<id>/run.lock`: which process is running a run now. One engine per run; an editor
 * that reloads finds its runs still going by the lock, and stops one by its pid.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = 'run.lock';

export interface RunLock {
  pid: number;
  /** Real time the process took the run, ISO. */
  since: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live lock of the run in `dir`, or undefined when no process runs it (a stale lock counts as none). */
export function readLock(dir: string): RunLock | undefined {
  const path = join(dir, LOCK_FILE);
  if (!existsSync(path)) return undefined;
  try {
    const lock = JSON.parse(readFileSync(path, 'utf8')) as RunLock;
    return Number.isInteger(lock.pid) && alive(lock.pid) ? lock : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the run for this process; returns the holder's lock instead when another process has it. */
export function acquireLock(dir: string): { ok: true; release: () => void } | { ok: false; holder: RunLock } {
  const holder = readLock(dir);
  if (holder && holder.pid !== process.pid) return { ok: false, holder };
  const created = !existsSync(dir);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  writeFileSync(path, JSON.stringify({ pid: process.pid, since: new Date().toISOString() } satisfies RunLock));
  return {
    ok: true,
    release: () => {
      rmSync(path, { force: true });
      // A run that could not start (a missing key, say) leaves no empty folder behind.
      if (created && readdirSync(dir).length === 0) rmSync(dir, { recursive: true, force: true });
    },
  };
}
