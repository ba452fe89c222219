/**
 * Validation that redoes only what a change affects. Each file's diagnostics are kept with the
 * inputs they came from: the file's own parse and play position, and the log of every read its
 * validation made of the cross-file indexes (`Reads`). On the next model of the folder:
 * - when the changed chapters and sheets show other files exactly what they showed before (the
 *   same check ids at the same places, trap targets, sheet refs, facts, timeline), the last index
 *   stands and only the changed files are validated: the common keystroke, whatever the folder's size;
 * - otherwise a new index is built and a file is validated again when its parse moved or one of
 *   its logged reads answers differently, so only the readers of what changed are.
 * The result always equals `validateBenchmark` of the same model (a random-edit test holds it so).
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

/** What a validation found: every file's list, and which of them may differ from the last call's. */
export interface Validated {
  /** Every file's diagnostics sorted by position (empty for a file with none). The validation's own map: read it before the next call. */
  byFile: ReadonlyMap<string, readonly Diagnostic[]>;
  /** The files whose lists may have changed; undefined when any may have, files gone included. */
  touched: ReadonlySet<string> | undefined;
}

/** Diagnostics of one benchmark folder, model after model. Keep one per folder. */
export class BenchmarkValidation {
  private kept = new Map<string, Kept>();
  private byFile = new Map<string, readonly Diagnostic[]>();
  /** The budget all kept files spent together: past the limit, validation is from scratch. */
  private spent = 0;
  /** The last model validated and its index, which a change that no other file can see reuses. */
  private previous: { b: Benchmark; index: CrossIndex } | undefined;
  /** How many files the last `validate` validated (the rest were kept): for tests and the bench. */
  revalidated = 0;
  /** Whether the last `validate` kept the cross-file index, so it asked no kept read again. */
  reusedIndex = false;

  validate(b: Benchmark): Validated {
    const limit = suggestionBudget().steps;
    const quick = this.previous && this.reusableIndex(this.previous, b);
    this.reusedIndex = quick !== undefined;
    if (quick) {
      this.previous = { b, index: quick.index };
      this.revalidated = 0;
      for (const unit of quick.units) this.keep(this.validateUnit(quick.index, unit));
      if (this.spent < limit) return { byFile: this.byFile, touched: new Set(quick.units.map((u) => u.file)) };
      return this.fromScratch(b, quick.index);
    }
    const index = new CrossIndex(b);
    this.previous = { b, index };
    const previous = this.kept;
    this.kept = new Map();
    this.byFile = new Map();
    this.spent = 0;
    this.revalidated = 0;
    for (const unit of fileUnits(b)) {
      const kept = previous.get(unit.file);
      this.keep(kept && sameUnit(kept.unit, unit) && readsHold(index, kept.reads) ? kept : this.validateUnit(index, unit));
    }
    return this.spent < limit ? { byFile: this.byFile, touched: undefined } : this.fromScratch(b, index);
  }

  /** One file validated with a budget of its own, so that its diagnostics do not depend on the files before it. */
  private validateUnit(index: CrossIndex, unit: FileUnit): Kept {
    const budget = suggestionBudget();
    const limit = budget.steps;
    const reads = new Reads(index);
    const diagnostics = validateFile(reads, unit, budget);
    this.revalidated++;
    return { unit, reads: reads.log, steps: limit - budget.steps, diagnostics };
  }

  private keep(kept: Kept): void {
    const before = this.kept.get(kept.unit.file);
    if (before !== kept) this.spent += kept.steps - (before?.steps ?? 0);
    this.kept.set(kept.unit.file, kept);
    this.byFile.set(kept.unit.file, kept.diagnostics);
  }

  /**
   * The last index brought up to `b`, and the units of the files that changed, when those are
   * chapters and sheets that show other files exactly what their predecessors showed: then no
   * kept read can answer differently. Anything else (a file added or gone, the manifest, a check
   * id, trap target, sheet ref, fact or time anchor moved) asks for a new index.
   */
  private reusableIndex(previous: { b: Benchmark; index: CrossIndex }, b: Benchmark): { index: CrossIndex; units: FileUnit[] } | undefined {
    const before = previous.b;
    if (b.name !== before.name || b.diagnostics !== before.diagnostics || b.manifest !== before.manifest || b.refusedSheets !== before.refusedSheets
      || b.chapters.length !== before.chapters.length || b.sheets.size !== before.sheets.size || b.lines.size !== before.lines.size) return undefined;
    const changed = new Map<string, FileUnit>();
    const unitOf = (file: string): FileUnit | undefined => {
      const kept = this.kept.get(file)?.unit;
      if (!kept) return undefined;
      const unit = changed.get(file) ?? { ...kept };
      const lines = b.lines.get(file);
      if (lines) unit.lines = lines;
      changed.set(file, unit);
      return unit;
    };
    const sheetsBefore = [...before.sheets.values()];
    let i = 0;
    for (const [name, sheet] of b.sheets) {
      const sheetBefore = sheetsBefore[i++];
      if (sheet === sheetBefore) continue;
      if (!sheetBefore || sheetBefore.name !== name || sheetExports(sheet) !== sheetExports(sheetBefore)) return undefined;
      const unit = unitOf(sheet.file);
      if (!unit?.sheet) return undefined;
      unit.sheet = sheet;
    }
    const replaced: { before: LocatedCheck[]; now: LocatedCheck[] }[] = [];
    const entries = previous.index.lookup().entries;
    for (let ci = 0; ci < b.chapters.length; ci++) {
      const chapter = b.chapters[ci];
      const chapterBefore = before.chapters[ci];
      if (chapter === chapterBefore) continue;
      const entry = entries[ci];
      if (!chapter || !chapterBefore || !entry || chapterExports(chapter, ci, entry) !== chapterExports(chapterBefore, ci, entry)) return undefined;
      const unit = unitOf(chapter.file);
      if (unit?.chapter?.index !== ci) return undefined;
      unit.chapter = { chapter, index: ci };
      replaced.push({ before: chapterEntries(before.checks, ci), now: chapterEntries(b.checks, ci) });
    }
    previous.index.rebase(b, replaced);
    return { index: previous.index, units: [...changed.values()] };
  }

  /**
   * A folder whose suggestions spend the whole budget (a hostile one) is validated as
   * `validateBenchmark` does it, one budget for all, and nothing is kept: which diagnostics lose
   * their suggestions then depends on every file before them.
   */
  private fromScratch(b: Benchmark, index: CrossIndex): Validated {
    const budget = suggestionBudget();
    this.kept = new Map();
    this.byFile = new Map();
    this.spent = 0;
    this.previous = undefined;
    for (const unit of fileUnits(b)) this.byFile.set(unit.file, validateFile(new Reads(index), unit, budget));
    this.revalidated = this.byFile.size;
    return { byFile: this.byFile, touched: undefined };
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
