/**
 * The rehearsal an answer audit reads: the whole benchmark played by the stand-in persona (who
 * makes the sheet edits the phases ask for) against an agent that only acknowledges, with what
 * the audit needs recorded as it goes: every fact's text at each phase's start and at each check's
 * grade, and which facts each phase changed. Nothing is written to disk.
 */
import type { Benchmark } from '../../../scenario/src';
import type { AgentAdapter, AgentMessage, AgentStatus } from '../protocol/agent';
import { Clock } from '../clock';
import { runBenchmark } from '../run/runner';
import { MemoryRunStore } from '../run/store';
import type { RunEvent, RunState } from '../state/runState';
import { InProcessStandIn } from '../standin/inProcess';

/** Every fact's text by `sheet#id`; a deleted fact is absent. */
export type FactValues = ReadonlyMap<string, string>;

export interface Rehearsal {
  state: RunState;
  /** The facts as the benchmark's sheets give them. */
  initial: FactValues;
  /** The facts when each phase started, by `chapterIndex:phase`. */
  atPhaseStart: ReadonlyMap<string, FactValues>;
  /** The facts when each check was graded (its last grade), by check id. */
  atGrade: ReadonlyMap<string, FactValues>;
  /** The facts each phase changed (edited, added or deleted), by `chapterIndex:phase`. */
  changedInPhase: ReadonlyMap<string, ReadonlySet<string>>;
  /** Each fact's last text before it was deleted, for facts a phase deleted. */
  lastText: ReadonlyMap<string, string>;
}

export const phaseKey = (chapterIndex: number, phase: number): string => `${chapterIndex}:${phase}`;

function factValues(state: RunState): Map<string, string> {
  const values = new Map<string, string>();
  for (const sheet of Object.values(state.sheets)) for (const fact of sheet.facts) values.set(`${sheet.name}#${fact.id}`, fact.text);
  return values;
}

/** One fact's text as `factValues(state).get(key)` gives it (the last fact of that key), reading only the sheets it can be in. */
function factText(state: RunState, key: string): string | undefined {
  let text: string | undefined;
  for (const sheet of Object.values(state.sheets))
    if (key.startsWith(`${sheet.name}#`)) for (const fact of sheet.facts) if (`${sheet.name}#${fact.id}` === key) text = fact.text;
  return text;
}

/** Whether an event can change a fact's text: the start gives the sheets, a tool call or a phase's block edits or adds. */
function changesFacts(event: RunEvent): boolean {
  if (event.type === 'start') return true;
  if (event.type !== 'tool-done' && event.type !== 'phase') return false;
  return event.effects.some((effect) => effect.kind === 'fact-edit' || effect.kind === 'fact-add');
}

/** An agent that answers every message at once with the same word: the audit needs the persona's side only. */
class AcknowledgingAgent implements AgentAdapter {
  readonly quietPeriodMs = 0;
  readonly pollIntervalMs = 1;
  private readonly replies: AgentMessage[] = [];
  private readonly keys = new Set<string>();
  async createSession(): Promise<void> {}
  async destroySession(): Promise<void> {}
  async startNewConversation(): Promise<void> {}
  async sendMessage(_text: string, options: { idempotencyKey: string }): Promise<void> {
    if (this.keys.has(options.idempotencyKey)) return;
    this.keys.add(options.idempotencyKey);
    this.replies.push({ seq: this.replies.length + 1, text: 'Noted.', at: new Date().toISOString() });
  }
  async getResponses(afterSeq: number): Promise<AgentMessage[]> {
    // Reply n is at index n - 1: the replies after `afterSeq` are a slice, not a scan of every reply of the run.
    return this.replies.slice(Math.max(0, Math.floor(afterSeq)));
  }
  /** In this process: the engine awaits it instead of sleeping a poll interval every turn. */
  async whenSettled(): Promise<void> {}
  async getStatus(): Promise<AgentStatus> {
    return { state: 'idle', compactions: [], contextTokens: 0 };
  }
}

/** Plays the benchmark through the real engine on the stand-in and records the facts over time. */
export async function rehearse(benchmark: Benchmark): Promise<Rehearsal> {
  const atPhaseStart = new Map<string, FactValues>();
  const atGrade = new Map<string, FactValues>();
  const changedInPhase = new Map<string, Set<string>>();
  const lastText = new Map<string, string>();
  let initial: FactValues = new Map();
  // The facts as of now, shared by every moment that saw them unchanged: a year's world has 10,000
  // facts and thousands of phases and grades, and only a few of its events change a fact.
  let current: FactValues | undefined;
  const now = (state: RunState): FactValues => (current ??= factValues(state));
  const onEvent = (state: RunState, event: RunEvent): void => {
    if (changesFacts(event)) current = undefined;
    const key = phaseKey(state.position.chapterIndex, state.position.phase);
    if (event.type === 'start') initial = now(state);
    if (event.type === 'start' || event.type === 'phase') atPhaseStart.set(key, now(state));
    if (event.type !== 'tool-done') return;
    for (const effect of event.effects) {
      if (effect.kind === 'grade') atGrade.set(effect.checkId, now(state));
      if (effect.kind !== 'fact-edit' && effect.kind !== 'fact-add') continue;
      const fact = `${effect.sheet}#${effect.id}`;
      let changed = changedInPhase.get(key);
      if (!changed) changedInPhase.set(key, (changed = new Set()));
      changed.add(fact);
    }
  };
  const store = new MemoryRunStore();
  // The text a deletion removed: read off the journal's order, before the deletion applies.
  const journal = {
    append: (state: RunState, event: RunEvent) => {
      if (event.type === 'tool-done')
        for (const effect of event.effects)
          if (effect.kind === 'fact-edit') {
            const before = factText(state, `${effect.sheet}#${effect.id}`);
            if (before !== undefined) lastText.set(`${effect.sheet}#${effect.id}`, before);
          }
      store.append(state, event);
    },
    load: () => store.load(),
    flush: () => store.flush(),
  };
  const state = await runBenchmark({
    name: 'audit',
    benchmark,
    agent: 'audit',
    persona: new InProcessStandIn(),
    adapter: new AcknowledgingAgent(),
    store: journal,
    clock: new Clock(),
    ignoreSessionBreak: true,
    onEvent,
    timeMaster: { minSleepToSkipMs: 0, preWakeDelayMs: 0, pollIntervalMs: 1 },
  });
  return { state, initial, atPhaseStart, atGrade, changedInPhase, lastText };
}
