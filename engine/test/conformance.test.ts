/**
 * The conformance suite every agent adapter passes: create, send, poll by sequence cursor, no
 * message twice, a saved state that survives a restart of the engine, a new conversation that
 * keeps long-term memory (for agents that have one), a full reset that loses it, and status.
 * Adding an agent is one file in src/adapters, one line in the registry, and one line here.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createAdapter } from '../src/adapters/registry';
import type { AgentAdapter, AgentMessage } from '../src/adapters/types';
import { Clock } from '../src/clock';
import { startStandIn, type StandIn } from '../src/standin/server';
import { runFilingExperiment } from '../src/experiments/filingRun';
import { startFakeHermes, type FakeHermes } from './hermesServer';
import { tempDir } from './helpers';

const HERMES_KEY = 'hermes-test-key-123';
let standIn: StandIn;
let hermes: FakeHermes;
before(async () => {
  standIn = await startStandIn();
  hermes = await startFakeHermes(HERMES_KEY, tempDir('mmb-hermes-home-'));
});
after(async () => {
  await standIn.close();
  await hermes.close();
});

const AGENTS: { name: string; longTermMemory: boolean; tell: string; ask: string; expect: RegExp }[] = [
  { name: 'chatbot', longTermMemory: false, tell: 'My boat is called Wren and it is moored in Bristol.', ask: 'Where is my boat moored?', expect: /Bristol/ },
  { name: 'filing-log', longTermMemory: true, tell: 'room-03 is flooded.', ask: 'What is the state of room-03 now?', expect: /room-03 is flooded/ },
  { name: 'filing-consolidated', longTermMemory: true, tell: 'room-03 is flooded.', ask: 'What is the state of room-03 now?', expect: /room-03 is flooded/ },
  { name: 'filing-dreaming', longTermMemory: true, tell: 'room-03 is flooded.', ask: 'What is the state of room-03 now?', expect: /room-03 is flooded/ },
  { name: 'hermes', longTermMemory: true, tell: 'My boat is called Wren and it is moored in Bristol.', ask: 'Where is my boat moored?', expect: /Bristol/ },
];

function make(name: string, runDir: string): AgentAdapter {
  const options = name === 'hermes'
    ? { hermes_url: hermes.url, hermes_home: hermes.home, hermes_reset_command: `rm -rf '${hermes.home}/memories'` }
    : {};
  return createAdapter(name, { runDir, options, models: { standInUrl: standIn.url, env: { HERMES_API_KEY: HERMES_KEY } }, clock: new Clock() });
}

/** Sends and polls like the engine does, until a reply after `cursor` arrives. */
async function turn(a: AgentAdapter, text: string, key: string, cursor: number): Promise<AgentMessage[]> {
  await a.sendMessage(text, { idempotencyKey: key });
  const deadline = Date.now() + 5000;
  for (;;) {
    const got = await a.getResponses(cursor);
    if (got.length && (!a.getStatus || (await a.getStatus()).state === 'idle')) return got;
    if (Date.now() > deadline) throw new Error(`${text}: no reply in 5 s`);
    await new Promise((r) => setTimeout(r, a.pollIntervalMs));
  }
}

for (const agent of AGENTS) {
  describe(`adapter ${agent.name}`, () => {
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
      if (agent.longTermMemory) assert.match(answer, agent.expect);
      else assert.doesNotMatch(answer, agent.expect);
      await b.destroySession();
      await b.createSession('conformance');
      const afterReset = await turn(b, agent.ask, 't3', 0);
      assert.doesNotMatch(afterReset.map((m) => m.text).join(' '), agent.expect, 'a full reset forgets everything');
      await b.close?.();
    });
  });
}

test('memory snapshots: the agent\'s memory folder is copied before each session switch and at the end', async () => {
  const root = tempDir('mmb-snap-');
  await runFilingExperiment(root, 1107);
  const memory = join(root, 'results', 'experiments', 'filing-1107', 'results', 'filing-consolidated', 'memory');
  assert.deepEqual(readdirSync(memory).sort(), ['1', '2']);
  assert.ok(existsSync(join(memory, '1', 'room-07.md')));
  assert.equal(readdirSync(join(memory, '2')).length, 25);
});
