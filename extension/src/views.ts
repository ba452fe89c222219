/**
 * The HTML views of the CLI (`mmb report --html`, `--compare`, `--trends`) in the editor: the
 * same render functions, in a webview, with source links that open the chapter at the line.
 */
import { randomBytes } from 'node:crypto';
import { basename, join, relative, sep } from 'node:path';
import * as vscode from 'vscode';
import {
  compareRuns, computeTrends, parseReportMessage, renderComparison, renderRunReport, renderTrends, runView, type RenderOptions, type RunState,
} from '../../engine/src/api';
import { isPartialRun } from './results';
import type { Workbench } from './workbench';

export class ReportViews implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly wb: Workbench) {}

  register(): vscode.Disposable[] {
    const guard = (fn: (...a: never[]) => unknown) => async (...a: never[]) => {
      try {
        await fn(...a);
      } catch (e) {
        void vscode.window.showErrorMessage(`MarathonMemBench: ${(e as Error).message}`);
      }
    };
    return [
      vscode.commands.registerCommand('marathonMemBench.showReport', guard((run?: string) => this.report(run))),
      vscode.commands.registerCommand('marathonMemBench.compareRuns', guard((runs?: string[]) => this.compare(runs))),
      vscode.commands.registerCommand('marathonMemBench.showTrends', guard(() => this.trends())),
    ];
  }

  private states(): RunState[] {
    return this.wb.runs().flatMap((r) => {
      const s = r.status === 'not started' ? undefined : this.wb.results.state(r.name);
      return s ? [s] : [];
    });
  }

  /** The benchmark a run played, and its folder relative to the workspace, as links want it. */
  private benchmarkOf(name: string): { benchmark: NonNullable<ReturnType<Workbench['benchmark']>>; path: string } | undefined {
    const dir = this.wb.benchmarkDirs().find((d) => basename(d) === name);
    const benchmark = dir ? this.wb.benchmark(dir) : undefined;
    return dir && benchmark ? { benchmark, path: relative(this.wb.results.root, dir).split(sep).join('/') } : undefined;
  }

  async report(run?: string): Promise<void> {
    const states = this.states();
    const name = run ?? (await vscode.window.showQuickPick(states.map((s) => ({ label: s.run, description: `${s.benchmark} @ ${s.agent}`, detail: s.status }))))?.label;
    const state = states.find((s) => s.run === name);
    if (!name) return;
    if (!state) throw new Error(`${name} has no results yet.`);
    const b = this.benchmarkOf(state.benchmark);
    if (!b) throw new Error(`the benchmark ${state.benchmark} of ${name} is not in benchmarks/.`);
    this.show(`Report: ${name}`, (nonce) => renderRunReport(runView(state, b.benchmark, { benchmarkPath: b.path, prices: this.wb.results.config().prices }), this.renderOptions(nonce)));
  }

  /** How the views render in the webview: clicks post `mmb.openSource`, grades banded at the editor's pass score. */
  private renderOptions(nonce: string): RenderOptions {
    return { nonce, postMessageLinks: true, passScore: this.wb.passScore() };
  }

  async compare(runs?: string[]): Promise<void> {
    const states = this.states();
    let names = runs;
    if (!names) {
      const picked = await vscode.window.showQuickPick(states.map((s) => ({ label: s.run, description: `${s.benchmark} @ ${s.agent}` })), { canPickMany: true, placeHolder: 'Two runs or more of one benchmark' });
      names = picked?.map((p) => p.label);
    }
    if (!names) return;
    const chosen = names.map((n) => states.find((s) => s.run === n)).filter((s): s is RunState => !!s);
    if (chosen.length < 2) throw new Error('pick two runs or more to compare.');
    const benchmarks = [...new Set(chosen.map((s) => s.benchmark))];
    if (benchmarks.length > 1) throw new Error(`runs of different benchmarks cannot be compared check by check (${chosen.map((s) => `${s.run}: ${s.benchmark}`).join(', ')}).`);
    const b = this.benchmarkOf(benchmarks[0]!);
    if (!b) throw new Error(`the benchmark ${benchmarks[0]} is not in benchmarks/.`);
    this.show(`Compare: ${names.join(' vs ')}`, (nonce) => renderComparison(compareRuns(chosen, b.benchmark, b.path), this.renderOptions(nonce)));
  }

  async trends(): Promise<void> {
    // A partial run scores only the phases it played: beside full runs it would read as a jump.
    const all = this.states();
    const states = all.filter((s) => !isPartialRun(s));
    if (states.length === 0) throw new Error(all.length ? 'no full runs with results yet: Trends leaves out partial runs (phase runs, --only, --from).' : 'no runs with results yet.');
    this.show('Trends', (nonce) => renderTrends(computeTrends(states, (name) => this.benchmarkOf(name)), this.renderOptions(nonce)));
  }

  private show(title: string, html: (nonce: string) => string): void {
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel('marathonMemBench.report', title, vscode.ViewColumn.Active, { enableScripts: true, localResourceRoots: [] });
      const listeners: vscode.Disposable[] = [];
      listeners.push(this.panel.webview.onDidReceiveMessage((value: unknown) => {
        const m = parseReportMessage(value);
        if (!m) return;
        const file = join(this.wb.results.root, m.file);
        if (relative(this.wb.results.root, file).startsWith('..')) return;
        const pos = new vscode.Position(m.line - 1, 0);
        void vscode.window.showTextDocument(vscode.Uri.file(file), { selection: new vscode.Range(pos, pos), viewColumn: vscode.ViewColumn.One });
      }));
      listeners.push(this.panel.onDidDispose(() => {
        this.panel = undefined;
        for (const l of listeners) l.dispose();
      }));
    }
    this.panel.title = title;
    this.panel.webview.html = html(randomBytes(16).toString('base64'));
    this.panel.reveal();
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
