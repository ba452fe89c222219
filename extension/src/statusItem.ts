/** The status bar item: how many runs go, and a click to the panel; hidden while none runs. */
import * as vscode from 'vscode';
import type { RunsHub } from './runsHub';

export function runsStatusItem(wb: RunsHub): vscode.Disposable {
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
  return {
    dispose: () => {
      sub.dispose();
      item.dispose();
    },
  };
}
