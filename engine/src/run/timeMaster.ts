/**
 * The Time Master: when the persona sleeps until a moment and every participant is idle, it moves
 * the virtual clock forward to just before the wake-up instead of waiting for real.
 */
import type { Phase } from '../../../scenario/src';
import type { AgentAdapter } from '../adapters/types';
import type { Clock } from '../clock';

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

export function timeMasterSettings(enabled: boolean, config: { min_sleep_to_skip: number; pre_wake_delay: number; poll_interval: number }): TimeMasterSettings {
  return { enabled, minSleepToSkipMs: config.min_sleep_to_skip * 1000, preWakeDelayMs: config.pre_wake_delay * 1000, pollIntervalMs: config.poll_interval * 1000 };
}

async function idle(adapter: AgentAdapter): Promise<boolean> {
  if (!adapter.getStatus) return true;
  return (await adapter.getStatus()).state !== 'thinking';
}

/** Sleeps until `target` on the virtual clock, skipping what can be skipped; `onJump` journals each jump. */
export async function sleepUntil(target: Date, clock: Clock, adapter: AgentAdapter, t: TimeMasterSettings, onJump: (to: Date, skippedMs: number) => Promise<void>, signal?: AbortSignal): Promise<void> {
  for (;;) {
    if (signal?.aborted) return;
    const remaining = target.getTime() - clock.now().getTime();
    if (remaining <= 0) return;
    if (t.enabled && remaining > t.minSleepToSkipMs && remaining > t.preWakeDelayMs && await idle(adapter)) {
      const to = new Date(target.getTime() - t.preWakeDelayMs);
      const skipped = to.getTime() - clock.now().getTime();
      clock.set(to);
      await onJump(to, skipped);
      continue;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(1, Math.min(remaining, t.enabled ? t.pollIntervalMs : remaining))));
  }
}

/** The moment of a phase's last time anchor, when its date is known (the wall clock in UTC fields). */
export function lastAnchor(phase: Phase): { at: Date; label: string } | undefined {
  const anchor = phase.timeAnchors.at(-1);
  if (!anchor?.date) return undefined;
  return { at: new Date(`${anchor.date}T${anchor.time}:00Z`), label: `${anchor.time} on ${anchor.date}` };
}
