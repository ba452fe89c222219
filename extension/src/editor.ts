/**
 * What a chapter shows in the editor: code lenses above each phase (run it, run from it, rehearse
 * it), and on each graded check one quiet mark: a gutter icon on its first line and a score lens,
 * with the detail in the hover. Red is kept for checks that failed in a run that played the trap
 * writes aimed at them; a trap line is marked once, when it caught a check in such a run.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { Benchmark } from '../../scenario/src';
import type { PhaseTarget } from './commands';
import {
  asInRun,
  chapterMarks,
  notCountedReason,
  playedRange,
  withChapterText,
  type CheckIcon,
  type CheckMark,
  type TrapMark,
} from './chapterMarks';
import type { LatestGrade } from './results';
import type { RunsHub } from './runsHub';
import { shorten } from '../../scenario/src/plainText';

const ICONS: readonly CheckIcon[] = ['good', 'fair', 'poor', 'unplayed'];
/** Overview ruler marks for failures the run is to blame for, so they can be found in a long chapter. */
const RULER: Partial<Record<CheckIcon, string>> = { fair: '#d2992280', poor: '#f8514980' };

interface ChapterAt {
  dir: string;
  benchmark: Benchmark;
  file: string;
}

/** The chapter a document is, with the benchmark as the editor holds it now (unsaved text in place of the file's). */
class ChapterCache {
  private readonly byDocument = new Map<string, { version: number; source: Benchmark; at: ChapterAt }>();

  constructor(private readonly wb: RunsHub) {}

  chapterOf(doc: vscode.TextDocument): ChapterAt | undefined {
    if (doc.uri.scheme !== 'file' || doc.languageId !== 'markdown') return undefined;
    // Runs play `benchmarks/<name>` alone: a copy elsewhere would get another benchmark's scores.
    const dir = this.wb.benchmarkDirOf(doc.uri.fsPath);
    const source = dir ? this.wb.benchmark(dir) : undefined;
    const file = basename(doc.uri.fsPath);
    if (!dir || !source || !source.chapters.some((c) => c.file === file)) return undefined;
    const key = doc.uri.toString();
    const cached = this.byDocument.get(key);
    if (cached && cached.version === doc.version && cached.source === source) return cached.at;
    const at = { dir, file, benchmark: doc.isDirty ? withChapterText(source, file, doc.getText()) : source };
    this.byDocument.set(key, { version: doc.version, source, at });
    return at;
  }

  forget(doc: vscode.TextDocument): void {
    this.byDocument.delete(doc.uri.toString());
  }
}

/** `3/10 · notes`, with the attempt and whether the run played some phases only. */
export function scoreLabel(grade: LatestGrade): string {
  const s = grade.grade;
  return `${s.effective}/10${s.attempt === 2 ? ' (2nd attempt)' : ''} · ${grade.run}${grade.phases ? ' (partial)' : ''}`;
}

function lensTitle(mark: CheckMark): string {
  if (mark.passed) return `$(pass) ${scoreLabel(mark.grade)}`;
  if (mark.blamed) return `$(error) ${scoreLabel(mark.grade)}`;
  // Why it does not count is in the hover: a lens stays one short line.
  return `$(circle-slash) ${scoreLabel(mark.grade)}`;
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
    return [...this.wb.results.latestGrades(at.benchmark.name)].map(([id, g]) => `${id}:${g.run}:${g.grade.at}`).join('|');
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const at = this.chapters.chapterOf(doc);
    if (!at) return [];
    const chapter = at.benchmark.chapters.find((c) => c.file === at.file);
    if (!chapter) return [];
    const lenses: vscode.CodeLens[] = [];
    const range = (line: number) => new vscode.Range(line, 0, line, 0);
    if (vscode.workspace.isTrusted) {
      for (const phase of chapter.phases) {
        const t: PhaseTarget = { dir: at.dir, chapter: at.file, phase: phase.index + 1 };
        const r = range(phase.headingRange.start.line);
        lenses.push(
          new vscode.CodeLens(r, {
            title: '$(play) Run phase',
            command: 'marathonMemBench.runPhase',
            arguments: [t],
            tooltip: 'A fresh run of just this phase, to see how the persona plays it',
          }),
          new vscode.CodeLens(r, {
            title: 'Run from here',
            command: 'marathonMemBench.runFromHere',
            arguments: [t],
            tooltip: 'A fresh run from this phase to the end',
          }),
          new vscode.CodeLens(r, {
            title: '$(beaker) Rehearse',
            command: 'marathonMemBench.rehearsePhase',
            arguments: [t],
            tooltip: 'This phase on the stand-in model: no key, no cost',
          }),
        );
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
          tooltip: "What caught it: the trap writes and the agent's memory",
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

/** The gutter icon of each graded check and caught trap line, and the hovers with the detail. */
export class ScoreDecorations implements vscode.Disposable {
  private readonly icons: Record<CheckIcon, vscode.TextEditorDecorationType>;
  /** The trap lines that caught a check: one icon each, however many of their checks failed. */
  private readonly trapIcon: vscode.TextEditorDecorationType;
  /** No style: it carries the hover over a check's every line. */
  private readonly hovers: vscode.TextEditorDecorationType;
  private readonly disposables: vscode.Disposable[] = [];
  private pending: NodeJS.Timeout | undefined;

  constructor(
    private readonly wb: RunsHub,
    context: vscode.ExtensionContext,
    private readonly chapters: ChapterCache,
  ) {
    const make = (icon: CheckIcon) =>
      vscode.window.createTextEditorDecorationType({
        gutterIconPath: context.asAbsolutePath(`media/score-${icon}.svg`),
        gutterIconSize: '80%',
        ...(RULER[icon] ? { overviewRulerColor: RULER[icon], overviewRulerLane: vscode.OverviewRulerLane.Right } : {}),
      });
    this.icons = { good: make('good'), fair: make('fair'), poor: make('poor'), unplayed: make('unplayed') };
    this.trapIcon = vscode.window.createTextEditorDecorationType({
      gutterIconPath: context.asAbsolutePath('media/trap-caught.svg'),
      gutterIconSize: '80%',
    });
    this.hovers = vscode.window.createTextEditorDecorationType({});
    this.disposables.push(
      wb.onDidChange(() => this.refresh()),
      vscode.window.onDidChangeVisibleTextEditors(() => this.refresh()),
      vscode.workspace.onDidSaveTextDocument(() => this.refresh()),
      // Marks follow the text as it is typed, a moment after the typing stops.
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (vscode.window.visibleTextEditors.some((e) => e.document === event.document)) this.refreshSoon();
      }),
      vscode.workspace.onDidCloseTextDocument((doc) => this.chapters.forget(doc)),
    );
    this.refresh();
  }

  private refreshSoon(): void {
    clearTimeout(this.pending);
    this.pending = setTimeout(() => this.refresh(), 300);
  }

  refresh(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      const at = this.chapters.chapterOf(editor.document);
      const sets: Record<CheckIcon, vscode.DecorationOptions[]> = { good: [], fair: [], poor: [], unplayed: [] };
      const hovers: vscode.DecorationOptions[] = [];
      const traps: vscode.DecorationOptions[] = [];
      if (at) {
        const marks = chapterMarks(at.benchmark, at.file, this.wb.results.latestGrades(at.benchmark.name), this.wb.passScore());
        for (const mark of marks.checks) {
          const r = mark.located.check.range;
          // The icon on the first line only: a range over a check's continuation lines puts one on each.
          sets[mark.icon].push({ range: new vscode.Range(r.start.line, 0, r.start.line, 0) });
          hovers.push({
            range: new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character),
            hoverMessage: checkHover(at.dir, mark),
          });
        }
        for (const trap of marks.traps) {
          const r = trap.located.trap.range;
          traps.push({ range: new vscode.Range(r.start.line, 0, r.start.line, 0) });
          hovers.push({
            range: new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character),
            hoverMessage: trapHover(trap),
          });
        }
      }
      for (const icon of ICONS) editor.setDecorations(this.icons[icon], sets[icon]);
      editor.setDecorations(this.trapIcon, traps);
      editor.setDecorations(this.hovers, hovers);
    }
  }

  dispose(): void {
    clearTimeout(this.pending);
    for (const t of Object.values(this.icons)) t.dispose();
    this.trapIcon.dispose();
    this.hovers.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** The lenses and the decorations, sharing one view of each open chapter. */
export function editorMarks(wb: RunsHub, context: vscode.ExtensionContext): vscode.Disposable[] {
  const chapters = new ChapterCache(wb);
  const lenses = new ChapterLenses(wb, chapters);
  return [
    lenses,
    vscode.languages.registerCodeLensProvider({ scheme: 'file', language: 'markdown' }, lenses),
    new ScoreDecorations(wb, context, chapters),
  ];
}

const md = (text: string) => text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');

/** Untrusted texts (a model's answer, a grader's comment) shown in a hover are bounded. */
const bounded = (text: string) => shorten(text, 2000);

export function checkHover(dir: string, mark: CheckMark): vscode.MarkdownString {
  const { check } = mark.located;
  const g = mark.grade;
  const s = g.grade;
  const args = encodeURIComponent(JSON.stringify([dir, check.id, g.run]));
  const out = new vscode.MarkdownString(undefined, true);
  out.isTrusted = { enabledCommands: ['marathonMemBench.showCause'] };
  const attempt = s.attempt === 2 ? ` (2nd attempt: ${s.score}/10 halved)` : '';
  out.appendMarkdown(`**❓ ${check.id} · ${s.effective}/10**${attempt} · run \`${g.run.replace(/`/g, '')}\`\n\n`);
  const range = playedRange(g);
  if (range) out.appendMarkdown(`_A partial run: it played ${md(range)}._\n\n`);
  const notCounted = notCountedReason(mark);
  if (notCounted) out.appendMarkdown(`_${md(notCounted)}_\n\n`);
  if (g.standInNote && !mark.passed) out.appendMarkdown(`_💡 ${md(g.standInNote)}_\n\n`);
  out.appendMarkdown(`**Question:** ${md(asInRun(check.question, g))}\n\n**Expected:** ${md(asInRun(check.answer, g))}\n\n`);
  out.appendMarkdown(`**Agent:** ${md(bounded(s.answer))}\n\n**Grader:** ${md(bounded(s.comment))}\n\n`);
  out.appendMarkdown(
    `[$(debug-breakpoint-function) What caught it: trap writes and the agent's memory](command:marathonMemBench.showCause?${args})`,
  );
  return out;
}

function trapHover(trap: TrapMark): vscode.MarkdownString {
  const out = new vscode.MarkdownString(undefined, true);
  out.appendMarkdown(
    `**🪤 ${trap.located.trap.type}** caught ${trap.caught.length === 1 ? 'a check' : `${trap.caught.length} checks`}:\n\n`,
  );
  for (const c of trap.caught)
    out.appendMarkdown(`- ❓ ${c.located.check.id} · ${c.grade.grade.effective}/10 in \`${c.grade.run.replace(/`/g, '')}\`\n`);
  return out;
}
