/** The command from a failed check to what caught it: a quick pick of trap writes and memory lines, each opening its place. */
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { checkCause } from './checkCause';
import type { RunsHub } from './runsHub';

/**
 * From a failed check to its cause: the trap writes aimed at it, and the lines of the agent's
 * memory snapshot that hold the expected value or a planted one.
 */
export async function showCause(wb: RunsHub, dir?: string, checkId?: string, run?: string): Promise<void> {
  if (!dir || !checkId) {
    const editor = vscode.window.activeTextEditor;
    const d = editor && wb.benchmarkDirOf(editor.document.uri.fsPath);
    const b = d ? wb.benchmark(d) : undefined;
    const line = editor?.selection.active.line;
    const here = b?.checks.find(
      (c) => c.file === basename(editor!.document.uri.fsPath) && c.check.range.start.line <= line! && c.check.range.end.line >= line!,
    );
    if (!d || !here) throw new Error('put the cursor on a check line (❓) to see what caught it.');
    dir = d;
    checkId = here.check.id;
  }
  const b = wb.benchmark(dir);
  if (!b) throw new Error(`${dir} cannot be read as a benchmark.`);
  const grade = run ? wb.results.grade(run, checkId) : wb.results.latestGrades(b.name).get(checkId);
  const graded = run ?? grade?.run;
  const snapshot = graded ? wb.results.latestSnapshot(graded) : undefined;
  // Only the trap writes the run played, and the values as that run's dates wrote them.
  const cause = checkCause(b, checkId, snapshot, grade);
  type Item = vscode.QuickPickItem & { uri?: vscode.Uri; line?: number };
  const items: Item[] = [];
  items.push({ label: 'Trap writes aimed at the check', kind: vscode.QuickPickItemKind.Separator });
  if (cause.traps.length === 0 && cause.unplayed.length === 0) items.push({ label: '$(info) No trap write aims at this check' });
  for (const t of cause.traps)
    items.push({
      label: `$(debug-breakpoint-function) ${t.type}`,
      description: `${t.file}:${t.line + 1}`,
      detail: t.text,
      uri: vscode.Uri.file(join(dir, t.file)),
      line: t.line,
    });
  // A partial run never heard these: listed to reach them, apart, and never as the cause.
  if (cause.trapsNote)
    items.push(
      { label: 'Not played by this run: not a cause', kind: vscode.QuickPickItemKind.Separator },
      { label: `$(info) ${cause.trapsNote}` },
    );
  for (const t of cause.unplayed)
    items.push({
      label: `$(circle-slash) ${t.type}`,
      description: `${t.file}:${t.line + 1}`,
      detail: t.text,
      uri: vscode.Uri.file(join(dir, t.file)),
      line: t.line,
    });
  items.push({ label: `The agent's memory${graded ? ` after ${graded}` : ''}`, kind: vscode.QuickPickItemKind.Separator });
  if (cause.memoryNote) items.push({ label: `$(info) ${cause.memoryNote}` });
  for (const m of cause.memory) {
    items.push({
      label: m.kind === 'expected' ? `$(pass) expected value "${m.value}"` : `$(warning) stale value "${m.value}"`,
      description: `${m.file}:${m.line + 1}`,
      detail: m.text,
      uri: vscode.Uri.file(join(snapshot!, m.file)),
      line: m.line,
    });
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: `Check ${checkId}: what caught it`,
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (picked?.uri) {
    const pos = new vscode.Position(picked.line ?? 0, 0);
    // From the panel (a webview) there is no active editor: open beside it, not over it.
    await vscode.window.showTextDocument(picked.uri, {
      selection: new vscode.Range(pos, pos),
      viewColumn: vscode.window.activeTextEditor?.viewColumn ?? vscode.ViewColumn.One,
    });
  }
}
