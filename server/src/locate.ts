/** What stands at a position of a benchmark file: the question every navigation feature starts with. */
import {
  containsPosition,
  type Benchmark,
  type Chapter,
  type Check,
  type Fact,
  type FactRef,
  type ListedFile,
  type Named,
  type Phase,
  type Position,
  type Sheet,
  type SheetRef,
  type Template,
  type Trap,
} from '../../scenario/src';

export type Element =
  | { kind: 'fact-ref'; ref: FactRef; chapter: Chapter; phase: Phase }
  | { kind: 'sheet-ref'; ref: SheetRef; chapter: Chapter; phase: Phase }
  | { kind: 'check'; check: Check; chapter: Chapter; phase: Phase }
  | { kind: 'check-type'; check: Check; chapter: Chapter }
  | { kind: 'trap-target'; target: Named; trap: Trap; chapter: Chapter }
  | { kind: 'trap-type'; trap: Trap; chapter: Chapter }
  | { kind: 'template'; template: Template; chapter: Chapter }
  | { kind: 'fact'; fact: Fact; sheet: Sheet }
  | { kind: 'manifest-file'; listed: ListedFile; list: 'chapters' | 'sheets' };

export function chapterOf(benchmark: Benchmark, file: string): Chapter | undefined {
  return benchmark.chapters.find((c) => c.file === file);
}

export function sheetOfFile(benchmark: Benchmark, file: string): Sheet | undefined {
  return [...benchmark.sheets.values()].find((s) => s.file === file);
}

export function phaseAt(chapter: Chapter, position: Position): Phase | undefined {
  return chapter.phases.find((ph) => containsPosition(ph.range, position));
}

export function elementAt(benchmark: Benchmark, file: string, position: Position): Element | undefined {
  if (file === 'benchmark.json' && benchmark.manifest) {
    for (const list of ['chapters', 'sheets'] as const) {
      const listed = (benchmark.manifest[list] ?? []).find((l) => containsPosition(l.range, position));
      if (listed) return { kind: 'manifest-file', listed, list };
    }
    return undefined;
  }
  const sheet = sheetOfFile(benchmark, file);
  if (sheet) {
    const fact = sheet.facts.find((f) => containsPosition(f.idRange, position));
    return fact ? { kind: 'fact', fact, sheet } : undefined;
  }
  const chapter = chapterOf(benchmark, file);
  const phase = chapter && phaseAt(chapter, position);
  if (!chapter || !phase) return undefined;
  for (const trap of phase.traps) {
    const target = trap.targets.find((t) => containsPosition(t.range, position));
    if (target) return { kind: 'trap-target', target, trap, chapter };
    if (containsPosition(trap.typeRange, position)) return { kind: 'trap-type', trap, chapter };
  }
  const ref = phase.factRefs.find((r) => containsPosition(r.range, position));
  if (ref) return { kind: 'fact-ref', ref, chapter, phase };
  for (const check of phase.checks) {
    if (containsPosition(check.idRange, position)) return { kind: 'check', check, chapter, phase };
    if (check.typeRange && containsPosition(check.typeRange, position)) return { kind: 'check-type', check, chapter };
  }
  const template = phase.templates.find((t) => containsPosition(t.range, position));
  if (template) return { kind: 'template', template, chapter };
  const sheetRef = phase.sheetRefs.find((r) => containsPosition(r.range, position) && benchmark.sheets.has(r.sheet));
  if (sheetRef) return { kind: 'sheet-ref', ref: sheetRef, chapter, phase };
  return undefined;
}
