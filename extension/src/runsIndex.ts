/**
 * The runs index of `mmb view` in the editor: the same renderer in a webview, its rows from the
 * results the run view reads. Its links and buttons post `IndexMessage`s, parsed before use,
 * that open a run's report, a comparison or the trends through `ReportViews`.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import {
  COMPARE_RUNS,
  damagedRow,
  indexRow,
  OPEN_RUN,
  parseIndexMessage,
  renderRunsIndex,
  runsIndex,
  type IndexMessage,
  type IndexRow,
  type TrueStatus,
} from '../../engine/src/api';
import type { ReportViews } from './views';
import type { RunsHub } from './runsHub';

const INDEX_VIEW_TYPE = 'marathonMemBench.runsIndex';

export class RunsIndexView implements vscode.Disposable, vscode.WebviewPanelSerializer {
  private panel: vscode.WebviewPanel | undefined;
  /** What the rows said when last rendered: the page is rendered again only when a row changed. */
  private shown = '';
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly wb: RunsHub,
    private readonly views: ReportViews,
    private readonly notifyError: (error: unknown) => void,
  ) {}

  register(): vscode.Disposable[] {
    return [
      vscode.window.registerWebviewPanelSerializer(INDEX_VIEW_TYPE, this),
      vscode.commands.registerCommand('marathonMemBench.openRunsIndex', () => this.show()),
      this.wb.onDidChange(() => this.render('when-changed')),
    ];
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel): Promise<void> {
    if (this.panel) {
      panel.dispose();
      return;
    }
    this.adopt(panel);
    this.render('always');
  }

  show(): void {
    if (!this.panel)
      this.adopt(
        vscode.window.createWebviewPanel(INDEX_VIEW_TYPE, 'Runs', vscode.ViewColumn.Active, {
          enableScripts: true,
          localResourceRoots: [],
        }),
      );
    this.render('always');
    this.panel!.reveal();
  }

  /** Every run with results, as `mmb view` lists it: the true status from the lock, a run that cannot be read as damaged. */
  private rows(): IndexRow[] {
    // As `mmb view` reads them: each run's kept benchmark first; from its state alone the number of checks is unknown.
    const benchmarkOf = this.views.runBenchmarks();
    return this.wb
      .runs()
      .filter((r) => r.status !== 'not started')
      .map((r) => {
        const state = this.wb.results.state(r.name);
        if (!state) return damagedRow(r.name, r.error ?? 'its state cannot be read');
        try {
          const read = benchmarkOf(r.name, state);
          return indexRow(r.name, state, r.status as TrueStatus, read.source === 'state' ? undefined : read.benchmark);
        } catch (e) {
          return damagedRow(r.name, (e as Error).message);
        }
      });
  }

  private render(when: 'always' | 'when-changed'): void {
    const panel = this.panel;
    if (!panel) return;
    const rows = this.rows();
    const signature = JSON.stringify(rows.map((r) => [r.id, r.status, r.graded, r.average]));
    if (when === 'when-changed' && signature === this.shown) return;
    this.shown = signature;
    const nonce = randomBytes(16).toString('base64');
    panel.webview.options = { enableScripts: true, localResourceRoots: [] };
    panel.webview.html = this.wb.results.masked(
      renderRunsIndex(runsIndex(rows), { nonce, postMessageLinks: true, passScore: this.wb.passScore() }),
    );
  }

  private adopt(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    const listeners = [
      panel.webview.onDidReceiveMessage((value: unknown) => {
        const message = parseIndexMessage(value);
        if (message) void this.act(message);
      }),
      panel.onDidDispose(() => {
        this.panel = undefined;
        this.shown = '';
        for (const l of listeners) l.dispose();
      }),
    ];
  }

  /** A message of the page: only runs the run view knows are opened, whatever the page sent. */
  private async act(message: IndexMessage): Promise<void> {
    const known = new Set(this.wb.runs().map((r) => r.name));
    try {
      if (message.type === OPEN_RUN) {
        if (known.has(message.run)) await this.views.report(message.run);
        return;
      }
      const runs = message.runs.filter((run) => known.has(run));
      if (message.type === COMPARE_RUNS) await this.views.compare(runs);
      else await this.views.trends(runs.length ? runs : undefined);
    } catch (e) {
      this.notifyError(e);
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
