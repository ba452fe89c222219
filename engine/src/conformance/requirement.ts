/**
 * What every conformance requirement shares: the subject (the agent as the suite plays it), the
 * result of one requirement, running one (or listing it as not run, saying why), and a turn with
 * the agent played as the engine plays it.
 */
import type { AgentAdapter, AgentMessage } from '../protocol/agent';
import type { Clock } from '../clock';
import { INTERFACE_WORDS, type ProtocolWords } from './words';

/**
 * One requirement's outcome: `skip` when it does not apply (no memory folder, no virtual time),
 * `not-run` when a failure before it left nothing to check.
 */
export interface RequirementResult {
  requirement: string;
  outcome: 'pass' | 'fail' | 'skip' | 'not-run';
  /** What went wrong and what to fix, why it was skipped, or why it did not run. */
  detail?: string;
}

/** An agent as the suite plays it. */
export interface ConformanceSubject {
  name: string;
  /** `long-term`: it still answers after a new conversation; `context-only`: it forgets with its context. */
  memory: 'long-term' | 'context-only';
  tell: string;
  ask: string;
  expect: RegExp;
  /** A fresh adapter on the run folder, as the engine makes it (again after a restart). */
  make(runDir: string): AgentAdapter;
  /** The clock the adapter reads; set, it checks virtual time. */
  clock?: Clock;
  /** Whether the agent claims to live on the run's virtual clock. */
  virtualTime: boolean | ((adapter: AgentAdapter) => Promise<boolean>);
  /** How long one reply may take (default 60 s). */
  replyTimeoutMs?: number;
  /** The words of the FAILs: the protocol's for a program, the interface's (the default) for a module or a built-in. */
  words?: ProtocolWords;
}

/** A requirement not met: its message is what to change. */
export class Failed extends Error {}

export type RecordResult = (result: RequirementResult) => void;

/** Sends and polls like the engine does, until a reply after `cursor` arrives and the agent is idle. */
export async function turn(
  subject: ConformanceSubject,
  adapter: AgentAdapter,
  text: string,
  key: string,
  cursor: number,
): Promise<AgentMessage[]> {
  const words = subject.words ?? INTERFACE_WORDS;
  const timeoutMs = subject.replyTimeoutMs ?? 60_000;
  await adapter.sendMessage(text, { idempotencyKey: key });
  const deadline = Date.now() + timeoutMs;
  let lastCount = 0;
  let quietSince = Date.now();
  for (;;) {
    const got = await adapter.getResponses(cursor);
    if (got.length !== lastCount) [lastCount, quietSince] = [got.length, Date.now()];
    const state = adapter.getStatus ? (await adapter.getStatus()).state : 'unknown';
    if (got.length && (state === 'idle' || (state === 'unknown' && Date.now() - quietSince >= adapter.quietPeriodMs))) return got;
    if (Date.now() > deadline) {
      const missed = `no reply to "${text.slice(0, 40)}" within ${Math.round(timeoutMs / 1000)} s`;
      throw new Failed(`${missed}: ${words.responses(cursor)} must return the reply, and ${words.idle} once it has said all`);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(Math.max(adapter.pollIntervalMs, 5), 1000)));
  }
}

export const lastSeq = (messages: readonly AgentMessage[]) => messages.reduce((n, m) => Math.max(n, m.seq), 0);

/** Runs one requirement, or lists it as not run when `notRunBecause` says why; a throw (the adapter's or the check's) is its failure. */
export async function requirement(
  record: RecordResult,
  name: string,
  check: () => Promise<string | void>,
  notRunBecause?: string,
): Promise<boolean> {
  if (notRunBecause !== undefined) {
    record({ requirement: name, outcome: 'not-run', detail: notRunBecause });
    return false;
  }
  try {
    const skipped = await check();
    record(skipped ? { requirement: name, outcome: 'skip', detail: skipped } : { requirement: name, outcome: 'pass' });
    return true;
  } catch (e) {
    record({ requirement: name, outcome: 'fail', detail: failureText(e) });
    return false;
  }
}

/** One bounded line: the agent's words in an error cannot pass for lines of the suite's own. */
export function failureText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s*[\r\n]+\s*/g, ' ').slice(0, 400);
}

export function expect(condition: boolean, fix: string): void {
  if (!condition) throw new Failed(fix);
}
