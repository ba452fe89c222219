/**
 * The conversation of a run: a webview with a strict content security policy (its one script and
 * style come from the extension, by nonce and source) that shows the run chosen in the run view
 * live: where the persona is, the virtual clock, the conversation, the checks graded so far, and
 * the run's actions. It reflows from 300 px wide, and comes back after a window reload (its
 * serializer). It holds no state of its own: every refresh is rebuilt from `results/`.
 */
import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import {
  averageLabel,
  parsePanelMessage,
  plannedChecks,
  type PanelMessage,
  type PanelModelMessage,
  type PanelRunAction,
  type RunState,
} from '../../engine/src/api';
import { panelChecks, type PanelCheck } from './panelChecks';
import type { RunView } from './results';
import { ROW_ACTIONS, runRow, whereLabel, type RowStatus } from './runInfo';
import type { RunsHub } from './runsHub';

/** The webview's type: the serializer that revives it after a reload is registered under it. */
export const PANEL_VIEW_TYPE = 'marathonMemBench.runs';

/** What the webview renders (`media/panel.js`): plain data, no markup; posted as `{ type: 'model', model }`. */
export interface PanelModel {
  trusted: boolean;
  /** What to do when there is no run to show. */
  empty?: string;
  detail?: {
    run: string;
    status: RowStatus;
    /** `starter @ chatbot`, when known. */
    about?: string;
    average?: string;
    /** Where the persona is, said for the status: a run that ended is not "now" anywhere. */
    where?: string;
    virtualTime?: string;
    /** The run's error, or why it could not start. */
    error?: string;
    /** What a stand-in run's scores mean and what to try next (the engine's one line). */
    note?: string;
    /** The buttons for the run's status, in order. */
    actions: Exclude<PanelRunAction, 'select'>[];
    /** The latest entries of the conversation, oldest first. */
    transcript: { from: string; text: string; at: string; marker?: string }[];
    earlier: number;
    /** Each graded check with its band and tone (`panelChecks`): the panel colours by the tone and offers the cause below `good`. */
    checks: PanelCheck[];
    planned: number;
    benchmarkDir?: string;
    log: string[];
  };
}

const TRANSCRIPT_TAIL = 300;

/** The command each run button of the panel stands for. */
const RUN_COMMANDS: Record<Exclude<PanelRunAction, 'select'>, string> = {
  start: 'marathonMemBench.startRun',
  resume: 'marathonMemBench.resumeRun',
  restart: 'marathonMemBench.restartRun',
  stop: 'marathonMemBench.stopRun',
  log: 'marathonMemBench.showLog',
  report: 'marathonMemBench.showReport',
};

/** The state a webview keeps across reloads (`vscode.setState`): the run it shows. Untrusted like every webview value. */
function revivedRun(state: unknown): string | undefined {
  const run = typeof state === 'object' && state !== null ? (state as { run?: unknown }).run : undefined;
  return typeof run === 'string' && run.length > 0 && run.length <= 1000 ? run : undefined;
}

export class RunPanel implements vscode.Disposable, vscode.WebviewPanelSerializer {
  private panel: vscode.WebviewPanel | undefined;
  /** The panel being opened: a second `show` meanwhile waits for it rather than opening another. */
  private opening: Promise<void> | undefined;
  private selected: string | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly wb: RunsHub,
    private readonly context: vscode.ExtensionContext,
  ) {
    this.disposables.push(
      wb.onDidChange(() => this.update()),
      vscode.window.registerWebviewPanelSerializer(PANEL_VIEW_TYPE, this),
    );
  }

  show(run?: string): void {
    if (run) this.selected = run;
    if (this.panel) {
      this.panel.reveal(undefined, true);
      this.update();
      return;
    }
    this.opening ??= this.openBelow().finally(() => (this.opening = undefined));
  }

  /**
   * The conversation in a new editor group below the active one, so the chapter keeps its whole width:
   * beside it, a 1000 px window left the chapter 30 characters wide (and 1400 px about 55). The API
   * knows no widths, so the split is always down; the user may drag the group anywhere, and a reload
   * brings it back where it was. Focus goes back to the chapter, as `preserveFocus` would.
   */
  private async openBelow(): Promise<void> {
    const active = vscode.window.tabGroups.activeTabGroup;
    const split = active.tabs.length > 0;
    if (split) await vscode.commands.executeCommand('workbench.action.newGroupBelow');
    const panel = vscode.window.createWebviewPanel(
      PANEL_VIEW_TYPE,
      'Run',
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: true },
      this.options(),
    );
    this.adopt(panel);
    if (split) await vscode.commands.executeCommand('workbench.action.focusAboveGroup');
  }

  /** After a window reload: the conversation comes back, on the run it showed. */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    if (this.panel) {
      panel.dispose();
      return;
    }
    this.selected = revivedRun(state) ?? this.selected;
    panel.webview.options = this.options();
    this.adopt(panel);
  }

  private options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.context.extensionUri, 'media')],
      retainContextWhenHidden: true,
    };
  }

  private adopt(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    panel.iconPath = {
      light: vscode.Uri.joinPath(this.context.extensionUri, 'media', 'mmb-light.svg'),
      dark: vscode.Uri.joinPath(this.context.extensionUri, 'media', 'mmb-dark.svg'),
    };
    const media = vscode.Uri.joinPath(this.context.extensionUri, 'media');
    const webview = panel.webview;
    const nonce = randomBytes(16).toString('base64');
    const csp = `default-src 'none'; img-src ${webview.cspSource} data:; style-src ${webview.cspSource}; script-src 'nonce-${nonce}';`;
    webview.html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${webview.asWebviewUri(vscode.Uri.joinPath(media, 'panel.css'))}">
<title>MarathonMemBench run</title></head>
<body><main id="app" aria-live="polite"></main>
<script nonce="${nonce}" src="${webview.asWebviewUri(vscode.Uri.joinPath(media, 'panel.js'))}"></script></body></html>`;
    const listeners = [
      webview.onDidReceiveMessage((value: unknown) => {
        const message = parsePanelMessage(value);
        if (message) void this.onMessage(message);
      }),
    ];
    listeners.push(
      panel.onDidDispose(() => {
        this.panel = undefined;
        for (const l of listeners) l.dispose();
      }),
    );
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
        if (detail?.benchmarkDir)
          await vscode.commands.executeCommand('marathonMemBench.showCause', detail.benchmarkDir, m.check, detail.run);
        return;
      }
      default:
        await vscode.commands.executeCommand(RUN_COMMANDS[m.type], m.run);
    }
  }

  private update(): void {
    if (!this.panel) return;
    const model = this.model();
    this.panel.title = model.detail ? `Run: ${model.detail.run}` : 'Runs';
    const message: PanelModelMessage<PanelModel> = { type: 'model', model };
    void this.panel.webview.postMessage(message);
  }

  /**
   * The run shown: the one chosen, else the one going, else the first; a run that could not start
   * counts, and so does a run whose engine is starting with no folder yet: the panel opens on it at
   * once, never on another run until its folder comes.
   */
  private chosen(): RunView | undefined {
    const runs = this.wb.runs();
    const selected = this.selected;
    const waiting = selected && (this.wb.failure(selected) || this.wb.starting(selected));
    const own =
      runs.find((r) => r.name === selected) ??
      (waiting
        ? { name: selected, benchmark: '', agent: '', status: 'not started' as const, configured: false, average: null, graded: 0 }
        : undefined);
    return own ?? runs.find((r) => r.status === 'running') ?? runs[0];
  }

  model(): PanelModel {
    const view = this.chosen();
    const trusted = vscode.workspace.isTrusted;
    if (!view)
      return { trusted, empty: 'No runs yet. Add runs to config.jsonc, or rehearse a phase from the code lens above its ## heading.' };
    const row = runRow(view, this.wb.failure(view.name), this.wb.starting(view.name));
    const state = this.wb.results.state(view.name);
    const base = {
      run: view.name,
      status: row.status,
      actions: trusted ? ROW_ACTIONS[row.status] : ROW_ACTIONS[row.status].filter((a) => a === 'log' || a === 'report'),
      ...(view.benchmark ? { about: `${view.benchmark} @ ${view.agent}` } : {}),
      ...(view.average !== null ? { average: averageLabel(view.average) } : {}),
      ...(view.virtualTime ? { virtualTime: view.virtualTime } : {}),
      ...(row.status === 'could not start' ? { error: this.wb.failure(view.name)?.reason ?? '' } : view.error ? { error: view.error } : {}),
    };
    if (!state) return { trusted, detail: { ...base, transcript: [], earlier: 0, checks: [], planned: 0, log: [] } };
    return { trusted, detail: { ...base, ...this.played(view, state) } };
  }

  /** What a run with a state shows: where it is, its conversation and its graded checks. */
  private played(view: RunView, state: RunState): Omit<NonNullable<PanelModel['detail']>, 'run' | 'status' | 'actions'> {
    const benchmarkDir = this.wb.benchmarkDirs().find((d) => basename(d) === state.benchmark);
    const b = benchmarkDir ? this.wb.benchmark(benchmarkDir) : undefined;
    const phase = b?.chapters.find((c) => c.file === state.position.chapter)?.phases[state.position.phase];
    const switches = new Set(state.sessionSwitches.map((s) => `${s.position.chapter}#${s.position.phase}`));
    const entries = state.transcript.slice(-TRANSCRIPT_TAIL);
    let prev =
      state.transcript.length > entries.length ? state.transcript[state.transcript.length - entries.length - 1]?.position : undefined;
    const transcript = entries.map((e) => {
      const moved = !prev || prev.chapter !== e.position.chapter || prev.phase !== e.position.phase;
      prev = e.position;
      const title = b?.chapters.find((c) => c.file === e.position.chapter)?.phases[e.position.phase]?.title ?? '';
      const switched = switches.has(`${e.position.chapter}#${e.position.phase}`) ? ' · new conversation' : '';
      const marker = moved ? `${e.position.chapter} · phase ${e.position.phase + 1}${title ? `: ${title}` : ''}${switched}` : undefined;
      return { from: e.from, text: e.text, at: e.at, ...(marker ? { marker } : {}) };
    });
    const checks = panelChecks(state, b, this.wb.passScore());
    return {
      where: whereLabel(view.status, `${state.position.chapter}, phase ${state.position.phase + 1}${phase ? `: ${phase.title}` : ''}`),
      transcript,
      earlier: state.transcript.length - entries.length,
      checks,
      planned: b ? plannedChecks(state, b).length : 0,
      ...(benchmarkDir ? { benchmarkDir } : {}),
      log: state.log.slice(-20).map((l) => l.text),
      ...(view.standInNote ? { note: view.standInNote } : {}),
    };
  }

  // The panel is left open: at a window reload the serializer brings it back where it was.
  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
