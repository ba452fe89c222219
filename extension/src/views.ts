/**
 * The HTML views of the CLI (`mmb report --html`, `--compare`, `--trends`) in the editor: the
 * same render functions, in a webview, with source links that open the chapter at the line. The
 * view shown last is kept in the workspace's state, so that a window reload renders it again.
 */
import { randomBytes } from 'node:crypto';
import { join, relative } from 'node:path';
import * as vscode from 'vscode';
import {
  BENCHMARKS_DIR,
  compareRuns,
  computeTrends,
  loadRunBenchmark,
  parseReportMessage,
  renderComparison,
  renderRunReport,
  renderTrends,
  runBenchmarkReader,
  runView,
  trendsBenchmarks,
  type RenderOptions,
  type ReportWorkspace,
  type RunBenchmark,
  type RunBenchmarkReader,
  type RunState,
  type TrueStatus,
} from '../../engine/src/api';
import { isPartialRun } from './results';
import { runArgument } from './runTree';
import type { RunsHub } from './runsHub';
import { ACTION, ActionError } from './toasts';

const REPORT_VIEW_TYPE = 'marathonMemBench.report';
const LAST_VIEW = 'marathonMemBench.lastView';

/** What the report tab shows, kept to render it again after a reload. */
type ShownView = { kind: 'report'; run: string } | { kind: 'compare'; runs: string[] } | { kind: 'trends' };

export class ReportViews implements vscode.Disposable, vscode.WebviewPanelSerializer {
  private panel: vscode.WebviewPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly wb: RunsHub,
    private readonly context: vscode.ExtensionContext,
    private readonly notifyError: (error: unknown) => void,
  ) {}

  /** After a window reload: the last view again, from today's results; closed when it cannot be rendered any more. */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel): Promise<void> {
    if (this.panel) {
      panel.dispose();
      return;
    }
    this.adopt(panel);
    const last = this.context.workspaceState.get<ShownView>(LAST_VIEW);
    try {
      if (last?.kind === 'report' && typeof last.run === 'string') await this.report(last.run);
      else if (last?.kind === 'compare' && Array.isArray(last.runs))
        await this.compare(last.runs.filter((r): r is string => typeof r === 'string'));
      else if (last?.kind === 'trends') await this.trends();
      else panel.dispose();
    } catch {
      panel.dispose();
    }
  }

  register(): vscode.Disposable[] {
    const guard =
      (fn: (...a: never[]) => unknown) =>
      async (...a: never[]) => {
        try {
          await fn(...a);
        } catch (e) {
          this.notifyError(e);
        }
      };
    return [
      vscode.window.registerWebviewPanelSerializer(REPORT_VIEW_TYPE, this),
      vscode.commands.registerCommand(
        'marathonMemBench.showReport',
        guard((run?: unknown) => this.report(runArgument(run))),
      ),
      vscode.commands.registerCommand(
        'marathonMemBench.compareRuns',
        guard((runs?: string[]) => this.compare(runs)),
      ),
      vscode.commands.registerCommand(
        'marathonMemBench.showTrends',
        guard(() => this.trends()),
      ),
    ];
  }

  private states(): RunState[] {
    return this.wb.runs().flatMap((r) => {
      const s = r.status === 'not started' ? undefined : this.wb.results.state(r.name);
      return s ? [s] : [];
    });
  }

  /** A reader of runs' benchmarks as `mmb report` reads them (`runBenchmarkReader`): for a listing of many runs. */
  runBenchmarks(): RunBenchmarkReader {
    return runBenchmarkReader(this.reportWorkspace());
  }

  async report(run?: string): Promise<void> {
    const states = this.states();
    const name =
      run ??
      (
        await vscode.window.showQuickPick(
          states.map((s) => ({ label: s.run, description: `${s.benchmark} @ ${s.agent}`, detail: s.status })),
        )
      )?.label;
    const state = states.find((s) => s.run === name);
    if (!name) return;
    if (!state) throw new ActionError(`${name} has no results yet.`, [ACTION.showRun], 'info', { run: name });
    // As `mmb report` reads it: the copy kept with the run, else the folder, else the state alone; never refused.
    const b = loadRunBenchmark(this.reportWorkspace(), name, state);
    this.show({ kind: 'report', run: name }, `Report: ${name}`, (nonce) =>
      renderRunReport(this.runViewOf(state, b), this.renderOptions(nonce)),
    );
  }

  /**
   * The run page's view model, as the CLI's: prices from config.jsonc, the memory snapshots beside
   * failed answers, traps judged at the editor's pass score, the status by the run's lock.
   */
  private runViewOf(state: RunState, b: RunBenchmark): ReturnType<typeof runView> {
    return runView(state, b.benchmark, {
      benchmarkPath: b.path,
      ...(b.note ? { benchmarkNote: b.note } : {}),
      prices: this.wb.results.config().prices,
      memory: this.wb.results.memorySnapshots(state.run),
      regrades: this.wb.results.regrades(state, b.benchmark),
      passScore: this.wb.passScore(),
      ...this.trueStatus(state.run),
    });
  }

  /** The workspace as the engine's report readers take it: the editor's runs play the workspace's own benchmarks only. */
  private reportWorkspace(): ReportWorkspace {
    const root = this.wb.results.root;
    return { root, configPath: join(root, 'config.jsonc'), bundled: join(root, BENCHMARKS_DIR) };
  }

  /** The run's status by its lock, as the run view shows it: a state that says running may have been stopped. */
  private trueStatus(name: string): { status?: TrueStatus } {
    const status = this.wb.runs().find((r) => r.name === name)?.status;
    return status && status !== 'not started' && status !== 'damaged' ? { status } : {};
  }

  /** How the views render in the webview: clicks post `mmb.openSource`, grades banded at the editor's pass score. */
  private renderOptions(nonce: string): RenderOptions {
    return { nonce, postMessageLinks: true, passScore: this.wb.passScore() };
  }

  async compare(runs?: string[]): Promise<void> {
    const states = this.states();
    let names = runs;
    if (!names) {
      const picked = await vscode.window.showQuickPick(
        states.map((s) => ({ label: s.run, description: `${s.benchmark} @ ${s.agent}` })),
        { canPickMany: true, placeHolder: 'Two runs or more of one benchmark' },
      );
      names = picked?.map((p) => p.label);
    }
    if (!names) return;
    const chosen = names.map((n) => states.find((s) => s.run === n)).filter((s): s is RunState => !!s);
    if (chosen.length < 2) throw new ActionError('pick two runs or more to compare.', [], 'info');
    const benchmarks = [...new Set(chosen.map((s) => s.benchmark))];
    if (benchmarks.length > 1)
      throw new ActionError(
        `runs of different benchmarks cannot be compared check by check (${chosen.map((s) => `${s.run}: ${s.benchmark}`).join(', ')}).`,
        [],
        'info',
      );
    const b = loadRunBenchmark(this.reportWorkspace(), chosen[0]!.run, chosen[0]!);
    this.show({ kind: 'compare', runs: names }, `Compare: ${names.join(' vs ')}`, (nonce) =>
      renderComparison(compareRuns(chosen, b.benchmark, b.path, this.wb.passScore()), this.renderOptions(nonce)),
    );
  }

  /** The trends of the runs named (the runs index's selection), or of every run. */
  async trends(runs?: readonly string[]): Promise<void> {
    // A partial run scores only the phases it played: beside full runs it would read as a jump.
    const all = this.states().filter((s) => !runs || runs.includes(s.run));
    const states = all.filter((s) => !isPartialRun(s));
    if (states.length === 0)
      throw new ActionError(
        all.length
          ? 'no full runs with results yet: Trends leaves out partial runs (phase runs, --only, --from a later phase, --filter).'
          : 'no runs with results yet.',
        [],
        'info',
      );
    this.show({ kind: 'trends' }, 'Trends', (nonce) =>
      renderTrends(
        computeTrends(
          states,
          trendsBenchmarks(
            this.reportWorkspace(),
            states.map((state) => ({ id: state.run, state })),
          ),
        ),
        this.renderOptions(nonce),
      ),
    );
  }

  private adopt(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    const listeners: vscode.Disposable[] = [];
    listeners.push(
      panel.webview.onDidReceiveMessage((value: unknown) => {
        const m = parseReportMessage(value);
        if (!m) return;
        const file = join(this.wb.results.root, m.file);
        if (relative(this.wb.results.root, file).startsWith('..')) return;
        const pos = new vscode.Position(m.line - 1, 0);
        void vscode.window.showTextDocument(vscode.Uri.file(file), {
          selection: new vscode.Range(pos, pos),
          viewColumn: vscode.ViewColumn.One,
        });
      }),
    );
    listeners.push(
      panel.onDidDispose(() => {
        this.panel = undefined;
        for (const l of listeners) l.dispose();
      }),
    );
  }

  private show(shown: ShownView, title: string, html: (nonce: string) => string): void {
    if (!this.panel)
      this.adopt(
        vscode.window.createWebviewPanel(REPORT_VIEW_TYPE, title, vscode.ViewColumn.Active, {
          enableScripts: true,
          localResourceRoots: [],
        }),
      );
    const panel = this.panel!;
    panel.webview.options = { enableScripts: true, localResourceRoots: [] };
    panel.title = title;
    panel.webview.html = this.wb.results.masked(html(randomBytes(16).toString('base64')));
    panel.reveal();
    void this.context.workspaceState.update(LAST_VIEW, shown);
  }

  // The tab is left open: at a window reload the serializer renders it again.
  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
