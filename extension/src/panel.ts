/**
 * The run panel: a webview with a strict content security policy (its one script and style come
 * from the extension, by nonce and source). It lists the runs with status and score, and shows
 * the selected run live: where the persona is, the virtual clock, the conversation, the checks
 * graded so far. It holds no state of its own: every refresh is rebuilt from `results/`.
 */
import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { parsePanelMessage, plannedChecks, scoreBand, type PanelMessage, type PanelModelMessage, type PanelRunAction, type ScoreBand } from '../../engine/src/api';
import type { RunView } from './results';
import type { Workbench } from './workbench';

/** What the webview renders (`media/panel.js`): plain data, no markup; posted as `{ type: 'model', model }`. */
export interface PanelModel {
  trusted: boolean;
  runs: RunView[];
  selected?: string;
  detail?: {
    run: string;
    status: string;
    position: string;
    virtualTime?: string;
    error?: string;
    /** The latest entries of the conversation, oldest first. */
    transcript: { from: string; text: string; at: string; marker?: string }[];
    earlier: number;
    /** Each graded check with its band (`scoreBand` at the pass score): the panel colours by it and offers the cause below `good`. */
    checks: { id: string; question: string; expected: string; got: string; score: number; band: ScoreBand; attempt: number; comment: string }[];
    planned: number;
    benchmarkDir?: string;
    log: string[];
  };
}

const TRANSCRIPT_TAIL = 300;

/** The command each run button of the panel stands for. */
const RUN_COMMANDS: Record<Exclude<PanelRunAction, 'select'>, string> = {
  start: 'marathonMemBench.startRun', resume: 'marathonMemBench.resumeRun', restart: 'marathonMemBench.restartRun',
  stop: 'marathonMemBench.stopRun', log: 'marathonMemBench.showLog', report: 'marathonMemBench.showReport',
};

export class RunPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private selected: string | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly wb: Workbench, private readonly context: vscode.ExtensionContext) {
    this.disposables.push(wb.onDidChange(() => this.update()));
  }

  show(run?: string): void {
    if (run) this.selected = run;
    if (this.panel) {
      this.panel.reveal(undefined, true);
      this.update();
      return;
    }
    const media = vscode.Uri.joinPath(this.context.extensionUri, 'media');
    this.panel = vscode.window.createWebviewPanel('marathonMemBench.runs', 'MarathonMemBench runs', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
      enableScripts: true,
      localResourceRoots: [media],
      retainContextWhenHidden: true,
    });
    const webview = this.panel.webview;
    const nonce = randomBytes(16).toString('base64');
    const csp = `default-src 'none'; img-src ${webview.cspSource} data:; style-src ${webview.cspSource}; script-src 'nonce-${nonce}';`;
    webview.html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${webview.asWebviewUri(vscode.Uri.joinPath(media, 'panel.css'))}">
<title>MarathonMemBench runs</title></head>
<body><main id="app" aria-live="polite"></main>
<script nonce="${nonce}" src="${webview.asWebviewUri(vscode.Uri.joinPath(media, 'panel.js'))}"></script></body></html>`;
    const listeners = [webview.onDidReceiveMessage((value: unknown) => {
      const message = parsePanelMessage(value);
      if (message) void this.onMessage(message);
    })];
    listeners.push(this.panel.onDidDispose(() => {
      this.panel = undefined;
      for (const l of listeners) l.dispose();
    }));
    this.update();
  }

  private async onMessage(m: PanelMessage): Promise<void> {
    switch (m.type) {
      case 'compare':
        await vscode.commands.executeCommand('marathonMemBench.compareRuns');
        return;
      case 'trends':
        await vscode.commands.executeCommand('marathonMemBench.showTrends');
        return;
      case 'ready':
        this.update();
        return;
      case 'select':
        this.selected = m.run;
        this.update();
        return;
      case 'cause': {
        const detail = this.model().detail;
        if (detail?.benchmarkDir) await vscode.commands.executeCommand('marathonMemBench.showCause', detail.benchmarkDir, m.check, detail.run);
        return;
      }
      default:
        await vscode.commands.executeCommand(RUN_COMMANDS[m.type], m.run);
    }
  }

  private update(): void {
    if (!this.panel) return;
    const message: PanelModelMessage<PanelModel> = { type: 'model', model: this.model() };
    void this.panel.webview.postMessage(message);
  }

  model(): PanelModel {
    const runs = this.wb.runs();
    // A run just started may have no folder yet: the selection waits for it rather than moving on.
    const view = runs.find((r) => r.name === this.selected) ?? runs.find((r) => r.status === 'running') ?? runs[0];
    const model: PanelModel = { trusted: vscode.workspace.isTrusted, runs, ...(view ? { selected: view.name } : {}) };
    const state = view ? this.wb.results.state(view.name) : undefined;
    if (!view || !state) return model;
    const benchmarkDir = this.wb.benchmarkDirs().find((d) => basename(d) === state.benchmark);
    const b = benchmarkDir ? this.wb.benchmark(benchmarkDir) : undefined;
    const chapter = b?.chapters.find((c) => c.file === state.position.chapter);
    const phase = chapter?.phases[state.position.phase];
    const switches = new Set(state.sessionSwitches.map((s) => `${s.position.chapter}#${s.position.phase}`));
    const entries = state.transcript.slice(-TRANSCRIPT_TAIL);
    let prev = state.transcript.length > entries.length ? state.transcript[state.transcript.length - entries.length - 1]?.position : undefined;
    const transcript = entries.map((e) => {
      const moved = !prev || prev.chapter !== e.position.chapter || prev.phase !== e.position.phase;
      prev = e.position;
      const title = b?.chapters.find((c) => c.file === e.position.chapter)?.phases[e.position.phase]?.title ?? '';
      const marker = moved ? `${e.position.chapter} · phase ${e.position.phase + 1}${title ? `: ${title}` : ''}${switches.has(`${e.position.chapter}#${e.position.phase}`) ? ' · new conversation' : ''}` : undefined;
      return { from: e.from, text: e.text, at: e.at, ...(marker ? { marker } : {}) };
    });
    const pass = this.wb.passScore();
    const checks = Object.entries(state.grades).flatMap(([id, grades]) => {
      const g = grades[grades.length - 1];
      const c = b?.checks.find((x) => x.check.id === id)?.check;
      return g ? [{ id, question: c?.question ?? '', expected: c?.answer ?? '', got: g.answer, score: g.effective, band: scoreBand(g.effective, pass), attempt: g.attempt, comment: g.comment }] : [];
    });
    model.detail = {
      run: view.name,
      status: view.status,
      position: `${state.position.chapter}, phase ${state.position.phase + 1}${phase ? `: ${phase.title}` : ''}`,
      ...(view.virtualTime ? { virtualTime: view.virtualTime } : {}),
      ...(view.error ? { error: view.error } : {}),
      transcript,
      earlier: state.transcript.length - entries.length,
      checks,
      planned: b ? plannedChecks(state, b).length : 0,
      ...(benchmarkDir ? { benchmarkDir } : {}),
      log: state.log.slice(-20).map((l) => l.text),
    };
    return model;
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** The status bar item: how many runs go, and a click to the panel. */
export function runsStatusItem(wb: Workbench): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('marathonMemBench.runs', vscode.StatusBarAlignment.Left, 10);
  item.name = 'MarathonMemBench runs';
  item.command = 'marathonMemBench.openPanel';
  const update = () => {
    const running = wb.runs().filter((r) => r.status === 'running');
    if (running.length === 0) {
      item.hide();
      return;
    }
    item.text = `$(sync~spin) ${running.length === 1 ? running[0]!.name : `${running.length} runs`}`;
    item.tooltip = running.map((r) => `${r.name}: ${r.chapter ?? ''} phase ${r.phase ?? ''}, ${r.graded} graded`).join('\n');
    item.show();
  };
  const sub = wb.onDidChange(update);
  update();
  return { dispose: () => { sub.dispose(); item.dispose(); } };
}

