/**
 * Issue #18, item 2: the chaos stand-in misbehaves like real models; the engine answers each misbehaviour, counts it,
 * and the run finishes.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadBenchmark, parseConfig, type Benchmark } from '../../scenario/src';
import { ChatbotAdapter } from '../src/adapters/chatbot';
import { Clock } from '../src/clock';
import { ConfigError, RunStopped } from '../src/errors';
import { createModel } from '../src/models/resolve';
import { MISBEHAVIOUR_NAMES, parseChaosModel, type Misbehaviour } from '../src/protocol/chaos';
import { reportEntry } from '../src/report/markdown';
import { summarize } from '../src/report/summary';
import { runBenchmark, type RunOptions } from '../src/run/runner';
import { MemoryRunStore } from '../src/run/store';
import type { RunEvent, RunState } from '../src/state/runState';
import { InProcessStandIn } from '../src/standin/inProcess';
import { startStandIn } from '../src/standin/server';
import { readBenchmarkFolder } from '../src/workspace/folders';
import { grades, ROOT, starter, tempDir, joinedPattern } from './helpers';

const chaos = (behaviours: readonly string[], rate: number, seed = 7) =>
  `stand-in:chaos?rate=${rate}&behaviours=${behaviours.join(',')}&seed=${seed}`;

function options(
  benchmark: Benchmark,
  persona: string,
  store = new MemoryRunStore(),
  agentModel = 'stand-in',
  extra: Partial<RunOptions> = {},
  dir = tempDir('mmb-chaos-'),
): RunOptions {
  return {
    name: 'chaos',
    benchmark,
    agent: 'chatbot',
    persona: new InProcessStandIn(undefined, persona),
    adapter: new ChatbotAdapter(join(dir, 'agent'), new InProcessStandIn(undefined, agentModel)),
    store,
    clock: new Clock(),
    ignoreSessionBreak: false,
    timeMaster: { minSleepToSkipMs: 0, preWakeDelayMs: 0, pollIntervalMs: 1 },
    ...extra,
  };
}

/** Every text the engine gave the persona back: tool results and its own user messages, from the journal. */
function answers(events: readonly RunEvent[]): string[] {
  return events.flatMap((e) =>
    e.type === 'tool-done' ? [e.content] : e.type === 'persona' && e.message.role === 'user' ? [String(e.message.content)] : [],
  );
}

test('the chaos model name: every behaviour at 10% by default, settings checked, and a bad one refused as a config error', () => {
  assert.deepEqual(parseChaosModel('stand-in:chaos'), { rate: 0.1, behaviours: MISBEHAVIOUR_NAMES, seed: 1107 });
  assert.deepEqual(parseChaosModel('stand-in:chaos?rate=0.5&behaviours=refusal,empty-reply&seed=3'), {
    rate: 0.5,
    behaviours: ['refusal', 'empty-reply'],
    seed: 3,
  });
  assert.equal(parseChaosModel('stand-in'), undefined);
  assert.match(
    (parseChaosModel('stand-in:chaos?behaviours=sulking') as { error: string }).error,
    /^unknown behaviour "sulking"; the behaviours are plain-text, /,
  );
  assert.match((parseChaosModel('stand-in:chaos?rate=2') as { error: string }).error, /rate=2 must be a number from 0 to 1/);
  assert.throws(
    () => createModel({ model: 'stand-in:chaos?rate=x' }, { standInUrl: 'http://127.0.0.1:9/v1', env: {} }, 'persona'),
    (e: unknown) => e instanceof ConfigError && /persona: model "stand-in:chaos\?rate=x": rate=x must be/.test(e.message),
  );
  assert.throws(() => createModel({ model: 'stand-in:moody' }, { standInUrl: 'http://127.0.0.1:9/v1', env: {} }, 'persona'), ConfigError);
  const { diagnostics } = parseConfig('{ "persona": { "model": "stand-in:chaos" }, "runs": {} }', 'config.jsonc');
  assert.deepEqual(diagnostics, [], 'the chaos stand-in needs no base_url, like the stand-in');
});

/** For each behaviour: the rate it is played at on the starter benchmark, and what the engine answers it with. */
const ANSWERS: Record<Misbehaviour, RegExp> = {
  'plain-text': /^Error: plain text reaches no one\. Talk to the assistant with `send_message`/,
  'hallucinated-user': /^Error: that turn was dropped: it imitated or restated the assistant/,
  'invalid-json': /^Error: the arguments of send_message are not valid JSON\. Call it again with a JSON object, e\.g\. \{"text"/,
  'unknown-tool': /^Error: there is no tool `send_msg`\. The tools are send_message, next_phase/,
  'missing-argument': /^Error: send_message needs `text`, e\.g\. \{"text"/,
  'mistyped-argument': /^Error: `sheet` must be a sheet name such as "family"\./,
  'unknown-check': /^Error: there is no check 99\.99\. Grade the checks/,
  'bad-score': /^Error: `score` must be a number from 0 to 10\.$/,
  'no-attempt': /^Recorded 3\.\d: [\d.]+\/10.*\. Attempt 1 was assumed: give `attempt`/,
  'early-next-phase': joinedPattern([
    /^Error: the checks (3\.\d, )*3\.\d of this phase are not graded yet: /,
    /ask each one, record its grade with log_evaluation, then call next_phase\.$/,
  ]),
  'never-next-phase':
    /^Note: this phase has taken \d+ turns\. If you have done what it asks and graded its checks, call `next_phase` now\.$/,
  'false-told': /^Error: none of your messages told [\d., ]+ of `(profile|move)` yet: tell (it|them) with send_message first/,
  'long-message': /^Error: `text` must be at most 20000 characters long \(it is 20010\)/,
  'empty-reply': /^Error: your reply was empty\. Every turn is a tool call/,
  refusal: /^Error: this is a role-play for a memory benchmark/,
};

/** Kinds that apply at one kind of step only (a grade, a mark, the end of a phase) are played more often, to be seen at all. */
const RATES: Partial<Record<Misbehaviour, number>> = { 'no-attempt': 0.8, 'false-told': 0.95, 'never-next-phase': 0.6 };

for (const kind of MISBEHAVIOUR_NAMES) {
  test(`chaos "${kind}": the engine answers it, counts it, the report names it, and the run finishes with every check graded`, async () => {
    const store = new MemoryRunStore();
    const state = await runBenchmark(options(starter(), chaos([kind], RATES[kind] ?? 0.3), store));
    assert.equal(state.status, 'finished', state.error);
    const summary = summarize(state, starter());
    if (kind === 'never-next-phase') {
      // Seen by the engine only when a phase runs long: the next test plays it to the cap.
      assert.deepEqual(summary.coverage.missing, []);
      return;
    }
    assert.ok((state.misbehaviours?.[kind] ?? 0) >= 1, `${kind} seen: ${JSON.stringify(state.misbehaviours)}`);
    assert.deepEqual(Object.keys(state.misbehaviours ?? {}), [kind], 'no other misbehaviour is counted');
    const answered = answers(store.events).filter((text) => ANSWERS[kind].test(text));
    assert.ok(
      answered.length >= 1,
      `the engine's answer to ${kind}: ${answers(store.events)
        .filter((t) => /^(Error|Note)|assumed/.test(t))
        .slice(0, 3)
        .join(' | ')}`,
    );
    assert.match(reportEntry(summary, new Date()), new RegExp(`^- 📊 Persona misbehaviours seen: ${kind} \\d+$`, 'm'));
    if (kind === 'early-next-phase') {
      // Refused twice in a phase, then let through: a check she cannot get answered must not hold the run.
      assert.ok(answered.length >= 2);
      return;
    }
    assert.deepEqual(summary.coverage.missing, []);
  });
}

test('a persona that never calls next_phase is reminded at half the turn cap, then stopped as stuck at the cap', async () => {
  const store = new MemoryRunStore();
  const state = await runBenchmark(options(starter(), chaos(['never-next-phase'], 1), store, 'stand-in', { maxTurnsPerPhase: 30 }));
  assert.equal(state.status, 'crashed');
  assert.match(state.error ?? '', /^the persona took 30 turns in chapter1\.md, phase 1, without finishing it/);
  assert.equal(state.misbehaviours?.['never-next-phase'], 1, 'one reminder in the phase');
});

const BUNDLED = readdirSync(join(ROOT, 'benchmarks'))
  .filter((name) => existsSync(join(ROOT, 'benchmarks', name, 'benchmark.json')))
  .sort();

for (const name of BUNDLED) {
  test(`the bundled benchmark ${name} at a 10% chaos rate, persona and agent: it finishes with every check graded`, async () => {
    const benchmark = loadBenchmark(readBenchmarkFolder(join(ROOT, 'benchmarks', name)));
    const state = await runBenchmark(options(benchmark, 'stand-in:chaos?rate=0.1&seed=11', undefined, 'stand-in:chaos?rate=0.1&seed=12'));
    assert.equal(state.status, 'finished', state.error);
    const summary = summarize(state, benchmark);
    assert.deepEqual(summary.coverage.missing, []);
    assert.ok(Object.values(state.misbehaviours ?? {}).reduce((a, b) => a + (b ?? 0), 0) >= 1, 'some chaos was seen');
  });
}

/** The persona's messages to the agent and every grade: what a replay must reproduce. */
const played = (state: RunState) => ({
  sent: state.transcript.filter((e) => e.from === 'persona').map((e) => e.text),
  grades: grades(state),
  misbehaviours: state.misbehaviours,
});

test('the chaos is deterministic: the same seed plays the same run, and a run stopped half-way resumes to the same end', async () => {
  const model = 'stand-in:chaos?rate=0.2&seed=5';
  const first = played(await runBenchmark(options(starter(), model)));
  assert.deepEqual(played(await runBenchmark(options(starter(), model))), first);
  assert.notDeepEqual(
    played(await runBenchmark(options(starter(), 'stand-in:chaos?rate=0.2&seed=6'))).misbehaviours,
    first.misbehaviours,
    'another seed, other chaos',
  );
  const store = new MemoryRunStore();
  const stop = new AbortController();
  let events = 0;
  const onEvent = () => {
    if (++events === 120) stop.abort();
  };
  // The agent keeps its folder across the stop, as a real one keeps its state.
  const dir = tempDir('mmb-chaos-resume-');
  await assert.rejects(runBenchmark(options(starter(), model, store, 'stand-in', { signal: stop.signal, onEvent }, dir)), RunStopped);
  const resumed = await runBenchmark(options(starter(), model, store, 'stand-in', {}, dir));
  assert.equal(resumed.status, 'finished', resumed.error);
  assert.deepEqual(played(resumed).grades, first.grades);
  assert.deepEqual(played(resumed).sent, first.sent);
});

test('over HTTP: the chaos name reaches the stand-in server in each request, for the persona and for the agent', async () => {
  const standIn = await startStandIn();
  try {
    const models = { standInUrl: standIn.url, env: {}, timeoutMs: 2000, backoffBaseMs: 5 };
    const dir = tempDir('mmb-chaos-http-');
    const state = await runBenchmark({
      ...options(starter(), 'stand-in'),
      persona: createModel({ model: 'stand-in:chaos?rate=0.2&seed=3' }, models, 'persona'),
      adapter: new ChatbotAdapter(
        join(dir, 'agent'),
        createModel({ model: 'stand-in:chaos?rate=0.2&behaviours=empty-reply,refusal&seed=4' }, models, 'agent', true),
      ),
    });
    assert.equal(state.status, 'finished', state.error);
    assert.ok(Object.keys(state.misbehaviours ?? {}).length >= 2, JSON.stringify(state.misbehaviours));
    assert.deepEqual(Object.keys(state.usage), ['stand-in:chaos?rate=0.2&seed=3']);
    const odd = state.transcript.filter(
      (e) => e.from === 'agent' && (e.text.trim() === '' || /can't continue with this role-play/.test(e.text)),
    );
    const agentOpenings = new Set(state.transcript.filter((e) => e.from === 'agent').map((e) => e.text.slice(0, 40)));
    assert.ok(odd.length >= 1, `the agent's model misbehaved and the run went on: ${[...agentOpenings].join(' | ')}`);
  } finally {
    await standIn.close();
  }
});

test('a wrong grader as the persona at rate 1: the run finishes, the lenient one scores higher and the harsh one lower', async () => {
  const average = async (persona: string) => {
    // In context, the agent answers: there is something on the topic for a grader to be wrong about.
    const state = await runBenchmark(options(starter(), persona, new MemoryRunStore(), 'stand-in', { ignoreSessionBreak: true }));
    assert.equal(state.status, 'finished', `${persona}: ${state.error}`);
    const summary = summarize(state, starter());
    assert.deepEqual(summary.coverage.missing, [], persona);
    return summary.average ?? -1;
  };
  const fair = await average('stand-in');
  const lenient = await average(chaos(['lenient-judge'], 1));
  const harsh = await average(chaos(['harsh-judge'], 1));
  assert.ok(lenient > fair, `lenient ${lenient} > fair ${fair}`);
  assert.ok(harsh < fair, `harsh ${harsh} < fair ${fair}`);
  // A grade recorded without its attempt is her step done (taken as attempt 1): it is not graded again for ever.
  assert.equal((await runBenchmark(options(starter(), chaos(['no-attempt'], 1)))).status, 'finished');
});
