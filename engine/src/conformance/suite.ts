/**
 * The conformance suite every agent adapter passes, built in or brought by a user: each
 * requirement is checked against a real adapter and comes back as a line with what to fix.
 * `mmb conformance <run-id>` prints them; engine/test/conformanceSuite.ts asserts them for every
 * registered agent, so the built-in adapters and the user's are held to the same list. Every
 * requirement is listed whatever fails before it: it runs, or it is `not-run` saying why.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentMessage } from '../protocol/agent';
import { checkMemory, memoryRequirementNames } from './memoryChecks';
import { expect, lastSeq, requirement, turn, type ConformanceSubject, type RecordResult, type RequirementResult } from './requirement';
import { INTERFACE_WORDS } from './words';

export type { ConformanceSubject, RequirementResult } from './requirement';

const TURN_REQUIREMENTS = ['replies arrive', 'the cursor holds', 'nothing is sent twice', 'status has its shape'];

/** Every requirement's name, in the order the suite lists them. */
export function requirementNames(subject: Pick<ConformanceSubject, 'memory'>): string[] {
  return ['the agent starts', ...TURN_REQUIREMENTS, ...memoryRequirementNames(subject), 'virtual time'];
}

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
    // An agent that cannot start fails here, in one line: every later requirement is listed as not run, not failed again.
    if (!(await checkStart(subject, join(dir, 's'), record))) {
      for (const name of requirementNames(subject).slice(1))
        record({ requirement: name, outcome: 'not-run', detail: 'the agent did not start (above)' });
      return results;
    }
    await checkTurns(subject, join(dir, 'a'), record);
    await checkMemory(subject, join(dir, 'b'), record);
    await checkVirtualTime(subject, join(dir, 'c'), record);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
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

async function checkTurns(subject: ConformanceSubject, runDir: string, record: RecordResult): Promise<void> {
  const words = subject.words ?? INTERFACE_WORDS;
  const adapter = subject.make(runDir);
  let first: AgentMessage[] = [];
  try {
    const ok = await requirement(record, 'replies arrive', async () => {
      await adapter.destroySession();
      await adapter.createSession('conformance');
      first = await turn(subject, adapter, subject.tell, 'k1', 0);
      expect(
        first.every((m) => Number.isInteger(m.seq) && m.seq > 0 && typeof m.text === 'string' && !Number.isNaN(Date.parse(m.at))),
        'each message needs a whole `seq` from 1, a `text` and an ISO time `at`',
      );
    });
    const noReply = ok ? undefined : 'it needs a reply (replies arrive failed)';
    await requirement(
      record,
      'the cursor holds',
      async () => {
        const again = await adapter.getResponses(lastSeq(first));
        expect(
          again.length === 0,
          `${words.responses(lastSeq(first))} returned ${again.length} message(s): return only messages with a seq above \`after\``,
        );
      },
      noReply,
    );
    await requirement(
      record,
      'nothing is sent twice',
      async () => {
        await adapter.sendMessage(subject.tell, { idempotencyKey: 'k1' });
        await new Promise((resolve) => setTimeout(resolve, Math.max(200, adapter.quietPeriodMs)));
        const after = await adapter.getResponses(lastSeq(first));
        expect(
          after.length === 0,
          `a second ${words.send} with a ${words.key} seen before was answered: ` +
            `drop a ${words.key} you have seen (keep the keys with the agent's state, in ${words.home})`,
        );
      },
      noReply,
    );
    await requirement(record, 'status has its shape', async () => {
      const quiet = `every turn then ends only ${adapter.quietPeriodMs} ms after the last message (the starter: 15.4 s, not 1.1 s)`;
      if (!adapter.getStatus) return `no ${words.status}: ${quiet}`;
      const status = await adapter.getStatus();
      expect(
        ['idle', 'thinking', 'unknown'].includes(status.state) && (status.compactions === null || Array.isArray(status.compactions)),
        `${words.status} must answer ${words.statusShape}`,
      );
      return status.state === 'unknown' ? `${words.noStatus}: ${quiet}` : undefined;
    });
  } finally {
    await adapter.close?.();
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
      const replies = await turn(subject, adapter, subject.tell, 'v1', 0);
      const at = replies.at(-1)?.at ?? '';
      expect(
        at.startsWith('2031-05-04'),
        `with the clock set to ${target.toISOString()} the reply is stamped ${at}: stamp replies (\`at\`) and read time from ${
          (subject.words ?? INTERFACE_WORDS).clock
        }`,
      );
      return undefined;
    });
  } finally {
    subject.clock?.set(new Date());
    await adapter.close?.();
  }
}
