/**
 * The conformance suite every agent adapter passes: create, send, poll by sequence cursor, no
 * message twice, a saved state that survives a restart of the engine, a new conversation that
 * keeps long-term memory (for agents that have one), a full reset that loses it, and status.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ConformanceSetup } from '../src/adapters/registry';
import type { AgentAdapter, AgentMessage } from '../src/adapters/types';
import { tempDir } from './helpers';

/** Sends and polls like the engine does, until a reply after `cursor` arrives. */
async function turn(a: AgentAdapter, text: string, key: string, cursor: number): Promise<AgentMessage[]> {
  await a.sendMessage(text, { idempotencyKey: key });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const got = await a.getResponses(cursor);
    if (got.length && (!a.getStatus || (await a.getStatus()).state === 'idle')) return got;
    if (Date.now() > deadline) throw new Error(`${text}: no reply in 60 s`);
    await new Promise((r) => setTimeout(r, a.pollIntervalMs));
  }
}

/** An agent as the suite plays it: its name, and its registry entry's conformance setup. */
export type AgentSpec = { name: string } & Pick<ConformanceSetup, 'memory' | 'tell' | 'ask' | 'expect'>;

/** The suite for one adapter; `make` builds it on a run folder. */
export function conformance(agent: AgentSpec, make: (name: string, runDir: string) => AgentAdapter, timeout = 30_000): void {
  describe(`adapter ${agent.name}`, { timeout }, () => {
    test('create, send, poll by cursor; the same key is sent once; status has its shape', async () => {
      const dir = tempDir();
      const a = make(agent.name, dir);
      await a.destroySession();
      await a.createSession('conformance');
      const first = await turn(a, agent.tell, 'k1', 0);
      assert.ok(first.every((m) => m.seq > 0 && typeof m.text === 'string' && !Number.isNaN(Date.parse(m.at))));
      const cursor = Math.max(...first.map((m) => m.seq));
      assert.deepEqual(await a.getResponses(cursor), []);
      await a.sendMessage(agent.tell, { idempotencyKey: 'k1' });
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(await a.getResponses(cursor), [], 'a key seen before is not sent again');
      const status = await a.getStatus?.();
      if (status) assert.ok(['idle', 'thinking', 'unknown'].includes(status.state) && (status.compactions === null || Array.isArray(status.compactions)));
      await a.close?.();
    });

    test('the saved state survives a restart of the engine; a new conversation keeps memory only if the agent has one; a reset loses it', async () => {
      const dir = tempDir();
      const a = make(agent.name, dir);
      await a.destroySession();
      await a.createSession('conformance');
      const told = await turn(a, agent.tell, 't1', 0);
      await a.close?.();
      const b = make(agent.name, dir);
      await b.createSession('conformance');
      assert.deepEqual(await b.getResponses(0), told, 'replies are still there after a restart');
      await b.startNewConversation?.();
      const asked = await turn(b, agent.ask, 't2', Math.max(...told.map((m) => m.seq)));
      const answer = asked.map((m) => m.text).join(' ');
      if (agent.memory === 'long-term') assert.match(answer, agent.expect);
      else assert.doesNotMatch(answer, agent.expect);
      await b.destroySession();
      await b.createSession('conformance');
      const afterReset = await turn(b, agent.ask, 't3', 0);
      assert.doesNotMatch(afterReset.map((m) => m.text).join(' '), agent.expect, 'a full reset forgets everything');
      await b.close?.();
    });
  });
}
