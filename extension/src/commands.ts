/**
 * The extension's commands: start, stop, resume and restart runs; phase runs (from a lens, or
 * from the palette with the phase picked); and the notification of every run started from the
 * editor that could not start or crashed. The API key commands are in apiKeys.ts, a check's
 * cause in showCause.ts.
 */
import { cpSync, existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { requestedRunName, type PartialRunRequest } from '../../engine/src/api';
import { clearApiKey, setApiKey } from './apiKeys';
import { showCause } from './showCause';
import { runArgument } from './runTree';
import type { FailedRun, RunsHub } from './runsHub';

/** The notification's actions, by the titles of what they do (*Set an API key…* is the command's own). */
const SET_KEY = 'Set an API key…';
const OPEN_LOG = 'Open the log';
const OPEN_CONFIG = 'Open config.jsonc';

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
    const what = failure.couldNotStart ? 'could not start' : 'stopped';
    const actions = [...(failure.missingKey ? [SET_KEY] : []), OPEN_LOG, ...(existsSync(this.configFile()) ? [OPEN_CONFIG] : [])];
    const picked = await vscode.window.showErrorMessage(`MarathonMemBench: ${failure.run} ${what}: ${failure.reason}`, ...actions);
    if (picked === SET_KEY) await vscode.commands.executeCommand('marathonMemBench.setApiKey', failure.missingKey);
    else if (picked === OPEN_LOG) await vscode.commands.executeCommand('marathonMemBench.showLog', failure.run);
    else if (picked === OPEN_CONFIG) await vscode.window.showTextDocument(vscode.Uri.file(this.configFile()));
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
          void vscode.window.showErrorMessage(`MarathonMemBench: ${(e as Error).message}`);
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
      c('marathonMemBench.setApiKey', (name?: unknown) => setApiKey(this.wb, typeof name === 'string' ? name : undefined)),
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
    if (!existsSync(this.wb.logFile(name))) throw new Error(`${name} has no engine log: it was not started from this editor.`);
    await vscode.window.showTextDocument(vscode.Uri.file(this.wb.logFile(name)));
  }

  private async pickRun(run: string | undefined, placeHolder: string): Promise<string | undefined> {
    if (run) return run;
    const runs = this.wb.runs();
    if (runs.length === 0)
      throw new Error('config.jsonc has no runs: add one under "runs" (see the walkthrough), or rehearse a phase from its code lens.');
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
    if (view?.status === 'running') throw new Error(`${name} is already running (process ${view.pid}).`);
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
    if (!this.wb.stop(name)) throw new Error(`${name} is not running.`);
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
      (await this.pickPhase(
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
      throw new Error(`config.jsonc has no run of ${benchmark}: add one to run for real, or rehearse on the stand-in (no key needed).`);
    }
    const request: PartialRunRequest = {
      kind: 'partial',
      base: base ? { run: base } : { benchmark },
      from: { chapter: t.chapter, phase: t.phase },
      scope,
      mode,
    };
    const name = requestedRunName(request);
    if (this.wb.runs().find((r) => r.name === name)?.status === 'running') throw new Error(`${name} is already running.`);
    await this.wb.startEngine(request);
    this.show(name);
    return name;
  }

  /**
   * From the palette: every phase of every benchmark, the chapter in the active editor first with
   * the phase at the cursor on top.
   */
  private async pickPhase(placeHolder: string): Promise<PhaseTarget | undefined> {
    type Item = vscode.QuickPickItem & { target?: PhaseTarget };
    const editor = vscode.window.activeTextEditor;
    const here = editor
      ? {
          dir: this.wb.benchmarkDirOf(editor.document.uri.fsPath),
          file: basename(editor.document.uri.fsPath),
          line: editor.selection.active.line,
        }
      : undefined;
    const first: Item[] = [];
    const rest: Item[] = [];
    for (const dir of this.wb.benchmarkDirs()) {
      const b = this.wb.benchmark(dir);
      for (const chapter of b?.chapters ?? []) {
        const ours = here?.dir === dir && here.file === chapter.file;
        const items = chapter.phases.map((phase): Item => ({
          label: `${chapter.file} · ${phase.index + 1}: ${phase.title}`,
          description: basename(dir),
          target: { dir, chapter: chapter.file, phase: phase.index + 1 },
          ...(ours && phase.range.start.line <= here.line && phase.range.end.line >= here.line
            ? { picked: true, detail: 'at the cursor' }
            : {}),
        }));
        (ours ? first : rest).push(...items);
      }
    }
    first.sort((a, b) => Number(b.picked ?? false) - Number(a.picked ?? false));
    if (first.length + rest.length === 0)
      throw new Error(
        "no benchmark under benchmarks/ has a phase: copy the bundled ones (the walkthrough's first step) or start one with mmb new.",
      );
    return (await vscode.window.showQuickPick([...first, ...rest], { placeHolder, matchOnDescription: true }))?.target;
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
