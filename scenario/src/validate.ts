/** Cross-file validation of a whole benchmark: references, ids, coverage and timing. */
import { allPhases, comparePlay, type Benchmark, type LocatedCheck } from './benchmark';
import { diagnostic, type Diagnostic } from './diagnostics';
import { dayNumber } from './inline';
import type { Fact, FactRef, Sheet, SheetRef } from './model';
import { liveFacts } from './sheet';
import { didYouMean, nearNames, suggestionBudget, type SuggestionBudget } from './suggest';
import { comparePositions, lineRange } from './text';

/** Every diagnostic of the benchmark, sorted by file and position. */
export function validateBenchmark(b: Benchmark): Diagnostic[] {
  // Loops rather than push(...list): a spread of a huge list overflows the stack.
  const out: Diagnostic[] = [...b.diagnostics];
  for (const sheet of b.sheets.values()) for (const d of sheet.diagnostics) out.push(d);
  for (const chapter of b.chapters) for (const d of chapter.diagnostics) out.push(d);
  const told = new Set<string>();
  const context: Validation = { b, out, budget: suggestionBudget(), facts: new Map(), sheetList: sheetList(b) };

  for (const { chapter, phase } of allPhases(b)) {
    for (const ref of phase.factRefs) if (!b.refusedSheets?.has(ref.sheet)) checkFactRef(context, ref, chapter.file);
    for (const ref of phase.sheetRefs) {
      if (b.sheets.has(ref.sheet)) told.add(ref.sheet);
      else if (ref.sheetWordFollows && !b.refusedSheets?.has(ref.sheet)) out.push(unknownSheet(context, ref.sheet, ref, chapter.file));
    }
  }
  checkCheckIds(b, out);
  checkTraps(context);
  for (const sheet of b.sheets.values()) {
    if (told.has(sheet.name) || liveFacts(sheet).length === 0) continue;
    out.push(diagnostic('sheet-never-told', sheet.file, lineRange(0, 0, sheet.lines.lineText(0).length),
      `No phase names the \`${sheet.name}\` sheet, so the persona never tells it: add "tell the \`${sheet.name}\` sheet" to a phase, or remove the file.`));
  }
  checkTimeline(b, out);
  return suppress(b, out).sort((x, y) => x.file.localeCompare(y.file) || comparePositions(x.range.start, y.range.start) || x.code.localeCompare(y.code));
}

/** What one validation shares: the suggestion budget and indexes built once, not per reference. */
interface Validation {
  b: Benchmark;
  out: Diagnostic[];
  budget: SuggestionBudget;
  /** Per sheet: the fact each id stands for now (undefined when deleted), and the live ids. */
  facts: Map<string, { current: Map<string, Fact | undefined>; live: string[] }>;
  /** The sheet names as a message lists them, cut short for a folder of very many sheets. */
  sheetList: string;
}

function sheetList(b: Benchmark): string {
  const names = [...b.sheets.keys()];
  const shown = names.slice(0, 12).map((s) => `\`${s}\``).join(', ');
  return names.length > 12 ? `${shown} (and ${names.length - 12} more)` : shown || 'its sheets';
}

function factIndex(context: Validation, sheet: Sheet): { current: Map<string, Fact | undefined>; live: string[] } {
  let index = context.facts.get(sheet.name);
  if (!index) {
    const current = new Map<string, Fact | undefined>();
    for (const f of sheet.facts) current.set(f.id, f.deleted ? undefined : f);
    index = { current, live: liveFacts(sheet).map((f) => f.id) };
    context.facts.set(sheet.name, index);
  }
  return index;
}

function unknownSheet(context: Validation, name: string, ref: Pick<SheetRef, 'range'>, file: string): Diagnostic {
  const { b } = context;
  const suggestions = nearNames(name, b.sheets.keys(), 3, context.budget);
  return diagnostic('unknown-sheet', file, ref.range,
    `There is no sheet \`${name}\` in \`${b.name}\`: create ${name}.md or name one of ${context.sheetList}.${didYouMean(suggestions)}`,
    { suggestions });
}

function checkFactRef(context: Validation, ref: FactRef, file: string): void {
  const { b, out } = context;
  const sheet = b.sheets.get(ref.sheet);
  if (!sheet) {
    const suggestions = nearNames(ref.sheet, b.sheets.keys(), 3, context.budget);
    out.push(diagnostic('unknown-sheet', file, ref.sheetRange,
      `There is no sheet \`${ref.sheet}\` in \`${b.name}\`: create ${ref.sheet}.md or name one of ${context.sheetList}.${didYouMean(suggestions.map((s) => `${s}#${ref.id}`))}`,
      { suggestions }));
    return;
  }
  const index = factIndex(context, sheet);
  if (index.current.get(ref.id)) return;
  const deleted = index.current.has(ref.id);
  const suggestions = nearNames(ref.id, index.live, 3, context.budget);
  const why = deleted ? `fact ${ref.id} of \`${sheet.name}\` is deleted (\`—\`)` : `the \`${sheet.name}\` sheet has no fact ${ref.id}`;
  out.push(diagnostic('unknown-fact', file, ref.idRange,
    `\`${ref.sheet}#${ref.id}\` points nowhere: ${why}. Point it at an existing fact or add the fact to ${sheet.file}.${didYouMean(suggestions.map((id) => `${sheet.name}#${id}`))}`,
    { suggestions }));
}

function checkCheckIds(b: Benchmark, out: Diagnostic[]): void {
  const first = new Map<string, LocatedCheck>();
  const highest = new Map<string, number>();
  for (const c of b.checks) {
    const [series = '1', number] = c.check.id.split('.');
    highest.set(series, Math.max(highest.get(series) ?? 0, Number(number)));
  }
  for (const located of b.checks) {
    const twin = first.get(located.check.id);
    if (!twin) {
      first.set(located.check.id, located);
      continue;
    }
    const series = located.check.id.split('.')[0] ?? '1';
    const free = `${series}.${(highest.get(series) ?? 0) + 1}`;
    out.push(diagnostic('duplicate-check-id', located.file, located.check.idRange,
      `Check id ${located.check.id} is already used in ${twin.file} line ${twin.check.idRange.start.line + 1}: check ids are unique in a benchmark; use ${free}.`,
      { related: [{ file: twin.file, range: twin.check.idRange, message: `first check ${located.check.id}` }], suggestions: [free] }));
  }
}

/** The next unused id in the same `N.` series as `id`. */
export function nextFreeCheckId(b: Benchmark, id: string): string {
  const series = id.split('.')[0] ?? '1';
  let highest = 0;
  for (const c of b.checks) {
    const [s, n] = c.check.id.split('.');
    if (s === series) highest = Math.max(highest, Number(n));
  }
  return `${series}.${highest + 1}`;
}

function checkTraps(context: Validation): void {
  const { b, out } = context;
  const checks = new Map(b.checks.map((c) => [c.check.id, c]));
  const targeted = new Set<string>();
  for (const t of b.traps) {
    for (const target of t.trap.targets) {
      targeted.add(target.name);
      const check = checks.get(target.name);
      if (!check) {
        const suggestions = nearNames(target.name, checks.keys(), 3, context.budget);
        out.push(diagnostic('trap-target-missing', t.file, target.range,
          `This trap aims at check ${target.name}, but no check has that id: add \`❓ ${target.name} …\` where the value is asked, or fix the id.${didYouMean(suggestions)}`,
          { suggestions }));
      } else if (comparePlay(check, t) < 0) {
        out.push(diagnostic('trap-target-before-write', t.file, target.range,
          `Check ${target.name} is asked in ${check.file} line ${check.check.idRange.start.line + 1}, before this trap is written, so it cannot catch it: aim the trap at a later check.`,
          { related: [{ file: check.file, range: check.check.idRange, message: `check ${target.name}` }] }));
      }
    }
  }
  for (const c of b.checks) {
    if (c.check.type === 'HIST' && !targeted.has(c.check.id)) {
      out.push(diagnostic('hist-without-trap', c.file, c.check.typeRange ?? c.check.idRange,
        `HIST check ${c.check.id} asks for a value before an edit, but no trap write aims at it: mark the edit with \`🪤 TYPE sheet#N.M → ${c.check.id}\`.`));
    }
  }
}

/** Time anchors must move forward through the whole play order, from `start_time` on. */
function checkTimeline(b: Benchmark, out: Diagnostic[]): void {
  const start = b.manifest?.start_time;
  let day: number | undefined = start ? dayNumber(start.slice(0, 10)) : undefined;
  let last: { key: number; what: string } | undefined = start && day !== undefined
    ? { key: day * 1440 + Number(start.slice(11, 13)) * 60 + Number(start.slice(14, 16)), what: `start_time ${start}` }
    : undefined;
  for (const { chapter, phase } of allPhases(b)) {
    const events = [
      ...phase.dateLines.map((d) => ({ line: d.range.start.line, date: d })),
      ...phase.timeAnchors.map((a) => ({ line: a.range.start.line, anchor: a })),
    ].sort((x, y) => x.line - y.line);
    for (const e of events) {
      if ('date' in e && e.date) {
        const n = dayNumber(e.date.date) ?? 0;
        if (day !== undefined && n < day) {
          out.push(diagnostic('time-anchor-order', chapter.file, e.date.range,
            `${e.date.date} comes before the day already reached (${last?.what ?? 'an earlier date line'}): virtual time only moves forward; fix the date.`));
        }
        day = n;
        if (!last || last.key < n * 1440) last = { key: n * 1440, what: e.date.date };
      } else if ('anchor' in e && e.anchor) {
        const key = (day ?? 0) * 1440 + e.anchor.minutes;
        const what = `${e.anchor.time} (${chapter.file} line ${e.anchor.range.start.line + 1})`;
        if (last && key < last.key) {
          out.push(diagnostic('time-anchor-order', chapter.file, lineRange(e.anchor.range.start.line, e.anchor.range.start.character, e.anchor.range.start.character + 5),
            `${e.anchor.time} is earlier than ${last.what}: virtual time only moves forward. Start a new day with a date line (\`YYYY-MM-DD, Ddd\`) or fix the time.`));
        }
        last = { key: Math.max(key, last?.key ?? key), what };
      }
    }
  }
}

/**
 * Drops diagnostics silenced by a comment on their own line, or alone on the line above:
 * `<!-- mmb-ignore: code -->` in markdown, `// mmb-ignore: code` in JSON; without a code, all.
 */
function suppress(b: Benchmark, diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => {
    const lines = b.lines.get(d.file);
    if (!lines) return true;
    const silences = (text: string) => {
      const m = IGNORE.exec(text);
      return !!m && (!m[1] || m[1].split(/[\s,]+/).includes(d.code));
    };
    const above = lines.lineText(d.range.start.line - 1);
    return !(silences(lines.lineText(d.range.start.line)) || (/^\s*(<!--|\/\/)/.test(above) && silences(above)));
  });
}

export const IGNORE = /mmb-ignore(?::\s*([a-z-]+(?:[\s,]+[a-z-]+)*))?/;
