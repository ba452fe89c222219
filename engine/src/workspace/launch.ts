/**
 * Starting runs from a workspace: validate the benchmark, build the models and the adapter, run,
 * then write the report entry and summary.json. Shared by `mmb run` and `mmb demo`.
 */
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadBenchmark, validateBenchmark, type Benchmark, type Config, type RunConfig } from '../../../scenario/src';
import { adapterUsesStandIn, createAdapter, preWakeDelayMs } from '../adapters/registry';
import { Clock } from '../clock';
import { createModel, usesStandIn, type ModelContext } from '../models/resolve';
import { ConfigError, RunDamaged, RunStopped, UsageError } from '../errors';
import { damagedLine, readRunBytes, readRunJson } from '../runFile';
import { SUMMARY_SHAPE } from '../report/summaryShape';
import { reportEntry } from '../report/markdown';
import { summarize, type Summary } from '../report/summary';
import { diskFullMessage, isDiskFull, makeFolder, writingFile } from '../diskFull';
import { runBenchmark } from '../run/runner';
import { AgentRetries } from '../run/agentRetries';
import type { RunEvent, RunState } from '../state/runState';
import { FileRunStore } from '../run/store';
import { registerRunSecrets } from '../secrets';
import { registerCredentialEnvironment } from '../workspaceSecrets';
import { startStandIn, type StandIn, type StandInOptions } from '../standin/server';
import { memorySnapshotsDir, REPORT_FILE, resultsDir, SUMMARY_FILE } from '../protocol/layout';
import { isBenchmarkFolder, readBenchmarkFolder } from './folders';
import { keepPlayedBenchmark } from './keptBenchmark';
import { filterBenchmark, parseFilter } from '../protocol/runFilter';
import { acquireLock } from './lock';

export interface LaunchOptions {
  /** Where `results/` goes: the folder of config.jsonc. */
  root: string;
  benchmarksDir: string;
  config: Config;
  runs: LaunchRun[];
  env: NodeJS.ProcessEnv;
  onEvent?: (run: string, state: RunState, event: RunEvent) => void;
  /** `state` is the run's saved state when it resumes. */
  onStart?: (run: string, benchmark: Benchmark, state: RunState | undefined) => void;
  signal?: AbortSignal;
  standIn?: StandInOptions;
  /** Overrides for tests: model timeouts and backoff, agent reply limit, turn cap. */
  timing?: RunTiming;
}

/** Overrides of the engine's timing for slow providers and for tests (`MMB_*` variables). */
export interface RunTiming {
  modelTimeoutMs?: number;
  backoffBaseMs?: number;
  replyTimeoutMs?: number;
  /** How long the agent may be quiet before its wait is shown (default 5 s). */
  waitNoticeMs?: number;
  /** A lower turn cap per phase than the engine's own (a real model on a CPU is slow). */
  maxTurnsPerPhase?: number;
}

/** A run of config.jsonc, or one made up for a phase run from the editor (some phases only). */
export type LaunchRun = RunConfig & { phases?: { from: number; to?: number }; filter?: string };

export interface RunOutcome {
  run: string;
  state?: RunState;
  summary?: Summary;
  /** Set when the run could not start or was stopped. */
  problem?: string;
  stopped?: boolean;
  /** Stopped by a full disk: resumable once there is space (`problem` says so). */
  diskFull?: boolean;
  /** Lines for the user about the run that are no problem (the benchmark kept with it, or not). */
  notices?: string[];
}

/** Loads and validates a benchmark; refuses one with errors, naming them like `mmb check`. */
export function loadValidBenchmark(dir: string, shown: string): Benchmark {
  return readValidBenchmark(dir, shown).benchmark;
}

/** `loadValidBenchmark`, with the files it was read from (what a run keeps: `keptBenchmark.ts`). */
export function readValidBenchmark(dir: string, shown: string): { benchmark: Benchmark; files: ReadonlyMap<string, string> } {
  const read = readBenchmarkFolder(dir, shown);
  const b = loadBenchmark(read);
  const errors = validateBenchmark(b).filter((d) => d.severity === 'error');
  if (errors.length) {
    const lines = errors
      .slice(0, 10)
      .map((d) => `  ${join(shown, d.file)}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code} ${d.message}`);
    const one = errors.length === 1;
    const summary = `${shown} has ${errors.length} error${one ? '' : 's'}; fix ${one ? 'it' : 'them'} first (mmb check ${shown})`;
    throw new ConfigError(`${summary}:\n${lines.join('\n')}${errors.length > 10 ? '\n  …' : ''}`);
  }
  return { benchmark: b, files: read.files };
}

export async function launchRuns(options: LaunchOptions): Promise<RunOutcome[]> {
  registerRunSecrets({ persona: options.config.persona, runs: options.runs }, options.env);
  // A memory snapshot is masked with these too: an agent may have read any variable of the user's.
  registerCredentialEnvironment(options.env);
  const benchmarks = new Map<string, Benchmark>();
  // The whole benchmark of each name and the files it was read from: what each of its runs keeps.
  const played = new Map<string, PlayedBenchmark>();
  for (const run of options.runs) {
    if (benchmarks.has(benchmarkKey(run))) continue;
    const dir = join(options.benchmarksDir, run.benchmark);
    if (!isBenchmarkFolder(dir))
      throw new UsageError(
        `run "${run.name}": there is no benchmark ${relative(process.cwd(), dir) || dir}/benchmark.json: ` +
          '`mmb init` copies the bundled benchmarks here, `mmb new <name>` starts one.',
      );
    if (!played.has(run.benchmark)) {
      const read = readValidBenchmark(dir, relative(process.cwd(), dir) || dir);
      played.set(run.benchmark, { whole: read.benchmark, files: read.files });
    }
    const whole = played.get(run.benchmark)!.whole;
    benchmarks.set(run.benchmark, whole);
    // A filtered run plays, and is summed up over, the benchmark its filter leaves.
    if (run.filter) benchmarks.set(benchmarkKey(run), filterBenchmark(whole, parseFilter(run.filter)));
  }
  const needsStandIn = usesStandIn(options.config.persona) || options.runs.some((r) => adapterUsesStandIn(r.agent, r.options));
  const standIn: StandIn | undefined = needsStandIn ? await startStandIn(options.standIn) : undefined;
  try {
    const queue = [...options.runs];
    const outcomes: RunOutcome[] = [];
    const worker = async () => {
      for (let run = queue.shift(); run; run = queue.shift())
        outcomes.push(await launchOne(options, run, benchmarks.get(benchmarkKey(run))!, played.get(run.benchmark)!, standIn));
    };
    await Promise.all(Array.from({ length: Math.min(options.config.parallel, options.runs.length) }, worker));
    return options.runs.map((r) => outcomes.find((x) => x.run === r.name)!);
  } finally {
    await standIn?.close();
  }
}

/** The benchmark a run plays, by name, and by filter for a filtered run. */
function benchmarkKey(run: LaunchRun): string {
  return run.filter ? `${run.benchmark}\n${run.filter}` : run.benchmark;
}

/** A benchmark as read for its runs: the whole of it (a filtered run plays less) and its files. */
interface PlayedBenchmark {
  whole: Benchmark;
  files: ReadonlyMap<string, string>;
}

async function launchOne(
  options: LaunchOptions,
  run: LaunchRun,
  benchmark: Benchmark,
  played: PlayedBenchmark,
  standIn: StandIn | undefined,
): Promise<RunOutcome> {
  const dir = join(resultsDir(options.root), run.name);
  const lock = acquireLock(dir);
  if (!lock.ok)
    return {
      run: run.name,
      problem: `run "${run.name}" is already running (process ${lock.holder.pid}, since ${lock.holder.since}); stop it first.`,
    };
  try {
    return await launchLocked(options, run, { benchmark, played }, standIn, dir);
  } finally {
    releaseUnlessReadOnly(lock.release);
  }
}

/**
 * Releases the run's lock. On a disk that turned read-only (or full) the lock file stays: the run's
 * own outcome is what to report, and the next engine takes the lock over, its process being gone.
 */
function releaseUnlessReadOnly(release: () => void): void {
  try {
    release();
  } catch (e) {
    if (!isDiskFull(e)) throw e;
  }
}

async function launchLocked(
  options: LaunchOptions,
  run: LaunchRun,
  { benchmark, played }: { benchmark: Benchmark; played: PlayedBenchmark },
  standIn: StandIn | undefined,
  dir: string,
): Promise<RunOutcome> {
  const store = new FileRunStore(dir);
  let before: RunState | undefined;
  try {
    before = store.load();
    // summary.json is made from the state; a folder in its place would stop the run only at its end.
    readRunBytes(join(dir, SUMMARY_FILE));
  } catch (e) {
    return { run: run.name, problem: e instanceof RunDamaged ? damagedLine(e) : (e as Error).message };
  }
  const clock = new Clock(0);
  const agentRetries = new AgentRetries();
  const models = modelContext(options, agentRetries, standIn);
  let adapter;
  let persona;
  try {
    persona = createModel(options.config.persona, models, 'persona');
    adapter = createAdapter(run.agent, { runDir: dir, options: run.options, models, clock, workspace: options.root });
  } catch (e) {
    if (e instanceof ConfigError) return { run: run.name, problem: `run "${run.name}": ${e.message}` };
    throw e;
  }
  options.onStart?.(run.name, benchmark, before);
  const eventsBefore = before?.events ?? 0;
  const notices: string[] = [];
  try {
    notices.push(...keepPlayedBenchmark(dir, run.benchmark, played, before));
    const state = await runBenchmark({
      name: run.name,
      benchmark,
      agent: run.agent,
      persona,
      adapter,
      store,
      loaded: { state: before },
      clock,
      ignoreSessionBreak: run.ignore_session_break,
      snapshotDir: memorySnapshotsDir(dir),
      compaction: { maxTokens: options.config.compaction.max_tokens, trimToTokens: options.config.compaction.trim_to_tokens },
      hooks: {
        requireSendMessage: options.config.hooks.require_send_message,
        dropEchoedUserMessages: options.config.hooks.drop_echoed_user_messages,
      },
      timeMaster: {
        minSleepToSkipMs: options.config.time_master.min_sleep_to_skip * 1000,
        preWakeDelayMs: preWakeDelayMs(run.agent, options.config.time_master.pre_wake_delay * 1000),
        pollIntervalMs: options.config.time_master.poll_interval * 1000,
      },
      ...(options.timing?.replyTimeoutMs ? { replyTimeoutMs: options.timing.replyTimeoutMs } : {}),
      ...(options.timing?.maxTurnsPerPhase ? { maxTurnsPerPhase: options.timing.maxTurnsPerPhase } : {}),
      ...(options.timing?.waitNoticeMs !== undefined ? { waitNoticeMs: options.timing.waitNoticeMs } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(run.phases ? { phases: run.phases } : {}),
      ...(run.filter ? { filter: run.filter } : {}),
      onEvent: (state, event) => options.onEvent?.(run.name, state, event),
      agentRetries,
    });
    const summary = summarize(state, benchmark);
    // Also when a full disk kept the last attempt from writing them: the run's entry is never lost.
    if (state.events > eventsBefore || !summaryIsWhole(join(dir, SUMMARY_FILE))) writeResults(options.root, summary, dir);
    return { run: run.name, state, summary, ...withNotices(notices) };
  } catch (e) {
    if (e instanceof RunStopped)
      return { run: run.name, stopped: true, problem: 'stopped; run it again to resume', ...withNotices(notices) };
    if (isDiskFull(e)) return { run: run.name, stopped: true, diskFull: true, problem: diskFullMessage(e, run.name) };
    throw e;
  } finally {
    await adapter.close?.();
  }
}

/** What the run's models are made with: the environment, the retries' listener, the stand-in, the timing overrides. */
function modelContext(options: LaunchOptions, agentRetries: AgentRetries, standIn: StandIn | undefined): ModelContext {
  return {
    env: options.env,
    ...(options.config.persona.api_key_env ? { personaKeyEnv: options.config.persona.api_key_env } : {}),
    onRetry: agentRetries.notify,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(standIn ? { standInUrl: standIn.url } : {}),
    ...(options.timing?.modelTimeoutMs ? { timeoutMs: options.timing.modelTimeoutMs } : {}),
    ...(options.timing?.backoffBaseMs !== undefined ? { backoffBaseMs: options.timing.backoffBaseMs } : {}),
  };
}

function withNotices(notices: readonly string[]): { notices?: string[] } {
  return notices.length ? { notices: [...notices] } : {};
}

/** Whether summary.json is there with its shape: a damaged one is written again from the state (a folder was refused before the run). */
function summaryIsWhole(path: string): boolean {
  try {
    return readRunJson(path, SUMMARY_SHAPE) !== undefined;
  } catch {
    return false;
  }
}

/**
 * summary.json of the run, and its entry appended to results/report.md. `dir`: the run's folder,
 * which names it whatever its state says (a copied folder must not write another run's summary).
 */
export function writeResults(root: string, summary: Summary, dir = join(resultsDir(root), summary.run)): void {
  makeFolder(dir);
  const report = join(resultsDir(root), REPORT_FILE);
  const head = existsSync(report) ? '\n' : '# MarathonMemBench report\n\nOne entry per finished or crashed run, newest last.\n\n';
  writingFile(report, () => appendFileSync(report, `${head}${reportEntry(summary, new Date())}`));
  // Last, so that its absence means the entry above may be missing.
  writingFile(join(dir, SUMMARY_FILE), () => writeFileSync(join(dir, SUMMARY_FILE), `${JSON.stringify(summary, null, 2)}\n`));
}
