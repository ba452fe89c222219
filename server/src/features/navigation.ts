/** Definition, references and rename: from a fact, a sheet or a check to every place that names it. */
import type { Location, Range, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import { liveFact, lineRange, type Benchmark } from '../../../scenario/src';
import { elementAt, type Element } from '../locate';

export type UriOf = (file: string) => string;

const at = (uri: string, range: Range): Location => ({ uri, range });

/** Where the thing under the cursor is defined. */
export function getDefinition(benchmark: Benchmark, file: string, position: Range['start'], uriOf: UriOf): Location[] {
  const e = elementAt(benchmark, file, position);
  if (!e) return [];
  switch (e.kind) {
    case 'fact-ref': {
      const sheet = benchmark.sheets.get(e.ref.sheet);
      if (!sheet) return [];
      const onSheetName = e.ref.sheetRange.end.character >= position.character;
      const fact = liveFact(sheet, e.ref.id);
      if (onSheetName || !fact) return [at(uriOf(sheet.file), lineRange(0, 0, 0))];
      return [at(uriOf(sheet.file), fact.range)];
    }
    case 'sheet-ref': {
      const sheet = benchmark.sheets.get(e.ref.sheet);
      return sheet ? [at(uriOf(sheet.file), lineRange(0, 0, 0))] : [];
    }
    case 'trap-target':
      return benchmark.checks.filter((c) => c.check.id === e.target.name).map((c) => at(uriOf(c.file), c.check.range));
    case 'manifest-file':
      return benchmark.lines.has(e.listed.file) ? [at(uriOf(e.listed.file), lineRange(0, 0, 0))] : [];
    default:
      return [];
  }
}

/** The fact or the check an element stands for, if any. */
function target(element: Element | undefined): { fact: { sheet: string; id: string } } | { check: string } | undefined {
  if (!element) return undefined;
  if (element.kind === 'fact-ref') return { fact: { sheet: element.ref.sheet, id: element.ref.id } };
  if (element.kind === 'fact') return { fact: { sheet: element.sheet.name, id: element.fact.id } };
  if (element.kind === 'check') return { check: element.check.id };
  if (element.kind === 'trap-target') return { check: element.target.name };
  return undefined;
}

/** Every place that names the fact or check under the cursor: refs, trap writes, and (if asked) the definition. */
export function getReferences(
  benchmark: Benchmark,
  file: string,
  position: Range['start'],
  includeDeclaration: boolean,
  uriOf: UriOf,
): Location[] {
  const t = target(elementAt(benchmark, file, position));
  if (!t) return [];
  const out: Location[] = [];
  if ('fact' in t) {
    const sheet = benchmark.sheets.get(t.fact.sheet);
    const fact = sheet && liveFact(sheet, t.fact.id);
    if (includeDeclaration && sheet && fact) out.push(at(uriOf(sheet.file), fact.idRange));
    for (const chapter of benchmark.chapters) {
      for (const phase of chapter.phases) {
        for (const ref of phase.factRefs)
          if (ref.sheet === t.fact.sheet && ref.id === t.fact.id) out.push(at(uriOf(chapter.file), ref.range));
      }
    }
    return out;
  }
  if (includeDeclaration) for (const c of benchmark.checks) if (c.check.id === t.check) out.push(at(uriOf(c.file), c.check.idRange));
  for (const trap of benchmark.traps)
    for (const target of trap.trap.targets) if (target.name === t.check) out.push(at(uriOf(trap.file), target.range));
  return out;
}

const FACT_ID = /^\d+\.\d+$/;

/** The range a rename would replace, or undefined where nothing can be renamed. */
export function prepareRename(benchmark: Benchmark, file: string, position: Range['start']): Range | undefined {
  const e = elementAt(benchmark, file, position);
  if (!e) return undefined;
  if (e.kind === 'fact-ref') return e.ref.idRange;
  if (e.kind === 'fact') return e.fact.idRange;
  if (e.kind === 'check') return e.check.idRange;
  if (e.kind === 'trap-target') return e.target.range;
  return undefined;
}

/** Renames a check id or a fact id everywhere in the benchmark; an id must stay `N.M`. */
export function getRename(
  benchmark: Benchmark,
  file: string,
  position: Range['start'],
  newName: string,
  uriOf: UriOf,
): WorkspaceEdit | { error: string } {
  const e = elementAt(benchmark, file, position);
  const t = target(e);
  if (!t) return { error: 'Only a check id or a fact id can be renamed.' };
  if (!FACT_ID.test(newName)) return { error: `"${newName}" is not an id: ids are N.M, such as 20.3.` };
  const changes: Record<string, TextEdit[]> = {};
  const edit = (f: string, range: Range, text: string) => (changes[uriOf(f)] ??= []).push({ range, newText: text });
  if ('check' in t) {
    if (benchmark.checks.some((c) => c.check.id === newName)) return { error: `Check ${newName} already exists.` };
    for (const c of benchmark.checks) if (c.check.id === t.check) edit(c.file, c.check.idRange, newName);
    for (const trap of benchmark.traps)
      for (const target of trap.trap.targets) if (target.name === t.check) edit(trap.file, target.range, newName);
    return { changes };
  }
  const sheet = benchmark.sheets.get(t.fact.sheet);
  const fact = sheet && liveFact(sheet, t.fact.id);
  if (!sheet || !fact) return { error: `There is no fact ${t.fact.sheet}#${t.fact.id} to rename.` };
  if (liveFact(sheet, newName)) return { error: `${sheet.name}#${newName} already exists.` };
  if (Number(newName.split('.')[0]) !== fact.category)
    return { error: `Fact ${fact.id} sits under category ${fact.category}: its new id must start with ${fact.category}.` };
  edit(sheet.file, fact.idRange, newName);
  for (const chapter of benchmark.chapters) {
    for (const phase of chapter.phases) {
      for (const ref of phase.factRefs) if (ref.sheet === sheet.name && ref.id === fact.id) edit(chapter.file, ref.idRange, newName);
    }
  }
  return { changes };
}
