/**
 * The extension's one view of runs: the results folder, the benchmarks on disk, and the engine
 * processes it starts. Runs are CLI processes, detached, so a run outlives a window reload; the
 * lock in `results/<id>/` tells a reloaded window which runs still go, and their pids.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { loadBenchmark, type Benchmark } from '../../scenario/src';
import {
  benchmarkFolderOf,
  engineLogFile,
  findBenchmarkFolders,
  readBenchmarkFolder,
  requestedRunName,
  runArguments,
  signalRunEngine,
  validPassScore,
  type RunRequest,
} from '../../engine/src/api';
import { ResultsFolder, type RunView } from './results';
import { ACTION, ActionError } from './toasts';
import { failureFromLog, startWord, type RunFailure, type StartWord } from './runInfo';

const SECRET_NAMES = 'marathonMemBench.secretNames';
const secretKey = (name: string) => `marathonMemBench.env.${name}`;
const FAILURES = 'marathonMemBench.failures';
/** The failures kept across reloads: enough for every row of a busy day, never the whole history. */
const MAX_FAILURES = 50;
/** The tail of an engine's log read for its reason: the CLI's problem lines come last. */
const LOG_TAIL_BYTES = 64 * 1024;
/** The engine's exit status when it was asked to stop (SIGINT): not a failure. */
const STOPPED_EXIT = 130;

/** A run that failed, with the request that started it, so that it can be started again. */
export interface FailedRun extends RunFailure {
  request: RunRequest;
}

export class RunsHub implements vscode.Disposable {
  readonly results: ResultsFolder;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a run's files or a benchmark changed (debounced). */
  readonly onDidChange = this.changed.event;
  private benchmarks = new Map<string, Benchmark | null>();
  private disposables: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  private poll: NodeJS.Timeout | undefined;
  private lastRuns = '';
  /** The engine processes this window started, by run. */
  private started = new Map<string, ChildProcess>();
  /** What the rows of runs whose engine this window started say until the engine takes the lock. */
  private startWords = new Map<string, StartWord>();
  private kept: Record<string, FailedRun> | undefined;
  private readonly failed = new vscode.EventEmitter<FailedRun>();
  /** Fires when an engine this window started ended badly: it could not start, or the run crashed. */
  readonly onDidFail = this.failed.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    root: string,
  ) {
    this.results = new ResultsFolder(root);
    const watch = (glob: string, onChange: () => void) => {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(root, glob));
      w.onDidChange(onChange);
      w.onDidCreate(onChange);
      w.onDidDelete(onChange);
      this.disposables.push(w);
    };
    watch('results/**', () => this.fire());
    watch('{benchmarks/**/*.md,benchmarks/**/benchmark.json,config.jsonc}', () => {
      this.benchmarks.clear();
      this.fire();
    });
    // File events can lag or be lost (network file systems, a run in another window): poll while runs go.
    this.poll = setInterval(() => {
      const running = this.runs()
        .filter((r) => r.status === 'running')
        .map((r) => `${r.name}:${r.lastEventAt ?? ''}`)
        .join(',');
      if (running !== this.lastRuns) this.fire();
      this.lastRuns = running;
    }, 1000);
  }

  private fire(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.changed.fire(), 150);
  }

  runs(): RunView[] {
    return this.results.runs();
  }

  /** The benchmark folder under `benchmarks/` a file belongs to, if any: runs play those alone. */
  benchmarkDirOf(file: string): string | undefined {
    return benchmarkFolderOf(this.results.root, file);
  }

  /** The benchmark as on disk, parsed once per change of its files; undefined when it cannot be read. */
  benchmark(dir: string): Benchmark | undefined {
    if (!this.benchmarks.has(dir)) {
      try {
        this.benchmarks.set(dir, loadBenchmark(readBenchmarkFolder(dir)));
      } catch {
        this.benchmarks.set(dir, null);
      }
    }
    return this.benchmarks.get(dir) ?? undefined;
  }

  /** The benchmark folders under `benchmarks/`. */
  benchmarkDirs(): string[] {
    return findBenchmarkFolders(this.results.root);
  }

  /** The `marathonMemBench.passScore` setting: where the score bands and the Test Explorer draw the line. */
  passScore(): number {
    return validPassScore(vscode.workspace.getConfiguration('marathonMemBench').get<unknown>('passScore'));
  }

  /**
   * Starts `mmb run` for the request as a detached process with the stored API keys in its
   * environment; its output goes to `results/.logs/<run>.log`. Returns the process and the run it makes.
   */
  async startEngine(request: RunRequest): Promise<{ engine: ChildProcess; run: string }> {
    const run = requestedRunName(request);
    if (!vscode.workspace.isTrusted)
      throw new ActionError("Runs execute the benchmark's JS blocks: trust this workspace to run them. Authoring works without.", [
        ACTION.trust,
      ]);
    // Until its engine takes the lock, a run just started shows no sign of it: remember the process.
    const earlier = this.started.get(run);
    if (earlier && earlier.exitCode === null && earlier.signalCode === null)
      throw new ActionError(`${run} is already starting or running.`, [ACTION.showRun], 'info', { run });
    const log = this.logFile(run);
    const word = startWord(request, this.runs().find((r) => r.name === run)?.status);
    await this.forgetFailure(run);
    mkdirSync(dirname(log), { recursive: true });
    const out = openSync(log, 'w');
    try {
      const child = spawn(process.execPath, [this.context.asAbsolutePath(join('dist', 'cli.js')), 'run', ...runArguments(request)], {
        cwd: this.results.root,
        env: { ...process.env, ...(await this.secretEnv()), ELECTRON_RUN_AS_NODE: '1' },
        detached: true,
        stdio: ['ignore', out, out],
      });
      this.startWords.set(run, word);
      child.on('error', (e) => {
        this.startWords.delete(run);
        void this.recordFailure({
          run,
          reason: `the engine did not start: ${e.message}`,
          couldNotStart: true,
          at: new Date().toISOString(),
          request,
        });
      });
      child.on('exit', (code) => {
        this.startWords.delete(run);
        if (code !== null && code !== 0 && code !== STOPPED_EXIT)
          void this.recordFailure({ ...failureFromLog(run, readTail(log), code, new Date().toISOString()), request });
        this.fire();
      });
      child.unref();
      this.started.set(run, child);
      this.fire();
      return { engine: child, run };
    } finally {
      closeSync(out);
    }
  }

  /**
   * `starting` or `resuming` while the engine this window started for `run` is alive: the run's
   * row says so until its lock shows it running (the row decides), not the status it had before.
   */
  starting(run: string): StartWord | undefined {
    const child = this.started.get(run);
    return child && child.exitCode === null && child.signalCode === null ? this.startWords.get(run) : undefined;
  }

  /** The runs whose engine this window is starting, by name. */
  startingRuns(): string[] {
    return [...this.startWords.keys()].filter((run) => this.starting(run));
  }

  /** Why the last engine of `run` started from an editor ended badly, while the run has not gone since. */
  failure(run: string): FailedRun | undefined {
    return this.failures()[run];
  }

  /** Every failure kept, by run: they outlive a window reload in the workspace's state. */
  failures(): Record<string, FailedRun> {
    if (!this.kept) {
      const stored = this.context.workspaceState.get<unknown>(FAILURES);
      this.kept = typeof stored === 'object' && stored !== null ? { ...(stored as Record<string, FailedRun>) } : {};
    }
    return this.kept;
  }

  /** Kept in memory at once (a test run reads it as the engine exits), then in the workspace's state. */
  private async recordFailure(failure: FailedRun): Promise<void> {
    const kept = Object.values(this.failures())
      .filter((f) => f.run !== failure.run)
      .slice(-(MAX_FAILURES - 1));
    this.kept = Object.fromEntries([...kept, failure].map((f) => [f.run, f]));
    this.failed.fire(failure);
    this.fire();
    await this.context.workspaceState.update(FAILURES, this.kept);
  }

  /** Drops the failure of `run`: when it starts again, or when the user dismisses its row. */
  async forgetFailure(run: string): Promise<void> {
    const kept = this.failures();
    if (!(run in kept)) return;
    delete kept[run];
    this.fire();
    await this.context.workspaceState.update(FAILURES, kept);
  }

  /** Asks the engine running `run` to stop after its current step; the run stays resumable. */
  stop(run: string): boolean {
    try {
      // Checked against the lock's start time too: a pid reused by another process is never signalled.
      return signalRunEngine(join(this.results.resultsDir, run), 'SIGINT');
    } finally {
      this.fire();
    }
  }

  logFile(run: string): string {
    return engineLogFile(this.results.root, run);
  }

  /** The API keys stored in the editor's secret storage, as environment variables. */
  async secretEnv(): Promise<Record<string, string>> {
    const env: Record<string, string> = {};
    for (const name of this.secretNames()) {
      const value = await this.context.secrets.get(secretKey(name));
      if (value) env[name] = value;
    }
    return env;
  }

  secretNames(): string[] {
    return this.context.globalState.get<string[]>(SECRET_NAMES, []);
  }

  async storeSecret(name: string, value: string): Promise<void> {
    await this.context.secrets.store(secretKey(name), value);
    const names = new Set(this.secretNames());
    names.add(name);
    await this.context.globalState.update(SECRET_NAMES, [...names].sort());
  }

  async deleteSecret(name: string): Promise<void> {
    await this.context.secrets.delete(secretKey(name));
    await this.context.globalState.update(
      SECRET_NAMES,
      this.secretNames().filter((n) => n !== name),
    );
  }

  dispose(): void {
    clearTimeout(this.timer);
    clearInterval(this.poll);
    for (const d of this.disposables) d.dispose();
    this.changed.dispose();
    this.failed.dispose();
  }
}

/** The last 64 KiB of a log, or nothing when it cannot be read. */
function readTail(path: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const size = fstatSync(fd).size;
    const length = Math.min(size, LOG_TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    return buffer.toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The folder whose results the extension shows: the first workspace folder with a config.jsonc, else the first. */
export function findRoot(): string | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const withConfig = folders.find((f) => existsSync(join(f.uri.fsPath, 'config.jsonc')));
  return (withConfig ?? folders[0])?.uri.fsPath;
}
