/**
 * Entering a phase and ending the run: the phase's JS block with its session switch, the agent's
 * memory snapshots, and the events that journal both.
 */
import { existsSync, renameSync, rmSync } from 'node:fs';
import { isDiskFull } from '../diskFull';
import { DiskFull } from '../errors';
import { join } from 'node:path';
import { phaseMessage } from '../persona/protocol';
import { runJsBlock } from '../persona/sandbox';
import { runSecrets } from '../secrets';
import { agentAheadOfJournal } from './agentTurn';
import type { RunContext } from './context';
import { copyMemoryFolder } from './memorySnapshot';
import { expandTemplates, indexOf, phaseText, type PlayPhase } from './phases';
import type { Effect } from '../state/runState';

/**
 * Enters the phase at `index` of the play order: journals the move with the effects of its JS
 * block, once per `entry` (the `next_phase` call's id, `start`, or `continue-N`), and returns the
 * phase's text for the persona.
 */
export async function enterPhase(run: RunContext, index: number, entry: string): Promise<string> {
  const target = run.order[index]!;
  const state = run.state;
  if (state.phaseCallId !== entry) {
    const effects = await runPhaseJs(run, target);
    run.record({
      type: 'phase',
      at: run.now(),
      callId: entry,
      position: target.position,
      templates: expandTemplates([target], state.startTime, state.templates),
      effects,
    });
  }
  return phaseMessage(target.position, target.chapter.phases.length, target.phase.title, phaseText(target, state.templates));
}

/** The index in the play order of the phase the persona is in. */
export function currentPhaseIndex(run: RunContext): number {
  return indexOf(run.order, run.state.position);
}

/** The index after the run's last phase (a partial run ends early). */
export function endPhaseIndex(run: RunContext): number {
  const range = run.state.phases;
  return range ? indexOf(run.order, range.to) + 1 || run.order.length : run.order.length;
}

async function runPhaseJs(run: RunContext, target: PlayPhase): Promise<Effect[]> {
  const js = target.phase.js;
  if (!js) return [];
  const result = await runJsBlock(js.code, run.state.vars, target.chapter.file, js.range.start.line + 2);
  const effects: Effect[] = [{ kind: 'vars', vars: result.vars }, ...result.logs.map((text): Effect => ({ kind: 'log', text }))];
  if (result.newSession) {
    const ignored = !!run.options.ignoreSessionBreak;
    if (!ignored) {
      // After the switch: an agent that consolidates its notes when a conversation ends has done so.
      // An agent whose record is ahead of a cut journal made this switch before: it is not made twice.
      if (!(await agentAheadOfJournal(run.state, run.options.adapter))) await run.options.adapter.startNewConversation?.();
      snapshotMemory(run);
    }
    effects.push({ kind: 'session-switch', ignored });
  }
  return effects;
}

/** Ends the run as finished, after a last snapshot of the agent's memory. */
export function finishRun(run: RunContext): void {
  snapshotMemory(run);
  run.record({ type: 'finish', at: run.now(), status: 'finished' });
}

/**
 * Copies the agent's memory folder to `memory/<n>/`, n the number of the conversation that just
 * ended (the session switches so far, plus one), so a resume that copies again after a stop
 * writes the same folder. The copy is made beside it and renamed: a kill leaves no half folder.
 * It holds the folder's text files only, masked with the run's keys (memorySnapshot.ts).
 */
function snapshotMemory(run: RunContext): void {
  const { snapshotDir, adapter } = run.options;
  const from = adapter.memoryDir?.();
  if (!snapshotDir || !from || !existsSync(from)) return;
  const number = run.state.sessionSwitches.filter((s) => !s.ignored).length + 1;
  const target = join(snapshotDir, String(number));
  const partial = join(snapshotDir, `.${number}.partial`);
  rmSync(partial, { recursive: true, force: true });
  try {
    copyMemoryFolder(from, partial, runSecrets);
  } catch (e) {
    rmSync(partial, { recursive: true, force: true });
    throw isDiskFull(e) ? new DiskFull(target, { cause: e }) : e;
  }
  rmSync(target, { recursive: true, force: true });
  renameSync(partial, target);
}
