/**
 * The run loop: the persona's model speaks through tools; the engine carries out each call,
 * talks to the agent through its adapter, and journals every step, so that a run killed at any
 * moment resumes where it stopped without losing or repeating anything. This file only wires the
 * parts: start and resume (`start.ts`), one persona turn (`personaTurn.ts`), the tools
 * (`tools/`), entering phases (`phaseEntry.ts`).
 */
import { runToolCall } from './tools';
import { checkRepliesKept } from './agentTurn';
import { isDiskFull } from '../diskFull';
import { createRunContext, type RunContext, type RunOptions } from './context';
import { AgentStartFailure, RunStopped } from '../errors';
import { currentPhaseIndex, enterPhase, finishRun } from './phaseEntry';
import { personaTurn, plainTextTurn, type TurnCounters } from './personaTurn';
import type { PlayPhase } from './phases';
import { resumeRun, startRun } from './start';
import { emptyState, sheetNamed, type RunState } from '../state/runState';
import type { ToolCall } from '../protocol/chat';

export type { RunOptions } from './context';

export async function runBenchmark(options: RunOptions): Promise<RunState> {
  const loaded = options.loaded ? options.loaded.state : options.store.load();
  const run = createRunContext(options, loaded ?? emptyState());
  options.agentRetries?.connect((model, notice) => run.record({ type: 'retry', at: run.now(), model, by: 'agent', ...notice }));
  try {
    return await startAndPlay(run, loaded !== undefined);
  } finally {
    options.agentRetries?.disconnect();
  }
}

/** The run itself, started or resumed (`loaded`: the store held a state), with the agent's retries connected around it. */
async function startAndPlay(run: RunContext, loaded: boolean): Promise<RunState> {
  const options = run.options;
  let continuing = false;
  try {
    if (!loaded) await startRun(run);
    else {
      const resumption = await resumeRun(run);
      if (resumption === 'done') return run.state;
      continuing = resumption === 'continuing';
    }
  } catch (e) {
    // The start or resume is journaled already: an agent that cannot start is the run's crash.
    if (!(e instanceof AgentStartFailure)) throw e;
    crashed(run, e);
    options.store.flush(run.state);
    return run.state;
  }
  try {
    // A resumed agent that lost its replies is named here, not met as a silent timeout at every turn.
    if (loaded) await checkRepliesKept(run.state, options.adapter, options.signal);
    await openConversation(run, continuing);
    await playUntilFinished(run);
  } catch (e) {
    crashed(run, e);
  }
  options.store.flush(run.state);
  return run.state;
}

/** Journals the run's crash; a stop on request and a full disk are not crashes, and are thrown on. */
function crashed(run: RunContext, error: unknown): void {
  if (error instanceof RunStopped || isDiskFull(error)) {
    // The snapshot is a saving, not a need (the journal holds every event): on a full disk it
    // fails too, and the first file that failed is the one to name.
    flushUnlessDiskFull(run);
    throw error;
  }
  // A failure once a stop was asked for is most likely the stop itself (Ctrl-C reaches the
  // agent's child processes too): the run is paused, not crashed.
  if (run.options.signal?.aborted) {
    flushUnlessDiskFull(run);
    throw new RunStopped('stopped on request', { cause: error });
  }
  run.record({ type: 'finish', at: run.now(), status: 'crashed', error: error instanceof Error ? error.message : String(error) });
}

/** Writes the snapshot of a run that is stopping anyway; a full disk leaves the journal to hold it. */
function flushUnlessDiskFull(run: RunContext): void {
  try {
    run.options.store.flush(run.state);
  } catch (e) {
    if (!isDiskFull(e)) throw e;
  }
}

/** Hands the persona the phase she starts in: at the start, or after the phases a finished run has gained. */
async function openConversation(run: RunContext, continuing: boolean): Promise<void> {
  const state = run.state;
  if (state.persona.length === 0) {
    const content = await enterPhase(run, Math.max(0, currentPhaseIndex(run)), 'start');
    run.record({ type: 'persona', at: run.now(), message: { role: 'user', content } });
  } else if (continuing) {
    const content = `[The scenario continues.]\n\n${await enterPhase(run, currentPhaseIndex(run) + 1, `continue-${state.events}`)}`;
    run.record({ type: 'persona', at: run.now(), message: { role: 'user', content } });
  }
}

/** Turns of the persona, and her tool calls, until the scenario is complete. */
async function playUntilFinished(run: RunContext): Promise<void> {
  const { state, options } = run;
  const counters: TurnCounters = { echoDrops: 0 };
  let turnsInPhase = 0;
  let phaseAt = currentPhaseIndex(run);
  for (;;) {
    stopIfAsked(run);
    if (state.status === 'finished') return;
    const pending = pendingCalls(state);
    if (pending.length > 0) {
      await runCalls(run, pending);
      continue;
    }
    const at = currentPhaseIndex(run);
    if (at !== phaseAt) {
      phaseAt = at;
      turnsInPhase = 0;
    }
    const limit = options.maxTurnsPerPhase ?? turnLimit(run.order[at]!, state);
    if (++turnsInPhase > limit) {
      const where = `${state.position.chapter}, phase ${state.position.phase + 1}`;
      throw new Error(`the persona took ${turnsInPhase - 1} turns in ${where}, without finishing it; check the phase's instructions.`);
    }
    if (turnsInPhase === Math.ceil(limit / 2) && limit >= 10) remindOfNextPhase(run, turnsInPhase - 1);
    const last = state.persona.at(-1);
    if (!run.hooks.requireSendMessage && last?.role === 'assistant' && !last.tool_calls?.length && last.content?.trim()) {
      await plainTextTurn(run, last.content);
      continue;
    }
    await personaTurn(run, counters);
  }
}

/** Carries out the calls in order; the one that completes the scenario finishes the run. */
async function runCalls(run: RunContext, calls: readonly ToolCall[]): Promise<void> {
  for (const call of calls) {
    stopIfAsked(run);
    const outcome = await runToolCall(run, call);
    if (outcome.completesScenario) {
      finishRun(run);
      return;
    }
  }
}

function stopIfAsked(run: RunContext): void {
  if (run.options.signal?.aborted) throw new RunStopped('stopped on request');
}

/** Half-way to the turn cap: she is told the phase is long, and that next_phase ends it. */
function remindOfNextPhase(run: RunContext, turns: number): void {
  const text = `Note: this phase has taken ${turns} turns. If you have done what it asks and graded its checks, call \`next_phase\` now.`;
  run.record({ type: 'misbehaviour', at: run.now(), kind: 'never-next-phase', text });
  run.record({ type: 'persona', at: run.now(), message: { role: 'user', content: text } });
}

/** A generous bound on a phase's persona turns: some for talk, more per check and per fact to tell. */
function turnLimit(phase: PlayPhase, state: RunState): number {
  const facts = phase.phase.sheetRefs.reduce((n, ref) => n + (sheetNamed(state, ref.sheet)?.facts.length ?? 0), 0);
  return 60 + 5 * phase.phase.checks.length + 2 * facts;
}

/** Tool calls of the persona's last message that have no result yet. */
export function pendingCalls(state: RunState): ToolCall[] {
  for (let i = state.persona.length - 1; i >= 0; i--) {
    const message = state.persona[i];
    if (message?.role !== 'assistant') continue;
    const answered = new Set(state.persona.slice(i + 1).flatMap((x) => (x.role === 'tool' ? [x.tool_call_id] : [])));
    return (message.tool_calls ?? []).filter((call) => !answered.has(call.id));
  }
  return [];
}
