/**
 * Validation that redoes only what a change affects. Each file's diagnostics are kept with the
 * inputs they came from: the file's own parse and play position, and the log of every read its
 * validation made of the cross-file indexes (`Reads`). On the next model of the folder a file is
 * validated again only when its parse moved or one of its reads answers differently; so a
 * keystroke that changes no cross-file index validates one file, and one that does validates the
 * files that read what it changed. The result always equals `validateBenchmark` of the same model.
 */
import type { Benchmark } from './benchmark';
import { CrossIndex, Reads, readsHold, type ReadLog } from './crossIndex';
import type { Diagnostic } from './diagnostics';
import { suggestionBudget } from './suggest';
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
  /** How many files the last `validate` validated again (the rest were kept): for tests and the bench. */
  revalidated = 0;

  /**
   * Every file's diagnostics, sorted by position, by file name (an empty list for a file with
   * none). A file whose diagnostics were kept has the very list of the previous call, so a caller
   * can skip it by identity.
   */
  validate(b: Benchmark): Map<string, readonly Diagnostic[]> {
    const index = new CrossIndex(b);
    const limit = suggestionBudget().steps;
    const next = new Map<string, Kept>();
    const out = new Map<string, readonly Diagnostic[]>();
    let spent = 0;
    this.revalidated = 0;
    for (const unit of fileUnits(b)) {
      let kept = this.kept.get(unit.file);
      if (!kept || !sameUnit(kept.unit, unit) || !readsHold(index, kept.reads)) {
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

function sameUnit(before: FileUnit, now: FileUnit): boolean {
  return before.folder === now.folder && before.lines === now.lines && before.sheet === now.sheet
    && before.chapter?.chapter === now.chapter?.chapter && before.chapter?.index === now.chapter?.index;
}
