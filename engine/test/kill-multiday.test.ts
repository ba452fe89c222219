/**
 * The kill test on virtual time and on the notebook agent: `mmb run` is stopped 30 times at random
 * moments, by SIGINT or SIGKILL to its whole process group (git children included), and resumed
 * each time in the same run folder; the run must end exactly as an uninterrupted one, with every
 * message sent once. The seed is printed; `MMB_KILL_SEED=<seed>` replays a failure.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, ROOT, workspace } from './helpers';
import { FileRunStore } from '../src/run/store';
import type { RunState } from '../src/state/runState';

const KILLS = 30;
const SEED = Number(process.env.MMB_KILL_SEED ?? Date.now() % 2 ** 31);
const BENCHMARKS = { multiday: join(ROOT, 'benchmarks', 'multiday') };
// The stand-in answers at once: no real time before a wake-up, and a fast poll of the clock.
const TIME_MASTER = { min_sleep_to_skip: 5, pre_wake_delay: 0, poll_interval: 0.05 };

interface Combination {
  name: string;
  run: Record<string, unknown>;
  /** The agent's own record of each message it was sent, one JSON line each with `kind: 'user'`. */
  sentFile: string;
}

const COMBINATIONS: Combination[] = [
  {
    name: 'multiday on the chatbot',
    run: { benchmark: 'multiday', agent: 'chatbot', ignore_session_break: true },
    sentFile: 'conversation.jsonl',
  },
  { name: 'the notebook on multiday', run: { benchmark: 'multiday', agent: 'notebook' }, sentFile: 'journal.jsonl' },
];

function seeded(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

function config(run: Record<string, unknown>) {
  return { persona: { model: 'stand-in' }, time_master: TIME_MASTER, runs: { k: run } };
}

/** The number of the journal's last whole event, read from its tail (0 when there is none yet). */
function lastEventNumber(journal: string): number {
  if (!existsSync(journal)) return 0;
  const size = statSync(journal).size;
  if (size === 0) return 0;
  const length = Math.min(size, 64 * 1024);
  const buffer = Buffer.alloc(length);
  const fd = openSync(journal, 'r');
  try {
    readSync(fd, buffer, 0, length, size - length);
  } finally {
    closeSync(fd);
  }
  const lines = buffer.toString('utf8').split('\n');
  for (let i = lines.length - 2; i >= 0; i--) {
    const match = /^\{"n":(\d+),/.exec(lines[i] ?? '');
    if (match) return Number(match[1]);
  }
  return 0;
}

/** Runs `mmb run k` in its own process group to the end; its exit status. */
function runToEnd(dir: string): Promise<{ status: number | null; output: string }> {
  const child = spawn(process.execPath, [CLI, 'run', 'k'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    output += d.toString();
  });
  return new Promise((resolve) => child.on('exit', (status) => resolve({ status, output })));
}

/**
 * Starts `mmb run k` in a process group of its own and sends `signal` to the whole group once the
 * journal holds event `target`. True when it was signalled before it finished.
 */
async function runAndStop(
  dir: string,
  target: number,
  signal: 'SIGINT' | 'SIGKILL',
): Promise<{ signalled: boolean; status: number | null; output: string }> {
  const child = spawn(process.execPath, [CLI, 'run', 'k'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let output = '';
  child.stderr.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (status) => resolve(status)));
  const journal = join(dir, 'results', 'k', 'journal.jsonl');
  let signalled = false;
  while (child.exitCode === null && child.signalCode === null) {
    if (lastEventNumber(journal) >= target) {
      try {
        process.kill(-child.pid!, signal);
        signalled = true;
      } catch {
        // It had just exited.
      }
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 3));
  }
  const timer = setTimeout(() => {
    output += '\n(the engine did not stop within 60 s of the signal)';
    process.kill(-child.pid!, 'SIGKILL');
  }, 60_000);
  const status = await exited;
  clearTimeout(timer);
  return { signalled, status, output };
}

function finalState(dir: string): RunState {
  const state = new FileRunStore(join(dir, 'results', 'k')).load();
  assert.ok(state, 'the run has a state');
  return state;
}

const view = (state: RunState) => ({
  status: state.status,
  grades: Object.fromEntries(Object.entries(state.grades).map(([id, g]) => [id, g.map((x) => [x.effective, x.answer])])),
  transcript: state.transcript.map((e) => `${e.from}: ${e.text}`),
  sheets: state.sheets,
  virtualDay: state.virtualTime?.slice(0, 10),
});

function sentToAgent(dir: string, file: string): string[] {
  return readFileSync(join(dir, 'results', 'k', 'agent', file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { kind: string; text?: string })
    .filter((e) => e.kind === 'user')
    .map((e) => e.text ?? '');
}

async function campaign(
  combination: Combination,
  signal: 'SIGINT' | 'SIGKILL',
  expected: ReturnType<typeof view>,
  events: number,
  seed: number,
): Promise<void> {
  const context = `${combination.name}, ${signal}, seed ${seed} (MMB_KILL_SEED=${SEED})`;
  const random = seeded(seed);
  // 30 moments spread over the reference run's events; each resume adds one event of its own.
  const moments = Array.from({ length: KILLS }, () => 1 + Math.floor(random() * (events - 2))).sort((a, b) => a - b);
  const dir = workspace(config(combination.run), BENCHMARKS);
  let stops = 0;
  for (const [i, moment] of moments.entries()) {
    const result = await runAndStop(dir, moment + i, signal);
    if (result.signalled) stops++;
    assert.ok(
      !/internal error|is damaged|Please report/.test(result.output),
      `${context}: stop ${i + 1} at event ${moment + i}: ${result.output}`,
    );
    if (signal === 'SIGINT' && result.signalled)
      assert.ok(
        result.status === 130 || result.status === 0,
        `${context}: a Ctrl-C stop exits 130, not ${result.status}: ${result.output}`,
      );
  }
  // A run of 0.2 s may end within one poll of a moment near its end, more often on a busy machine: most moments must stop it.
  assert.ok(stops >= KILLS - 5, `${context}: the run was stopped ${stops} times of ${KILLS}`);
  const last = await runToEnd(dir);
  assert.equal(last.status, 0, `${context}: ${last.output}`);
  const got = finalState(dir);
  assert.deepEqual(view(got), expected, context);
  const persona = expected.transcript.filter((t) => t.startsWith('persona: ')).map((t) => t.slice('persona: '.length));
  assert.deepEqual(sentToAgent(dir, combination.sentFile), persona, `${context}: the agent got every message exactly once`);
  const report = readFileSync(join(dir, 'results', 'report.md'), 'utf8');
  assert.equal((report.match(/— k: multiday @ /g) ?? []).length, 1, `${context}: one report entry, for the finished run`);
}

test(`stopped ${KILLS} times by SIGINT and SIGKILL to the process group, multiday runs resume to the same end (seed ${SEED})`, async () => {
  console.log(`kill-multiday seed: ${SEED} (MMB_KILL_SEED=${SEED} replays it)`);
  const references = await Promise.all(
    COMBINATIONS.map(async (combination) => {
      const dir = workspace(config(combination.run), BENCHMARKS);
      const result = await runToEnd(dir);
      assert.equal(result.status, 0, result.output);
      const state = finalState(dir);
      assert.equal(state.status, 'finished', state.error);
      return { combination, expected: view(state), events: state.events };
    }),
  );
  const random = seeded(SEED);
  await Promise.all(
    references.flatMap(({ combination, expected, events }) =>
      (['SIGINT', 'SIGKILL'] as const).map((signal) => campaign(combination, signal, expected, events, Math.floor(random() * 2 ** 31))),
    ),
  );
});
