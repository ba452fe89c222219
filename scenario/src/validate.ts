/**
 * Cross-file validation of a whole benchmark, one file at a time: the parse's own diagnostics, the
 * rules of `rules/` (references, ids, traps, sheets) and the timeline. A file's diagnostics are a
 * function of its own parse and of what it reads through `Reads` from the cross-file indexes, which
 * lets `BenchmarkValidation` (incremental.ts) keep them while those reads answer the same.
 * `validateBenchmark` is the same per-file validation from scratch.
 */
import type { Benchmark } from './benchmark';
import { CrossIndex } from './crossIndex';
import { Reads } from './reads';
import type { Diagnostic } from './diagnostics';
import type { Chapter, Sheet } from './model';
import { RULE_GROUPS } from './rules';
import type { RuleContext } from './rules/rule';
import { suggestionBudget, type SuggestionBudget } from './suggest';
import { comparePositions, type LineIndex } from './text';
import { walkChapter } from './timeline';

/** Every diagnostic of the benchmark, sorted by file and position. */
export function validateBenchmark(benchmark: Benchmark): Diagnostic[] {
  const index = new CrossIndex(benchmark);
  const budget = suggestionBudget();
  const byFile = new Map<string, readonly Diagnostic[]>();
  for (const unit of fileUnits(benchmark)) byFile.set(unit.file, validateFile(new Reads(index), unit, budget));
  return flattenDiagnostics(byFile);
}

/** Per-file lists (each sorted by position) as one list sorted by file, then position. */
export function flattenDiagnostics(byFile: ReadonlyMap<string, readonly Diagnostic[]>): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const file of [...byFile.keys()].sort(compareFiles)) for (const d of byFile.get(file) ?? []) out.push(d);
  return out;
}

/** File names in the order diagnostics are listed; names equal to `localeCompare` fall back to code units. */
function compareFiles(left: string, right: string): number {
  return left.localeCompare(right) || (left < right ? -1 : left > right ? 1 : 0);
}

/** What one file is to the benchmark: the folder's own diagnostics on it, and the sheet and chapter it holds. */
export interface FileUnit {
  file: string;
  folder: readonly Diagnostic[];
  lines?: LineIndex;
  sheet?: Sheet;
  chapter?: { chapter: Chapter; index: number };
}

/** One empty list for every file without folder diagnostics, so that units compare by identity. */
const NONE: readonly Diagnostic[] = [];
const folderByFile = new WeakMap<readonly Diagnostic[], Map<string, Diagnostic[]>>();

/** Every file the benchmark says anything about: those it read, and those its folder diagnostics name. */
export function fileUnits(benchmark: Benchmark): FileUnit[] {
  let folder = folderByFile.get(benchmark.diagnostics);
  if (!folder) {
    folder = new Map();
    for (const d of benchmark.diagnostics) {
      const list = folder.get(d.file) ?? [];
      list.push(d);
      folder.set(d.file, list);
    }
    folderByFile.set(benchmark.diagnostics, folder);
  }
  const units = new Map<string, FileUnit>();
  const unit = (file: string): FileUnit => {
    let found = units.get(file);
    if (!found) {
      found = { file, folder: folder.get(file) ?? NONE };
      const lines = benchmark.lines.get(file);
      if (lines) found.lines = lines;
      units.set(file, found);
    }
    return found;
  };
  for (const file of benchmark.lines.keys()) unit(file);
  for (const file of folder.keys()) unit(file);
  for (const sheet of benchmark.sheets.values()) unit(sheet.file).sheet = sheet;
  benchmark.chapters.forEach((chapter, index) => {
    unit(chapter.file).chapter = { chapter, index };
  });
  return [...units.values()];
}

/**
 * One file's diagnostics, suppressions applied, sorted by position. The order before the sort is
 * the order a whole-folder walk finds them in, so that ties sort the same however they are found.
 */
export function validateFile(reads: Reads, unit: FileUnit, budget: SuggestionBudget): Diagnostic[] {
  const out: Diagnostic[] = [...unit.folder];
  const { sheet, chapter } = unit;
  if (sheet) for (const d of sheet.diagnostics) out.push(d);
  const context: RuleContext = { reads, budget, out };
  if (chapter) {
    for (const d of chapter.chapter.diagnostics) out.push(d);
    for (const group of RULE_GROUPS) group.chapter?.(context, chapter.chapter, chapter.index);
  }
  if (sheet) for (const group of RULE_GROUPS) group.sheet?.(context, sheet);
  if (chapter) for (const d of walkChapter(chapter.chapter, reads.timelineEntry(chapter.index)).diagnostics) out.push(d);
  const kept = unit.lines ? suppress(unit.lines, out) : out;
  return kept.sort((x, y) => comparePositions(x.range.start, y.range.start) || x.code.localeCompare(y.code));
}

/** The next unused id in the same `N.` series as `id`. */
export function nextFreeCheckId(benchmark: Benchmark, id: string): string {
  const series = id.split('.')[0] ?? '1';
  let highest = 0;
  for (const c of benchmark.checks) {
    const [s, n] = c.check.id.split('.');
    if (s === series) highest = Math.max(highest, Number(n));
  }
  return `${series}.${highest + 1}`;
}

/**
 * Drops diagnostics silenced by a comment on their own line, or alone on the line above:
 * `<!-- mmb-ignore: code -->` in markdown, `// mmb-ignore: code` in JSON; without a code, all.
 */
function suppress(lines: LineIndex, diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => {
    const silences = (text: string) => {
      const m = IGNORE.exec(text);
      return !!m && (!m[1] || m[1].split(/[\s,]+/).includes(d.code));
    };
    const above = lines.lineText(d.range.start.line - 1);
    return !(silences(lines.lineText(d.range.start.line)) || (/^\s*(<!--|\/\/)/.test(above) && silences(above)));
  });
}

export const IGNORE = /mmb-ignore(?::\s*([a-z-]+(?:[\s,]+[a-z-]+)*))?/;
