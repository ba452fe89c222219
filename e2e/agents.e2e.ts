/**
 * Two real third-party agents, installed from the registries by scripts/e2e-setup.sh into
 * `$MMB_E2E_TOOLS`, play the starter benchmark end to end with the stand-in as their model, and
 * pass `mmb conformance`: nanobot (`nanobot-ai` from PyPI, `nanobot serve`) through openai-http,
 * and Simon Willison's `llm` CLI (PyPI) through the process adapter and the bridge in
 * examples/agents/bridges/llm_cli.py.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startStandIn, type StandIn } from '../engine/src/standin/server';
import { ROOT } from './codeServer';

const TOOLS = process.env.MMB_E2E_TOOLS ?? join(ROOT, '.e2e', 'tools');
const CLI = join(ROOT, 'dist', 'cli.js');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function mmb(args: string[], cwd: string): Promise<{ code: number | null; text: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd });
    let text = '';
    child.stdout.on('data', (d: Buffer) => {
      text += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      text += d.toString();
    });
    child.on('close', (code) => resolve({ code, text }));
  });
}

function workspace(runs: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mmb-agents-'));
  cpSync(join(ROOT, 'benchmarks', 'starter'), join(dir, 'benchmarks', 'starter'), { recursive: true });
  cpSync(join(ROOT, 'examples', 'agents', 'bridges'), join(dir, 'bridges'), { recursive: true });
  writeFileSync(join(dir, 'config.jsonc'), JSON.stringify({ persona: { model: 'stand-in' }, runs }));
  return dir;
}

function agentTurns(dir: string, run: string): number {
  const state = JSON.parse(readFileSync(join(dir, 'results', run, 'state.json'), 'utf8')) as { transcript: { from: string }[] };
  return state.transcript.filter((e) => e.from === 'agent').length;
}

let standIn: StandIn;
let nanobot: ChildProcess | undefined;
let nanobotUrl = '';

/** `nanobot onboard` into a scratch home, pointed at the stand-in, without heartbeat, dreams or tools that reach out. */
async function startNanobot(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'mmb-nanobot-'));
  const bin = join(TOOLS, 'nanobot', 'bin', 'nanobot');
  const env = { ...process.env, HOME: home };
  const config = join(home, 'config.json');
  spawnSync(bin, ['onboard', '-c', config, '-w', join(home, 'workspace')], { env, stdio: 'ignore' });
  const settings = JSON.parse(readFileSync(config, 'utf8'));
  const port = await freePort();
  Object.assign(settings.agents.defaults, {
    model: 'stand-in',
    provider: 'custom',
    idleCompactAfterMinutes: 0,
    dream: { ...settings.agents.defaults.dream, enabled: false },
  });
  Object.assign(settings.providers.custom, { apiKey: 'stand-in', apiBase: standIn.url });
  Object.assign(settings.api, { host: '127.0.0.1', port });
  settings.gateway.heartbeat.enabled = false;
  for (const tool of ['web', 'exec', 'cliApps']) settings.tools[tool].enable = false;
  settings.tools.maxSessionMessagesPerMinute = 1000;
  writeFileSync(config, JSON.stringify(settings));
  nanobot = spawn(bin, ['serve', '-c', config, '-w', join(home, 'workspace')], { env, detached: true, stdio: 'ignore' });
  nanobotUrl = `http://127.0.0.1:${port}/v1`;
  for (let tries = 0; tries < 120; tries++) {
    const up = await fetch(`${nanobotUrl}/models`).then(
      () => true,
      () => false,
    );
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('nanobot serve did not listen within 60 s');
}

before(async () => {
  standIn = await startStandIn();
  await startNanobot();
});
after(async () => {
  // Its process group: `nanobot serve` may leave workers behind a plain kill.
  if (nanobot?.pid) process.kill(-nanobot.pid, 'SIGTERM');
  await standIn.close();
});

test('nanobot through openai-http: a whole starter run, and mmb conformance', { timeout: 900_000 }, async () => {
  const dir = workspace({
    nb: {
      benchmark: 'starter',
      agent: 'openai-http',
      http_base_url: nanobotUrl,
      http_model: 'stand-in',
      http_conversation: 'body',
      http_session_field: 'session_id',
    },
  });
  const conformance = await mmb(['conformance', 'nb', '--memory', 'context-only'], dir);
  assert.equal(conformance.code, 0, conformance.text);
  const run = await mmb(['run'], dir);
  assert.equal(run.code, 0, run.text);
  assert.match(run.text, /^nb +finished +average [\d.]+\/10 +coverage 5\/5/m);
  assert.ok(agentTurns(dir, 'nb') >= 10, 'nanobot answered every turn');
});

test('llm through the process adapter: a whole starter run, and mmb conformance', { timeout: 900_000 }, async () => {
  const dir = workspace({
    llm: { benchmark: 'starter', agent: 'process', command: ['python3', 'bridges/llm_cli.py', join(TOOLS, 'llm', 'bin', 'llm')] },
  });
  const conformance = await mmb(['conformance', 'llm', '--memory', 'context-only'], dir);
  assert.equal(conformance.code, 0, conformance.text);
  assert.match(conformance.text, /pass {2}nothing is sent twice/);
  const run = await mmb(['run'], dir);
  assert.equal(run.code, 0, run.text);
  assert.match(run.text, /^llm +finished +average [\d.]+\/10 +coverage 5\/5/m);
  assert.ok(agentTurns(dir, 'llm') >= 10, 'llm answered every turn');
});
