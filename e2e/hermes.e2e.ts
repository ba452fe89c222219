/**
 * The real Hermes (hermes-agent 0.19.0, in the venv scripts/e2e-setup.sh makes under
 * .e2e/tools/hermes) as the agent under test, its gateway started by the adapter with the
 * stand-in as its model: the conformance suite, and a whole starter run in which Hermes saves
 * what it is told with its own `memory` tool and compacts its context for real (the stand-in
 * reports a prompt over Hermes's 64,000-token trigger once the conversation is long enough), and
 * Max in one session with the seed's compression keys, to show where the cuts land.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadBenchmark } from '../scenario/src';
import { AGENTS, createAdapter } from '../engine/src/adapters/registry';
import { Clock } from '../engine/src/clock';
import { conversation } from '../engine/src/report/conversation';
import type { RunState } from '../engine/src/state/runState';
import { startStandIn, type StandIn } from '../engine/src/standin/server';
import { readBenchmarkFolder } from '../engine/src/workspace/folders';
import { conformance } from '../engine/test/conformanceSuite';
import { checkCause } from '../extension/src/checkCause';
import { ROOT } from './codeServer';

const TOOLS = process.env.MMB_E2E_TOOLS ?? join(ROOT, '.e2e', 'tools');
const HERMES_BIN = join(TOOLS, 'hermes', 'bin', 'hermes');

function cli(dir: string, args: string[]): Promise<{ code: number | null; text: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli.js'), ...args], { cwd: dir });
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

test(
  'a starter run through the real Hermes: memory written by its memory tool and found by What caught it, a real compaction in its phase',
  { timeout: 600_000 },
  async () => {
    // Past 20 messages (some five statements, each a memory call) the agent's model reports 70,000 prompt tokens.
    const model = await startStandIn({ promptTokens: { fromMessages: 20, atLeast: 70_000 } });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'mmb-hermes-'));
      cpSync(join(ROOT, 'benchmarks', 'starter'), join(dir, 'benchmarks', 'starter'), { recursive: true });
      writeFileSync(
        join(dir, 'config.jsonc'),
        JSON.stringify({
          persona: { model: 'stand-in' },
          runs: {
            hm: {
              benchmark: 'starter',
              agent: 'hermes',
              hermes_bin: HERMES_BIN,
              agent_model: { model: 'stand-in-long', base_url: model.url },
            },
          },
        }),
      );
      const out = await cli(dir, ['run']);
      assert.equal(out.code, 0, out.text);
      assert.match(out.text, /^hm +finished +average [\d.]+\/10 +coverage 5\/5/m);
      const run = join(dir, 'results', 'hm');
      const state = JSON.parse(readFileSync(join(run, 'state.json'), 'utf8')) as RunState;
      assert.ok(state.transcript.filter((e) => e.from === 'agent').length >= 10, 'Hermes answered every turn');
      assert.equal(state.sessionSwitches.filter((s) => !s.ignored).length, 1, 'the exam ran in a new Hermes session');

      const compactions = state.agentStatus?.compactions ?? [];
      assert.ok(compactions.length >= 1, 'Hermes compressed its context');
      assert.ok(
        compactions.every((c) => c.tokensBefore === 70_000 && (c.tokensAfter ?? 70_000) < 70_000),
        JSON.stringify(compactions),
      );
      const benchmark = loadBenchmark(readBenchmarkFolder(join(dir, 'benchmarks', 'starter')));
      const chapters = conversation(state, benchmark, 'benchmarks/starter');
      const where = chapters.flatMap((chapter) => {
        let phase = '';
        return chapter.items.flatMap((item) => {
          if (item.kind === 'marker' && item.marker === 'phase') phase = item.text;
          return item.kind === 'marker' && item.marker === 'agent-compaction' ? [{ chapter: chapter.chapter, phase, text: item.text }] : [];
        });
      });
      assert.ok(
        where.length >= 1 && where.every((w) => w.phase.startsWith('Phase ') && w.chapter !== 'chapter3.md'),
        JSON.stringify(where),
      );
      assert.match(where[0]?.text ?? '', /The agent compacted its context: 70,000 → [\d,]+ tokens/);

      const snapshots = readdirSync(join(run, 'memory'))
        .filter((d) => /^\d+$/.test(d))
        .map(Number)
        .sort((a, b) => b - a);
      const latest = join(run, 'memory', String(snapshots[0]));
      const memory = readFileSync(join(latest, 'MEMORY.md'), 'utf8');
      assert.match(memory, /Leeds Lift/);
      assert.match(memory, /\n§\n/, "entries in Hermes's own format");
      const cause = checkCause(benchmark, '3.2', latest);
      assert.ok(
        cause.memory.some((m) => m.kind === 'expected' && m.file === 'MEMORY.md' && m.text.includes('Leeds Lift')),
        JSON.stringify(cause),
      );
      assert.ok(
        cause.memory.some((m) => m.kind === 'stale' && m.file === 'MEMORY.md' && m.value === '380'),
        'the first quote is still in its memory beside the new one',
      );
      assert.ok(existsSync(join(run, 'agent', 'home', 'logs', 'agent.log')), "the run's own HERMES_HOME is under results/<id>/agent/");
    } finally {
      await model.close();
    }
  },
);

test(
  "Max with ignore_session_break and the seed's compression keys: where Hermes's cut lands, and its memory full",
  { timeout: 900_000 },
  async () => {
    // The stand-in's own prompts peak near 49,000 tokens on Max, under Hermes's trigger (the seed's
    // threshold 0.125 is raised to 0.75 and floored at 64,000): past 300 messages it reports 70,000.
    const model = await startStandIn({ promptTokens: { fromMessages: 300, atLeast: 70_000 } });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'mmb-hermes-max-'));
      cpSync(join(ROOT, 'benchmarks', 'max'), join(dir, 'benchmarks', 'max'), { recursive: true });
      writeFileSync(
        join(dir, 'config.jsonc'),
        JSON.stringify({
          persona: { model: 'stand-in' },
          runs: {
            'hermes-compact-1': {
              benchmark: 'max',
              agent: 'hermes',
              hermes_compression_threshold: 0.125,
              ignore_session_break: true,
              hermes_bin: HERMES_BIN,
              agent_model: { model: 'stand-in-long', base_url: model.url },
            },
          },
        }),
      );
      const out = await cli(dir, ['run']);
      assert.equal(out.code, 0, out.text);
      assert.match(out.text, /^hermes-compact-1 +finished +average [\d.]+\/10 +coverage 36\/36/m);
      const run = join(dir, 'results', 'hermes-compact-1');
      const state = JSON.parse(readFileSync(join(run, 'state.json'), 'utf8')) as RunState;
      assert.deepEqual(
        state.sessionSwitches.map((s) => s.ignored),
        [true],
        'the exam stays in the same Hermes session',
      );
      const benchmark = loadBenchmark(readBenchmarkFolder(join(dir, 'benchmarks', 'max')));
      const cuts = conversation(state, benchmark, 'benchmarks/max').flatMap((chapter) =>
        chapter.items.filter((item) => item.kind === 'marker' && item.marker === 'agent-compaction').map(() => chapter.chapter),
      );
      assert.ok(
        cuts.length >= 1 && cuts.every((chapter) => Number(/\d+/.exec(chapter)?.[0]) >= 10),
        `the cuts land late in Max, once 300 messages are in context: ${cuts.join(', ')}`,
      );
      assert.match(readFileSync(join(run, 'agent', 'home', 'config.yaml'), 'utf8'), /compression:\n {2}threshold: 0\.125\n/);
      const memory = readFileSync(join(run, 'agent', 'home', 'memories', 'MEMORY.md'), 'utf8');
      assert.ok(
        [...memory].length <= 2200 && [...memory].length > 2000,
        `Hermes's memory is full at its 2,200 characters: ${[...memory].length}`,
      );
    } finally {
      await model.close();
    }
  },
);

describe('the real Hermes passes the adapter conformance suite', () => {
  let standIn: StandIn;
  before(async () => {
    standIn = await startStandIn();
  });
  after(async () => {
    await standIn.close();
  });
  conformance(
    { name: 'hermes', ...AGENTS.hermes!.conformance },
    (name, runDir) =>
      createAdapter(name, {
        runDir,
        clock: new Clock(),
        models: { standInUrl: standIn.url, env: {} },
        options: { hermes_bin: HERMES_BIN },
      }),
    300_000,
  );
});
