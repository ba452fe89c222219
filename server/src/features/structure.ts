/** The outline (phases and checks; categories and facts) and folding of phases and categories. */
import { FoldingRangeKind, SymbolKind, type DocumentSymbol, type FoldingRange } from 'vscode-languageserver';
import type { Benchmark } from '../../../scenario/src';
import { chapterOf, sheetOfFile } from '../locate';

export function getDocumentSymbols(benchmark: Benchmark, file: string): DocumentSymbol[] {
  const chapter = chapterOf(benchmark, file);
  if (chapter) {
    return chapter.phases.map((phase) => ({
      name: phase.title || `Phase ${phase.index + 1}`,
      kind: SymbolKind.Namespace,
      range: phase.range,
      selectionRange: phase.headingRange,
      children: phase.checks.map((c) => ({
        name: `❓ ${c.id}${c.type ? ` [${c.type}]` : ''}`,
        detail: c.question,
        kind: SymbolKind.Event,
        range: c.range,
        selectionRange: c.idRange,
      })),
    }));
  }
  const sheet = sheetOfFile(benchmark, file);
  if (!sheet) return [];
  return sheet.categories.map((category, i) => {
    const next = sheet.categories[i + 1];
    const facts = sheet.facts.filter((f) => f.category === category.number && !f.deleted);
    const end = facts.at(-1)?.range.end ?? category.range.end;
    return {
      name: `${category.number}. ${category.title}`,
      kind: SymbolKind.Namespace,
      range: { start: category.range.start, end: next && next.range.start.line <= end.line ? category.range.end : end },
      selectionRange: category.range,
      children: facts.map((f) => ({ name: f.id, detail: f.text, kind: SymbolKind.Field, range: f.range, selectionRange: f.idRange })),
    };
  });
}

export function getFoldingRanges(benchmark: Benchmark, file: string): FoldingRange[] {
  const chapter = chapterOf(benchmark, file);
  if (chapter) {
    return chapter.phases
      .filter((p) => p.range.end.line > p.headingRange.start.line)
      .map((p) => ({ startLine: p.headingRange.start.line, endLine: p.range.end.line, kind: FoldingRangeKind.Region }));
  }
  return getDocumentSymbols(benchmark, file)
    .filter((s) => s.range.end.line > s.range.start.line)
    .map((s) => ({ startLine: s.range.start.line, endLine: s.range.end.line, kind: FoldingRangeKind.Region }));
}
