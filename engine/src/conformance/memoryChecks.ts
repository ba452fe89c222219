/**
 * The conformance requirements of an agent's state and memory: it survives a restart of the
 * engine (a resumed run), its memory folder copies, a new conversation forgets the context (and
 * keeps long-term memory, when claimed), a full reset forgets everything. A failed restart does
 * not hide the others: the agent is told again on a fresh session and each still runs.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { AgentAdapter, AgentMessage } from '../protocol/agent';
import { copyMemoryFolder } from '../run/memorySnapshot';
import { runSecrets } from '../secrets';
import { expect, failureText, lastSeq, requirement, turn, type ConformanceSubject, type RecordResult } from './requirement';
import { INTERFACE_WORDS, type ProtocolWords } from './words';

/** The names of the memory requirements, in the order they are listed. */
export function memoryRequirementNames(subject: Pick<ConformanceSubject, 'memory'>): [string, string, string, string] {
  return [
    'the saved state survives a restart of the engine',
    'the memory folder is snapshotted',
    subject.memory === 'long-term'
      ? 'a new conversation forgets the context and keeps long-term memory'
      : 'a new conversation forgets the context',
    'a full reset forgets everything',
  ];
}

const answerOf = (messages: readonly AgentMessage[]) => messages.map((m) => m.text).join(' ');

export async function checkMemory(subject: ConformanceSubject, runDir: string, record: RecordResult): Promise<void> {
  const words = subject.words ?? INTERFACE_WORDS;
  const [restartName, snapshotName, conversationName, resetName] = memoryRequirementNames(subject);
  let adapter = subject.make(runDir);
  const fresh = async (key: string): Promise<AgentMessage[]> => {
    await adapter.destroySession();
    await adapter.createSession('conformance');
    return turn(subject, adapter, subject.tell, key, 0);
  };
  try {
    let told: AgentMessage[] = [];
    let notRun: string | undefined;
    try {
      told = await fresh('t1');
    } catch (e) {
      notRun = `the first message got no reply: ${failureText(e)}`;
    }
    const kept = await requirement(
      record,
      restartName,
      async () => {
        await adapter.close?.();
        adapter = subject.make(runDir);
        await adapter.createSession('conformance');
        const again = await adapter.getResponses(0);
        expect(
          isDeepStrictEqual(again, told),
          `after ${words.restart}, ${words.responses(0)} must return the same messages (it returned ${again.length}, ` +
            `${told.length} before): keep them with the agent's state in ${words.home}; a resumed run stops at once without them`,
        );
      },
      notRun,
    );
    if (!kept && notRun === undefined) {
      // What follows needs what was told: told again on a fresh session, so each requirement still runs.
      try {
        await adapter.close?.();
        adapter = subject.make(runDir);
        told = await fresh('t1-again');
      } catch (e) {
        notRun = `after the failed restart the agent did not answer again: ${failureText(e)}`;
      }
    }
    await requirement(record, snapshotName, () => snapshotCheck(adapter, subject.memory, words), notRun);
    await requirement(record, conversationName, () => newConversationCheck(subject, adapter, lastSeq(told)), notRun);
    await requirement(
      record,
      resetName,
      async () => {
        await adapter.destroySession();
        await adapter.createSession('conformance');
        const answer = answerOf(await turn(subject, adapter, subject.ask, 't3', 0));
        expect(
          !subject.expect.test(answer),
          `after ${words.destroy} the agent still knew "${answer.slice(0, 120)}": delete its long-term memory too`,
        );
      },
      notRun,
    );
  } finally {
    await adapter.close?.();
  }
}

/** After a new conversation the agent still knows what it was told if it claims long-term memory, and does not otherwise. */
async function newConversationCheck(subject: ConformanceSubject, adapter: AgentAdapter, cursor: number): Promise<void> {
  const words = subject.words ?? INTERFACE_WORDS;
  expect(!!adapter.startNewConversation, `implement ${words.newConversation}: the engine calls it at every session switch`);
  await adapter.startNewConversation!();
  const answer = answerOf(await turn(subject, adapter, subject.ask, 't2', cursor));
  if (subject.memory === 'long-term')
    expect(
      subject.expect.test(answer),
      `after ${words.newConversation} the agent answered "${answer.slice(0, 120)}" to "${subject.ask}": ` +
        'keep what it was told in long-term memory (or declare none: --memory context-only)',
    );
  else
    expect(
      !subject.expect.test(answer),
      `after ${words.newConversation} the agent still knew "${answer.slice(0, 120)}": clear its context (or declare long-term memory)`,
    );
}

/** The memory folder exists, holds what was told when the agent has long-term memory, and copies. */
async function snapshotCheck(adapter: AgentAdapter, memory: ConformanceSubject['memory'], words: ProtocolWords): Promise<string | void> {
  const dir = adapter.memoryDir?.();
  if (!dir) return 'no memory folder on disk (memoryDir): nothing to snapshot';
  if (memory === 'long-term')
    expect(
      existsSync(dir) && readdirSync(dir).length > 0,
      `${words.memoryDir} is ${dir}, which is missing or empty after a message: point it at the folder the agent keeps its memory in`,
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
