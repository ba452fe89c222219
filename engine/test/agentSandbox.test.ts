/**
 * The persona's key stays the engine's. Through the built CLI, a process agent looks for the persona's canary key
 * where a program with the user's rights can: `/proc/<its parent>/environ` (the engine's environment) and every
 * `/proc/<pid>/environ`. In the bubblewrap sandbox (`agent_sandbox`, on by default where bwrap works) it finds
 * nothing; with `"agent_sandbox": false` it finds the key, which is what the threat model of docs/agent-protocol.md
 * says. An agent whose model names the persona's own variable is handed the key, and `mmb run` says so first; the
 * Hermes and OpenClaw gateways get the engine's environment without the persona's key.
 */
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { probeSandbox } from '../src/adapters/agentSandbox';
import { HermesAdapter } from '../src/adapters/hermes/adapter';
import { hermesOptions } from '../src/adapters/hermes/options';
import { startGatewayProcess } from '../src/adapters/openclawGateway';
import { startStandIn, type StandIn } from '../src/standin/server';
import { mmbAsync, ROOT, tempDir, workspace } from './helpers';

const PERSONA_KEY = 'persona-canary-4d8e2f6a1c9b';
const AGENT_KEY = 'agent-canary-7c1e5a9d3f2b';
const KEYS = { MMB_TEST_PERSONA_KEY: PERSONA_KEY, MMB_TEST_AGENT_KEY: AGENT_KEY };

/**
 * The example agent behind a search of /proc for the persona's key. It writes down where it found the key, never
 * the key itself, in its own folder (the one it may write in the sandbox), again and again: the run's reset empties it.
 */
const SEEKING_AGENT = `import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
const key = ${JSON.stringify(PERSONA_KEY)};
const holds = (pid) => { try { return readFileSync('/proc/' + pid + '/environ', 'latin1').includes(key); } catch { return false; } };
const found = {
  parent: holds(process.ppid),
  anyProcess: readdirSync('/proc').filter((name) => /^\\d+$/.test(name)).filter(holds).length,
  asModelKey: process.env.MMB_MODEL_API_KEY === key,
  processesInView: readdirSync('/proc').filter((name) => /^\\d+$/.test(name)).length,
};
setInterval(() => writeFileSync(process.env.MMB_AGENT_HOME + '/found.json', JSON.stringify(found)), 100).unref();
await import('./my-agent.mjs');
`;

interface Found {
  parent: boolean;
  anyProcess: number;
  asModelKey: boolean;
  processesInView: number;
}

const mmbWithKeys = (args: string[], cwd: string, env: NodeJS.ProcessEnv = KEYS) => mmbAsync(args, cwd, env);

const probe = probeSandbox();
const needsSandbox = probe.works ? {} : { skip: `no sandbox here: ${probe.reason}` };
const linuxOnly = process.platform === 'linux' ? {} : { skip: 'reads /proc' };

describe("a process agent looks for the persona's key in /proc", () => {
  let standIn: StandIn;
  before(async () => {
    standIn = await startStandIn();
  });
  after(async () => {
    await standIn.close();
  });

  async function seek(
    run: Record<string, unknown>,
    env: NodeJS.ProcessEnv = KEYS,
  ): Promise<{ found: Found; stdout: string; stderr: string }> {
    const model = (name: string, keyEnv: string) => ({ model: name, base_url: standIn.url, api_key_env: keyEnv });
    const dir = workspace({
      persona: model('persona-model', 'MMB_TEST_PERSONA_KEY'),
      runs: {
        seek: {
          benchmark: 'starter',
          agent: 'process',
          command: [process.execPath, 'agents/seeking-agent.mjs'],
          agent_model: model('agent-model', 'MMB_TEST_AGENT_KEY'),
          ...run,
        },
      },
    });
    mkdirSync(join(dir, 'agents'));
    copyFileSync(join(ROOT, 'examples', 'agents', 'my-agent.mjs'), join(dir, 'agents', 'my-agent.mjs'));
    writeFileSync(join(dir, 'agents', 'seeking-agent.mjs'), SEEKING_AGENT);
    const result = await mmbWithKeys(['run', 'seek'], dir, env);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(
      readFileSync(join(dir, 'results', 'seek', 'agent', 'state.json'), 'utf8'),
      /"replies":\[\{/,
      'the agent answered with its model',
    );
    const foundFile = join(dir, 'results', 'seek', 'agent', 'found.json');
    assert.ok(existsSync(foundFile), 'the agent wrote down what it found');
    return { found: JSON.parse(readFileSync(foundFile, 'utf8')) as Found, ...result };
  }

  test(
    "in the sandbox: neither the engine's environment nor any other process's holds it in view",
    { timeout: 120_000, ...linuxOnly, ...needsSandbox },
    async () => {
      const { found, stderr } = await seek({ agent_sandbox: true });
      assert.equal(found.parent, false, "/proc/<parent>/environ: the parent in view is the sandbox's own");
      assert.equal(found.anyProcess, 0, 'no process in view holds the key');
      assert.ok(found.processesInView <= 5, `the engine's processes are out of view (${found.processesInView} in view)`);
      assert.equal(found.asModelKey, false);
      assert.ok(!/notice/.test(stderr), stderr);
    },
  );

  test(
    'with "agent_sandbox": false the program reads it from the engine\'s environment, as the threat model says',
    { timeout: 120_000, ...linuxOnly },
    async () => {
      const { found } = await seek({ agent_sandbox: false });
      assert.equal(found.parent, true, "/proc/<parent>/environ is the engine's, and holds the key");
      assert.ok(found.anyProcess >= 1);
      assert.equal(found.asModelKey, false, 'it is never handed the key, only able to read it');
    },
  );

  test(
    "an agent model that names the persona's variable is handed her key, and the first line mmb run prints says so",
    { timeout: 120_000 },
    async () => {
      const model = { model: 'agent-model', base_url: standIn.url, api_key_env: 'MMB_TEST_PERSONA_KEY' };
      const { found, stdout, stderr } = await seek({ agent_model: model, agent_sandbox: probe.works });
      assert.equal(found.asModelKey, true, 'the program gets her key as MMB_MODEL_API_KEY');
      const first = stderr.split('\n')[0] ?? '';
      assert.equal(
        first,
        'mmb: notice: run "seek": its agent is handed the persona\'s key: `agent_model.api_key_env` names MMB_TEST_PERSONA_KEY, ' +
          "the persona's own variable (give the agent a key of its own to keep them apart).",
      );
      assert.ok(!stdout.includes(PERSONA_KEY) && !stderr.includes(PERSONA_KEY), 'the notice names the variable, never the key');
    },
  );

  test(
    "an agent model that names another variable holding the persona's key: the first line says so too, naming both",
    { timeout: 120_000 },
    async () => {
      const model = { model: 'agent-model', base_url: standIn.url, api_key_env: 'MMB_TEST_ALIAS_KEY' };
      const { found, stdout, stderr } = await seek(
        { agent_model: model, agent_sandbox: probe.works },
        { ...KEYS, MMB_TEST_ALIAS_KEY: PERSONA_KEY },
      );
      assert.equal(found.asModelKey, true, 'the program gets her key under the other name');
      assert.equal(
        stderr.split('\n')[0],
        'mmb: notice: run "seek": its agent is handed the persona\'s key: `agent_model.api_key_env` names MMB_TEST_ALIAS_KEY, ' +
          "which holds the same key as the persona's MMB_TEST_PERSONA_KEY (give the agent a key of its own to keep them apart).",
      );
      assert.ok(!stdout.includes(PERSONA_KEY) && !stderr.includes(PERSONA_KEY), 'the notice names the variables, never the key');
    },
  );
});

describe("the gateways of Hermes and OpenClaw get the engine's environment without the persona's key", () => {
  const names = { persona: 'MMB_TEST_GW_PERSONA_KEY', alias: 'MMB_TEST_GW_ALIAS', other: 'MMB_TEST_GW_OTHER' };
  const gatewayKey = 'gw-persona-canary-5e7a9c1b3d';
  before(() => {
    // The gateways are started from the engine's own environment: the canaries go there.
    process.env[names.persona] = gatewayKey;
    process.env[names.alias] = gatewayKey;
    process.env[names.other] = 'still-here';
  });
  after(() => {
    for (const name of Object.values(names)) delete process.env[name];
  });

  /** A gateway that writes down its environment and exits. */
  function fakeGateway(dir: string): string {
    const bin = join(dir, 'fake-gateway');
    writeFileSync(bin, '#!/bin/sh\nenv\nexit 3\n', { mode: 0o755 });
    return bin;
  }

  function assertWithheld(log: string): void {
    assert.match(log, /^MMB_TEST_GW_OTHER=still-here$/m, "the rest of the engine's environment is there");
    assert.ok(!log.includes(gatewayKey), "neither the persona's variable nor another holding her key");
  }

  test('Hermes', async () => {
    const dir = tempDir();
    const options = hermesOptions({ hermes_bin: fakeGateway(dir) }, {}, { model: 'stand-in' }, 'http://127.0.0.1:9/v1', names.persona);
    await assert.rejects(new HermesAdapter(join(dir, 'run'), options).createSession('run'), /exited \(code 3\)/);
    assertWithheld(readFileSync(join(dir, 'run', 'gateway.log'), 'utf8'));
  });

  test('OpenClaw', async () => {
    const dir = tempDir();
    const logFile = join(dir, 'gateway.log');
    const child = startGatewayProcess({ bin: fakeGateway(dir), port: 9, env: {}, logFile, personaKeyEnv: names.persona });
    await new Promise((resolve) => child.once('exit', resolve));
    assertWithheld(readFileSync(logFile, 'utf8'));
  });
});

describe('where bwrap does not work (a container that denies namespaces, here a bwrap that says so)', () => {
  function refusingWorkspace(run: Record<string, unknown>): { dir: string; env: NodeJS.ProcessEnv } {
    const dir = workspace({
      runs: { plain: { benchmark: 'starter', agent: 'process', command: [process.execPath, 'agents/my-agent.mjs'], ...run } },
    });
    mkdirSync(join(dir, 'agents'));
    copyFileSync(join(ROOT, 'examples', 'agents', 'my-agent.mjs'), join(dir, 'agents', 'my-agent.mjs'));
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'bwrap'), '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n', { mode: 0o755 });
    return { dir, env: { PATH: bin } };
  }

  test('by default the program runs without it, and the first line says so and why', { timeout: 60_000, ...linuxOnly }, async () => {
    const { dir, env } = refusingWorkspace({});
    const result = await mmbWithKeys(['run', 'plain'], dir, env);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(
      result.stderr.split('\n')[0],
      'mmb: notice: run "plain": its program runs without a sandbox (bwrap failed here (exit 1): bwrap: No permissions ' +
        "to create new namespace): it can read the engine's environment (docs/agent-protocol.md).",
    );
  });

  test('"agent_sandbox": true is refused in one line, before the run starts', { timeout: 60_000, ...linuxOnly }, async () => {
    const { dir, env } = refusingWorkspace({ agent_sandbox: true });
    const result = await mmbWithKeys(['run', 'plain'], dir, env);
    assert.equal(result.code, 2, result.stdout + result.stderr);
    assert.match(
      result.stderr,
      /^mmb: run "plain": the run key `agent_sandbox` is true, but the sandbox does not work here: bwrap failed here/m,
    );
    assert.ok(!result.stderr.includes('    at '), 'no stack trace');
    assert.ok(!existsSync(join(dir, 'results', 'plain', 'agent')), 'the program never started');
  });
});
