/** An API key in the environment appears nowhere under results/, even when the provider echoes it. */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { startStandIn } from '../src/standin/server';
import { CLI, workspace } from './helpers';

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

test('a canary key reaches the provider but no file of the run', async () => {
  const canary = 'sk-canary-7f3e9a1c55d04b2e';
  const provider = await startStandIn({ faults: { rate: 0.2, kinds: ['500'], seed: 3 }, echoAuthorization: true });
  try {
    const dir = workspace({
      persona: { model: 'canary-model', base_url: provider.url, api_key_env: 'MMB_TEST_CANARY_KEY' },
      runs: { s1: { benchmark: 'starter', agent: 'chatbot', agent_model: { model: 'canary-model', base_url: provider.url, api_key_env: 'MMB_TEST_CANARY_KEY' } } },
    });
    // The provider lives in this process, so the CLI must run beside it, not block it.
    const r = await run(['run', 's1'], dir, { ...process.env, MMB_TEST_CANARY_KEY: canary });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.ok(provider.faults > 0, 'the provider did echo the key in some errors');
    assert.ok(!r.stdout.includes(canary) && !r.stderr.includes(canary));
    const files = filesUnder(join(dir, 'results'));
    assert.ok(files.some((f) => f.endsWith('state.json')) && files.some((f) => f.endsWith('report.md')));
    for (const f of [...files, join(dir, 'config.jsonc')]) assert.ok(!readFileSync(f, 'utf8').includes(canary), `${f} holds the key`);
    assert.ok(files.some((f) => readFileSync(f, 'utf8').includes('Internal error for Bearer ***')), 'the echoed key was blanked out');
  } finally {
    await provider.close();
  }
});

test('the notebook agent keeps the key out of its notes, their git history, its journal and its transcripts', async () => {
  const canary = 'sk-canary-notebook-40c2d9e1';
  const provider = await startStandIn({ faults: { rate: 0.2, kinds: ['500'], seed: 5 }, echoAuthorization: true });
  try {
    const model = { model: 'canary-model', base_url: provider.url, api_key_env: 'MMB_TEST_CANARY_KEY' };
    const dir = workspace({ persona: { model: 'stand-in' }, runs: { n1: { benchmark: 'starter', agent: 'notebook', agent_model: model } } });
    const r = await run(['run', 'n1'], dir, { ...process.env, MMB_TEST_CANARY_KEY: canary, MMB_BACKOFF_BASE_MS: '5' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.ok(provider.faults > 0);
    const agent = join(dir, 'results', 'n1', 'agent');
    assert.match(readFileSync(join(agent, 'memory', 'notes.md'), 'utf8'), /Leeds Lift/, 'the notebook did work through the provider');
    for (const f of filesUnder(join(dir, 'results'))) assert.ok(!readFileSync(f, 'utf8').includes(canary), `${f} holds the key`);
    // Git compresses its objects: read the history as text.
    const history = execFileSync('git', ['--git-dir', join(agent, 'memory.git'), 'log', '-p', '--all'], { encoding: 'utf8' });
    assert.match(history, /Leeds Lift/);
    assert.ok(!history.includes(canary));
  } finally {
    await provider.close();
  }
});
