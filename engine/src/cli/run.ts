/** `mmb run`: runs from config.jsonc (or made up on the command line), played, one result line each, and closing lines. */
import { existsSync, lstatSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { CONFIG_FILE, parseConfig, type Config } from '../../../scenario/src';
import { DISK_FULL_EXIT } from '../diskFull';
import { ConfigError } from '../errors';
import { startNotices } from '../adapters/registry';
import { usesStandIn } from '../models/resolve';
import { readConfigFile } from '../workspace/folders';
import { UsageError } from '../errors';
import { clearRun } from '../workspace/lock';
import { RunBusy } from '../errors';
import { resultsDir } from '../protocol/layout';
import { clipName, runIdProblem } from '../protocol/runRequest';
import { loadPartial, savePartial, type SavedPartial } from '../workspace/partial';
import { launchRuns, type LaunchRun, type RunOutcome, type RunTiming } from '../workspace/launch';
import { Progress } from './progress';
import { partialRun, type PartialRequest } from './partialRun';
import { repeated, repeatedConfigRun, sharded, withConcurrency, type RunSelection } from './runSelection';
import { finishRunForCi, type CiOutputs } from './ci';
import { oneLine } from './exitStatus';
import { unknownRunError } from './unknownRun';
import { closingLines, type ClosingOptions } from './runClosing';
import { resultLines } from './resultLines';

export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  tty: boolean;
  /** The terminal's width in columns, when stdout is one that says. */
  columns?: number;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

/** More errors than this in config.jsonc are counted, not printed: `mmb check` lists them all. */
const MAX_CONFIG_ERRORS_SHOWN = 5;

export function loadConfig(path: string): Config {
  const shown = relative(process.cwd(), path) || path;
  try {
    lstatSync(path);
  } catch {
    throw new UsageError(
      `no ${shown}: \`mmb init\` writes one with a key-free rehearsal run beside the bundled benchmarks (or try \`mmb demo\`).`,
    );
  }
  const { config, diagnostics } = readConfigFile(path, shown, CONFIG_FILE);
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) {
    // Every error stops the run (a typo would otherwise run something else); the first few say why, one line each.
    const lines = errors
      .slice(0, MAX_CONFIG_ERRORS_SHOWN)
      .map((d) => `${shown}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code} ${d.message}`);
    if (errors.length > MAX_CONFIG_ERRORS_SHOWN) lines.push(`… and ${errors.length - MAX_CONFIG_ERRORS_SHOWN} more: mmb check ${shown}`);
    throw new ConfigError(lines.join('\n'));
  }
  return config;
}

/** How `mmb run` was asked to run: all or some runs of config.jsonc, or some phases of one. */
export interface RunCommandInput {
  ids: string[];
  configPath: string;
  /** Start over: the runs' results are deleted first. */
  restart?: boolean;
  /** A partial run: from this phase (`chapter2.md:1`), maybe of it only, maybe on the stand-in. */
  partial?: PartialRequest;
  /** `--junit`, `--pass-score`, `--fail-under`. */
  ci?: CiOutputs;
  /** `--repeat`, `--shard`, `-j`. */
  selection?: RunSelection;
}

export type { PartialRequest } from './partialRun';

export async function runCommand(request: RunCommandInput, io: Io): Promise<number> {
  const { ids, configPath } = request;
  const root = dirname(resolve(configPath));
  // Before anything reads results/<id>/: an id that is a path would read elsewhere.
  for (const id of ids) checkRunId(id);
  // A rehearsal needs no config.jsonc: neither starting one from a benchmark nor resuming it.
  const configless =
    !existsSync(configPath) && (request.partial?.benchmark || (ids.length && ids.every((id) => loadPartial(root, id)?.rehearse)));
  const config = configless ? parseConfig('{}').config : loadConfig(configPath);
  const benchmarksDir = join(root, 'benchmarks');
  // A Ctrl-C that came before anything started (as the CLI loaded): it stops here, before any restart deletes.
  if (io.signal?.aborted) {
    io.err(`mmb: stopped before the runs started${request.restart || request.partial ? ': nothing was deleted' : ''}.\n`);
    return 130;
  }
  const selection = request.selection ?? {};
  if (request.partial) {
    const runs = chosen(repeated([partialRun(request.partial, ids, config, benchmarksDir, configPath)], selection.repeat), selection, io);
    for (const run of runs) startOver(root, run);
    return execute(
      root,
      benchmarksDir,
      withConcurrency(request.partial.rehearse ? rehearsalConfig(config) : config, selection),
      runs,
      io,
      request.ci,
    );
  }
  const found = ids.map(
    (id): SavedPartial | undefined => config.runs.find((r) => r.name === id) ?? loadPartial(root, id) ?? repeatedConfigRun(config, id),
  );
  const unknown = ids.filter((_, i) => !found[i]);
  if (unknown.length) throw unknownRunError(unknown, config, configPath);
  const named: SavedPartial[] = ids.length ? found.map((r) => r!) : config.runs;
  if (named.length === 0) throw new UsageError('config.jsonc has no runs: add one under "runs".');
  const runs = chosen(repeated(named, selection.repeat), selection, io);
  const rehearsals = runs.filter((r) => r.rehearse).length;
  if (rehearsals > 0 && rehearsals < runs.length)
    throw new UsageError('rehearsals run on the stand-in and the other runs on their models: run them separately.');
  if (request.restart) for (const r of runs) startOver(root, r);
  // A new repeat of a partial run keeps its settings too, so that `mmb run '<id>#2'` resumes it.
  for (const r of runs) if (r.phases && !loadPartial(root, r.name)) savePartial(root, r);
  const rehearsal = rehearsals > 0;
  return execute(root, benchmarksDir, withConcurrency(rehearsal ? rehearsalConfig(config) : config, selection), runs, io, request.ci);
}

/** This shard's runs; an empty shard (more machines than runs) is said on stderr and plays nothing. */
function chosen(runs: SavedPartial[], selection: RunSelection, io: Io): SavedPartial[] {
  const mine = sharded(runs, selection.shard);
  if (selection.shard && mine.length === 0)
    io.err(`mmb: shard ${selection.shard.index}/${selection.shard.total} has no runs (${runs.length} in all): nothing to do here.\n`);
  return mine;
}

/** Deletes a run's results (refused while it runs); a partial run keeps its settings. */
function startOver(root: string, run: SavedPartial): void {
  try {
    clearRun(join(resultsDir(root), run.name), run.name);
  } catch (e) {
    if (e instanceof RunBusy) throw new UsageError(e.message);
    throw e;
  }
  if (run.phases) savePartial(root, run);
}

/** A run id becomes a folder of results/: no path in it, and a length file systems take. */
function checkRunId(id: string): string {
  const problem = runIdProblem(id);
  if (problem) throw new UsageError(`${problem}.`);
  return id;
}

/** The persona on the stand-in, which answers at once, so the Time Master skips waits without real delay. */
function rehearsalConfig(config: Config): Config {
  return { ...config, persona: { model: 'stand-in' }, time_master: { min_sleep_to_skip: 5, pre_wake_delay: 0, poll_interval: 0.05 } };
}

/**
 * Runs them and reports (`mmb run`, and `mmb demo` in demo.ts): stdout gets the progress and one result line per run that has a
 * result; stderr one line per problem (a run that could not start, crashed, stopped, or hit a full
 * disk), so that a script reading stdout reads results only.
 */
export async function execute(
  root: string,
  benchmarksDir: string,
  config: Config,
  runs: LaunchRun[],
  io: Io,
  ci?: CiOutputs,
  closing?: ClosingOptions,
): Promise<number> {
  printStartNotices(config, runs, io);
  let progressShown = false;
  const progress = new Progress(
    (text) => {
      progressShown = true;
      io.out(text);
    },
    { terminal: io.tty, ...(io.columns ? { width: io.columns } : {}) },
  );
  // Ctrl-C prints a notice below the bars: they must not be redrawn over it (nor it over them).
  const interrupt = () => progress.interrupt();
  io.signal?.addEventListener('abort', interrupt, { once: true });
  let outcomes: RunOutcome[];
  try {
    outcomes = await launchRuns({
      root,
      benchmarksDir,
      config,
      runs,
      env: io.env,
      timing: timingFromEnv(io.env),
      onStart: (run, b, state) => progress.start(run, b, state),
      onEvent: (run, state, event) => progress.event(run, state, event),
      ...(io.signal ? { signal: io.signal } : {}),
    });
  } finally {
    io.signal?.removeEventListener('abort', interrupt);
    progress.stop();
  }
  if (progressShown) io.out('\n');
  const results = resultLines(outcomes.flatMap((o) => (o.summary ? [{ run: o.run, summary: o.summary }] : [])));
  for (const o of outcomes) {
    for (const notice of o.notices ?? []) io.err(`mmb: notice: run "${clipName(o.run, 120)}": ${notice}\n`);
    if (o.summary) io.out(`${results.shift()}\n`);
    const problem = problemLine(o);
    if (problem) io.err(`mmb: ${problem}\n`);
  }
  if (!ci?.json)
    io.out(
      closingLines(
        root,
        outcomes.flatMap((o) => (o.summary ? [o.summary] : [])),
        closing,
      ),
    );
  const code = exitStatus(outcomes);
  return ci ? finishRunForCi(code, outcomes, runs, benchmarksDir, ci, io) : code;
}

/** Before anything else: a run whose agent is handed the persona's key, or whose program runs without its sandbox, says so. */
function printStartNotices(config: Config, runs: readonly LaunchRun[], io: Io): void {
  const personaKeyEnv = usesStandIn(config.persona) ? undefined : config.persona.api_key_env;
  for (const run of runs) {
    for (const notice of startNotices(run.agent, run.options, personaKeyEnv, io.env))
      io.err(`mmb: notice: run "${clipName(run.name, 120)}": ${notice}\n`);
  }
}

function exitStatus(outcomes: readonly RunOutcome[]): number {
  if (outcomes.some((o) => o.diskFull)) return DISK_FULL_EXIT;
  if (outcomes.some((o) => o.stopped)) return 130;
  if (outcomes.some((o) => o.problem && !o.summary)) return 2;
  return outcomes.some((o) => o.summary?.status !== 'finished') ? 1 : 0;
}

/** What went wrong with a run, as one bounded line naming it; undefined when nothing did. */
function problemLine(outcome: RunOutcome): string | undefined {
  if (outcome.diskFull) return outcome.problem;
  // One line without control characters (`oneLine`), so that a model's or an agent's text cannot pass for lines of the CLI's own.
  if (outcome.summary) return outcome.summary.error ? `run "${outcome.run}" crashed: ${oneLine(outcome.summary.error)}` : undefined;
  const problem = oneLine(outcome.problem ?? 'did not run');
  // The launcher's own messages name the run already.
  return problem.startsWith(`run "${outcome.run}"`) ? problem : `run "${outcome.run}": ${problem}`;
}

/** Timing knobs for slow providers, or for tests that want failures fast. */
function timingFromEnv(env: NodeJS.ProcessEnv): RunTiming {
  const n = (name: string) => (env[name] && Number.isFinite(Number(env[name])) ? Number(env[name]) : undefined);
  const out: RunTiming = {};
  const timeout = n('MMB_MODEL_TIMEOUT_MS');
  const backoff = n('MMB_BACKOFF_BASE_MS');
  const reply = n('MMB_REPLY_TIMEOUT_MS');
  const waitNotice = n('MMB_WAIT_NOTICE_MS');
  // A whole number of turns at least 1: anything else would end every phase at once or never.
  const turns = n('MMB_MAX_TURNS_PER_PHASE');
  if (timeout !== undefined) out.modelTimeoutMs = timeout;
  if (backoff !== undefined) out.backoffBaseMs = backoff;
  if (reply !== undefined) out.replyTimeoutMs = reply;
  if (waitNotice !== undefined && waitNotice >= 1) out.waitNoticeMs = waitNotice;
  if (turns !== undefined && Number.isInteger(turns) && turns >= 1) out.maxTurnsPerPhase = turns;
  return out;
}
