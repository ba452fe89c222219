/**
 * Every adapter that runs here passes the conformance suite (conformanceSuite.ts), set up as its
 * registry entry says; the real OpenClaw passes it in e2e/openclaw.e2e.ts. Adding an agent adds
 * nothing here: its entry's `conformance` is the whole setup.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { AGENTS, MODULE_AGENT, createAdapter, type AgentEntry, type ConformanceSetup, type ProtocolServer } from '../src/adapters/registry';
import type { AgentAdapter } from '../src/protocol/agent';
import { Clock } from '../src/clock';
import { startStandIn, type StandIn } from '../src/standin/server';
import { runFilingExperiment } from '../src/experiments/filingRun';
import { startFakeHermes, type FakeHermes } from './hermesServer';
import { startFakeHttpAgent, type FakeHttpAgent } from './openaiHttpServer';
import { conformance } from './conformanceSuite';
import { ROOT, tempDir } from './helpers';

const HERMES_KEY = 'hermes-test-key-123';
const HTTP_KEY = 'http-agent-key-456';
let standIn: StandIn;
let hermes: FakeHermes;
let httpAgent: FakeHttpAgent;
before(async () => {
  standIn = await startStandIn();
  hermes = await startFakeHermes(HERMES_KEY, tempDir('mmb-hermes-home-'));
  httpAgent = await startFakeHttpAgent(HTTP_KEY);
});
after(async () => {
  await standIn.close();
  await hermes.close();
  await httpAgent.close();
});

/** The fake servers an entry may ask for, by kind. */
const servers: Record<NonNullable<ConformanceSetup['server']>['kind'], () => ProtocolServer> = {
  hermes: () => ({ url: hermes.url, home: hermes.home, apiKey: HERMES_KEY }),
  'openai-http': () => ({ url: httpAgent.url, home: tempDir('mmb-http-home-'), apiKey: HTTP_KEY }),
};

/** The adapter as a run makes it, in the repository as the workspace (the fixtures' paths are relative to it). */
function make(setup: ConformanceSetup, name: string, runDir: string, clock: Clock): AgentAdapter {
  const { options, env } = setup.server
    ? setup.server.setup(servers[setup.server.kind]())
    : { options: setup.fixture?.options ?? {}, env: { PATH: process.env.PATH ?? '' } };
  return createAdapter(name, { runDir, options, models: { standInUrl: standIn.url, env }, clock, workspace: ROOT });
}

function suiteOf(name: string, entry: AgentEntry, label = name): void {
  const setup = entry.conformance;
  const clock = new Clock();
  // A program claims virtual time in its handshake; the examples do not, and live on the wall clock.
  const virtualTime = entry.clock === 'virtual' && name !== 'process';
  conformance({ name, ...setup, clock, virtualTime, label }, (agent, runDir) => make(setup, agent, runDir, clock));
}

test('every registered agent has a conformance setup, and those not run here name the test that runs them', () => {
  for (const [name, entry] of Object.entries(AGENTS)) {
    const where = entry.conformance.runsIn;
    assert.ok(existsSync(join(__dirname, '..', '..', where)), `${name}: ${where} exists`);
  }
  assert.equal(AGENTS.openclaw?.conformance.runsIn, 'e2e/openclaw.e2e.ts');
});

test("memory snapshots: the agent's memory folder is copied before each session switch and at the end", async () => {
  const root = tempDir('mmb-snap-');
  await runFilingExperiment(root, 1107);
  const memory = join(root, 'results', 'experiments', 'filing-1107', 'results', 'filing-consolidated', 'memory');
  assert.deepEqual(readdirSync(memory).sort(), ['1', '2']);
  assert.ok(existsSync(join(memory, '1', 'room-07.md')));
  assert.equal(readdirSync(join(memory, '2')).length, 25);
});

for (const [name, entry] of Object.entries(AGENTS)) {
  if (entry.conformance.runsIn === 'engine/test/conformance.test.ts') suiteOf(name, entry);
}
// The module example, as `"agent": "./examples/agents/my-agent-module.mjs"` names it.
suiteOf(MODULE_AGENT.conformance.fixture?.agent ?? '', MODULE_AGENT);
// The Python example speaks the same protocol as the Node one the process entry plays.
suiteOf(
  'process',
  {
    ...AGENTS.process!,
    conformance: { ...AGENTS.process!.conformance, fixture: { options: { command: ['python3', 'examples/agents/my_agent.py'] } } },
  },
  'process (the Python example)',
);
