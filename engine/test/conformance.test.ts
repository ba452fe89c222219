/**
 * Every adapter that runs here passes the conformance suite (conformanceSuite.ts); the real
 * OpenClaw passes it in e2e/openclaw.e2e.ts. Adding an agent is one file in src/adapters, one
 * line in the registry, and one line here.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createAdapter } from '../src/adapters/registry';
import type { AgentAdapter } from '../src/adapters/types';
import { Clock } from '../src/clock';
import { startStandIn, type StandIn } from '../src/standin/server';
import { runFilingExperiment } from '../src/experiments/filingRun';
import { startFakeHermes, type FakeHermes } from './hermesServer';
import { conformance, type AgentSpec } from './conformanceSuite';
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

const AGENTS: AgentSpec[] = [
  { name: 'chatbot', longTermMemory: false, tell: 'My boat is called Wren and it is moored in Bristol.', ask: 'Where is my boat moored?', expect: /Bristol/ },
  { name: 'filing-log', longTermMemory: true, tell: 'room-03 is flooded.', ask: 'What is the state of room-03 now?', expect: /room-03 is flooded/ },
  { name: 'filing-consolidated', longTermMemory: true, tell: 'room-03 is flooded.', ask: 'What is the state of room-03 now?', expect: /room-03 is flooded/ },
  { name: 'filing-dreaming', longTermMemory: true, tell: 'room-03 is flooded.', ask: 'What is the state of room-03 now?', expect: /room-03 is flooded/ },
  { name: 'notebook', longTermMemory: true, tell: 'My boat is called Wren and it is moored in Bristol.', ask: 'Where is my boat moored?', expect: /Bristol/ },
  { name: 'hermes', longTermMemory: true, tell: 'My boat is called Wren and it is moored in Bristol.', ask: 'Where is my boat moored?', expect: /Bristol/ },
];

function make(name: string, runDir: string): AgentAdapter {
  const options = name === 'hermes'
    ? { hermes_url: hermes.url, hermes_home: hermes.home, hermes_reset_command: `rm -rf '${hermes.home}/memories'` }
    : {};
  return createAdapter(name, { runDir, options, models: { standInUrl: standIn.url, env: { HERMES_API_KEY: HERMES_KEY } }, clock: new Clock() });
}

test('memory snapshots: the agent\'s memory folder is copied before each session switch and at the end', async () => {
  const root = tempDir('mmb-snap-');
  await runFilingExperiment(root, 1107);
  const memory = join(root, 'results', 'experiments', 'filing-1107', 'results', 'filing-consolidated', 'memory');
  assert.deepEqual(readdirSync(memory).sort(), ['1', '2']);
  assert.ok(existsSync(join(memory, '1', 'room-07.md')));
  assert.equal(readdirSync(join(memory, '2')).length, 25);
});

for (const agent of AGENTS) conformance(agent, make);
