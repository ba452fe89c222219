/** The scenario model: the benchmark's chapters, phases, sheets, checks and traps as the parser returns them, and the format's types. */
import type { Diagnostic } from './diagnostics';
import type { LineIndex, Range } from './text';

/** The check types of the format, with what each one asks of the agent. */
export const CHECK_TYPES = {
  RECALL: 'one fact',
  AGG: 'an aggregate whose every component must be current',
  NEG: 'an aggregate over a topic with a cancellation',
  VOID: 'something never said: the right answer is "you never told me"',
  HIST: 'a value before an edit',
  SERIES: 'a chronology',
} as const;
export type CheckType = keyof typeof CHECK_TYPES;

/** The trap-write types of the format, with the everyday pretext each one plays out. */
export const TRAP_TYPES = {
  RECONSIDER: 'a change of mind',
  STALE: 'went stale for an outside reason',
  'SELF-FIX': 'a self-correction',
  XREF: 'a value given by reference',
  CASCADE: 'a base fact change that forces recalculations',
  'LATE-ADD': 'a top-up to a long-closed topic',
  RETIRE: 'a cancellation',
} as const;
export type TrapType = keyof typeof TRAP_TYPES;

/** The members of `bench` a JS block may use. */
export const BENCH_API = {
  newSession: 'async: switch the agent under test to a new conversation (clean context, long-term memory kept)',
  log: "write a line in the run's log",
} as const;

export interface Named {
  name: string;
  range: Range;
}

/** `sheet#N.M` */
export interface FactRef {
  sheet: string;
  id: string;
  range: Range;
  sheetRange: Range;
  idRange: Range;
}

/** A whole sheet named by a phase: `` `family` `` in text, or `vars.require_all_facts`. */
export interface SheetRef {
  sheet: string;
  range: Range;
  via: 'backticks' | 'require_all_facts';
  /** For backticks: the word "sheet" follows, so the name must be a sheet. */
  sheetWordFollows: boolean;
}

export type TemplateUnit = 'minutes' | 'hours' | 'days' | 'weeks' | 'months' | 'years';
export const TEMPLATE_UNITS: readonly TemplateUnit[] = ['minutes', 'hours', 'days', 'weeks', 'months', 'years'];

/** `{{TODAY}}`, `{{FUTURE:3:weeks}}`, `{{PAST:2:days}}` */
export interface Template {
  raw: string;
  range: Range;
  keyword: 'TODAY' | 'FUTURE' | 'PAST';
  amount: number;
  unit: TemplateUnit;
}

export interface Check {
  id: string;
  idRange: Range;
  type?: CheckType;
  typeRange?: Range;
  question: string;
  answer: string;
  answerRange?: Range;
  /** From the `❓` to the end of the last continuation line. */
  range: Range;
}

export interface Trap {
  type: TrapType;
  typeRange: Range;
  facts: FactRef[];
  targets: Named[];
  note?: string;
  range: Range;
}

/** A date line `2026-03-10, Tue` starting a day in a multi-day phase. */
export interface DateLine {
  date: string;
  range: Range;
}

/** A line `HH:MM — action`: the persona acts at this virtual time. */
export interface TimeAnchor {
  time: string;
  /** Minutes since midnight. */
  minutes: number;
  /** The date line in force, if the phase or an earlier one of the chapter gave one. */
  date?: string;
  range: Range;
}

export interface JsBlock {
  code: string;
  /** The whole fenced block, fences included. */
  range: Range;
  /** `bench.newSession()` is called: the agent gets a new conversation when the phase starts. */
  newSession: boolean;
  /** Names used after `bench.`. */
  benchMembers: Named[];
  /** The sheets named in `vars.require_all_facts`. */
  requireAllFacts: SheetRef[];
}

export interface Phase {
  /** 0-based within the chapter. */
  index: number;
  title: string;
  /** The `##` heading line. */
  headingRange: Range;
  /** From the heading to the last line before the next phase. */
  range: Range;
  js?: JsBlock;
  checks: Check[];
  traps: Trap[];
  factRefs: FactRef[];
  sheetRefs: SheetRef[];
  templates: Template[];
  dateLines: DateLine[];
  timeAnchors: TimeAnchor[];
  /** Lines (0-based) of trap writes and of the leading JS block: never sent to the persona. */
  hiddenLines: number[];
}

export interface Chapter {
  file: string;
  lines: LineIndex;
  /** Text before the first phase: notes for authors, never sent to the persona. */
  preamble: Range;
  phases: Phase[];
  diagnostics: Diagnostic[];
}

export interface Fact {
  /** `N.M` */
  id: string;
  category: number;
  text: string;
  /** The text is `—`: the fact is deleted and its id may be reused. */
  deleted: boolean;
  range: Range;
  idRange: Range;
}

export interface Category {
  number: number;
  title: string;
  range: Range;
}

export interface Sheet {
  /** The file's base name: `family` for `family.md`. */
  name: string;
  file: string;
  title?: string;
  titleRange?: Range;
  categories: Category[];
  /** Every fact line in file order, deleted ones included. */
  facts: Fact[];
  lines: LineIndex;
  diagnostics: Diagnostic[];
}
