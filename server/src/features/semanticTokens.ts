/**
 * Semantic tokens: what the line-by-line TextMate grammar cannot know. A fact sheet's ids (the
 * grammar cannot tell a sheet from any markdown file with numbered lines), and the continuation
 * lines of a check (a question or an answer over several lines: the grammar sees one line at a
 * time). The token types map to the grammar's own scopes (`semanticTokenScopes` in package.json),
 * so both colour alike.
 */
import { SemanticTokensBuilder, type SemanticTokens, type SemanticTokensLegend } from 'vscode-languageserver';
import type { Benchmark, Check, Phase, Range } from '../../../scenario/src';
import { chapterOf, sheetOfFile } from '../locate';

export const TOKEN_TYPES = ['mmbFactId', 'mmbQuestion', 'mmbAnswerLabel', 'mmbAnswer'] as const;
type TokenType = (typeof TOKEN_TYPES)[number];
export const SEMANTIC_TOKENS_LEGEND: SemanticTokensLegend = { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [] };

const ANSWER_LABEL = /correct answer:/i;

export function getSemanticTokens(benchmark: Benchmark, file: string): SemanticTokens {
  const builder = new SemanticTokensBuilder();
  const push = (line: number, from: number, to: number, type: TokenType) => {
    if (to > from) builder.push(line, from, to - from, TOKEN_TYPES.indexOf(type), 0);
  };
  const sheet = sheetOfFile(benchmark, file);
  if (sheet) {
    for (const f of sheet.facts) push(f.idRange.start.line, f.idRange.start.character, f.idRange.end.character, 'mmbFactId');
    return builder.build();
  }
  const chapter = chapterOf(benchmark, file);
  const lines = benchmark.lines.get(file);
  if (!chapter || !lines) return builder.build();
  for (const phase of chapter.phases) {
    for (const check of phase.checks) continuationTokens(check, phase, (l) => lines.lineText(l), push);
  }
  return builder.build();
}

/**
 * The lines after a check's first: question until `Correct answer:`, the answer after it. Fact
 * refs and templates are left out, so that the grammar's colours of them show through.
 */
function continuationTokens(
  check: Check,
  phase: Phase,
  lineText: (line: number) => string,
  push: (line: number, from: number, to: number, type: TokenType) => void,
): void {
  let inAnswer = ANSWER_LABEL.test(lineText(check.range.start.line));
  for (let line = check.range.start.line + 1; line <= check.range.end.line; line++) {
    const text = lineText(line);
    const start = text.length - text.trimStart().length;
    const end = text.trimEnd().length;
    const holes = [...phase.factRefs.map((r) => r.range), ...phase.templates.map((t) => t.range)].filter((r) => r.start.line === line);
    const label = inAnswer ? undefined : ANSWER_LABEL.exec(text);
    const pieces: [number, number, TokenType][] = label
      ? [
          [start, label.index, 'mmbQuestion'],
          [label.index, label.index + label[0].length, 'mmbAnswerLabel'],
          [label.index + label[0].length, end, 'mmbAnswer'],
        ]
      : [[start, end, inAnswer ? 'mmbAnswer' : 'mmbQuestion']];
    for (const [from, to, type] of pieces) for (const [a, z] of without(from, to, holes)) push(line, a, z, type);
    if (label) inAnswer = true;
  }
}

/** The stretches of `[from, to)` outside the ranges of one line, in order. */
function without(from: number, to: number, holes: readonly Range[]): [number, number][] {
  const out: [number, number][] = [];
  let at = from;
  for (const hole of [...holes].sort((x, y) => x.start.character - y.start.character)) {
    if (hole.end.character <= at || hole.start.character >= to) continue;
    if (hole.start.character > at) out.push([at, hole.start.character]);
    at = Math.max(at, hole.end.character);
  }
  if (at < to) out.push([at, to]);
  return out;
}
