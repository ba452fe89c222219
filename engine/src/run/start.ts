/**
 * How a run begins: a fresh start journals the benchmark's sheets and templates, a resume picks
 * up the saved state. Each sets the virtual clock and opens the agent's session. An agent that
 * fails on the way throws an AgentStartFailure with the run's start or resume already journaled,
 * so that the runner journals the failure as the run's crash.
 */
import { startMoment, type Benchmark } from '../../../scenario/src';
import { formatWallClock, wallClock } from '../clock';
import { isDiskFull } from '../diskFull';
import { AgentStartFailure, RunStopped } from '../errors';
import { jumpClock, type RunContext } from './context';
import { clockStart, expandTemplates, indexOf } from './phases';
import { clockAtLastEvent } from './timeMaster';
import { isPartialRun } from '../state/partialRule';
import type { LiveSheet } from '../state/runState';

/** How a loaded run goes on: it was resumed mid-way, it continues with appended phases, or it has nothing left to do. */
export type Resumption = 'resumed' | 'continuing' | 'done';

/** Starts a run never started: a new session, the start moment, and the `start` event. */
export async function startRun(run: RunContext): Promise<void> {
  const { options, order } = run;
  const startTime = options.benchmark.manifest?.start_time ?? formatWallClock(wallClock(new Date()));
  const from = options.phases?.from ?? 0;
  const to = options.phases?.to;
  if (!order[from] || (to !== undefined && (to < from || !order[to]))) {
    throw new Error(`${options.benchmark.name} has no phases ${from + 1}–${(to ?? from) + 1} (it has ${order.length}).`);
  }
  // A run from a later phase starts on that phase's day; templates still expand from start_time.
  const clockAt = run.timeMaster.enabled ? clockStart(order, from, startTime) : startMoment(startTime);
  options.clock.set(clockAt);
  // Journaled before the agent starts: an agent that cannot start is this run's crash, not a run never made.
  run.record({
    type: 'start',
    at: run.now(),
    run: options.name,
    benchmark: options.benchmark.name,
    agent: options.agent,
    startTime,
    position: order[from]!.position,
    sheets: liveSheets(options.benchmark),
    templates: expandTemplates(order, startTime),
    // A run of every phase from the first is a full run (state/partialRule.ts): it journals no range.
    ...(options.phases && isPartialRun(options, order.length)
      ? { phases: { from: order[from]!.position, to: order[to ?? order.length - 1]!.position } }
      : {}),
    ...(options.filter ? { filter: options.filter } : {}),
  });
  await startingAgent(async () => {
    await options.adapter.destroySession();
    await options.adapter.createSession(options.name);
  });
  if (run.timeMaster.enabled) {
    const real = Date.now();
    options.clock.set(clockAt, real);
    await startingAgent(() => jumpClock(run, clockAt, 0, real));
  }
}

/** Resumes a saved run: a finished run whose benchmark has grown goes on with the new phases. */
export async function resumeRun(run: RunContext): Promise<Resumption> {
  const { options, order, state } = run;
  const at = indexOf(order, state.position);
  if (at < 0) {
    const where = `${state.position.chapter}, phase ${state.position.phase + 1}`;
    throw new Error(
      `the run stopped in ${where}, which ${options.benchmark.name} no longer has; restore it, or delete the run's folder to restart.`,
    );
  }
  if (state.status === 'finished' && (at === order.length - 1 || state.phases)) return 'done';
  const continuing = state.status === 'finished';
  // A multi-day run goes on from the virtual moment it stopped at; any other lives on the real wall clock.
  const stoppedAt = run.timeMaster.enabled ? (clockAtLastEvent(state) ?? clockStart(order, at, state.startTime)) : undefined;
  options.clock.set(stoppedAt ?? wallClock(new Date()));
  try {
    await startingAgent(async () => {
      // A run whose agent never got a word (it could not start, or the run stopped as it started) starts it afresh.
      if (state.persona.length === 0) await options.adapter.destroySession();
      await options.adapter.createSession(options.name);
    });
  } catch (e) {
    // The resume is journaled before the failure, which the runner journals as the run's crash.
    if (e instanceof AgentStartFailure) run.record({ type: 'resume', at: run.now() });
    throw e;
  }
  // Set again as of the resume event, so the journal rebuilds the clock exactly from there.
  const resumedAt = run.now();
  if (stoppedAt) options.clock.set(stoppedAt, Date.parse(resumedAt));
  run.record({ type: 'resume', at: resumedAt, ...(stoppedAt ? { virtualTime: stoppedAt.toISOString() } : {}) });
  if (run.timeMaster.enabled) await startingAgent(async () => options.adapter.setVirtualTime?.(options.clock.now().toISOString()));
  return continuing ? 'continuing' : 'resumed';
}

/**
 * Starts the agent: whatever fails on the way (its program, its module, its gateway) is an
 * AgentStartFailure; a stop on request and a full disk stay what they are.
 */
async function startingAgent(step: () => Promise<unknown>): Promise<void> {
  try {
    await step();
  } catch (e) {
    if (e instanceof AgentStartFailure || e instanceof RunStopped || isDiskFull(e)) throw e;
    throw new AgentStartFailure(e instanceof Error ? e.message : String(e), { cause: e });
  }
}

/** The sheets as the run starts them: deleted facts dropped, nothing told. */
function liveSheets(benchmark: Benchmark): Record<string, LiveSheet> {
  const out: [string, LiveSheet][] = [];
  for (const sheet of benchmark.sheets.values()) {
    const live = new Map<string, { id: string; category: number; text: string; told: boolean }>();
    for (const fact of sheet.facts) {
      if (fact.deleted) live.delete(fact.id);
      else live.set(fact.id, { id: fact.id, category: fact.category, text: fact.text, told: false });
    }
    const entry: LiveSheet = {
      name: sheet.name,
      categories: sheet.categories.map((c) => ({ number: c.number, title: c.title })),
      facts: [...live.values()],
    };
    if (sheet.title) entry.title = sheet.title;
    out.push([sheet.name, entry]);
  }
  // Own properties even for a sheet named like an Object member (`__proto__`, `constructor`).
  return Object.fromEntries(out);
}
