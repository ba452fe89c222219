/**
 * Validation that redoes only what a change affects. Each file's diagnostics are kept with the
 * inputs they came from: the file's own parse and play position, and the log of every read its
 * validation made of the cross-file indexes (`Reads`), and a reverse index says which files made
 * each read. On the next model of the folder:
 * - when chapters and sheets were replaced in place (a keystroke), the index is updated by them
 *   and names the reads whose answers may have changed; the changed files are validated, and of
 *   the others only those that made such a read are asked again. A keystroke that changes no
 *   cross-file answer validates one file, whatever the folder's size;
 * - otherwise (a file added or gone, the manifest) a new index is built and every file's reads
 *   are asked again; a file is validated again only when its parse moved or a read differs.
 * The result always equals `validateBenchmark` of the same model (a random-edit test holds it so).
 */
import type { Benchmark } from './benchmark';
import { CrossIndex, type ChapterChange, type SheetChange } from './crossIndex';
import { readKey, type ReadKind } from './readKeys';
import type { Diagnostic } from './diagnostics';
import { Reads, readsHold, type ReadLog } from './reads';
import { chapterEntries } from './revise';
import { suggestionBudget } from './suggest';
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
  /** Which files made each read (`readKey`): the ones to ask again when its answer may have changed. */
  private readers = new Map<string, Set<string>>();
  /** The last model validated and its index, updated in place by the next model when it can be. */
  private previous: { b: Benchmark; index: CrossIndex } | undefined;
  /** How many files the last `validate` validated, and how many kept files it asked their reads again: for tests. */
  revalidated = 0;
  rechecked = 0;
  /** Whether the last `validate` updated the last cross-file index in place rather than building one. */
  reusedIndex = false;

  validate(b: Benchmark): Validated {
    const limit = suggestionBudget().steps;
    const update = this.previous && this.updateInPlace(this.previous, b);
    this.reusedIndex = update !== undefined;
    this.revalidated = 0;
    this.rechecked = 0;
    if (update) {
      const { index, units, changed } = update;
      this.previous = { b, index };
      const touched = new Set<string>();
      for (const unit of units) {
        this.keep(this.validateUnit(index, unit));
        touched.add(unit.file);
      }
      for (const key of changed) {
        // A copy: validating a reader moves its own entries in the reverse index.
        for (const file of [...(this.readers.get(key) ?? [])]) {
          const kept = this.kept.get(file);
          if (!kept || touched.has(file)) continue;
          this.rechecked++;
          if (readsHold(index, kept.reads)) continue;
          this.keep(this.validateUnit(index, kept.unit));
          touched.add(file);
        }
      }
      return this.spent < limit ? { byFile: this.byFile, touched } : this.fromScratch(b, index);
    }
    const index = new CrossIndex(b);
    this.previous = { b, index };
    const previous = this.kept;
    this.kept = new Map();
    this.byFile = new Map();
    this.readers = new Map();
    this.spent = 0;
    for (const unit of fileUnits(b)) {
      const kept = previous.get(unit.file);
      const holds = kept !== undefined && sameUnit(kept.unit, unit) && readsHold(index, kept.reads);
      if (kept) this.rechecked++;
      this.keep(holds ? kept : this.validateUnit(index, unit));
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
    const file = kept.unit.file;
    const before = this.kept.get(file);
    if (before === kept) return;
    this.spent += kept.steps - (before?.steps ?? 0);
    if (before) this.index(before, file, -1);
    this.index(kept, file, 1);
    this.kept.set(file, kept);
    this.byFile.set(file, kept.diagnostics);
  }

  /** A file's reads in or out of the reverse index. */
  private index(kept: Kept, file: string, by: 1 | -1): void {
    const log = kept.reads;
    for (let i = 0; i < log.length; i += 3) {
      const key = readKey(log[i] as ReadKind, log[i + 1] as string);
      let files = this.readers.get(key);
      if (by > 0) {
        if (!files) this.readers.set(key, (files = new Set()));
        files.add(file);
      } else if (files?.delete(file) && files.size === 0) this.readers.delete(key);
    }
  }

  /**
   * The last index brought up to `b` and the reads that may answer differently, with the units
   * of the files that changed, when `b` is the last model with chapters and sheets replaced in
   * place. Anything else (a file added or gone, the manifest, a file both chapter and sheet)
   * asks for a new index.
   */
  private updateInPlace(
    previous: { b: Benchmark; index: CrossIndex },
    b: Benchmark,
  ): { index: CrossIndex; units: FileUnit[]; changed: Set<string> } | undefined {
    const before = previous.b;
    if (
      b.name !== before.name ||
      b.diagnostics !== before.diagnostics ||
      b.manifest !== before.manifest ||
      b.refusedSheets !== before.refusedSheets ||
      b.chapters.length !== before.chapters.length ||
      b.sheets.size !== before.sheets.size ||
      b.lines.size !== before.lines.size
    )
      return undefined;
    const units = new Map<string, FileUnit>();
    const unitOf = (file: string): FileUnit | undefined => {
      const kept = this.kept.get(file)?.unit;
      if (!kept) return undefined;
      const unit = units.get(file) ?? { ...kept };
      const lines = b.lines.get(file);
      if (lines) unit.lines = lines;
      units.set(file, unit);
      return unit;
    };
    const sheetsBefore = [...before.sheets.values()];
    const sheets: SheetChange[] = [];
    let i = 0;
    for (const [name, sheet] of b.sheets) {
      const sheetBefore = sheetsBefore[i++];
      if (sheet === sheetBefore) continue;
      if (!sheetBefore || sheetBefore.name !== name || sheetBefore.file !== sheet.file) return undefined;
      const unit = unitOf(sheet.file);
      if (!unit?.sheet || unit.chapter) return undefined;
      unit.sheet = sheet;
      sheets.push({ before: sheetBefore, now: sheet });
    }
    const chapters: ChapterChange[] = [];
    for (let ci = 0; ci < b.chapters.length; ci++) {
      const chapter = b.chapters[ci];
      const chapterBefore = before.chapters[ci];
      if (chapter === chapterBefore) continue;
      if (!chapter || !chapterBefore || chapter.file !== chapterBefore.file) return undefined;
      const unit = unitOf(chapter.file);
      if (unit?.chapter?.index !== ci || unit.sheet) return undefined;
      unit.chapter = { chapter, index: ci };
      chapters.push({
        index: ci,
        before: chapterBefore,
        now: chapter,
        checksBefore: chapterEntries(before.checks, ci),
        checksNow: chapterEntries(b.checks, ci),
      });
    }
    const changed = previous.index.update(b, chapters, sheets);
    return { index: previous.index, units: [...units.values()], changed };
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
    this.readers = new Map();
    this.spent = 0;
    this.previous = undefined;
    for (const unit of fileUnits(b)) this.byFile.set(unit.file, validateFile(new Reads(index), unit, budget));
    this.revalidated = this.byFile.size;
    return { byFile: this.byFile, touched: undefined };
  }
}

function sameUnit(before: FileUnit, now: FileUnit): boolean {
  return (
    before.folder === now.folder &&
    before.lines === now.lines &&
    before.sheet === now.sheet &&
    before.chapter?.chapter === now.chapter?.chapter &&
    before.chapter?.index === now.chapter?.index
  );
}
