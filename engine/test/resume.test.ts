/**
 * Every stop resumes: the virtual clock after a resume is the clock at the stop, a run from a
 * later phase starts on its day, a cut journal line is dropped before the next append, a full
 * disk stops the run with one line and it resumes once there is space, and the notebook clears
 * the git lock a killed git left.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { NotebookAdapter } from '../src/adapters/notebook/adapter';
import type { AgentAdapter } from '../src/protocol/agent';
import { Clock } from '../src/clock';
import { DiskFull } from '../src/errors';
import { createModel } from '../src/models/resolve';
import { runBenchmark } from '../src/run/runner';
import { emptyState, type RunState } from '../src/state/runState';
import { FileRunStore, type StoreFileSystem } from '../src/run/store';
import { JOURNAL_FILE } from '../src/protocol/layout';
import { startStandIn } from '../src/standin/server';
import { benchmarkFrom, CLI, DAYS, ROOT, runOnStandIn, ScriptedPersona, starter, tempDir, workspace, joinedPattern } from './helpers';

const idleAgent = (): AgentAdapter => ({
  quietPeriodMs: 10,
  pollIntervalMs: 5,
  createSession: async () => undefined,
  destroySession: async () => undefined,
  sendMessage: async () => undefined,
  getResponses: async () => [],
});

test('after a stop the clock goes on from where it stood, not from the last jump: the time gate lets the phase end', async () => {
  const dir = tempDir();
  // The jump lands a second before 21:00 and that second passes for real: the 09:04 against 09:05.
  const timeMaster = { minSleepToSkipMs: 5000, preWakeDelayMs: 1000, pollIntervalMs: 10 };
  const first = new ScriptedPersona([{ name: 'wait', args: { until: '21:00' } }]);
  const stopped = await runBenchmark({
    name: 'r',
    benchmark: benchmarkFrom(DAYS),
    agent: 'fake',
    persona: first,
    adapter: idleAgent(),
    store: new FileRunStore(dir),
    clock: new Clock(),
    timeMaster,
    maxTurnsPerPhase: 1,
  });
  assert.equal(stopped.persona.findLast((m) => m.role === 'tool')?.content, 'It is now 2026-03-01 21:00.');
  assert.equal(stopped.status, 'crashed', 'stopped right after the wait');
  assert.equal(stopped.virtualTime, '2026-03-01T20:59:59.000Z', 'the last jump');
  const resumed = new ScriptedPersona([{ name: 'next_phase', args: {} }]);
  const again = await runBenchmark({
    name: 'r',
    benchmark: benchmarkFrom(DAYS),
    agent: 'fake',
    persona: resumed,
    adapter: idleAgent(),
    store: new FileRunStore(dir),
    clock: new Clock(),
    timeMaster,
    maxTurnsPerPhase: 1,
  });
  assert.match(resumed.results[1] ?? '', /^\[Phase 2\/2 of days\.md — Day 2\]/, resumed.results[1]);
  assert.equal(again.position.phase, 1);
  assert.ok(
    Date.parse(again.virtualTime!) >= Date.parse('2026-03-01T21:00:00Z'),
    `the resume journals the clock at the stop, ${again.virtualTime}`,
  );
});

test("mmb run --benchmark multiday --from week2.md:1 --rehearse starts on that phase's day and finishes", () => {
  const dir = tempDir('mmb-from-');
  cpSync(join(ROOT, 'benchmarks', 'multiday'), join(dir, 'benchmarks', 'multiday'), { recursive: true });
  const r = spawnSync(process.execPath, [CLI, 'run', '--benchmark', 'multiday', '--from', 'week2.md:1', '--rehearse'], {
    cwd: dir,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const state = JSON.parse(readFileSync(join(dir, 'results', 'multiday.from-week2-1.rehearsal', 'state.json'), 'utf8')) as RunState;
  assert.equal(state.status, 'finished', state.error);
  assert.equal(
    state.clockJumps?.[0]?.virtualTime,
    '2026-03-09T07:40:00.000Z',
    "the clock starts at Day 9's first anchor, not at start_time",
  );
  assert.equal(state.virtualTime?.slice(0, 10), '2026-03-15');
  assert.equal(state.transcript[0]?.position.chapter, 'week2.md');
  assert.ok(
    !state.persona.some((m) => m.role === 'tool' && /at most 36 hours|Wait until then/.test(m.content)),
    'no wait refused, no phase held by the gate',
  );
});

test('a journal whose last line was cut is repaired before the next append, and loads whole', () => {
  const dir = tempDir();
  const store = new FileRunStore(dir);
  const state = emptyState();
  store.append(state, { type: 'persona', at: new Date().toISOString(), message: { role: 'user', content: 'one' } });
  store.append(state, { type: 'persona', at: new Date().toISOString(), message: { role: 'user', content: 'two' } });
  // A kill mid-write: half of the third line, no newline.
  appendFileSync(join(dir, JOURNAL_FILE), '{"n":3,"type":"persona","at":"2026-');
  const reopened = new FileRunStore(dir);
  const loaded = reopened.load()!;
  assert.equal(loaded.events, 2, 'the cut line is left out');
  assert.ok(readFileSync(join(dir, JOURNAL_FILE), 'utf8').endsWith('"at":"2026-'), 'loading alone writes nothing (readers load too)');
  reopened.append(loaded, { type: 'persona', at: new Date().toISOString(), message: { role: 'user', content: 'three' } });
  const lines = readFileSync(join(dir, JOURNAL_FILE), 'utf8').split('\n');
  assert.equal(lines.length, 4, 'three whole lines and the final newline');
  assert.ok(
    lines.slice(0, 3).every((line) => JSON.parse(line)),
    'every line is whole',
  );
  const final = new FileRunStore(dir).load()!;
  assert.deepEqual(
    final.persona.map((m) => m.content),
    ['one', 'two', 'three'],
  );
  assert.equal(final.events, 3);
});

test('a journal damaged by the old engine (an event appended onto a cut line) still loads, the cut event left out', () => {
  const dir = tempDir();
  const line = (n: number, content: string) =>
    JSON.stringify({ n, type: 'persona', at: '2026-03-01T10:00:00.000Z', message: { role: 'user', content } });
  writeFileSync(join(dir, JOURNAL_FILE), `${line(1, 'one')}\n${line(2, 'lost').slice(0, 30)}${line(2, 'two')}\n${line(3, 'three')}\n`);
  const state = new FileRunStore(dir).load()!;
  assert.deepEqual(
    state.persona.map((m) => m.content),
    ['one', 'two', 'three'],
  );
  writeFileSync(join(dir, JOURNAL_FILE), `${line(1, 'one')}\nnot json at all\n${line(2, 'two')}\n`);
  assert.throws(() => new FileRunStore(dir).load(), /^Error: damaged: .*journal\.jsonl: line 2 is not JSON \(/);
});

/** A disk that holds `capacity` bytes of the store's writes: past it a write goes in part, then fails with ENOSPC. */
class FillingDisk implements StoreFileSystem {
  private used = 0;
  failures = 0;
  constructor(private readonly capacity: number) {}
  private take(path: string, data: string, write: (part: Buffer) => void): void {
    const bytes = Buffer.from(data);
    if (this.used + bytes.length <= this.capacity) {
      this.used += bytes.length;
      write(bytes);
      return;
    }
    write(bytes.subarray(0, Math.max(0, this.capacity - this.used)));
    this.used = this.capacity;
    this.failures++;
    throw Object.assign(new Error(`ENOSPC: no space left on device, write '${path}'`), { code: 'ENOSPC', path });
  }
  appendFileSync(path: string, data: string): void {
    this.take(path, data, (part) => appendFileSync(path, part));
  }
  writeFileSync(path: string, data: string): void {
    this.take(path, data, (part) => writeFileSync(path, part));
  }
  renameSync(from: string, to: string): void {
    execFileSync('mv', [from, to]);
  }
  truncateSync(path: string, length: number): void {
    execFileSync('truncate', ['-s', String(length), path]);
  }
}

const view = (s: RunState) => ({
  grades: Object.fromEntries(Object.entries(s.grades).map(([id, g]) => [id, g.map((x) => [x.effective, x.answer])])),
  transcript: s.transcript.map((e) => `${e.from}: ${e.text}`),
  sheets: s.sheets,
});

test('a full disk mid-run stops it (DiskFull, no crash), leaves the journal whole, and the run resumes to the same end', async () => {
  const reference = await runOnStandIn(starter(), { ignoreSessionBreak: true });
  assert.equal(reference.state.status, 'finished');
  const dir = tempDir();
  const disk = new FillingDisk(30_000);
  await assert.rejects(runOnStandIn(starter(), { ignoreSessionBreak: true, dir, store: new FileRunStore(dir, disk) }), DiskFull);
  assert.ok(disk.failures >= 1);
  const journal = readFileSync(join(dir, JOURNAL_FILE), 'utf8');
  assert.ok(
    journal.endsWith('\n') &&
      journal
        .split('\n')
        .slice(0, -1)
        .every((line) => JSON.parse(line)),
    'the part of the line that fitted was cut off again',
  );
  const stopped = new FileRunStore(dir).load()!;
  assert.equal(stopped.status, 'running', 'not marked crashed: it is resumable');
  assert.ok(!existsSync(join(dir, 'state.json.tmp')), 'no half snapshot left behind');
  const resumed = await runOnStandIn(starter(), { ignoreSessionBreak: true, dir });
  assert.equal(resumed.state.status, 'finished', resumed.state.error);
  assert.deepEqual(view(resumed.state), view(reference.state));
});

test(
  "mmb run on a full disk: one clear line on stderr, exit 75; with space back, the run's entry is written",
  { skip: !existsSync('/dev/full') && 'no /dev/full here' },
  () => {
    const dir = workspace({ persona: { model: 'stand-in' }, runs: { a: { benchmark: 'starter', agent: 'chatbot' } } });
    mkdirSync(join(dir, 'results'), { recursive: true });
    symlinkSync('/dev/full', join(dir, 'results', 'report.md'));
    const full = spawnSync(process.execPath, [CLI, 'run', 'a'], { cwd: dir, encoding: 'utf8' });
    assert.equal(full.status, 75, full.stdout + full.stderr);
    assert.match(
      full.stderr,
      joinedPattern([
        /^mmb: the disk is full \(writing \S*report\.md(, \d+ KiB free)?\): /,
        /free at least \d+ KiB and run `mmb run a` again to resume where it stopped\.\n$/,
      ]),
    );
    rmSync(join(dir, 'results', 'report.md'));
    const again = spawnSync(process.execPath, [CLI, 'run', 'a'], { cwd: dir, encoding: 'utf8' });
    assert.equal(again.status, 0, again.stdout + again.stderr);
    assert.equal((readFileSync(join(dir, 'results', 'report.md'), 'utf8').match(/— a: starter @ chatbot/g) ?? []).length, 1);
    assert.ok(existsSync(join(dir, 'results', 'a', 'summary.json')));
  },
);

test('the notebook removes a git lock left by a killed git, and commits what the killed turn wrote', async () => {
  const standIn = await startStandIn();
  try {
    const dir = tempDir('mmb-nb-');
    const model = () => createModel({ model: 'stand-in' }, { standInUrl: standIn.url, env: {} }, 'agent_model');
    const first = new NotebookAdapter(dir, model());
    await first.createSession();
    await first.close();
    const lock = join(dir, 'memory.git', 'index.lock');
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    writeFileSync(join(dir, 'memory', 'run.md'), '- 8 km along the harbourside\n');
    const again = new NotebookAdapter(dir, model());
    await again.createSession();
    assert.ok(!existsSync(lock), 'the stale lock is gone');
    const log = execFileSync('git', ['--git-dir', join(dir, 'memory.git'), 'log', '--format=%s', '--name-only', '-1'], {
      encoding: 'utf8',
    });
    assert.match(log, /^the notebook starts\n\nrun\.md\n/);
    await again.close();
  } finally {
    await standIn.close();
  }
});
