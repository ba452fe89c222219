/**
 * The Time Master: when the persona sleeps until a moment and every participant is idle, it moves
 * the virtual clock forward to just before the wake-up instead of waiting for real.
 */
import type { Phase } from '../../../scenario/src';
import type { AgentAdapter } from '../protocol/agent';
import type { Clock } from '../clock';
import type { RunState } from '../state/runState';

export interface TimeMasterSettings {
  /** Off: sleeps last for real (the benchmark has no `time_master`). */
  enabled: boolean;
  /** Sleeps shorter than this are not skipped. */
  minSleepToSkipMs: number;
  /** The clock is set this much before the wake-up; that much passes for real. */
  preWakeDelayMs: number;
  /** How often participants are asked whether they are idle. */
  pollIntervalMs: number;
}

export function timeMasterSettings(
  enabled: boolean,
  config: { min_sleep_to_skip: number; pre_wake_delay: number; poll_interval: number },
): TimeMasterSettings {
  return {
    enabled,
    minSleepToSkipMs: config.min_sleep_to_skip * 1000,
    preWakeDelayMs: config.pre_wake_delay * 1000,
    pollIntervalMs: config.poll_interval * 1000,
  };
}

async function idle(adapter: AgentAdapter): Promise<boolean> {
  if (!adapter.getStatus) return true;
  return (await adapter.getStatus()).state !== 'thinking';
}

/**
 * Sleeps until `target` on the virtual clock, skipping what can be skipped; `onJump` journals each
 * jump with the real moment (ms since the epoch) the clock was set at, so a resume can rebuild it.
 */
export async function sleepUntil(
  target: Date,
  clock: Clock,
  adapter: AgentAdapter,
  settings: TimeMasterSettings,
  onJump: (to: Date, skippedMs: number, realMs: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  for (;;) {
    if (signal?.aborted) return;
    const remaining = target.getTime() - clock.now().getTime();
    if (remaining <= 0) return;
    if (settings.enabled && remaining > settings.minSleepToSkipMs && remaining > settings.preWakeDelayMs && (await idle(adapter))) {
      const to = new Date(target.getTime() - settings.preWakeDelayMs);
      const real = Date.now();
      const skipped = to.getTime() - clock.now().getTime();
      clock.set(to, real);
      await onJump(to, skipped, real);
      continue;
    }
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(1, Math.min(remaining, settings.enabled ? settings.pollIntervalMs : remaining))),
    );
  }
}

/**
 * The virtual clock at the run's last journaled event: where a resumed run's clock goes on from.
 * The clock runs in real time between jumps, so it is the last jump's (or resume's) time plus the
 * real time from then to the last event; a stop loses at most the step it cut. A state from before
 * `virtualTimeAt` was journaled goes on from its last jump.
 */
export function clockAtLastEvent(state: RunState): Date | undefined {
  if (!state.virtualTime) return undefined;
  const base = Date.parse(state.virtualTime);
  const since = state.virtualTimeAt ? Date.parse(state.virtualTimeAt) : Number.NaN;
  const elapsed = Number.isNaN(since) ? 0 : Math.max(0, Date.parse(state.lastEventAt) - since);
  return new Date(base + elapsed);
}

/** The moment of a phase's last time anchor, when its date is known (the wall clock in UTC fields). */
export function lastAnchor(phase: Phase): { at: Date; label: string } | undefined {
  const anchor = phase.timeAnchors.at(-1);
  if (!anchor?.date) return undefined;
  return { at: new Date(`${anchor.date}T${anchor.time}:00Z`), label: `${anchor.time} on ${anchor.date}` };
}
