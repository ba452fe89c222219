/** One turn with the agent under test: send, then poll until it has said all it will. */
import { boundedToolCalls, leftOutToolCalls } from '../adapters/toolCalls';
import type { AgentAdapter, AgentMessage, AgentStatus } from '../protocol/agent';
import { sendsMade, type RunEvent, type RunState } from '../state/runState';
import { pause, unlessStopped, WaitNotices } from './agentWait';

/** An agent's reply is kept, and handed to the persona, up to this many characters. */
export const MAX_REPLY_CHARS = 50_000;

export interface TurnOptions {
  /** After this long without the agent going idle, the turn counts as unanswered. */
  replyTimeoutMs: number;
  record: (event: RunEvent) => void;
  now: () => string;
  /** A stop on request (Ctrl-C): the turn stops waiting at once, and is awaited again when the run resumes. */
  signal?: AbortSignal;
  /** Tests shorten the quiet period before a wait is shown (default 5 s). */
  waitNoticeMs?: number;
}

/** The agent's replies to the last message sent, from the transcript. */
export function repliesToLastSend(state: RunState): string[] {
  const out: string[] = [];
  for (let i = state.transcript.length - 1; i >= 0; i--) {
    const e = state.transcript[i];
    if (!e || e.from === 'persona') break;
    if (e.from === 'agent') out.unshift(e.text);
  }
  return out;
}

/**
 * Sends a message (unless the journal shows it was already sent: the adapter dedupes by key) and
 * collects the replies. Returns them, or an empty list when the agent did not answer in time.
 */
export async function agentTurn(
  state: RunState,
  adapter: AgentAdapter,
  callId: string,
  text: string,
  options: TurnOptions,
): Promise<string[]> {
  const key = state.sends[callId]?.key ?? sendKey(state);
  if (!state.sends[callId]) options.record({ type: 'sent', at: options.now(), callId, key, text });
  const timeoutMs = options.replyTimeoutMs;
  // From the send on: an agent whose `send` returns only with its reply is waited on there.
  const notices = new WaitNotices({
    tell: (waitedMs) => options.record({ type: 'waiting', at: options.now(), callId, waitedMs, timeoutMs }),
    ...(options.waitNoticeMs !== undefined ? { noticeAfterMs: options.waitNoticeMs } : {}),
  });
  try {
    await unlessStopped(adapter.sendMessage(text, { idempotencyKey: key }), options.signal);
    const replies = await collectReplies(state, adapter, callId, options, notices);
    notices.rethrowFailure();
    return replies;
  } finally {
    notices.stop();
  }
}

/** Polls (or awaits) the agent until it has answered and gone quiet, or the turn's time is up. */
async function collectReplies(
  state: RunState,
  adapter: AgentAdapter,
  callId: string,
  options: TurnOptions,
  notices: WaitNotices,
): Promise<string[]> {
  const { signal } = options;
  const awaitsLaterSend = laterSendOf(state);
  const started = Date.now();
  let lastNew = Date.now();
  // Quick agents answer in milliseconds: poll fast at first, then every pollIntervalMs.
  let delay = 1;
  // An agent of this process is awaited, not polled, until it settles with nothing new to read.
  let awaitSettled = adapter.whenSettled !== undefined;
  let settledOnce = false;
  for (;;) {
    notices.rethrowFailure();
    const got = await unlessStopped(adapter.getResponses(state.agentCursor), signal);
    const messages = answersSoFar(got, state.agentCursor, awaitsLaterSend);
    for (const m of messages) {
      const toolCalls = boundedToolCalls(m.toolCalls);
      const leftOut = leftOutToolCalls(m.toolCalls);
      options.record({
        type: 'reply',
        at: options.now(),
        seq: m.seq,
        text: boundedReply(m.text),
        ...(toolCalls ? { toolCalls } : {}),
        ...(leftOut ? { toolCallsLeftOut: leftOut } : {}),
      });
      lastNew = Date.now();
      notices.heard();
    }
    const replies = repliesToLastSend(state);
    const status = adapter.getStatus ? await unlessStopped(adapter.getStatus(), signal) : undefined;
    if (status && changed(state.agentStatus, status)) options.record({ type: 'observe', at: options.now(), status });
    if (replies.length > 0) {
      if (status?.state === 'idle' && messages.length === 0) return replies;
      if ((!status || status.state === 'unknown') && Date.now() - lastNew >= adapter.quietPeriodMs) return replies;
    }
    if (Date.now() - started > options.replyTimeoutMs) {
      if (replies.length === 0) options.record({ type: 'unanswered', at: options.now(), callId, waitedMs: Date.now() - started });
      return replies;
    }
    if (awaitSettled && (messages.length > 0 || !settledOnce)) {
      settledOnce = true;
      await unlessStopped(settledOrTimeout(adapter, options.replyTimeoutMs - (Date.now() - started)), signal);
      continue;
    }
    awaitSettled = false;
    await pause(delay, signal);
    delay = Math.min(adapter.pollIntervalMs, delay * 2);
  }
}

/**
 * Whether the agent's own record holds a reply to a message the journal has not sent: its record
 * is ahead of a journal that lost its tail, so what the journal replays up to there (a session
 * switch) the agent has done already, and must not do twice.
 */
export async function agentAheadOfJournal(state: RunState, adapter: AgentAdapter): Promise<boolean> {
  const awaitsLaterSend = laterSendOf(state);
  const messages = await adapter.getResponses(state.agentCursor);
  return messages.some((m) => m.replyTo !== undefined && awaitsLaterSend(m.replyTo));
}

/**
 * At a resume: the agent still has the last reply the run read (`agentCursor`), or the run stops
 * here in one line. An agent that lost its replies numbers its new ones from 1 again, below the
 * cursor, so every later turn would wait its whole timeout for a reply it never sees.
 */
export async function checkRepliesKept(state: RunState, adapter: AgentAdapter, signal?: AbortSignal): Promise<void> {
  const cursor = state.agentCursor;
  if (cursor === 0) return;
  const kept = await unlessStopped(adapter.getResponses(cursor - 1), signal);
  if (kept.some((m) => m.seq >= cursor)) return;
  const newest = kept.reduce((n, m) => Math.max(n, m.seq), 0);
  throw new Error(
    `the agent "${state.agent}" lost its replies: the run read up to message ${cursor} before it stopped, ` +
      `and the agent now has ${newest ? `none past ${newest}` : 'none'} (\`responses\` with \`after: ${cursor - 1}\`); ` +
      'an agent keeps its replies with its state, in its home folder, for a resumed run to find ' +
      `(docs/agent-protocol.md, "Keep your replies"). Fix the agent, then: mmb run ${state.run} --restart`,
  );
}

/**
 * Whether a reply's `replyTo` names a send of this run the journal has not made yet. Any other
 * key (one the engine never made: a buggy or hostile agent's) is no reason to hold a reply back,
 * or every turn would wait its whole timeout for replies that are there.
 */
function laterSendOf(state: RunState): (replyTo: string) => boolean {
  const made = sendsMade(state);
  const prefix = `${state.run}/send-`;
  return (replyTo) => {
    const number = replyTo.startsWith(prefix) ? replyTo.slice(prefix.length) : '';
    return /^[1-9]\d{0,8}$/.test(number) && Number(number) > made;
  };
}

/**
 * The key of the run's next send: its number among the run's sends, so that a send made again
 * after a resume whose journal lost its tail has the key it had the first time, and the agent,
 * which kept it, knows it (the persona's call ids count events, and the resume is one more).
 */
function sendKey(state: RunState): string {
  return `${state.run}/send-${sendsMade(state) + 1}`;
}

/**
 * The agent's messages after the cursor, oldest first, up to the first that answers a message
 * the journal has not sent yet: the agent's own record ahead of a cut journal. Those wait for
 * their sends, made again as the run replays, instead of all landing in this turn.
 */
function answersSoFar(messages: readonly AgentMessage[], cursor: number, awaitsLaterSend: (replyTo: string) => boolean): AgentMessage[] {
  const out: AgentMessage[] = [];
  for (const m of [...messages].sort((a, b) => a.seq - b.seq)) {
    if (m.seq <= cursor) continue;
    if (m.replyTo !== undefined && awaitsLaterSend(m.replyTo)) break;
    out.push(m);
  }
  return out;
}

/** The adapter's `whenSettled`, or the rest of the turn's time, whichever comes first. */
async function settledOrTimeout(adapter: AgentAdapter, remainingMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      adapter.whenSettled?.(),
      new Promise((resolve) => {
        timer = setTimeout(resolve, Math.max(0, remainingMs) + 1);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The reply as journaled: a runaway reply is cut, saying how much was cut. */
function boundedReply(text: string): string {
  return text.length > MAX_REPLY_CHARS ? `${text.slice(0, MAX_REPLY_CHARS)} […${text.length - MAX_REPLY_CHARS} more characters cut]` : text;
}

function changed(before: AgentStatus | undefined, after: AgentStatus): boolean {
  const requests = (s: AgentStatus) => Object.values(s.usage ?? {}).reduce((n, u) => n + u.requests, 0);
  return (
    !before ||
    before.contextTokens !== after.contextTokens ||
    (before.compactions?.length ?? -1) !== (after.compactions?.length ?? -1) ||
    requests(before) !== requests(after)
  );
}
