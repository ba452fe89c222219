/**
 * What a chapter shows in the editor: code lenses above each phase (run it, run from it, rehearse
 * it) and above each check (its latest score), and each check line coloured by that score with a
 * hover that tells the question, the answers, the grader's comment and the way to the cause.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { Benchmark, LocatedCheck } from '../../scenario/src';
import type { LatestGrade } from './results';
import type { PhaseTarget } from './commands';
import { passes, SCORE_BANDS, scoreBand, type ScoreBand } from '../../engine/src/api';
import type { Workbench } from './workbench';

/** The score bands (one rule, in the engine's api: `scoreBand`): a colour and a gutter icon each. */
const COLOURS: Record<ScoreBand, string> = { good: '#2ea04380', fair: '#d2992280', poor: '#f8514980' };

function chapterOf(wb: Workbench, doc: vscode.TextDocument): { dir: string; b: Benchmark; file: string } | undefined {
  if (doc.uri.scheme !== 'file' || doc.languageId !== 'markdown') return undefined;
  // Runs play `benchmarks/<name>` alone: a copy elsewhere would get another benchmark's scores.
  const dir = wb.benchmarkDirOf(doc.uri.fsPath);
  if (!dir) return undefined;
  const b = wb.benchmark(dir);
  const file = basename(doc.uri.fsPath);
  if (!dir || !b || !b.chapters.some((c) => c.file === file)) return undefined;
  return { dir, b, file };
}

export function scoreLabel(g: LatestGrade): string {
  const s = g.grade;
  return `${s.effective}/10${s.attempt === 2 ? ' (2nd attempt)' : ''} · ${g.run}`;
}

export class ChapterLenses implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  /** What each document's lenses were built from: the grades they show. */
  private provided = new Map<string, string>();

  constructor(private readonly wb: Workbench) {
    wb.onDidChange(() => this.changed.fire());
    // Lenses of an editor hidden while a run finished are not asked for again when it shows: ask,
    // but only when its grades changed since (a refresh moves the editor's scroll position).
    vscode.window.onDidChangeVisibleTextEditors((editors) => {
      if (editors.some((e) => this.provided.has(e.document.uri.toString()) && this.provided.get(e.document.uri.toString()) !== this.signature(e.document))) this.changed.fire();
    });
  }

  private signature(doc: vscode.TextDocument): string {
    const at = chapterOf(this.wb, doc);
    if (!at) return '';
    return [...this.wb.results.latestGrades(at.b.name)].map(([id, g]) => `${id}:${g.run}:${g.grade.at}`).join('|');
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const at = chapterOf(this.wb, doc);
    if (!at) return [];
    const chapter = at.b.chapters.find((c) => c.file === at.file)!;
    const lenses: vscode.CodeLens[] = [];
    const range = (line: number) => new vscode.Range(line, 0, line, 0);
    if (vscode.workspace.isTrusted) {
      for (const phase of chapter.phases) {
        const t: PhaseTarget = { dir: at.dir, chapter: at.file, phase: phase.index + 1 };
        const r = range(phase.headingRange.start.line);
        lenses.push(
          new vscode.CodeLens(r, { title: '$(play) Run phase', command: 'marathonMemBench.runPhase', arguments: [t], tooltip: 'A fresh run of just this phase, to see how the persona plays it' }),
          new vscode.CodeLens(r, { title: 'Run from here', command: 'marathonMemBench.runFromHere', arguments: [t], tooltip: 'A fresh run from this phase to the end' }),
          new vscode.CodeLens(r, { title: '$(beaker) Rehearse', command: 'marathonMemBench.rehearsePhase', arguments: [t], tooltip: 'This phase on the stand-in model: no key, no cost' }),
        );
      }
    }
    const latest = this.wb.results.latestGrades(at.b.name);
    this.provided.set(doc.uri.toString(), this.signature(doc));
    for (const c of at.b.checks.filter((x) => x.file === at.file)) {
      const g = latest.get(c.check.id);
      lenses.push(new vscode.CodeLens(range(c.check.range.start.line), g
        ? { title: `${passes(g.grade.effective, this.wb.passScore()) ? '$(pass)' : '$(error)'} ${scoreLabel(g)}`, command: 'marathonMemBench.showCause', arguments: [at.dir, c.check.id, g.run], tooltip: 'What caught it: the trap writes and the agent\'s memory' }
        : { title: 'not graded yet', command: '' }));
    }
    return lenses;
  }
}

/** Check lines coloured by their latest score, with a gutter icon and a hover. */
export class ScoreDecorations implements vscode.Disposable {
  private readonly types: Record<ScoreBand, vscode.TextEditorDecorationType>;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly wb: Workbench, context: vscode.ExtensionContext) {
    const make = (b: ScoreBand) => vscode.window.createTextEditorDecorationType({
      gutterIconPath: context.asAbsolutePath(`media/score-${b}.svg`),
      gutterIconSize: 'contain',
      overviewRulerColor: COLOURS[b],
      overviewRulerLane: vscode.OverviewRulerLane.Right,
      backgroundColor: COLOURS[b].replace(/80$/, '18'),
      isWholeLine: true,
    });
    this.types = { good: make('good'), fair: make('fair'), poor: make('poor') };
    this.disposables.push(
      wb.onDidChange(() => this.refresh()),
      vscode.window.onDidChangeVisibleTextEditors(() => this.refresh()),
      vscode.workspace.onDidSaveTextDocument(() => this.refresh()),
    );
    this.refresh();
  }

  refresh(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      const at = chapterOf(this.wb, editor.document);
      const sets: Record<ScoreBand, vscode.DecorationOptions[]> = { good: [], fair: [], poor: [] };
      if (at) {
        const pass = this.wb.passScore();
        const latest = this.wb.results.latestGrades(at.b.name);
        for (const c of at.b.checks.filter((x) => x.file === at.file)) {
          const g = latest.get(c.check.id);
          if (!g) continue;
          const r = c.check.range;
          sets[scoreBand(g.grade.effective, pass)].push({ range: new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character), hoverMessage: checkHover(at.dir, c, g) });
        }
      }
      for (const b of SCORE_BANDS) editor.setDecorations(this.types[b], sets[b]);
    }
  }

  dispose(): void {
    for (const t of Object.values(this.types)) t.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

const md = (text: string) => text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');

export function checkHover(dir: string, c: LocatedCheck, g: LatestGrade): vscode.MarkdownString {
  const s = g.grade;
  const args = encodeURIComponent(JSON.stringify([dir, c.check.id, g.run]));
  const out = new vscode.MarkdownString(undefined, true);
  out.isTrusted = { enabledCommands: ['marathonMemBench.showCause'] };
  out.appendMarkdown(`**❓ ${c.check.id} · ${s.effective}/10**${s.attempt === 2 ? ` (2nd attempt: ${s.score}/10 halved)` : ''} · run \`${g.run.replace(/`/g, '')}\`\n\n`);
  out.appendMarkdown(`**Question:** ${md(c.check.question)}\n\n**Expected:** ${md(c.check.answer)}\n\n**Agent:** ${md(s.answer)}\n\n**Grader:** ${md(s.comment)}\n\n`);
  out.appendMarkdown(`[$(debug-breakpoint-function) What caught it: trap writes and the agent's memory](command:marathonMemBench.showCause?${args})`);
  return out;
}
