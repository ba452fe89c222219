/**
 * What the parts of a run share: its options, the benchmark in play order, the run state and the
 * one way to change it (`record`), so that start, the persona's turn and the tools need no
 * closures over each other.
 */
import type { Benchmark } from '../../../scenario/src';
import type { AgentAdapter } from '../protocol/agent';
import type { Clock } from '../clock';
import type { ChatModel } from '../models/chat';
import type { AgentRetries } from './agentRetries';
import type { TurnOptions } from './agentTurn';
import { buildSystemPrompt, liveProfile } from '../persona/prompt';
import { NO_REPLY_PREFIX, REPLY_PREFIX } from '../persona/protocol';
import { checkPositions, playOrder, type PlayPhase } from './phases';
import type { Position, RunEvent, RunState } from '../state/runState';
import type { RunStore } from './store';
import type { TimeMasterSettings } from './timeMaster';

export interface RunOptions {
  name: string;
  benchmark: Benchmark;
  agent: string;
  persona: ChatModel;
  adapter: AgentAdapter;
  store: RunStore;
  /** The state the caller already loaded from `store` (`state` undefined: none saved): it is not read twice. */
  loaded?: { state: RunState | undefined };
  clock: Clock;
  ignoreSessionBreak?: boolean;
  /** The persona's context compaction (config.jsonc `compaction`); none when absent. */
  compaction?: { maxTokens: number; trimToTokens: number };
  /** The model hooks (config.jsonc `hooks`); both on when absent. */
  hooks?: ModelHooks;
  /** How sleeps are fast-forwarded (config.jsonc `time_master`); on only for a `time_master` benchmark. */
  timeMaster?: Omit<TimeMasterSettings, 'enabled'>;
  /** Per agent turn; past it the turn counts as unanswered and the run goes on. */
  replyTimeoutMs?: number;
  /** Persona turns allowed in one phase before the run is stopped as stuck (default: by the phase's size). */
  maxTurnsPerPhase?: number;
  onEvent?: (state: RunState, event: RunEvent) => void;
  /** The relay the agent's models tell their retries to (see `ModelContext.onRetry`): journaled while the run runs. */
  agentRetries?: AgentRetries;
  /**
   * Where to copy the agent's memory folder (see `AgentAdapter.memoryDir`) before each session
   * switch and at the end, as `<n>/`, so a wrong answer can be traced to the note behind it.
   */
  snapshotDir?: string;
  /** Aborting stops the run between two steps, or at once while it waits on the agent; it stays resumable. */
  signal?: AbortSignal;
  /** How long the agent may be quiet before the wait is shown (default 5 s): tests shorten it. */
  waitNoticeMs?: number;
  /**
   * A fresh run of some phases only, by index in the play order (both included): the persona
   * starts at `from` and the run ends after `to`. A resumed run keeps the range it started with.
   */
  phases?: { from: number; to?: number };
  /** `mmb run --filter`'s terms, journaled as the run's mark; the benchmark given is already filtered by them. */
  filter?: string;
}

export interface ModelHooks {
  requireSendMessage: boolean;
  dropEchoedUserMessages: boolean;
}

export interface RunContext {
  readonly options: RunOptions;
  /** Every phase of the benchmark in the order the persona plays them. */
  readonly order: readonly PlayPhase[];
  /** Where each check sits, by id (a Map: check ids come from the model). */
  readonly checkPositions: ReadonlyMap<string, Position>;
  /** The system prompt as of now: the live profile sheet in it (a profile edit changes it, nothing else does). */
  systemPrompt(): string;
  /** Whether the benchmark lives on dated times, so the persona is offered `wait` (a single-day one is not). */
  readonly offersWait: boolean;
  readonly timeMaster: TimeMasterSettings;
  readonly hooks: ModelHooks;
  readonly replyTimeoutMs: number;
  /** The run state: loaded or empty at first, replaced by nothing, changed only through `record`. */
  readonly state: RunState;
  /** Journals an event: applies it to the state, saves it, tells the listener. */
  record(event: RunEvent): void;
  /** Real time for events (how long the run worked); the scenario lives on the virtual clock. */
  now(): string;
  /** What a turn with the agent needs: its time, the journal, the stop signal. */
  turnOptions(): TurnOptions;
}

export function createRunContext(options: RunOptions, state: RunState): RunContext {
  const order = playOrder(options.benchmark);
  if (order.length === 0) throw new Error(`${options.benchmark.name} has no phases: its chapters need \`##\` phase headings.`);
  const manifest = options.benchmark.manifest;
  const context: RunContext = {
    options,
    order,
    checkPositions: checkPositions(order),
    systemPrompt: () => buildSystemPrompt(options.benchmark.instructions ?? '', liveProfile(state, options.benchmark.profile)),
    offersWait: !!manifest?.time_master || order.some((play) => play.phase.timeAnchors.length > 0),
    timeMaster: {
      enabled: !!manifest?.time_master,
      minSleepToSkipMs: 5000,
      preWakeDelayMs: 1000,
      pollIntervalMs: 1000,
      ...options.timeMaster,
    },
    hooks: options.hooks ?? { requireSendMessage: true, dropEchoedUserMessages: true },
    replyTimeoutMs: options.replyTimeoutMs ?? 300_000,
    state,
    record(event: RunEvent): void {
      options.store.append(state, event);
      options.onEvent?.(state, event);
    },
    now: () => new Date().toISOString(),
    turnOptions: () => ({
      replyTimeoutMs: context.replyTimeoutMs,
      record: context.record,
      now: context.now,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.waitNoticeMs !== undefined ? { waitNoticeMs: options.waitNoticeMs } : {}),
    }),
  };
  return context;
}

/**
 * Journals a jump of the virtual clock and tells the agent. `realMs` is the real moment the clock
 * was set to `to`, so that a resume rebuilds the clock exactly as it ran since.
 */
export async function jumpClock(run: RunContext, to: Date, skippedMs: number, realMs = Date.now()): Promise<void> {
  run.record({ type: 'clock', at: new Date(realMs).toISOString(), virtualTime: to.toISOString(), skippedMs });
  await run.options.adapter.setVirtualTime?.(to.toISOString());
}

/** What the persona gets back from a turn with the agent: its replies, or that it did not answer. */
export function replyText(run: RunContext, replies: readonly string[]): string {
  if (replies.length) return `${REPLY_PREFIX}${replies.join('\n\n')}`;
  const timeout = run.replyTimeoutMs;
  return `${NO_REPLY_PREFIX} within ${timeout < 1000 ? `${timeout} ms` : `${Math.round(timeout / 1000)} s`}.)`;
}
