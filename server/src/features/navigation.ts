/** Definition, references and rename: from a fact, a sheet or a check to every place that names it. */
import type { AnnotatedTextEdit, Location, Range, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
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

/**
 * Renames a check id or a fact id everywhere in the benchmark; an id must stay `N.M`. A fact's id in a
 * phase's words (`proseMentions`) is renamed too, as an edit the user confirms where the editor can ask.
 */
export function getRename(
  benchmark: Benchmark,
  file: string,
  position: Range['start'],
  newName: string,
  uriOf: UriOf,
  client: RenameClient = { changeAnnotationSupport: 'unsupported' },
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
  const prose = proseMentions(benchmark, sheet.name, fact.id);
  if (prose.length === 0) return { changes };
  if (client.changeAnnotationSupport !== 'supported') {
    for (const mention of prose) edit(mention.file, mention.range, newName);
    return { changes };
  }
  return annotatedRename(changes, prose, newName, `Prose that names fact ${fact.id} of \`${sheet.name}\``, uriOf);
}

/** What the editor asked for the rename with: whether it can show edits that need the user's confirmation. */
export interface RenameClient {
  changeAnnotationSupport: 'supported' | 'unsupported';
}

const PROSE_ANNOTATION = 'prose';

/**
 * The rename as document changes: the refs' edits as they are, the prose's annotated as needing
 * confirmation, so the editor's refactor preview lists them apart and the author can untick one.
 */
function annotatedRename(
  changes: Record<string, TextEdit[]>,
  prose: readonly ProseMention[],
  newName: string,
  label: string,
  uriOf: UriOf,
): WorkspaceEdit {
  const byUri = new Map<string, (TextEdit | AnnotatedTextEdit)[]>(Object.entries(changes).map(([uri, edits]) => [uri, [...edits]]));
  for (const mention of prose) {
    const uri = uriOf(mention.file);
    const list = byUri.get(uri) ?? [];
    list.push({ range: mention.range, newText: newName, annotationId: PROSE_ANNOTATION });
    byUri.set(uri, list);
  }
  return {
    documentChanges: [...byUri].map(([uri, edits]) => ({ textDocument: { uri, version: null }, edits })),
    changeAnnotations: {
      [PROSE_ANNOTATION]: {
        label,
        needsConfirmation: true,
        description: 'the phase tells the persona this id in words: check that each one means this fact',
      },
    },
  };
}

export interface ProseMention {
  file: string;
  range: Range;
}

/**
 * Where a phase's words name a fact by its bare id, as in "Update \`hallway\` fact 1.7 to …": in a
 * phase that names the sheet, or right after the sheet's name in backticks. A rename must change
 * these too, or the persona is told the old id.
 */
export function proseMentions(benchmark: Benchmark, sheetName: string, factId: string): ProseMention[] {
  const out: ProseMention[] = [];
  for (const chapter of benchmark.chapters) {
    for (const phase of chapter.phases) {
      const namesSheet =
        phase.sheetRefs.some((r) => r.sheet === sheetName) ||
        phase.factRefs.some((r) => r.sheet === sheetName) ||
        (phase.js?.requireAllFacts.some((r) => r.sheet === sheetName) ?? false);
      const hidden = new Set(phase.hiddenLines);
      for (let line = phase.range.start.line; line <= phase.range.end.line; line++) {
        if (hidden.has(line)) continue;
        for (const m of chapter.lines.lineText(line).matchAll(PROSE_FACT)) {
          const [whole, named, id] = m;
          if (id !== factId || (named ? named !== sheetName : !namesSheet)) continue;
          const start = m.index + whole.length - id.length;
          out.push({ file: chapter.file, range: lineRange(line, start, start + id.length) });
        }
      }
    }
  }
  return out;
}

/** "fact 1.7", or "\`hallway\` fact 1.7" with the sheet named before it. */
const PROSE_FACT = /(?:`([\w-]+)`\s+)?\bfact\s+(\d+\.\d+)(?![\d.]*\d)/g;
