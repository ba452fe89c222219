/** `mmb run`, `mmb demo` and `mmb report`: runs from config.jsonc, and what they scored. */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseConfig, type Config, type RunConfig } from '../../../scenario/src';
import { ConfigError } from '../models/resolve';
import { reportEntry } from '../report/markdown';
import { summarize, type Summary } from '../report/summary';
import { findBenchmarkFolders, UsageError } from '../workspace/folders';
import { launchRuns, resultsDir, type RunOutcome } from '../workspace/launch';
import { loadRun, runBenchmark } from '../workspace/results';
import { Progress } from './progress';

export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  tty: boolean;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

export function loadConfig(path: string): Config {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UsageError(`no ${relative(process.cwd(), path) || path}: create a config.jsonc with your runs (see the README), or try \`mmb demo\`.`);
  }
  const { config, diagnostics } = parseConfig(text);
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) {
    const shown = relative(process.cwd(), path) || path;
    throw new ConfigError(errors.map((d) => `${shown}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code} ${d.message}`).join('\n'));
  }
  return config;
}

export async function runCommand(ids: string[], configPath: string, io: Io): Promise<number> {
  const config = loadConfig(configPath);
  const root = dirname(resolve(configPath));
  const unknown = ids.filter((id) => !config.runs.some((r) => r.name === id));
  if (unknown.length) throw new UsageError(`no run ${unknown.map((u) => `"${u}"`).join(', ')} in ${relative(process.cwd(), configPath) || configPath}; its runs: ${config.runs.map((r) => r.name).join(', ') || 'none'}.`);
  const runs = ids.length ? config.runs.filter((r) => ids.includes(r.name)) : config.runs;
  if (runs.length === 0) throw new UsageError('config.jsonc has no runs: add one under "runs".');
  return execute(root, join(root, 'benchmarks'), config, runs, io);
}

/** The bundled benchmarks on the stand-in: once with the whole conversation, once after a session switch. */
export async function demoCommand(root: string, bundled: string, io: Io): Promise<number> {
  const names = findBenchmarkFolders(dirname(bundled)).map((p) => p.split(/[\\/]/).pop() ?? '');
  const runs: RunConfig[] = names.flatMap((b) => [
    { name: `demo-${b}-in-context`, benchmark: b, agent: 'chatbot', ignore_session_break: true, options: {}, range: zero },
    { name: `demo-${b}-new-session`, benchmark: b, agent: 'chatbot', ignore_session_break: false, options: {}, range: zero },
  ]);
  for (const r of runs) rmSync(join(resultsDir(root), r.name), { recursive: true, force: true });
  io.out(`Demo: the bundled benchmarks on the built-in stand-in model, no API key needed.\nThe chatbot agent runs twice: with the whole conversation in context, and after a session switch that leaves it nothing.\n\n`);
  // The stand-in answers at once, so the Time Master need not leave real time before each wake-up.
  const config: Config = { ...parseConfig('{}').config, parallel: 2, time_master: { min_sleep_to_skip: 5, pre_wake_delay: 0, poll_interval: 0.05 } };
  const code = await execute(root, bundled, config, runs, io);
  io.out(`\nWith the conversation in context the agent can answer; after the switch it cannot: the gap is what the benchmark measures.\nFull entries: ${relative(process.cwd(), join(resultsDir(root), 'report.md'))}\n`);
  return code;
}

const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

async function execute(root: string, benchmarksDir: string, config: Config, runs: RunConfig[], io: Io): Promise<number> {
  const progress = new Progress(io.out, io.tty);
  let outcomes: RunOutcome[];
  try {
    outcomes = await launchRuns({
      root, benchmarksDir, config, runs, env: io.env, timing: timingFromEnv(io.env),
      onStart: (run, b) => progress.start(run, b),
      onEvent: (run, state, event) => progress.event(run, state, event),
      ...(io.signal ? { signal: io.signal } : {}),
    });
  } finally {
    progress.stop();
  }
  io.out('\n');
  for (const o of outcomes) io.out(`${describe(o)}\n`);
  if (outcomes.some((o) => o.stopped)) return 130;
  if (outcomes.some((o) => o.problem && !o.summary)) return 2;
  return outcomes.some((o) => o.summary?.status !== 'finished') ? 1 : 0;
}

/** Timing knobs for slow providers, or for tests that want failures fast. */
function timingFromEnv(env: NodeJS.ProcessEnv): { modelTimeoutMs?: number; backoffBaseMs?: number; replyTimeoutMs?: number } {
  const n = (name: string) => (env[name] && Number.isFinite(Number(env[name])) ? Number(env[name]) : undefined);
  const out: { modelTimeoutMs?: number; backoffBaseMs?: number; replyTimeoutMs?: number } = {};
  const timeout = n('MMB_MODEL_TIMEOUT_MS');
  const backoff = n('MMB_BACKOFF_BASE_MS');
  const reply = n('MMB_REPLY_TIMEOUT_MS');
  if (timeout !== undefined) out.modelTimeoutMs = timeout;
  if (backoff !== undefined) out.backoffBaseMs = backoff;
  if (reply !== undefined) out.replyTimeoutMs = reply;
  return out;
}

function describe(o: RunOutcome): string {
  if (!o.summary) return `${o.run}: ${o.problem ?? 'did not run'}`;
  const s = o.summary;
  const avg = s.average === null ? '—' : s.average.toFixed(2);
  const base = `${o.run.padEnd(24)} ${s.status.padEnd(9)} average ${avg}/10  coverage ${s.coverage.graded}/${s.coverage.planned}  ${s.runTimeSeconds < 60 ? `${s.runTimeSeconds} s` : `${s.runTimeMinutes} min`}`;
  return s.error ? `${base}\n  ${s.error}` : base;
}

/** `mmb report`: every run's figures; `mmb report <id>`: one run's entry, fresh from its state. */
export function reportCommand(ids: string[], configPath: string, bundled: string, io: Io): number {
  const root = dirname(resolve(configPath));
  const dir = resultsDir(root);
  if (ids.length === 0) {
    const summaries = existsSync(dir) ? readdirSync(dir).flatMap((name) => {
      const file = join(dir, name, 'summary.json');
      return existsSync(file) ? [JSON.parse(readFileSync(file, 'utf8')) as Summary] : [];
    }) : [];
    if (summaries.length === 0) {
      io.out(`No results yet in ${relative(process.cwd(), dir) || dir}. Start a run with \`mmb run\`, or try \`mmb demo\`.\n`);
      return 0;
    }
    io.out(`${'run'.padEnd(26)}${'benchmark'.padEnd(14)}${'agent'.padEnd(12)}${'status'.padEnd(10)}${'average'.padEnd(9)}coverage\n`);
    for (const s of summaries) {
      io.out(`${s.run.padEnd(26)}${s.benchmark.padEnd(14)}${s.agent.padEnd(12)}${s.status.padEnd(10)}${(s.average === null ? '—' : s.average.toFixed(2)).padEnd(9)}${s.coverage.graded}/${s.coverage.planned}\n`);
    }
    return 0;
  }
  for (const id of ids) {
    const state = loadRun(root, id);
    const { benchmark } = runBenchmark({ root, configPath, bundled }, state.benchmark);
    io.out(reportEntry(summarize(state, benchmark), new Date(state.finishedAt ?? state.lastEventAt)));
  }
  return 0;
}
