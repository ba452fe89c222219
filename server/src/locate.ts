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

export function chapterOf(b: Benchmark, file: string): Chapter | undefined {
  return b.chapters.find((c) => c.file === file);
}

export function sheetOfFile(b: Benchmark, file: string): Sheet | undefined {
  return [...b.sheets.values()].find((s) => s.file === file);
}

export function phaseAt(chapter: Chapter, p: Position): Phase | undefined {
  return chapter.phases.find((ph) => containsPosition(ph.range, p));
}

export function elementAt(b: Benchmark, file: string, p: Position): Element | undefined {
  if (file === 'benchmark.json' && b.manifest) {
    for (const list of ['chapters', 'sheets'] as const) {
      const listed = (b.manifest[list] ?? []).find((l) => containsPosition(l.range, p));
      if (listed) return { kind: 'manifest-file', listed, list };
    }
    return undefined;
  }
  const sheet = sheetOfFile(b, file);
  if (sheet) {
    const fact = sheet.facts.find((f) => containsPosition(f.idRange, p));
    return fact ? { kind: 'fact', fact, sheet } : undefined;
  }
  const chapter = chapterOf(b, file);
  const phase = chapter && phaseAt(chapter, p);
  if (!chapter || !phase) return undefined;
  for (const trap of phase.traps) {
    const target = trap.targets.find((t) => containsPosition(t.range, p));
    if (target) return { kind: 'trap-target', target, trap, chapter };
    if (containsPosition(trap.typeRange, p)) return { kind: 'trap-type', trap, chapter };
  }
  const ref = phase.factRefs.find((r) => containsPosition(r.range, p));
  if (ref) return { kind: 'fact-ref', ref, chapter, phase };
  for (const check of phase.checks) {
    if (containsPosition(check.idRange, p)) return { kind: 'check', check, chapter, phase };
    if (check.typeRange && containsPosition(check.typeRange, p)) return { kind: 'check-type', check, chapter };
  }
  const template = phase.templates.find((t) => containsPosition(t.range, p));
  if (template) return { kind: 'template', template, chapter };
  const sheetRef = phase.sheetRefs.find((r) => containsPosition(r.range, p) && b.sheets.has(r.sheet));
  if (sheetRef) return { kind: 'sheet-ref', ref: sheetRef, chapter, phase };
  return undefined;
}
