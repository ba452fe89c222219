/**
 * The extension's commands: start, stop, resume and restart runs; phase runs (from a lens, or
 * from the palette with the phase picked); *Add a run…* (addRun.ts asks and writes); and the
 * notification of every run started from the editor that could not start or crashed. Every
 * notification carries the actions that fix it (worded in toasts.ts), and they are done here.
 * The API key commands are in apiKeys.ts, a check's cause in showCause.ts.
 */
import { cpSync, existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { requestedRunName, type PartialRunRequest, type RunRequest } from '../../engine/src/api';
import { addRun } from './addRun';
import { clearApiKey, setApiKey } from './apiKeys';
import { showToast } from './notify';
import { pickPhase } from './pickPhase';
import { paidModels } from './runInfo';
import { showCause } from './showCause';
import { runArgument } from './runTree';
import type { FailedRun, RunsHub } from './runsHub';
import { ACTION, ActionError, errorToast, failureToast, keyStoredToast, type ToastAction, type ToastSubject } from './toasts';

export interface PhaseTarget {
  /** The benchmark folder. */
  dir: string;
  chapter: string;
  /** 1-based. */
  phase: number;
}

export class Commands {
  constructor(
    private readonly wb: RunsHub,
    private readonly context: vscode.ExtensionContext,
    private readonly show: (run?: string) => void,
  ) {}

  /** Every failure of an engine this window started, as a notification with its reason and the actions that fix it. */
  async notifyFailure(failure: FailedRun): Promise<void> {
    const request = failure.request;
    const real =
      request.kind === 'configured'
        ? paidModels(this.wb.results.config(), request.run).length > 0
        : request.kind === 'partial' && request.mode === 'real';
    const context = { configExists: existsSync(this.configFile()), configured: request.kind === 'configured', real };
    await showToast(failureToast(failure, context), this.act);
  }

  /** A thrown error as its notification (toasts.ts's `errorToast`), its actions done here: every view's commands report through it. */
  readonly notifyError = (error: unknown): void => void showToast(errorToast(error), this.act);

  /** Does what a notification's action says, on what it was about. */
  readonly act = async (action: ToastAction, subject: ToastSubject): Promise<void> => {
    const run = subject.run;
    switch (action) {
      case ACTION.setKey:
        return this.setKey(run ? this.wb.failure(run)?.missingKey : undefined);
      case ACTION.rehearse:
        return this.rehearseInstead(subject);
      case ACTION.addRun:
        return this.addRun(subject.target?.dir);
      case ACTION.openConfig:
        await vscode.window.showTextDocument(vscode.Uri.file(this.configFile()));
        return;
      case ACTION.openLog:
        return this.showLog(run);
      case ACTION.startAgain:
      case ACTION.resume:
        return this.start(run, 'resume');
      case ACTION.showRun:
        this.show(run);
        return;
      case ACTION.copyBundled:
        return this.openBundled();
      case ACTION.trust:
        await vscode.commands.executeCommand('workbench.trust.manage');
        return;
      case ACTION.showOutput:
        // Only Check this model offers it, and shows its own output channel.
        return;
    }
  };

  /**
   * The stand-in's rehearsal of what could not run for real: the same phases of a phase run, the
   * whole benchmark for a run of config.jsonc or a benchmark with no run (no key, no cost).
   */
  private async rehearseInstead(subject: ToastSubject): Promise<void> {
    if (subject.target) {
      await this.runPhase(subject.target, 'phase-only', 'rehearsal');
      return;
    }
    const asked = subject.run ? this.wb.failure(subject.run)?.request : undefined;
    let request: RunRequest | undefined;
    if (asked?.kind === 'partial') request = { ...asked, mode: 'rehearsal' };
    else if (asked?.kind === 'configured') request = { kind: 'rehearsal', base: { run: asked.run } };
    else if (subject.run && this.wb.runs().some((r) => r.name === subject.run && r.configured))
      request = { kind: 'rehearsal', base: { run: subject.run } };
    else if (subject.benchmark) request = { kind: 'rehearsal', base: { benchmark: subject.benchmark } };
    if (!request) return;
    const { run } = await this.wb.startEngine(request);
    this.show(run);
  }

  /** Stores a key, then offers to start again the runs that could not start without it. */
  private async setKey(missing: string | undefined): Promise<void> {
    const name = await setApiKey(this.wb, missing);
    if (!name) return;
    const toast = keyStoredToast(name, Object.values(this.wb.failures()));
    await showToast(toast, async () => {
      for (const run of toast.runs) await this.start(run, 'resume');
    });
  }

  /** *Add a run for this benchmark…*, then the offer to start it (its key first, when it reads one not stored). */
  async addRun(benchmarkDir: string | undefined): Promise<void> {
    const added = await addRun(this.wb, benchmarkDir);
    if (!added) return;
    const needsKey = added.keyEnv && !this.wb.secretNames().includes(added.keyEnv) && !process.env[added.keyEnv];
    const start = 'Start it';
    const actions = [...(needsKey ? [ACTION.setKey] : []), start, ACTION.openConfig];
    const key = needsKey ? ` Its model reads its key from ${added.keyEnv}.` : '';
    const picked = await vscode.window.showInformationMessage(
      `MarathonMemBench: ${added.name} is in config.jsonc (${added.about}).${key}`,
      ...actions,
    );
    if (picked === start) await this.start(added.name, 'resume');
    else if (picked === ACTION.setKey) await this.setKey(added.keyEnv);
    else if (picked === ACTION.openConfig) await vscode.window.showTextDocument(vscode.Uri.file(this.configFile()));
  }

  private configFile(): string {
    return join(this.wb.results.root, 'config.jsonc');
  }

  register(): vscode.Disposable[] {
    const c = (id: string, fn: (...args: never[]) => unknown) =>
      vscode.commands.registerCommand(id, async (...args: never[]) => {
        try {
          await fn(...args);
        } catch (e) {
          this.notifyError(e);
        }
      });
    return [
      this.wb.onDidFail((failure) => void this.notifyFailure(failure)),
      c('marathonMemBench.startRun', (run?: unknown) => this.start(runArgument(run), 'resume')),
      c('marathonMemBench.resumeRun', (run?: unknown) => this.start(runArgument(run), 'resume')),
      c('marathonMemBench.restartRun', (run?: unknown) => this.start(runArgument(run), 'restart')),
      c('marathonMemBench.stopRun', (run?: unknown) => this.stop(runArgument(run))),
      c('marathonMemBench.runPhase', (t?: PhaseTarget) => this.runPhase(t, 'phase-only', 'real')),
      c('marathonMemBench.runFromHere', (t?: PhaseTarget) => this.runPhase(t, 'to-end', 'real')),
      c('marathonMemBench.rehearsePhase', (t?: PhaseTarget) => this.runPhase(t, 'phase-only', 'rehearsal')),
      c('marathonMemBench.addRun', (t?: PhaseTarget) => this.addRun(t?.dir)),
      c('marathonMemBench.setApiKey', (name?: unknown) => this.setKey(typeof name === 'string' ? name : undefined)),
      c('marathonMemBench.clearApiKey', () => clearApiKey(this.wb)),
      c('marathonMemBench.showCause', (dir?: string, checkId?: string, run?: string) => showCause(this.wb, dir, checkId, run)),
      c('marathonMemBench.openBundledBenchmarks', () => this.openBundled()),
      c('marathonMemBench.showLog', (run?: unknown) => this.showLog(runArgument(run))),
      c('marathonMemBench.dismissFailure', (run?: unknown) => this.dismissFailure(runArgument(run))),
    ];
  }

  private async dismissFailure(run: string | undefined): Promise<void> {
    const failed = Object.keys(this.wb.failures());
    const name = run ?? (await vscode.window.showQuickPick(failed, { placeHolder: 'The run whose failure to dismiss' }));
    if (name) await this.wb.forgetFailure(name);
  }

  private async showLog(run: string | undefined): Promise<void> {
    const name = await this.pickRun(run, 'The run whose engine log to open');
    if (!name) return;
    if (!existsSync(this.wb.logFile(name)))
      throw new ActionError(`${name} has no engine log: it was not started from this editor.`, [ACTION.showRun], 'info', { run: name });
    await vscode.window.showTextDocument(vscode.Uri.file(this.wb.logFile(name)));
  }

  private async pickRun(run: string | undefined, placeHolder: string): Promise<string | undefined> {
    if (run) return run;
    const runs = this.wb.runs();
    if (runs.length === 0)
      throw new ActionError('config.jsonc has no runs: add one, or rehearse a phase from its code lens (no key, no cost).', [
        ACTION.addRun,
        ACTION.openConfig,
      ]);
    const picked = await vscode.window.showQuickPick(
      runs.map((r) => ({ label: r.name, description: `${r.benchmark} @ ${r.agent}`, detail: r.status })),
      { placeHolder },
    );
    return picked?.label;
  }

  /** Starts (or resumes) a run of config.jsonc, or restarts it after asking. */
  async start(run: string | undefined, start: 'resume' | 'restart'): Promise<void> {
    const name = await this.pickRun(run, 'The run to start');
    if (!name) return;
    const view = this.wb.runs().find((r) => r.name === name);
    if (view?.status === 'running')
      throw new ActionError(`${name} is already running (process ${view.pid}).`, [ACTION.showRun], 'info', { run: name });
    // A phase run or rehearsal that could not start is not in config.jsonc: start it again as it was asked for.
    const failed = this.wb.failure(name);
    if (failed && !view?.configured) {
      await this.wb.startEngine(failed.request);
      this.show(name);
      return;
    }
    if (start === 'restart' && view && view.status !== 'not started') {
      const ok = await vscode.window.showWarningMessage(`Restart ${name}? Its results so far are deleted.`, { modal: true }, 'Restart');
      if (ok !== 'Restart') return;
    }
    await this.wb.startEngine({ kind: 'configured', run: name, start });
    this.show(name);
  }

  async stop(run: string | undefined): Promise<void> {
    const name = await this.pickRun(run, 'The run to stop');
    if (!name) return;
    if (!this.wb.stop(name)) throw new ActionError(`${name} is not running.`, [ACTION.showRun], 'info', { run: name });
    void vscode.window.setStatusBarMessage(`MarathonMemBench: ${name} stops after its current step; resume it any time.`, 5000);
  }

  /** A fresh run of one phase (or from it to the end), for real or rehearsed on the stand-in. */
  async runPhase(
    target: PhaseTarget | undefined,
    scope: PartialRunRequest['scope'],
    mode: PartialRunRequest['mode'],
  ): Promise<string | undefined> {
    const rehearse = mode === 'rehearsal';
    const t =
      target ??
      (await pickPhase(
        this.wb,
        rehearse
          ? 'The phase to rehearse on the stand-in (no key, no cost)'
          : scope === 'to-end'
            ? 'The phase to run from'
            : 'The phase to run',
      ));
    if (!t) return undefined;
    const benchmark = basename(t.dir);
    const candidates = this.wb.results.config().runs.filter((r) => r.benchmark === benchmark);
    let base: string | undefined;
    if (candidates.length === 1) base = candidates[0]!.name;
    else if (candidates.length > 1) {
      base = (
        await vscode.window.showQuickPick(
          candidates.map((r) => ({ label: r.name, description: r.agent })),
          { placeHolder: `Whose agent ${rehearse ? 'to rehearse' : 'to run'}?` },
        )
      )?.label;
      if (!base) return undefined;
    } else if (!rehearse) {
      throw new ActionError(
        `config.jsonc has no run of ${benchmark}: add one to run for real, or rehearse on the stand-in (no key needed).`,
        [ACTION.rehearse, ACTION.addRun],
        'warning',
        { benchmark, target: t },
      );
    }
    const request: PartialRunRequest = {
      kind: 'partial',
      base: base ? { run: base } : { benchmark },
      from: { chapter: t.chapter, phase: t.phase },
      scope,
      mode,
    };
    const name = requestedRunName(request);
    if (this.wb.runs().find((r) => r.name === name)?.status === 'running')
      throw new ActionError(`${name} is already running.`, [ACTION.showRun], 'info', { run: name });
    await this.wb.startEngine(request);
    this.show(name);
    return name;
  }

  /** Copies the bundled benchmarks into the workspace's `benchmarks/` and opens the starter. */
  async openBundled(): Promise<void> {
    const root = this.wb.results.root;
    const target = join(root, 'benchmarks');
    const bundled = this.context.asAbsolutePath('benchmarks');
    for (const name of ['starter', 'max', 'multiday', 'filing']) {
      if (!existsSync(join(target, name)) && existsSync(join(bundled, name)))
        cpSync(join(bundled, name), join(target, name), { recursive: true });
    }
    await vscode.window.showTextDocument(vscode.Uri.file(join(target, 'starter', 'chapter1.md')));
  }
}
