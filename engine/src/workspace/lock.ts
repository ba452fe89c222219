/**
 * `results/<id>/run.lock`: which process is running a run now. One engine per run; an editor
 * that reloads finds its runs still going by the lock, and stops one by its pid.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunBusy } from '../errors';
import { LOCK_FILE } from '../protocol/layout';


export interface RunLock {
  pid: number;
  /** Real time the process took the run, ISO. */
  since: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // EPERM: a process of another user holds that pid now; an engine runs as its user, so not ours.
    return false;
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

/**
 * Takes the run for this process, atomically (two engines started at once cannot both have it);
 * returns the holder's lock instead when another live process has it. A stale lock is taken over.
 */
export function acquireLock(dir: string): { ok: true; release: () => void } | { ok: false; holder: RunLock } {
  const created = !existsSync(dir);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  const mine = JSON.stringify({ pid: process.pid, since: new Date().toISOString() } satisfies RunLock);
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, mine, { flag: 'wx' });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw e;
      const holder = readLock(dir);
      if (holder && holder.pid !== process.pid) return { ok: false, holder };
      rmSync(path, { force: true });
    }
  }
  return {
    ok: true,
    release: () => {
      // Only our own lock: a process that took over a lock we thought stale keeps it.
      if (readLock(dir)?.pid === process.pid) rmSync(path, { force: true });
      // A run that could not start (a missing key, say) leaves no empty folder behind.
      if (created && existsSync(dir) && readdirSync(dir).length === 0) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Deletes a run's results to start it over; refuses while a process runs it. */
export function clearRun(dir: string, name: string): void {
  const holder = readLock(dir);
  if (holder && holder.pid !== process.pid) throw new RunBusy(`run "${name}" is running (process ${holder.pid}, since ${holder.since}); stop it before starting it over.`);
  rmSync(dir, { recursive: true, force: true });
}
