/**
 * The phase a palette command runs: every phase of every benchmark, the chapter in the active
 * editor first with the phase at the cursor on top.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { PhaseTarget } from './commands';
import type { RunsHub } from './runsHub';
import { ACTION, ActionError } from './toasts';

export async function pickPhase(wb: RunsHub, placeHolder: string): Promise<PhaseTarget | undefined> {
  type Item = vscode.QuickPickItem & { target?: PhaseTarget };
  const editor = vscode.window.activeTextEditor;
  const here = editor
    ? {
        dir: wb.benchmarkDirOf(editor.document.uri.fsPath),
        file: basename(editor.document.uri.fsPath),
        line: editor.selection.active.line,
      }
    : undefined;
  const first: Item[] = [];
  const rest: Item[] = [];
  for (const dir of wb.benchmarkDirs()) {
    const b = wb.benchmark(dir);
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
    throw new ActionError(
      "no benchmark under benchmarks/ has a phase: copy the bundled ones (the walkthrough's first step) or start one with mmb new.",
      [ACTION.copyBundled],
    );
  return (await vscode.window.showQuickPick([...first, ...rest], { placeHolder, matchOnDescription: true }))?.target;
}
