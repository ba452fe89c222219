/**
 * The conformance suite every agent adapter passes, built in or brought by a user: each
 * requirement is checked against a real adapter and comes back as a line with what to fix.
 * `mmb conformance <run-id>` prints them; engine/test/conformanceSuite.ts asserts them for every
 * registered agent, so the built-in adapters and the user's are held to the same list.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { AgentAdapter, AgentMessage } from '../protocol/agent';
import type { Clock } from '../clock';
import { copyMemoryFolder } from '../run/memorySnapshot';
import { runSecrets } from '../secrets';

/** One requirement's outcome: `skip` when it does not apply (no memory folder, no virtual time). */
export interface RequirementResult {
  requirement: string;
  outcome: 'pass' | 'fail' | 'skip';
  /** What went wrong and what to fix, or why it was skipped. */
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
}

class Failed extends Error {}

/** Sends and polls like the engine does, until a reply after `cursor` arrives and the agent is idle. */
async function turn(adapter: AgentAdapter, text: string, key: string, cursor: number, timeoutMs: number): Promise<AgentMessage[]> {
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
      throw new Failed(`${missed}: getResponses(${cursor}) must return the reply, and getStatus say "idle" once it has said all`);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(Math.max(adapter.pollIntervalMs, 5), 1000)));
  }
}

const lastSeq = (messages: readonly AgentMessage[]) => messages.reduce((n, m) => Math.max(n, m.seq), 0);
const answerOf = (messages: readonly AgentMessage[]) => messages.map((m) => m.text).join(' ');

/** Runs every requirement in order; `onResult` hears each as it is decided. */
export async function runConformance(
  subject: ConformanceSubject,
  onResult: (result: RequirementResult) => void = () => undefined,
): Promise<RequirementResult[]> {
  const results: RequirementResult[] = [];
  const record = (result: RequirementResult) => {
    results.push(result);
    onResult(result);
  };
  const dir = mkdtempSync(join(tmpdir(), 'mmb-conformance-'));
  try {
    // An agent that cannot start fails here, in one line: every later requirement would only say it again.
    if (!(await checkStart(subject, join(dir, 's'), record))) return results;
    await checkTurns(subject, join(dir, 'a'), record);
    await checkMemory(subject, join(dir, 'b'), record);
    await checkVirtualTime(subject, join(dir, 'c'), record);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

type RecordResult = (result: RequirementResult) => void;

/** Runs one requirement; a throw (the adapter's or the check's) is its failure, and stops the group. */
async function requirement(record: RecordResult, name: string, check: () => Promise<string | void>): Promise<boolean> {
  try {
    const skipped = await check();
    record(skipped ? { requirement: name, outcome: 'skip', detail: skipped } : { requirement: name, outcome: 'pass' });
    return true;
  } catch (e) {
    // One line: the agent's words in an error cannot pass for lines of the suite's own.
    const detail = (e instanceof Error ? e.message : String(e)).replace(/\s*[\r\n]+\s*/g, ' ').slice(0, 400);
    record({ requirement: name, outcome: 'fail', detail });
    return false;
  }
}

/** The agent starts and opens a session: its program spawns and shakes hands, its module loads, its gateway answers. */
async function checkStart(subject: ConformanceSubject, runDir: string, record: RecordResult): Promise<boolean> {
  const adapter = subject.make(runDir);
  try {
    return await requirement(record, 'the agent starts', async () => {
      await adapter.destroySession();
      await adapter.createSession('conformance');
    });
  } finally {
    await adapter.close?.();
  }
}

function expect(condition: boolean, fix: string): void {
  if (!condition) throw new Failed(fix);
}

async function checkTurns(subject: ConformanceSubject, runDir: string, record: RecordResult): Promise<void> {
  const timeout = subject.replyTimeoutMs ?? 60_000;
  const adapter = subject.make(runDir);
  let first: AgentMessage[] = [];
  try {
    const ok = await requirement(record, 'replies arrive', async () => {
      await adapter.destroySession();
      await adapter.createSession('conformance');
      first = await turn(adapter, subject.tell, 'k1', 0, timeout);
      expect(
        first.every((m) => Number.isInteger(m.seq) && m.seq > 0 && typeof m.text === 'string' && !Number.isNaN(Date.parse(m.at))),
        'each message needs a whole seq from 1, a text and an ISO time `at`',
      );
    });
    if (!ok) return;
    await requirement(record, 'the cursor holds', async () => {
      const again = await adapter.getResponses(lastSeq(first));
      expect(
        again.length === 0,
        `getResponses(${lastSeq(first)}) returned ${again.length} message(s): return only messages with a seq above the cursor`,
      );
    });
    await requirement(record, 'nothing is sent twice', async () => {
      await adapter.sendMessage(subject.tell, { idempotencyKey: 'k1' });
      await new Promise((resolve) => setTimeout(resolve, Math.max(200, adapter.quietPeriodMs)));
      const after = await adapter.getResponses(lastSeq(first));
      expect(
        after.length === 0,
        'a second sendMessage with an idempotency key seen before was answered: ' +
          "drop a key you have seen (keep the keys with the agent's state)",
      );
    });
    await requirement(record, 'status has its shape', async () => {
      if (!adapter.getStatus) return 'no getStatus: the engine waits for a quiet period after each reply';
      const status = await adapter.getStatus();
      expect(
        ['idle', 'thinking', 'unknown'].includes(status.state) && (status.compactions === null || Array.isArray(status.compactions)),
        'getStatus must return { state: "idle" | "thinking" | "unknown", compactions: [] or null, contextTokens: number or null }',
      );
      return undefined;
    });
  } finally {
    await adapter.close?.();
  }
}

async function checkMemory(subject: ConformanceSubject, runDir: string, record: RecordResult): Promise<void> {
  const timeout = subject.replyTimeoutMs ?? 60_000;
  let adapter = subject.make(runDir);
  try {
    await adapter.destroySession();
    await adapter.createSession('conformance');
    const told = await turn(adapter, subject.tell, 't1', 0, timeout);
    const ok = await requirement(record, 'the saved state survives a restart of the engine', async () => {
      await adapter.close?.();
      adapter = subject.make(runDir);
      await adapter.createSession('conformance');
      expect(
        isDeepStrictEqual(await adapter.getResponses(0), told),
        "after close and a new adapter on the same folder, getResponses(0) must return the same messages: keep them with the agent's state",
      );
    });
    if (!ok) return;
    await requirement(record, 'the memory folder is snapshotted', () => snapshotCheck(adapter, subject.memory));
    const kept = subject.memory === 'long-term';
    const name = kept ? 'a new conversation forgets the context and keeps long-term memory' : 'a new conversation forgets the context';
    await requirement(record, name, async () => {
      expect(!!adapter.startNewConversation, 'implement startNewConversation: the engine calls it at every session switch');
      await adapter.startNewConversation!();
      const answer = answerOf(await turn(adapter, subject.ask, 't2', lastSeq(told), timeout));
      if (kept)
        expect(
          subject.expect.test(answer),
          `after a new conversation the agent answered "${answer.slice(0, 120)}" to "${subject.ask}": ` +
            'keep what it was told in long-term memory',
        );
      else
        expect(
          !subject.expect.test(answer),
          `after a new conversation the agent still knew "${answer.slice(0, 120)}": clear its context (or declare long-term memory)`,
        );
    });
    await requirement(record, 'a full reset forgets everything', async () => {
      await adapter.destroySession();
      await adapter.createSession('conformance');
      const answer = answerOf(await turn(adapter, subject.ask, 't3', 0, timeout));
      expect(
        !subject.expect.test(answer),
        `after destroySession the agent still knew "${answer.slice(0, 120)}": delete its long-term memory too`,
      );
    });
  } finally {
    await adapter.close?.();
  }
}

/** The memory folder exists, holds what was told when the agent has long-term memory, and copies. */
async function snapshotCheck(adapter: AgentAdapter, memory: ConformanceSubject['memory']): Promise<string | void> {
  const dir = adapter.memoryDir?.();
  if (!dir) return 'no memory folder on disk (memoryDir): nothing to snapshot';
  if (memory === 'long-term')
    expect(
      existsSync(dir) && readdirSync(dir).length > 0,
      `memoryDir() is ${dir}, which is missing or empty after a message: point it at the folder the agent keeps its memory in`,
    );
  if (!existsSync(dir)) return;
  const copy = mkdtempSync(join(tmpdir(), 'mmb-snapshot-'));
  try {
    // As a run copies it: its text files, masked, no link followed.
    copyMemoryFolder(dir, join(copy, '1'), runSecrets);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

async function checkVirtualTime(subject: ConformanceSubject, runDir: string, record: RecordResult): Promise<void> {
  const adapter = subject.make(runDir);
  try {
    await requirement(record, 'virtual time', async () => {
      const claimed = typeof subject.virtualTime === 'function' ? await subject.virtualTime(adapter) : subject.virtualTime;
      if (!claimed) return 'the agent does not claim virtual time: it lives on the wall clock';
      const target = new Date('2031-05-04T10:00:00.000Z');
      subject.clock?.set(target);
      await adapter.destroySession();
      await adapter.createSession('conformance');
      await adapter.setVirtualTime?.(target.toISOString());
      const replies = await turn(adapter, subject.tell, 'v1', 0, subject.replyTimeoutMs ?? 60_000);
      const at = replies.at(-1)?.at ?? '';
      expect(
        at.startsWith('2031-05-04'),
        `with the clock set to ${target.toISOString()} the reply is stamped ${at}: ` +
          'stamp replies (and read time) from the clock the engine sets',
      );
      return undefined;
    });
  } finally {
    subject.clock?.set(new Date());
    await adapter.close?.();
  }
}
