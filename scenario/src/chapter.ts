/** Parses a chapter: its preamble, its `##` phases and everything a phase holds. */
import { diagnostic, type Diagnostic } from './diagnostics';
import { scanDateLine, scanFactRefs, scanSheetRefs, scanTemplates, scanTimeAnchor } from './inline';
import { CHECK_MARK, parseCheck, parseTrap, TRAP_MARK, type SourceLine } from './items';
import { analyzeJs } from './js';
import { headingText, parseBlocks, type Block } from './markdown';
import type { Chapter, Phase } from './model';
import { markdownLimit, stripBom } from './limits';
import { LineIndex, lineRange, range as makeRange, type Range } from './text';

type CodeBlock = Extract<Block, { kind: 'code' }>;

const isJs = (b: Block): b is CodeBlock => b.kind === 'code' && b.fenced && /^(js|javascript)$/i.test(b.lang);

type Heading = Extract<Block, { kind: 'heading' }>;

/** Parses one chapter file. Never throws; problems come back as `diagnostics`. */
export function parseChapter(source: string, file: string): Chapter {
  const text = stripBom(source);
  const lines = new LineIndex(text);
  const diagnostics: Diagnostic[] = [];
  const limit = markdownLimit(text);
  if (limit) {
    diagnostics.push(diagnostic('over-limit', file, lineRange(limit.line, 0, lines.lineText(limit.line).length), limit.message));
    return { file, lines, preamble: makeRange(0, 0, 0, 0), phases: [], diagnostics };
  }
  const blocks = parseBlocks(text);
  const hidden = new Set<number>();
  for (const b of blocks) {
    if (b.kind === 'code' || b.kind === 'html') for (let l = b.startLine; l <= b.endLine; l++) hidden.add(l);
  }
  // One pass groups the blocks under their phase heading, so many phases stay linear.
  const headings: Heading[] = [];
  const phaseBlocks: Block[][] = [];
  for (const b of blocks) {
    if (b.kind === 'heading' && b.depth === 2) {
      headings.push(b);
      phaseBlocks.push([]);
    } else phaseBlocks[phaseBlocks.length - 1]?.push(b);
  }
  const firstPhaseLine = headings[0]?.startLine ?? lines.lineCount;
  const preamble: Range =
    firstPhaseLine === 0 ? makeRange(0, 0, 0, 0) : { start: { line: 0, character: 0 }, end: endOf(lines, firstPhaseLine - 1).end };
  for (let l = 0; l < firstPhaseLine; l++) {
    if (hidden.has(l)) continue;
    const t = lines.lineText(l).trimStart();
    if (t.startsWith(CHECK_MARK) || t.startsWith(TRAP_MARK)) {
      diagnostics.push(
        diagnostic(
          'outside-phase',
          file,
          makeRange(l, 0, l, lines.lineText(l).length),
          "The persona never sees a chapter's preamble, so this line never runs: move it under a `##` phase heading.",
        ),
      );
    }
  }
  const context: ChapterContext = { text, lines, file, hidden, diagnostics, date: undefined };
  const phases = headings.map((heading, index): Phase => {
    const next = headings[index + 1];
    const endLine = next ? next.startLine - 1 : lines.lineCount - 1;
    return parsePhase(context, heading, index, endLine, phaseBlocks[index] ?? []);
  });
  return { file, lines, preamble, phases, diagnostics };
}

/** What the phases of one chapter share while it is parsed; `date` carries over between them. */
interface ChapterContext {
  text: string;
  lines: LineIndex;
  file: string;
  hidden: Set<number>;
  diagnostics: Diagnostic[];
  date: string | undefined;
}

function endOf(lines: LineIndex, line: number): Range {
  return makeRange(line, lines.lineText(line).length, line, lines.lineText(line).length);
}

function parsePhase(context: ChapterContext, heading: Heading, index: number, endLine: number, inPhase: readonly Block[]): Phase {
  const { lines, file, hidden, diagnostics } = context;
  const phase: Phase = {
    index,
    title: headingText(context.text, heading),
    headingRange: makeRange(heading.startLine, 0, heading.endLine, lines.lineText(heading.endLine).length),
    range: { start: { line: heading.startLine, character: 0 }, end: endOf(lines, Math.max(endLine, heading.endLine)).end },
    checks: [],
    traps: [],
    factRefs: [],
    sheetRefs: [],
    templates: [],
    dateLines: [],
    timeAnchors: [],
    hiddenLines: [],
  };
  inPhase.forEach((b, i) => {
    if (!isJs(b)) return;
    if (i === 0) {
      phase.js = analyzeJs(
        b.value,
        makeRange(b.startLine, b.column, b.endLine, lines.lineText(b.endLine).length),
        { line: b.startLine + 1, column: b.column },
        lines,
        file,
        diagnostics,
      );
      for (let l = b.startLine; l <= b.endLine; l++) phase.hiddenLines.push(l);
    } else {
      diagnostics.push(
        diagnostic(
          'js-block-not-first',
          file,
          makeRange(b.startLine, 0, b.startLine, lines.lineText(b.startLine).length),
          'Only a `js` block at the very start of a phase runs; ' +
            'this one is shown to the persona as text. Move it right under the phase heading.',
        ),
      );
    }
  });

  for (let l = heading.endLine + 1; l <= endLine; l++) {
    if (hidden.has(l)) continue;
    const t = lines.lineText(l);
    const refs = scanFactRefs(t, l);
    phase.factRefs.push(...refs);
    phase.sheetRefs.push(...scanSheetRefs(t, l));
    phase.templates.push(...scanTemplates(t, l, file, diagnostics));
    const trimmed = t.trimStart();
    if (trimmed.startsWith(CHECK_MARK)) {
      const group: SourceLine[] = [{ text: t, line: l }];
      while (l + 1 <= endLine && !hidden.has(l + 1) && isContinuation(lines.lineText(l + 1))) {
        l++;
        const c = lines.lineText(l);
        group.push({ text: c, line: l });
        phase.factRefs.push(...scanFactRefs(c, l));
        phase.sheetRefs.push(...scanSheetRefs(c, l));
        phase.templates.push(...scanTemplates(c, l, file, diagnostics));
      }
      const check = parseCheck(group, file, diagnostics);
      if (check) phase.checks.push(check);
    } else if (trimmed.startsWith(TRAP_MARK)) {
      phase.hiddenLines.push(l);
      const trap = parseTrap(t, l, refs, file, diagnostics);
      if (trap) phase.traps.push(trap);
    } else {
      const dateLine = scanDateLine(t, l, file, diagnostics);
      if (dateLine) {
        phase.dateLines.push(dateLine);
        context.date = dateLine.date;
      }
      const anchor = scanTimeAnchor(t, l, file, diagnostics, context.date);
      if (anchor) phase.timeAnchors.push(anchor);
    }
  }
  if (phase.js) phase.sheetRefs.push(...phase.js.requireAllFacts);
  return phase;
}

function isContinuation(text: string): boolean {
  if (!/^[ \t]/.test(text) || text.trim() === '') return false;
  const t = text.trimStart();
  return !t.startsWith(CHECK_MARK) && !t.startsWith(TRAP_MARK);
}

/**
 * The text the persona receives for a phase: its body without the heading, the leading JS block
 * and the trap lines. Templates are left as written; the engine expands them.
 */
export function phaseInstructions(chapter: Chapter, phase: Phase): string {
  const hidden = new Set(phase.hiddenLines);
  const out: string[] = [];
  for (let l = phase.headingRange.end.line + 1; l <= phase.range.end.line; l++) {
    if (!hidden.has(l)) out.push(chapter.lines.lineText(l));
  }
  return out
    .join('\n')
    .replace(/^\s*\n/, '')
    .replace(/\n\s*$/, '')
    .replace(/\n{3,}/g, '\n\n');
}
