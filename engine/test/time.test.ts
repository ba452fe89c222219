/** Virtual time: the Time Master skips nights, the time gate holds a phase, a resumed run keeps its date. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadBenchmark } from '../../scenario/src';
import type { AgentAdapter } from '../src/protocol/agent';
import { Clock } from '../src/clock';
import { runBenchmark } from '../src/run/runner';
import { FileRunStore } from '../src/run/store';
import { readBenchmarkFolder } from '../src/workspace/folders';
import { benchmarkFrom, CLI, DAYS, ROOT, runOnStandIn, ScriptedPersona, tempDir, workspace } from './helpers';
import { preWakeDelayMs } from '../src/adapters/registry';

const FAST = { minSleepToSkipMs: 5000, preWakeDelayMs: 20, pollIntervalMs: 10 };

test("the time gate refuses next_phase before the phase's last anchor; the Time Master skips the night", async () => {
  const persona = new ScriptedPersona([
    { name: 'next_phase', args: {} },
    { name: 'wait', args: { until: '21:00' } },
    { name: 'next_phase', args: {} },
    { name: 'wait', args: { until: '2026-03-02 08:00' } },
    { name: 'next_phase', args: {} },
  ]);
  const set: string[] = [];
  const agent: AgentAdapter = {
    quietPeriodMs: 10,
    pollIntervalMs: 5,
    createSession: async () => undefined,
    destroySession: async () => undefined,
    sendMessage: async () => undefined,
    getResponses: async () => [],
    setVirtualTime: async (iso) => {
      set.push(iso);
    },
  };
  const dir = tempDir();
  const t = Date.now();
  const state = await runBenchmark({
    name: 'gate',
    benchmark: benchmarkFrom(DAYS),
    agent: 'fake',
    persona,
    adapter: agent,
    store: new FileRunStore(dir),
    clock: new Clock(),
    timeMaster: FAST,
  });
  assert.equal(state.status, 'finished', state.error);
  assert.equal(
    persona.results[0],
    "Error: it is 2026-03-01 20:00, and this phase's last action is at 21:00 on 2026-03-01. " +
      'Wait until then (`wait`), do it, then call next_phase.',
  );
  assert.equal(persona.results[1], 'It is now 2026-03-01 21:00.');
  assert.match(persona.results[2] ?? '', /^\[Phase 2\/2 of days\.md — Day 2\]/);
  assert.equal(persona.results[3], 'It is now 2026-03-02 08:00.');
  assert.ok(Date.now() - t < 5000, 'an hour and a night pass in well under five seconds');
  assert.deepEqual(
    set.map((x) => x.slice(0, 16)),
    ['2026-03-01T20:00', '2026-03-01T20:59', '2026-03-02T07:59'],
  );
  assert.ok(state.skippedMs > 11 * 3600_000);
});

test('a two-week multi-day run on the stand-in ends in seconds, at its last day', async () => {
  const t = Date.now();
  const b = loadBenchmark(readBenchmarkFolder(join(ROOT, 'benchmarks', 'multiday')));
  const { state } = await runOnStandIn(b, { ignoreSessionBreak: true, extra: { timeMaster: FAST } });
  assert.equal(state.status, 'finished', state.error);
  assert.ok(Date.now() - t < 30_000);
  assert.equal(state.virtualTime?.slice(0, 10), '2026-03-15');
  assert.ok(state.skippedMs > 13 * 24 * 3600_000);
  assert.equal(state.persona.filter((m) => m.role === 'tool' && m.content.startsWith('It is now 2026-03-10 08:00')).length, 1);
});

test('a resumed multi-day run keeps its virtual date', async () => {
  const dir = tempDir();
  const persona = new ScriptedPersona([
    { name: 'wait', args: { until: '21:00' } },
    { name: 'next_phase', args: {} },
  ]);
  const agent: AgentAdapter = {
    quietPeriodMs: 10,
    pollIntervalMs: 5,
    createSession: async () => undefined,
    destroySession: async () => undefined,
    sendMessage: async () => undefined,
    getResponses: async () => [],
  };
  const first = await runBenchmark({
    name: 'r',
    benchmark: benchmarkFrom(DAYS),
    agent: 'fake',
    persona,
    adapter: agent,
    store: new FileRunStore(dir),
    clock: new Clock(),
    timeMaster: FAST,
    maxTurnsPerPhase: 3,
  });
  assert.equal(first.status, 'crashed', 'the scripted persona stops in Day 2 before its anchor');
  const clock = new Clock();
  const resumed = new ScriptedPersona([{ name: 'wait', args: { until: '07:00' } }]);
  const again = await runBenchmark({
    name: 'r',
    benchmark: benchmarkFrom(DAYS),
    agent: 'fake',
    persona: resumed,
    adapter: agent,
    store: new FileRunStore(dir),
    clock,
    timeMaster: FAST,
    maxTurnsPerPhase: 2,
  });
  assert.equal(again.position.phase, 1);
  assert.equal(resumed.results[0], 'It is now 2026-03-02 07:00.', 'the clock went on from 21:00 on 1 March, not from today');
});

test('agents on the virtual clock wake the persona exactly at her moment, no real pre-wake wait; agents on the wall clock get it', () => {
  // The default time_master has pre_wake_delay 1 s: spent for real, it cost a second per sleep.
  const dir = workspace(
    { persona: { model: 'stand-in' }, runs: { nora: { benchmark: 'multiday', agent: 'chatbot' } } },
    { multiday: join(ROOT, 'benchmarks', 'multiday') },
  );
  const run = spawnSync(process.execPath, [CLI, 'run', 'nora'], { cwd: dir, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const state = new FileRunStore(join(dir, 'results', 'nora')).load();
  const jumps = state?.clockJumps ?? [];
  assert.ok(jumps.length > 10, `the nights and waits are skipped (${jumps.length} jumps)`);
  // Every wake-up is a whole minute (an anchor or a wait's target), not a second before it.
  assert.deepEqual(
    jumps.filter((jump) => Date.parse(jump.virtualTime) % 60_000 !== 0).map((jump) => jump.virtualTime),
    [],
  );
  assert.equal(preWakeDelayMs('chatbot', 1000), 0);
  assert.equal(preWakeDelayMs('notebook', 1000), 0);
  assert.equal(preWakeDelayMs('openclaw', 1000), 1000);
  assert.equal(preWakeDelayMs('hermes', 1000), 1000);
});
