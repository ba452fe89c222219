/**
 * Validation that redoes only what a change affects. Each file's diagnostics are kept with the
 * inputs they came from: the file's own parse and play position, and the log of every read its
 * validation made of the cross-file indexes (`Reads`). On the next model of the folder a file is
 * validated again only when its parse moved or one of its reads answers differently; so a
 * keystroke that changes no cross-file index validates one file, and one that does validates the
 * files that read what it changed. The result always equals `validateBenchmark` of the same model.
 */
import type { Benchmark, LocatedCheck } from './benchmark';
import { checkPlaceKey, CrossIndex, Reads, readsHold, sheetExports, type ReadLog } from './crossIndex';
import type { Diagnostic } from './diagnostics';
import type { Chapter } from './model';
import { chapterEntries } from './revise';
import { suggestionBudget } from './suggest';
import { timelineKey, walkChapter, type TimelineState } from './timeline';
import { fileUnits, validateFile, type FileUnit } from './validate';

interface Kept {
  unit: FileUnit;
  reads: ReadLog;
  /** The suggestion budget this file's validation spent. */
  steps: number;
  diagnostics: readonly Diagnostic[];
}

/** Diagnostics of one benchmark folder, model after model. Keep one per folder. */
export class BenchmarkValidation {
  private kept = new Map<string, Kept>();
  /** The last model validated and its index, which a change that no other file can see reuses. */
  private previous: { b: Benchmark; index: CrossIndex } | undefined;
  /** How many files the last `validate` validated again (the rest were kept): for tests and the bench. */
  revalidated = 0;
  /** Whether the last `validate` found that no cross-file index changed, so it asked no kept read again. */
  reusedIndex = false;

  /**
   * Every file's diagnostics, sorted by position, by file name (an empty list for a file with
   * none). A file whose diagnostics were kept has the very list of the previous call, so a caller
   * can skip it by identity.
   */
  validate(b: Benchmark): Map<string, readonly Diagnostic[]> {
    const units = fileUnits(b);
    const reused = this.reusableIndex(b, units);
    const index = reused ?? new CrossIndex(b);
    this.previous = { b, index };
    this.reusedIndex = reused !== undefined;
    const limit = suggestionBudget().steps;
    const next = new Map<string, Kept>();
    const out = new Map<string, readonly Diagnostic[]>();
    let spent = 0;
    this.revalidated = 0;
    for (const unit of units) {
      let kept = this.kept.get(unit.file);
      if (!kept || !sameUnit(kept.unit, unit) || (!reused && !readsHold(index, kept.reads))) {
        // A budget of its own per file: the diagnostics must not depend on which files went before.
        const budget = suggestionBudget();
        const reads = new Reads(index);
        const diagnostics = validateFile(reads, unit, budget);
        kept = { unit, reads: reads.log, steps: limit - budget.steps, diagnostics };
        this.revalidated++;
      }
      spent += kept.steps;
      next.set(unit.file, kept);
      out.set(unit.file, kept.diagnostics);
    }
    if (spent >= limit) return this.fromScratch(b, index);
    this.kept = next;
    return out;
  }

  /**
   * The last index, brought up to `b`, when the files that changed since are chapters and sheets
   * that show other files exactly what their predecessors showed: then no kept read can answer
   * differently, and none is asked again. Anything else (a file added or gone, the manifest, a
   * check id, trap target, sheet ref, fact or time anchor moved) gets a new index.
   */
  private reusableIndex(b: Benchmark, units: readonly FileUnit[]): CrossIndex | undefined {
    const previous = this.previous;
    if (!previous) return undefined;
    const before = previous.b;
    if (b.name !== before.name || b.diagnostics !== before.diagnostics || b.manifest !== before.manifest
      || b.refusedSheets !== before.refusedSheets || b.chapters.length !== before.chapters.length
      || b.sheets.size !== before.sheets.size || units.length !== this.kept.size) return undefined;
    for (const unit of units) if (!this.kept.has(unit.file)) return undefined;
    const sheetsBefore = [...before.sheets];
    let i = 0;
    for (const [name, sheet] of b.sheets) {
      const [nameBefore, sheetBefore] = sheetsBefore[i++] ?? [];
      if (name !== nameBefore || !sheetBefore) return undefined;
      if (sheet !== sheetBefore && sheetExports(sheet) !== sheetExports(sheetBefore)) return undefined;
    }
    const replaced: { before: LocatedCheck[]; now: LocatedCheck[] }[] = [];
    let entry: TimelineState | undefined;
    for (let ci = 0; ci < b.chapters.length; ci++) {
      const chapter = b.chapters[ci];
      const chapterBefore = before.chapters[ci];
      if (chapter === chapterBefore) continue;
      if (!chapter || !chapterBefore) return undefined;
      entry = previous.index.lookup().entries[ci];
      if (!entry || chapterExports(chapter, ci, entry) !== chapterExports(chapterBefore, ci, entry)) return undefined;
      replaced.push({ before: chapterEntries(before.checks, ci), now: chapterEntries(b.checks, ci) });
    }
    previous.index.rebase(b, replaced);
    return previous.index;
  }

  /**
   * A folder whose suggestions spend the whole budget (a hostile one) is validated as
   * `validateBenchmark` does it, one budget for all, and nothing is kept: which diagnostics lose
   * their suggestions then depends on every file before them.
   */
  private fromScratch(b: Benchmark, index: CrossIndex): Map<string, readonly Diagnostic[]> {
    const budget = suggestionBudget();
    const out = new Map<string, readonly Diagnostic[]>();
    for (const unit of fileUnits(b)) out.set(unit.file, validateFile(new Reads(index), unit, budget));
    this.kept = new Map();
    this.revalidated = out.size;
    return out;
  }
}

/**
 * What other files can read of a chapter at its place in the play order: its checks (id, phase,
 * range of the id), trap targets, sheet refs and the timeline state it hands on.
 */
function chapterExports(chapter: Chapter, chapterIndex: number, entry: TimelineState): string {
  let key = `${chapter.file}\u0000${chapterIndex}\u0000${timelineKey(walkChapter(chapter, entry).exit)}`;
  for (const phase of chapter.phases) {
    for (const check of phase.checks) key += `\u0001${checkPlaceKey({ check, file: chapter.file, chapter: chapterIndex, phase: phase.index })}\u0000${check.id}`;
    for (const trap of phase.traps) for (const target of trap.targets) key += `\u0002${target.name}`;
    for (const ref of phase.sheetRefs) key += `\u0003${ref.sheet}`;
  }
  return key;
}

function sameUnit(before: FileUnit, now: FileUnit): boolean {
  return before.folder === now.folder && before.lines === now.lines && before.sheet === now.sheet
    && before.chapter?.chapter === now.chapter?.chapter && before.chapter?.index === now.chapter?.index;
}
