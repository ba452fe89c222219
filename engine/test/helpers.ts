import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBenchmark, type Benchmark } from '../../scenario/src';
import { ChatbotAdapter } from '../src/adapters/chatbot';
import { createAdapter } from '../src/adapters/registry';
import { Clock } from '../src/clock';
import { createModel } from '../src/models/resolve';
import { runBenchmark, type RunOptions } from '../src/run/runner';
import type { RunState } from '../src/state/runState';
import type { ChatModel, ChatRequest, ChatResponse } from '../src/models/chat';
import { FileRunStore, type RunStore } from '../src/run/store';
import { startStandIn, type StandInOptions } from '../src/standin/server';
import { readBenchmarkFolder } from '../src/workspace/folders';

export const ROOT = join(__dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');
export const STARTER = join(ROOT, 'benchmarks', 'starter');
/** Fixed runs for the report tests (scripts/report-fixtures.ts): the multiday benchmark and runs/<id>/state.json. */
export const REPORTS = join(__dirname, 'fixtures', 'reports');

/** A fixed run of the report fixtures (`runs/<id>/state.json`), loaded afresh. */
export const reportRun = (id: string): RunState => new FileRunStore(join(REPORTS, 'runs', id)).load()!;

/** The report fixtures' multiday benchmark, loaded afresh. */
export const reportMultiday = (): Benchmark => loadBenchmark(readBenchmarkFolder(join(REPORTS, 'benchmarks', 'multiday')));

/** The multiday benchmark with check 15.4 asking about templated dates, and chatbot-2's state with its own expansion of one. */
export function templatedRun(): { benchmark: Benchmark; state: RunState } {
  const benchmark = reportMultiday();
  const check = benchmark.checks.find((c) => c.check.id === '15.4')!.check;
  check.question = 'What did I plan for {{FUTURE:3:weeks}}?';
  check.answer = 'Hiking on {{FUTURE:3:weeks}}, for a week, back by {{PAST:2:days}}.';
  const state = reportRun('chatbot-2');
  state.templates = { '{{FUTURE:3:weeks}}': '22 March 2026' };
  state.startTime = '2026-03-01 09:00';
  return { benchmark, state };
}

export function starter(): Benchmark {
  return loadBenchmark(readBenchmarkFolder(STARTER));
}

export function benchmarkFrom(files: Record<string, string>, name = 'inline'): Benchmark {
  const all = new Map(Object.entries(files));
  if (!all.has('instructions.md')) all.set('instructions.md', 'You are Sam.');
  return loadBenchmark({ name, files: all });
}

/** The built CLI run in `cwd`, its exit code and both streams: what a user's shell sees. */
export function mmb(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `mmb` without blocking this process: for runs that call a stand-in served from it, or several runs at once. */
export function mmbAsync(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** One pattern from literal pieces, so that an expected line longer than a source line stays one regular expression. */
export function joinedPattern(pieces: RegExp[], flags = ''): RegExp {
  return new RegExp(pieces.map((piece) => piece.source).join(''), flags);
}

export function tempDir(prefix = 'mmb-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A workspace folder with config.jsonc and copies of benchmarks, for the CLI. */
export function workspace(config: unknown, benchmarks: Record<string, string> = { starter: STARTER }): string {
  const dir = tempDir('mmb-ws-');
  writeFileSync(join(dir, 'config.jsonc'), JSON.stringify(config, null, 2));
  for (const [name, from] of Object.entries(benchmarks)) cpSync(from, join(dir, 'benchmarks', name), { recursive: true });
  return dir;
}

export interface StandInRun {
  state: RunState;
  dir: string;
}

/**
 * A whole run of `benchmark` against the chatbot (or the registered `agent`, with its run keys
 * `options` and memory snapshots in `memory/`), both on a fresh stand-in over real HTTP.
 */
export async function runOnStandIn(
  benchmark: Benchmark,
  o: {
    ignoreSessionBreak?: boolean;
    dir?: string;
    standIn?: StandInOptions;
    store?: RunStore;
    extra?: Partial<RunOptions>;
    agent?: string;
    options?: Record<string, unknown>;
  } = {},
): Promise<StandInRun> {
  const standIn = await startStandIn(o.standIn);
  const dir = o.dir ?? tempDir('mmb-run-');
  const models = { standInUrl: standIn.url, env: {}, timeoutMs: 400, backoffBaseMs: 5 };
  const clock = new Clock();
  const adapter = o.agent
    ? createAdapter(o.agent, { runDir: dir, options: o.options ?? {}, models, clock })
    : new ChatbotAdapter(join(dir, 'agent'), createModel({ model: 'stand-in' }, models, 'agent', true));
  try {
    const state = await runBenchmark({
      name: 'test-run',
      benchmark,
      agent: o.agent ?? 'chatbot',
      persona: createModel({ model: 'stand-in' }, models, 'persona'),
      adapter,
      store: o.store ?? new FileRunStore(dir),
      clock,
      ignoreSessionBreak: o.ignoreSessionBreak ?? false,
      ...(o.agent ? { snapshotDir: join(dir, 'memory') } : {}),
      ...o.extra,
    });
    return { state, dir };
  } finally {
    // A process agent's program ends with the run, as `mmb run` ends it.
    await adapter.close?.();
    await standIn.close();
  }
}

/** The standing grade of each check. */
export function grades(state: RunState): Record<string, number> {
  return Object.fromEntries(Object.entries(state.grades).map(([id, g]) => [id, g.at(-1)?.effective ?? -1]));
}

export function average(state: RunState): number {
  const g = Object.values(grades(state));
  return g.reduce((a, b) => a + b, 0) / Math.max(1, g.length);
}

/** A persona in memory that makes the given tool calls in order, then says it is done. */
export class ScriptedPersona implements ChatModel {
  readonly name = 'scripted';
  results: string[] = [];
  constructor(private readonly calls: { name: string; args: Record<string, unknown> }[]) {}
  async complete(request: ChatRequest): Promise<ChatResponse> {
    const last = request.messages.at(-1);
    if (last?.role === 'tool') this.results.push(last.content);
    const next = this.calls.shift();
    if (!next) return { message: { content: 'done' }, usage: { promptTokens: 0, completionTokens: 0 } };
    return {
      message: {
        content: null,
        tool_calls: [
          { id: `c${this.calls.length}`, type: 'function', function: { name: next.name, arguments: JSON.stringify(next.args) } },
        ],
      },
      usage: { promptTokens: 0, completionTokens: 0 },
    };
  }
}

/** Two days on virtual time with the time gate: a good-night at 21:00, a run the next morning at 08:00. */
export const DAYS = {
  'benchmark.json': '{ "chapters": ["days.md"], "time_master": true, "time_gate": true, "start_time": "2026-03-01 20:00" }',
  'days.md': '## Day 1\n2026-03-01, Sun\n21:00 — say good night.\n\n## Day 2\n2026-03-02, Mon\n08:00 — morning run.\n',
};
