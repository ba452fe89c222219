/**
 * Cross-file validation of a whole benchmark: references, ids, coverage and timing, one file at a
 * time. A file's diagnostics are a function of its own parse and of what it reads through `Reads`
 * from the cross-file indexes, which lets `BenchmarkValidation` (incremental.ts) keep them while
 * those reads answer the same. `validateBenchmark` is the same per-file validation from scratch.
 */
import { comparePlay, type Benchmark, type LocatedTrap } from './benchmark';
import { CrossIndex } from './crossIndex';
import { Reads } from './reads';
import { diagnostic, type Diagnostic } from './diagnostics';
import type { Chapter, FactRef, Sheet, SheetRef } from './model';
import { liveFacts } from './sheet';
import { didYouMean, nearNames, suggestionBudget, type SuggestionBudget } from './suggest';
import { comparePositions, lineRange, type LineIndex } from './text';
import { walkChapter } from './timeline';

/** Every diagnostic of the benchmark, sorted by file and position. */
export function validateBenchmark(b: Benchmark): Diagnostic[] {
  const index = new CrossIndex(b);
  const budget = suggestionBudget();
  const byFile = new Map<string, readonly Diagnostic[]>();
  for (const unit of fileUnits(b)) byFile.set(unit.file, validateFile(new Reads(index), unit, budget));
  return flattenDiagnostics(byFile);
}

/** Per-file lists (each sorted by position) as one list sorted by file, then position. */
export function flattenDiagnostics(byFile: ReadonlyMap<string, readonly Diagnostic[]>): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const file of [...byFile.keys()].sort(compareFiles)) for (const d of byFile.get(file) ?? []) out.push(d);
  return out;
}

/** File names in the order diagnostics are listed; names equal to `localeCompare` fall back to code units. */
function compareFiles(x: string, y: string): number {
  return x.localeCompare(y) || (x < y ? -1 : x > y ? 1 : 0);
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
export function fileUnits(b: Benchmark): FileUnit[] {
  let folder = folderByFile.get(b.diagnostics);
  if (!folder) {
    folder = new Map();
    for (const d of b.diagnostics) {
      const list = folder.get(d.file) ?? [];
      list.push(d);
      folder.set(d.file, list);
    }
    folderByFile.set(b.diagnostics, folder);
  }
  const units = new Map<string, FileUnit>();
  const unit = (file: string): FileUnit => {
    let found = units.get(file);
    if (!found) {
      found = { file, folder: folder.get(file) ?? NONE };
      const lines = b.lines.get(file);
      if (lines) found.lines = lines;
      units.set(file, found);
    }
    return found;
  };
  for (const file of b.lines.keys()) unit(file);
  for (const file of folder.keys()) unit(file);
  for (const sheet of b.sheets.values()) unit(sheet.file).sheet = sheet;
  b.chapters.forEach((chapter, index) => {
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
  if (chapter) {
    for (const d of chapter.chapter.diagnostics) out.push(d);
    chapterReferences(reads, chapter.chapter, budget, out);
    chapterCheckIds(reads, chapter.chapter, out);
    chapterTraps(reads, chapter.chapter, chapter.index, budget, out);
  }
  if (sheet && !reads.isTold(sheet.name) && liveFacts(sheet).length > 0) {
    out.push(
      diagnostic(
        'sheet-never-told',
        sheet.file,
        lineRange(0, 0, sheet.lines.lineText(0).length),
        `No phase names the \`${sheet.name}\` sheet, so the persona never tells it: ` +
          `add "tell the \`${sheet.name}\` sheet" to a phase, or remove the file.`,
      ),
    );
  }
  if (chapter) for (const d of walkChapter(chapter.chapter, reads.timelineEntry(chapter.index)).diagnostics) out.push(d);
  const kept = unit.lines ? suppress(unit.lines, out) : out;
  return kept.sort((x, y) => comparePositions(x.range.start, y.range.start) || x.code.localeCompare(y.code));
}

function chapterReferences(reads: Reads, chapter: Chapter, budget: SuggestionBudget, out: Diagnostic[]): void {
  for (const phase of chapter.phases) {
    for (const ref of phase.factRefs) if (!reads.isRefusedSheet(ref.sheet)) checkFactRef(reads, ref, chapter.file, budget, out);
    for (const ref of phase.sheetRefs) {
      if (reads.hasSheet(ref.sheet)) continue;
      if (ref.sheetWordFollows && !reads.isRefusedSheet(ref.sheet)) out.push(unknownSheet(reads, ref.sheet, ref, chapter.file, budget));
    }
  }
}

/** The sheet names as a message lists them, cut short for a folder of very many sheets. */
function sheetList(names: readonly string[]): string {
  const shown = names
    .slice(0, 12)
    .map((s) => `\`${s}\``)
    .join(', ');
  return names.length > 12 ? `${shown} (and ${names.length - 12} more)` : shown || 'its sheets';
}

function unknownSheet(reads: Reads, name: string, ref: Pick<SheetRef, 'range'>, file: string, budget: SuggestionBudget): Diagnostic {
  const names = reads.sheetNames();
  const suggestions = nearNames(name, names, 3, budget);
  return diagnostic(
    'unknown-sheet',
    file,
    ref.range,
    `There is no sheet \`${name}\` in \`${reads.benchmarkName()}\`: ` +
      `create ${name}.md or name one of ${sheetList(names)}.${didYouMean(suggestions)}`,
    { suggestions },
  );
}

function checkFactRef(reads: Reads, ref: FactRef, file: string, budget: SuggestionBudget, out: Diagnostic[]): void {
  const state = reads.factState(ref.sheet, ref.id);
  if (state === 'live') return;
  if (state === 'no-sheet') {
    const names = reads.sheetNames();
    const suggestions = nearNames(ref.sheet, names, 3, budget);
    out.push(
      diagnostic(
        'unknown-sheet',
        file,
        ref.sheetRange,
        `There is no sheet \`${ref.sheet}\` in \`${reads.benchmarkName()}\`: ` +
          `create ${ref.sheet}.md or name one of ${sheetList(names)}.${didYouMean(suggestions.map((s) => `${s}#${ref.id}`))}`,
        { suggestions },
      ),
    );
    return;
  }
  const sheet = reads.liveFacts(ref.sheet);
  const suggestions = nearNames(ref.id, sheet.live, 3, budget);
  const why =
    state === 'deleted' ? `fact ${ref.id} of \`${sheet.name}\` is deleted (\`—\`)` : `the \`${sheet.name}\` sheet has no fact ${ref.id}`;
  out.push(
    diagnostic(
      'unknown-fact',
      file,
      ref.idRange,
      `\`${ref.sheet}#${ref.id}\` points nowhere: ${why}. ` +
        `Point it at an existing fact or add the fact to ${sheet.file}.${didYouMean(suggestions.map((id) => `${sheet.name}#${id}`))}`,
      { suggestions },
    ),
  );
}

function chapterCheckIds(reads: Reads, chapter: Chapter, out: Diagnostic[]): void {
  for (const phase of chapter.phases) {
    for (const check of phase.checks) {
      const twin = reads.firstCheck(check.id);
      if (!twin || twin.check === check) continue;
      const series = check.id.split('.')[0] ?? '1';
      const free = `${series}.${reads.highestInSeries(series) + 1}`;
      out.push(
        diagnostic(
          'duplicate-check-id',
          chapter.file,
          check.idRange,
          `Check id ${check.id} is already used in ${twin.file} line ${twin.check.idRange.start.line + 1}: ` +
            `check ids are unique in a benchmark; use ${free}.`,
          { related: [{ file: twin.file, range: twin.check.idRange, message: `first check ${check.id}` }], suggestions: [free] },
        ),
      );
    }
  }
}

/** The next unused id in the same `N.` series as `id`. */
export function nextFreeCheckId(b: Benchmark, id: string): string {
  const series = id.split('.')[0] ?? '1';
  let highest = 0;
  for (const c of b.checks) {
    const [s, n] = c.check.id.split('.');
    if (s === series) highest = Math.max(highest, Number(n));
  }
  return `${series}.${highest + 1}`;
}

function chapterTraps(reads: Reads, chapter: Chapter, chapterIndex: number, budget: SuggestionBudget, out: Diagnostic[]): void {
  for (const phase of chapter.phases) {
    for (const trap of phase.traps) {
      const written: LocatedTrap = { trap, file: chapter.file, chapter: chapterIndex, phase: phase.index };
      for (const target of trap.targets) {
        const check = reads.lastCheck(target.name);
        if (!check) {
          const suggestions = nearNames(target.name, reads.checkIds(), 3, budget);
          out.push(
            diagnostic(
              'trap-target-missing',
              chapter.file,
              target.range,
              `This trap aims at check ${target.name}, but no check has that id: ` +
                `add \`❓ ${target.name} …\` where the value is asked, or fix the id.${didYouMean(suggestions)}`,
              { suggestions },
            ),
          );
        } else if (comparePlay(check, written) < 0) {
          out.push(
            diagnostic(
              'trap-target-before-write',
              chapter.file,
              target.range,
              `Check ${target.name} is asked in ${check.file} line ${check.check.idRange.start.line + 1}, ` +
                `before this trap is written, so it cannot catch it: aim the trap at a later check.`,
              { related: [{ file: check.file, range: check.check.idRange, message: `check ${target.name}` }] },
            ),
          );
        }
      }
    }
  }
  for (const phase of chapter.phases) {
    for (const check of phase.checks) {
      if (check.type === 'HIST' && !reads.isTargeted(check.id)) {
        out.push(
          diagnostic(
            'hist-without-trap',
            chapter.file,
            check.typeRange ?? check.idRange,
            `HIST check ${check.id} asks for a value before an edit, but no trap write aims at it: ` +
              `mark the edit with \`🪤 TYPE sheet#N.M → ${check.id}\`.`,
          ),
        );
      }
    }
  }
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
