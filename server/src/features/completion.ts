/** Completion: sheet names, fact ids, trap and check types, check ids, templates, `bench.`/`vars.`, the next check id. */
import { CompletionItemKind, InsertTextFormat, type CompletionItem } from 'vscode-languageserver';
import {
  BENCH_API,
  CHECK_TYPES,
  comparePlay,
  containsPosition,
  lineRange,
  liveFacts,
  TEMPLATE_UNITS,
  TRAP_TYPES,
  type Benchmark,
  type Position,
  type Range,
} from '../../../scenario/src';
import { chapterOf, phaseAt } from '../locate';

export function getCompletion(benchmark: Benchmark, file: string, position: Position): CompletionItem[] {
  const chapter = chapterOf(benchmark, file);
  const lines = benchmark.lines.get(file);
  if (!chapter || !lines) return [];
  const before = lines.lineText(position.line).slice(0, position.character);
  const phase = phaseAt(chapter, position);

  if (phase?.js && containsPosition(phase.js.range, position)) return scriptItems(benchmark, before, position);

  const after = lines.lineText(position.line).slice(position.character);
  // Each edit replaces what the user typed before the cursor and what the editor put after it (an auto-closed
  // `]` or `}}`, the rest of an id), so that accepting an item leaves the text valid whatever was there.
  const replacing = (typedBefore: string, textAfter = '') =>
    lineRange(position.line, position.character - typedBefore.length, position.character + textAfter.length);

  const fact = /([A-Za-z0-9_][\w-]*)#(\d*\.?\d*)$/.exec(before);
  if (fact) {
    const sheet = benchmark.sheets.get(fact[1] ?? '');
    const range = replacing(fact[2] ?? '', /^[\d.]*/.exec(after)?.[0]);
    return sheet
      ? liveFacts(sheet).map((f, i) => ({
          label: f.id,
          kind: CompletionItemKind.Field,
          detail: f.text,
          documentation: `${sheet.name}#${f.id}: ${f.text}`,
          sortText: String(i).padStart(5, '0'),
          filterText: f.id,
          textEdit: { range, newText: f.id },
        }))
      : [];
  }
  const sheetWord = /[\w-]*$/.exec(before)?.[0] ?? '';
  if (/`[\w-]*$/.test(before)) return sheetItems(benchmark, replacing(sheetWord, /^[\w-]*/.exec(after)?.[0]));
  const template = /\{\{([A-Z]*)(?::(\d*)(?::(\w*))?)?$/.exec(before);
  if (template) return templateItems(template, replacing, after);
  const trimmed = before.trimStart();
  if (/^🪤\uFE0F?\s*[A-Z-]*$/.test(trimmed)) {
    return Object.entries(TRAP_TYPES).map(([type, doc]) => ({ label: type, kind: CompletionItemKind.EnumMember, detail: doc }));
  }
  // After the type come the facts the trap rewrites: the sheet first, then, once `#` is typed, its fact ids.
  if (/^🪤\uFE0F?\s*[A-Z-]+\s+(?:[\w-]+#\d+\.\d+[\s,]*)*[\w-]*$/.test(trimmed)) {
    return sheetItems(benchmark, replacing(sheetWord, /^[\w-]*/.exec(after)?.[0]), ['#']);
  }
  if (/^🪤.*(→|->)[\s\d.,]*$/.test(trimmed)) return checkIdItems(benchmark, file, position);
  const typeTyped = /^❓\uFE0F?\s*\d+\.\d+\s*\[([A-Z]*)$/.exec(trimmed);
  if (typeTyped) {
    const range = replacing(typeTyped[1] ?? '', /^[A-Z]*\]?[ \t]*/.exec(after)?.[0]);
    return Object.entries(CHECK_TYPES).map(([type, doc]) => ({
      label: type,
      kind: CompletionItemKind.EnumMember,
      detail: doc,
      textEdit: { range, newText: `${type}] ` },
    }));
  }
  const idTyped = /^❓\uFE0F?(\s*)(\d*\.?\d*)$/.exec(trimmed);
  if (idTyped) {
    // No space after it: the user types the one before `[` or the question.
    const id = `${idTyped[1] ? '' : ' '}${nextCheckId(benchmark, file)}`;
    const range = replacing(idTyped[2] ?? '', /^[\d.]*/.exec(after)?.[0]);
    const item = { label: id.trim(), kind: CompletionItemKind.Value, detail: 'the next free check id', filterText: id };
    return [{ ...item, textEdit: { range, newText: id } }];
  }
  return [];
}

/** The range an item replaces: so many characters typed before the cursor, so many after it. */
type Replacing = (typedBefore: string, textAfter?: string) => Range;

/** Inside a phase's script: the `bench.` API, the `vars.` the engine reads, and sheet names for require_all_facts. */
function scriptItems(benchmark: Benchmark, before: string, position: Position): CompletionItem[] {
  if (/\bbench\.\w*$/.test(before)) {
    return Object.entries(BENCH_API).map(([name, doc]) => ({
      label: name,
      kind: CompletionItemKind.Method,
      detail: `bench.${name}`,
      documentation: doc,
    }));
  }
  if (/\bvars\.\w*$/.test(before)) {
    return [
      {
        label: 'require_all_facts',
        kind: CompletionItemKind.Property,
        detail: 'string | string[]',
        documentation: 'next_phase is refused until every fact of these sheets is told.',
      },
    ];
  }
  const quoted = /require_all_facts\s*=.*["'](\w*)$/.exec(before);
  if (quoted) return sheetItems(benchmark, lineRange(position.line, position.character - (quoted[1] ?? '').length, position.character));
  return [];
}

/** Inside `{{`: the template names (over the `}}` an editor auto-closed), then nothing for the count, then the units. */
function templateItems(template: RegExpExecArray, replacing: Replacing, after: string): CompletionItem[] {
  if (template[3] !== undefined) return TEMPLATE_UNITS.map((u) => ({ label: u, kind: CompletionItemKind.Unit }));
  if (template[2] !== undefined) return [];
  const range = replacing(template[1] ?? '', /^[A-Z]*\}{0,2}/.exec(after)?.[0]);
  return [
    { label: 'TODAY', kind: CompletionItemKind.Keyword, detail: "the run's start date", textEdit: { range, newText: 'TODAY}}' } },
    {
      label: 'FUTURE',
      kind: CompletionItemKind.Keyword,
      detail: 'N units after the start',
      textEdit: { range, newText: 'FUTURE:${1:3}:${2|days,weeks,months,years,hours,minutes|}}}' },
      insertTextFormat: InsertTextFormat.Snippet,
    },
    {
      label: 'PAST',
      kind: CompletionItemKind.Keyword,
      detail: 'N units before the start',
      textEdit: { range, newText: 'PAST:${1:2}:${2|days,weeks,months,years,hours,minutes|}}}' },
      insertTextFormat: InsertTextFormat.Snippet,
    },
  ];
}

/**
 * The sheets, each replacing the name typed so far. On a trap line `#` commits one (typing `#` accepts the
 * name and types the `#`, which asks for its fact ids), so a habitual `#` after the name never doubles.
 */
function sheetItems(benchmark: Benchmark, range: Range, commitCharacters: string[] = []): CompletionItem[] {
  return [...benchmark.sheets.values()].map((s) => ({
    label: s.name,
    kind: CompletionItemKind.File,
    detail: `${s.title ?? s.name} · ${liveFacts(s).length} facts`,
    documentation: s.file,
    textEdit: { range, newText: s.name },
    ...(commitCharacters.length ? { commitCharacters } : {}),
  }));
}

/**
 * The checks a trap write can aim at: the ones after it in play order first, nearest first, since
 * only a later check can catch it; then the earlier ones.
 */
function checkIdItems(benchmark: Benchmark, file: string, position: Position): CompletionItem[] {
  const chapter = benchmark.chapters.findIndex((c) => c.file === file);
  const phase = benchmark.chapters[chapter]?.phases.find((ph) => containsPosition(ph.range, position))?.index ?? 0;
  const here = { chapter, phase };
  const after = benchmark.checks.filter(
    (c) => comparePlay(c, here) > 0 || (comparePlay(c, here) === 0 && c.check.range.start.line > position.line),
  );
  const before = benchmark.checks.filter((c) => !after.includes(c));
  return [...after, ...before].map((c, i) => ({
    label: c.check.id,
    kind: CompletionItemKind.Reference,
    detail: c.check.question,
    documentation: `Correct answer: ${c.check.answer}`,
    sortText: String(i).padStart(5, '0'),
    ...(i >= after.length ? { labelDetails: { description: 'before the trap' } } : {}),
  }));
}

/** The next id of the series this chapter uses (or the chapter's number when it has no check yet). */
export function nextCheckId(benchmark: Benchmark, file: string): string {
  const own = benchmark.checks.filter((c) => c.file === file).map((c) => c.check.id.split('.')[0]);
  const index = benchmark.chapters.findIndex((c) => c.file === file);
  const series = own.at(-1) ?? /(\d+)/.exec(file)?.[1] ?? String(index + 1);
  const used = benchmark.checks
    .map((c) => c.check.id.split('.'))
    .filter(([s]) => s === series)
    .map(([, n]) => Number(n));
  return `${series}.${Math.max(0, ...used) + 1}`;
}
