/**
 * The code lenses of a chapter: above each phase the ways to run it (run it, run from it, rehearse
 * it), and above each graded check its latest score, the run that gave it, and a link to what caught it.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { PhaseTarget } from './commands';
import { chapterMarks, type CheckMark } from './chapterMarks';
import type { ChapterCache } from './chapterCache';
import { gradeLensLabel, gradeLensTooltip, phaseLensSpecs } from './lensWords';
import type { RunsHub } from './runsHub';

function lensTitle(mark: CheckMark): string {
  if (mark.passed) return `$(pass) ${gradeLensLabel(mark.grade)}`;
  if (mark.blamed) return `$(error) ${gradeLensLabel(mark.grade)}`;
  // Why it does not count is in the hover: a lens stays one short line.
  return `$(circle-slash) ${gradeLensLabel(mark.grade)}`;
}

export class ChapterLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];

  /** What each document's lenses were built from: the grades they show. */
  private provided = new Map<string, string>();

  constructor(
    private readonly wb: RunsHub,
    private readonly chapters: ChapterCache,
  ) {
    this.disposables.push(
      wb.onDidChange(() => this.changed.fire()),
      // The phase lenses need trust: ask for them again the moment it is granted, not at the next edit.
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire()),
      // Lenses of an editor hidden while a run finished are not asked for again when it shows: ask,
      // but only when its grades changed since (a refresh moves the editor's scroll position).
      vscode.window.onDidChangeVisibleTextEditors((editors) => {
        if (
          editors.some(
            (e) =>
              this.provided.has(e.document.uri.toString()) && this.provided.get(e.document.uri.toString()) !== this.signature(e.document),
          )
        )
          this.changed.fire();
      }),
    );
  }

  private signature(doc: vscode.TextDocument): string {
    const at = this.chapters.chapterOf(doc);
    if (!at) return '';
    // A run added to config.jsonc turns the phase lenses from *Add a run…* into *Run phase*.
    const runs = this.wb.results.config().runs.filter((r) => r.benchmark === basename(at.dir)).length;
    const grades = [...this.wb.results.latestGrades(at.benchmark.name)].map(([id, g]) => `${id}:${g.run}:${g.grade.at}`);
    return [`runs:${runs}`, ...grades].join('|');
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const at = this.chapters.chapterOf(doc);
    if (!at) return [];
    const chapter = at.benchmark.chapters.find((c) => c.file === at.file);
    if (!chapter) return [];
    const lenses: vscode.CodeLens[] = [];
    const range = (line: number) => new vscode.Range(line, 0, line, 0);
    if (vscode.workspace.isTrusted) {
      const benchmark = basename(at.dir);
      const runs = this.wb.results.config().runs.filter((r) => r.benchmark === benchmark).length;
      const specs = phaseLensSpecs(benchmark, runs);
      for (const phase of chapter.phases) {
        const t: PhaseTarget = { dir: at.dir, chapter: at.file, phase: phase.index + 1 };
        const r = range(phase.headingRange.start.line);
        lenses.push(...specs.map((spec) => new vscode.CodeLens(r, { ...spec, arguments: [t] })));
      }
    }
    const latest = this.wb.results.latestGrades(at.benchmark.name);
    this.provided.set(doc.uri.toString(), this.signature(doc));
    // Ungraded checks get no lens: a "not graded yet" line above every check doubles a chapter's height.
    for (const mark of chapterMarks(at.benchmark, at.file, latest, this.wb.passScore()).checks) {
      lenses.push(
        new vscode.CodeLens(range(mark.located.check.range.start.line), {
          title: lensTitle(mark),
          command: 'marathonMemBench.showCause',
          arguments: [at.dir, mark.located.check.id, mark.grade.run],
          tooltip: gradeLensTooltip(mark.grade),
        }),
      );
    }
    return lenses;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.changed.dispose();
  }
}
