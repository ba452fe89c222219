/** Completion: sheet names, fact ids, trap and check types, check ids, templates, `bench.`/`vars.`, the next check id. */
import { CompletionItemKind, InsertTextFormat, type CompletionItem } from 'vscode-languageserver';
import {
  BENCH_API,
  CHECK_TYPES,
  comparePlay,
  containsPosition,
  liveFacts,
  TEMPLATE_UNITS,
  TRAP_TYPES,
  type Benchmark,
  type Position,
} from '../../../scenario/src';
import { chapterOf, phaseAt } from '../locate';

export function getCompletion(benchmark: Benchmark, file: string, position: Position): CompletionItem[] {
  const chapter = chapterOf(benchmark, file);
  const lines = benchmark.lines.get(file);
  if (!chapter || !lines) return [];
  const before = lines.lineText(position.line).slice(0, position.character);
  const phase = phaseAt(chapter, position);

  if (phase?.js && containsPosition(phase.js.range, position)) return scriptItems(benchmark, before);

  const fact = /([A-Za-z0-9_][\w-]*)#(\d*\.?\d*)$/.exec(before);
  if (fact) {
    const sheet = benchmark.sheets.get(fact[1] ?? '');
    return sheet
      ? liveFacts(sheet).map((f, i) => ({
          label: f.id,
          kind: CompletionItemKind.Field,
          detail: f.text,
          documentation: `${sheet.name}#${f.id}: ${f.text}`,
          sortText: String(i).padStart(5, '0'),
          filterText: f.id,
        }))
      : [];
  }
  if (/`[\w-]*$/.test(before)) return sheetItems(benchmark);
  const template = /\{\{([A-Z]*)(?::(\d*)(?::(\w*))?)?$/.exec(before);
  if (template) return templateItems(template);
  const trimmed = before.trimStart();
  if (/^🪤\uFE0F?\s*[A-Z-]*$/.test(trimmed)) {
    return Object.entries(TRAP_TYPES).map(([type, doc]) => ({ label: type, kind: CompletionItemKind.EnumMember, detail: doc }));
  }
  // After the type come the facts the trap rewrites: the sheet first, then its fact ids.
  if (/^🪤\uFE0F?\s*[A-Z-]+\s+(?:[\w-]+#\d+\.\d+[\s,]*)*[\w-]*$/.test(trimmed)) return sheetItems(benchmark, '#');
  if (/^🪤.*(→|->)[\s\d.,]*$/.test(trimmed)) return checkIdItems(benchmark, file, position);
  if (/^❓\uFE0F?\s*\d+\.\d+\s*\[[A-Z]*$/.test(trimmed)) {
    return Object.entries(CHECK_TYPES).map(([type, doc]) => ({
      label: type,
      kind: CompletionItemKind.EnumMember,
      detail: doc,
      insertText: `${type}] `,
    }));
  }
  if (/^❓\uFE0F?\s*$/.test(trimmed)) {
    const id = nextCheckId(benchmark, file);
    return [{ label: id, kind: CompletionItemKind.Value, detail: 'the next free check id', insertText: `${id} ` }];
  }
  return [];
}

/** Inside a phase's script: the `bench.` API, the `vars.` the engine reads, and sheet names for require_all_facts. */
function scriptItems(benchmark: Benchmark, before: string): CompletionItem[] {
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
  if (/require_all_facts\s*=.*["']\w*$/.test(before)) return sheetItems(benchmark);
  return [];
}

/** Inside `{{`: the template names, then nothing for the count, then the units. */
function templateItems(template: RegExpExecArray): CompletionItem[] {
  if (template[3] !== undefined) return TEMPLATE_UNITS.map((u) => ({ label: u, kind: CompletionItemKind.Unit }));
  if (template[2] !== undefined) return [];
  return [
    { label: 'TODAY', kind: CompletionItemKind.Keyword, detail: "the run's start date", insertText: 'TODAY}}' },
    {
      label: 'FUTURE',
      kind: CompletionItemKind.Keyword,
      detail: 'N units after the start',
      insertText: 'FUTURE:${1:3}:${2|days,weeks,months,years,hours,minutes|}}}',
      insertTextFormat: InsertTextFormat.Snippet,
    },
    {
      label: 'PAST',
      kind: CompletionItemKind.Keyword,
      detail: 'N units before the start',
      insertText: 'PAST:${1:2}:${2|days,weeks,months,years,hours,minutes|}}}',
      insertTextFormat: InsertTextFormat.Snippet,
    },
  ];
}

/** The sheets; `then` is typed after the name (`#` on a trap line), and the fact ids are offered next. */
function sheetItems(benchmark: Benchmark, then = ''): CompletionItem[] {
  return [...benchmark.sheets.values()].map((s) => ({
    label: s.name,
    kind: CompletionItemKind.File,
    detail: `${s.title ?? s.name} · ${liveFacts(s).length} facts`,
    documentation: s.file,
    ...(then ? { insertText: `${s.name}${then}`, command: { title: 'Fact ids', command: 'editor.action.triggerSuggest' } } : {}),
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
