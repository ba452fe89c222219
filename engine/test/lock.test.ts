/** `run.lock`: a stale lock is taken over by exactly one of many contenders; a reused pid is not the engine. */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { acquireLock, processStartTime, readLock, signalRunEngine } from '../src/workspace/lock';
import { LOCK_FILE } from '../src/protocol/layout';
import { tempDir } from './helpers';

const TRIALS = 20;
const CONTENDERS = 4;

/** A pid that no process has now: a child that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

test(`${CONTENDERS} processes racing for a stale lock: exactly one wins, in each of ${TRIALS} trials`, async () => {
  const base = tempDir('mmb-lock-');
  const dead = deadPid();
  for (let trial = 0; trial < TRIALS; trial++) {
    mkdirSync(join(base, String(trial)));
    // Half the stale locks name a dead pid, half a live process (this one) that is not their engine.
    const stale =
      trial % 2 ? { pid: dead, since: '2026-01-01T00:00:00.000Z' } : { pid: process.pid, since: '2026-01-01T00:00:00.000Z', started: '1' };
    writeFileSync(join(base, String(trial), LOCK_FILE), JSON.stringify(stale));
  }
  const start = Date.now() + 5000;
  const outputs = await Promise.all(
    Array.from(
      { length: CONTENDERS },
      () =>
        new Promise<string>((resolve, reject) => {
          const child = spawn(
            process.execPath,
            ['--import', 'tsx', join(__dirname, 'lockContender.ts'), base, String(TRIALS), String(start), '150', String(CONTENDERS)],
            { stdio: ['ignore', 'pipe', 'inherit'] },
          );
          let out = '';
          child.stdout.on('data', (d: Buffer) => {
            out += d.toString();
          });
          child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`a contender exited ${code}`))));
        }),
    ),
  );
  for (let trial = 0; trial < TRIALS; trial++) {
    const winners = outputs.filter((out) => out.split('\n').includes(`${trial} won`)).length;
    const losers = outputs.filter((out) => out.split('\n').includes(`${trial} lost`)).length;
    assert.deepEqual([winners, losers], [1, CONTENDERS - 1], `trial ${trial}`);
  }
});

test(
  'a lock whose pid now belongs to another process is stale: not reported, not signalled, taken over',
  { skip: processStartTime(process.pid) === undefined && 'no /proc here: the pid alone is checked' },
  () => {
    const dir = tempDir('mmb-lock-');
    const started = processStartTime(process.pid)!;
    writeFileSync(
      join(dir, LOCK_FILE),
      JSON.stringify({ pid: process.pid, since: '2026-01-01T00:00:00.000Z', started: String(Number(started) + 1) }),
    );
    assert.equal(readLock(dir), undefined, 'the pid is alive, but its process started at another time');
    assert.equal(signalRunEngine(dir, 'SIGINT'), false, 'the Stop button signals nothing');
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: process.pid, since: '2026-01-01T00:00:00.000Z', started }));
    assert.equal(readLock(dir)?.pid, process.pid, 'the same start time: the engine itself');

    const other = tempDir('mmb-lock-');
    writeFileSync(join(other, LOCK_FILE), JSON.stringify({ pid: 1, since: '2026-01-01T00:00:00.000Z', started: '0' }));
    const lock = acquireLock(other);
    assert.ok(lock.ok);
    const mine = JSON.parse(readFileSync(join(other, LOCK_FILE), 'utf8')) as { pid: number; started: string };
    assert.deepEqual([mine.pid, mine.started], [process.pid, started], 'the lock records the start time beside the pid');
    lock.release();
  },
);
