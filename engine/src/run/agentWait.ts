/**
 * The waits of a turn with the agent, never silent and never deaf to a stop: while the agent says
 * nothing new, a `waiting` event is journaled once it has been quiet for `WAIT_NOTICE_AFTER_MS`,
 * then every `WAIT_NOTICE_EVERY_MS` (the progress line and the editor show it), and every await on
 * the agent gives way at once to a stop on request (Ctrl-C), which leaves the turn to be awaited
 * again when the run resumes.
 */
import { RunStopped } from '../errors';

/** A quiet agent is shown waited on after this long. */
export const WAIT_NOTICE_AFTER_MS = 5_000;
/** How often the wait is journaled again while it lasts: the editor reads the wait from the run's files. */
export const WAIT_NOTICE_EVERY_MS = 10_000;
/** How often the ticker looks: a notice comes at most this late. */
const TICK_MS = 250;

export interface WaitNoticeOptions {
  /** Journals a `waiting` event: `waitedMs` since the turn began. */
  tell: (waitedMs: number) => void;
  /** Tests shorten the quiet period before the first notice. */
  noticeAfterMs?: number;
}

/** Tells of a quiet agent while a turn lasts; `heard` restarts the quiet period, `stop` ends the telling. */
export class WaitNotices {
  private readonly started = Date.now();
  private quietSince = this.started;
  private lastNotice: number | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly noticeAfterMs: number;
  private failure: unknown;

  constructor(private readonly options: WaitNoticeOptions) {
    this.noticeAfterMs = options.noticeAfterMs ?? WAIT_NOTICE_AFTER_MS;
    this.timer = setInterval(() => this.tick(), Math.min(TICK_MS, this.noticeAfterMs));
    // A forgotten ticker must not keep the process alive.
    this.timer.unref();
  }

  /** The agent said something new: a notice comes again only after a quiet period. */
  heard(): void {
    this.quietSince = Date.now();
    this.lastNotice = undefined;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** A notice that could not be journaled (a full disk) fails the turn here, not as an uncaught throw in a timer. */
  rethrowFailure(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  private tick(): void {
    const now = Date.now();
    if (now - this.quietSince < this.noticeAfterMs) return;
    if (this.lastNotice !== undefined && now - this.lastNotice < WAIT_NOTICE_EVERY_MS) return;
    this.lastNotice = now;
    try {
      this.options.tell(now - this.started);
    } catch (e) {
      this.failure = e;
      this.stop();
    }
  }
}

/** `work`, unless a stop is asked for first: then RunStopped at once, the work left to end on its own. */
export async function unlessStopped<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) throw new RunStopped('stopped on request');
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () => reject(new RunStopped('stopped on request'));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, stopped]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/** Sleeps `ms`, or less when a stop is asked for (then RunStopped). */
export async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await unlessStopped(
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
      }),
      signal,
    );
  } finally {
    clearTimeout(timer);
  }
}

/** The text of a wait, on the progress line and in the editor: `waiting for the agent's reply: 40 s of 300`. */
export function waitText(waitedMs: number, timeoutMs: number): string {
  return `waiting for the agent's reply: ${Math.floor(waitedMs / 1000)} s of ${Math.round(timeoutMs / 1000)}`;
}
