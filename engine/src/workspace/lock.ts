/**
 * `results/<id>/run.lock`: which process is running a run now. One engine per run; an editor
 * that reloads finds its runs still going by the lock, and stops one by its pid.
 *
 * A lock names its process by pid and, on Linux, by the process's start time (`/proc/<pid>/stat`
 * field 22), so a pid reused by an unrelated process is not taken for the engine. Elsewhere the
 * pid alone is checked. The lock file is always whole: it is written aside and linked into place.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, linkSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeFolder } from '../diskFull';
import { RunBusy } from '../errors';
import { LOCK_FILE } from '../protocol/layout';

export interface RunLock {
  pid: number;
  /** Real time the process took the run, ISO. */
  since: string;
  /** The process's start time in clock ticks since boot (Linux); absent where it cannot be read. */
  started?: string;
  /** Unique to this taking of the lock. */
  token?: string;
}

/** A process's start time, `/proc/<pid>/stat` field 22; undefined off Linux or for no such process. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2, the command name, is in parentheses and may hold spaces: count from after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const started = fields[22 - 3];
    return started && /^\d+$/.test(started) ? started : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the lock's process is still the one that took it. */
function alive(lock: RunLock): boolean {
  try {
    process.kill(lock.pid, 0);
  } catch {
    // EPERM: a process of another user holds that pid now; an engine runs as its user, so not ours.
    return false;
  }
  if (lock.started === undefined) return true;
  const started = processStartTime(lock.pid);
  return started === undefined || started === lock.started;
}

function parseLock(text: string | undefined): RunLock | undefined {
  if (text === undefined) return undefined;
  try {
    const lock = JSON.parse(text) as RunLock;
    return Number.isInteger(lock.pid) && lock.pid > 0 ? lock : undefined;
  } catch {
    return undefined;
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').slice(0, 4096);
  } catch {
    return undefined;
  }
}

/** The live lock of the run in `dir`, or undefined when no process runs it (a stale lock counts as none). */
export function readLock(dir: string): RunLock | undefined {
  const lock = parseLock(readText(join(dir, LOCK_FILE)));
  return lock && alive(lock) ? lock : undefined;
}

/**
 * Sends `signal` to the engine running the run in `dir` (the editor's Stop), only after checking
 * that the lock's pid is still that engine; false when no engine runs it.
 */
export function signalRunEngine(dir: string, signal: NodeJS.Signals): boolean {
  const lock = readLock(dir);
  if (!lock) return false;
  try {
    process.kill(lock.pid, signal);
    return true;
  } catch {
    return false;
  }
}

const MAX_TAKEOVER_DEPTH = 3;
const MAX_ATTEMPTS = 400;

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Writes `text` aside, then puts it at `path` with `place` (link: only if absent; rename: over it). */
function placeWhole(path: string, text: string, place: 'link' | 'rename'): boolean {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, text);
    if (place === 'rename') renameSync(tmp, path);
    else linkSync(tmp, path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/**
 * Claims `path` for `mine`. A stale holder is replaced only by the contender that claims the
 * takeover file named after the stale content (the same claim, one level down), and only if the
 * file still holds that content: two contenders can never both replace it.
 */
function claim(path: string, mine: string, depth: number): { ok: true } | { ok: false; holder: RunLock } {
  let holder: RunLock | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (placeWhole(path, mine, 'link')) return { ok: true };
    const stale = readText(path);
    if (stale === undefined) continue;
    holder = parseLock(stale);
    if (holder && alive(holder) && holder.pid !== process.pid) return { ok: false, holder };
    if (depth >= MAX_TAKEOVER_DEPTH) break;
    const takeover = `${path}.${createHash('sha256').update(stale).digest('hex').slice(0, 16)}`;
    if (claim(takeover, mine, depth + 1).ok) {
      const replaced = readText(path) === stale && placeWhole(path, mine, 'rename');
      rmSync(takeover, { force: true });
      if (replaced) return { ok: true };
    } else {
      // Another live contender is replacing it: once it has, its lock is live and the loop says so.
      pause(2);
    }
  }
  return { ok: false, holder: holder ?? { pid: 0, since: 'unknown' } };
}

/**
 * Takes the run for this process, atomically (two engines started at once cannot both have it);
 * returns the holder's lock instead when another live process has it. A stale lock (its process
 * gone, or its pid now another process) is taken over, by one contender only.
 */
export function acquireLock(dir: string): { ok: true; release: () => void } | { ok: false; holder: RunLock } {
  const created = !existsSync(dir);
  makeFolder(dir);
  const path = join(dir, LOCK_FILE);
  const started = processStartTime(process.pid);
  const token = randomBytes(8).toString('hex');
  const mine: RunLock = { pid: process.pid, since: new Date().toISOString(), ...(started ? { started } : {}), token };
  const result = claim(path, JSON.stringify(mine), 0);
  if (!result.ok) return result;
  return {
    ok: true,
    release: () => {
      // Only our own lock: a process that took over a lock we thought stale keeps it.
      if (parseLock(readText(path))?.token === token) rmSync(path, { force: true });
      // A run that could not start (a missing key, say) leaves no empty folder behind.
      if (created && existsSync(dir) && readdirSync(dir).length === 0) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Deletes a run's results to start it over; refuses while a process runs it. */
export function clearRun(dir: string, name: string): void {
  const holder = readLock(dir);
  if (holder && holder.pid !== process.pid)
    throw new RunBusy(`run "${name}" is running (process ${holder.pid}, since ${holder.since}); stop it before starting it over.`);
  rmSync(dir, { recursive: true, force: true });
}
