/**
 * The run view: the runs as a native tree in the project's own activity-bar container, one row a
 * run with its status icon in a theme colour, score and progress, and inline actions. Rows keep
 * their order while runs go; a run that could not start keeps its row, with the reason. A long run
 * id is cut in its middle, so that a narrow side bar still shows the status and score after it.
 */
import * as vscode from 'vscode';
import type { RunView } from './results';
import { runLabel, runRow, stableOrder, type RunRow } from './runInfo';
import type { RunsHub } from './runsHub';

/** A row of the run view: what its inline actions and its click get as their argument. */
export interface RunNode {
  name: string;
}

/** The run a command was given: a run name (the panel, a lens, a test) or a row of the run view. */
export function runArgument(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  const name = typeof value === 'object' && value !== null ? (value as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : undefined;
}

export class RunTree implements vscode.TreeDataProvider<RunNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private rows = new Map<string, RunRow>();
  private readonly view: vscode.TreeView<RunNode>;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly wb: RunsHub) {
    this.view = vscode.window.createTreeView('marathonMemBench.runs', { treeDataProvider: this });
    this.disposables.push(
      this.view,
      this.changed,
      wb.onDidChange(() => this.changed.fire()),
      vscode.commands.registerCommand('marathonMemBench.refreshRuns', () => this.changed.fire()),
    );
  }

  /** The rows as they stand: the runs of `results/` and config.jsonc, and the runs that could not start. */
  rowsNow(): RunRow[] {
    const failures = this.wb.failures();
    const views: RunView[] = this.wb.runs();
    // A run whose engine is starting has a row at once, before its folder exists.
    for (const run of [...Object.keys(failures), ...this.wb.startingRuns()]) {
      if (views.some((v) => v.name === run)) continue;
      views.push({ name: run, benchmark: '', agent: '', status: 'not started', configured: false, average: null, graded: 0 });
    }
    const now = new Date().toISOString();
    const startedAt = (run: string) =>
      this.wb.results.state(run)?.startedAt ?? failures[run]?.at ?? (this.wb.starting(run) ? now : undefined);
    const ordered = stableOrder(views, startedAt);
    return ordered.map((v) => runRow(v, failures[v.name], this.wb.starting(v.name)));
  }

  getChildren(element?: RunNode): RunNode[] {
    if (element) return [];
    const rows = this.rowsNow();
    this.rows = new Map(rows.map((r) => [r.name, r]));
    const running = rows.filter((r) => r.status === 'running').length;
    this.view.badge = running ? { value: running, tooltip: `${running} run${running === 1 ? '' : 's'} going` } : undefined;
    return rows.map((r) => ({ name: r.name }));
  }

  getTreeItem(node: RunNode): vscode.TreeItem {
    const row = this.rows.get(node.name);
    // A long id is cut in its middle (`runLabel`), so the status and score after it stay in view; the tooltip has it whole.
    const item = new vscode.TreeItem(runLabel(node.name), vscode.TreeItemCollapsibleState.None);
    item.id = node.name;
    if (!row) return item;
    item.description = row.description;
    item.tooltip = new vscode.MarkdownString(row.tooltip.map((line) => escapeMarkdown(line)).join('  \n'));
    item.iconPath = new vscode.ThemeIcon(row.icon, row.colour ? new vscode.ThemeColor(row.colour) : undefined);
    item.contextValue = row.contextValue;
    item.accessibilityInformation = { label: `${row.name}, ${row.description}` };
    item.command = { command: 'marathonMemBench.openPanel', title: 'Show the conversation', arguments: [node.name] };
    return item;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/** Run names and reasons are data: shown as text, never as markdown or links. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!<>|~]/g, (c) => `\\${c}`);
}
