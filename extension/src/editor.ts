/**
 * What a chapter shows in the editor beside its lenses (lenses.ts): on each graded check one quiet
 * mark, an icon before its first line's text (the gutter there is VS Code's test icon: checks are
 * Test Explorer items), with the detail in the hover. Red is kept for checks that failed in a run
 * that played the trap writes aimed at them; a trap line is marked once, in the gutter, when it
 * caught a check in such a run.
 */
import * as vscode from 'vscode';
import { ChapterCache } from './chapterCache';
import { asInRun, chapterMarks, notCountedReason, playedRange, type CheckIcon, type CheckMark, type TrapMark } from './chapterMarks';
import { ChapterLenses } from './lenses';
import type { RunsHub } from './runsHub';
import { shorten } from '../../scenario/src/plainText';

const ICONS: readonly CheckIcon[] = ['good', 'fair', 'poor', 'unplayed'];
/** Overview ruler marks for failures the run is to blame for, so they can be found in a long chapter. */
const RULER: Partial<Record<CheckIcon, string>> = { fair: '#d2992280', poor: '#f8514980' };

/** The inline icon of each graded check, the gutter icon of each caught trap line, and the hovers with the detail. */
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
    // Inline, not in the gutter: a check line's gutter holds VS Code's own test icon, which would hide ours.
    const make = (icon: CheckIcon) =>
      vscode.window.createTextEditorDecorationType({
        before: {
          contentIconPath: context.asAbsolutePath(`media/score-${icon}.svg`),
          width: '0.9em',
          height: '0.9em',
          margin: '0 0.3em 0 0',
        },
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
          // The icon before the first line only: a range over a check's continuation lines puts one on each.
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
