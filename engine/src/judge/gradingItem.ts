/**
 * One line of a grading set (`benchmarks/<name>/grading.jsonl`), declared once as a table of fields:
 * the validator walks the table, and `npm run schemas` writes schemas/grading-set.schema.json from the
 * same table (gradingSetSchema.ts), so the schema and the reader cannot disagree. Every text of a set
 * is untrusted (a shared benchmark may hold anything): each field has a size, and a problem names the
 * field and a few characters of the value, never the whole of it.
 */
import { CHECK_TYPES } from '../../../scenario/src';
import { shorten } from '../../../scenario/src/plainText';
import { ANSWER_KIND_NAMES, type GradingItem } from './item';

/** A text field: its size in characters, and a pattern for the ones a program matches on (keys, ids). */
export interface TextField {
  kind: 'text';
  description: string;
  maxChars: number;
  /** The empty text is allowed (an agent's empty answer). */
  mayBeEmpty?: boolean;
  pattern?: RegExp;
  /** What the pattern asks for, in words, for the message. */
  patternText?: string;
}

export type Field =
  | TextField
  | { kind: 'texts'; description: string; maxItems: number; item: TextField }
  | { kind: 'choice'; description: string; values: readonly (string | number)[] }
  | { kind: 'number'; description: string; min: number; max: number }
  | { kind: 'object'; description: string; fields: Fields };

export type Fields = Record<string, { field: Field; optional?: true }>;

const text = (description: string, maxChars: number, extra: Partial<TextField> = {}): TextField => ({
  kind: 'text',
  description,
  maxChars,
  ...extra,
});

/** The fields of a check as a grading item carries it: the benchmark's own, written the same way. */
export const CHECK_FIELDS: Fields = {
  id: { field: text('the check id, as in the benchmark (`3.1`)', 20, { pattern: /^\d{1,6}\.\d{1,6}$/, patternText: 'N.M' }) },
  type: {
    field: { kind: 'choice', description: 'the check type, absent for an untyped check', values: Object.keys(CHECK_TYPES) },
    optional: true,
  },
  question: { field: text('the question, as the benchmark writes it', 2_000) },
  answer: { field: text('the correct answer, as the benchmark writes it', 2_000) },
  stale: {
    field: {
      kind: 'texts',
      description: 'values that were true once and are out of date now (a trap changed them)',
      maxItems: 20,
      item: text('', 300),
    },
    optional: true,
  },
};

/** The fields of an item, in the order a line is best written in. `file` and `line` are the reader's, never a line's. */
export const ITEM_FIELDS: Fields = {
  key: {
    field: text('unique among all grading sets: the judge names it in its grade', 120, {
      pattern: /^[A-Za-z0-9][A-Za-z0-9._:/-]*$/,
      patternText: 'letters, digits and . _ : / - only, starting with a letter or digit',
    }),
  },
  benchmark: { field: text('the benchmark the check is from: the name of the folder the set lies in', 100) },
  check: { field: { kind: 'object', description: 'the check, as the benchmark writes it', fields: CHECK_FIELDS } },
  answer: { field: text("the agent's answer", 8_000, { mayBeEmpty: true }) },
  attempt: {
    field: { kind: 'choice', description: '2 when the answer came after she asked the agent to search its memory', values: [1, 2] },
  },
  kind: { field: { kind: 'choice', description: 'the kind of answer (docs/grading.md, "The grading set")', values: ANSWER_KIND_NAMES } },
  gold: { field: { kind: 'number', description: 'the score as given by the rules, before a second attempt is halved', min: 0, max: 10 } },
  rationale: { field: text('why the gold score, in one line', 400) },
};

/** What to show of an untrusted value in a message. */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(shorten(value, 40));
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return typeof value === 'number' ? String(value) : `a ${typeof value}`;
}

/** A count as messages write it: 16,000. */
export const thousands = (count: number): string => count.toLocaleString('en-US');

function textProblem(field: TextField, value: unknown): string | undefined {
  if (typeof value !== 'string') return `is ${shown(value)}, not a text: write it in quotes`;
  if (value.length > field.maxChars)
    return `is ${thousands(value.length)} characters, over the ${thousands(field.maxChars)} it may have: shorten it`;
  if (!field.mayBeEmpty && value.trim() === '') return 'is empty: write it';
  if (field.pattern && !field.pattern.test(value)) return `is ${shown(value)}: use ${field.patternText}`;
  return undefined;
}

function fieldProblem(field: Field, value: unknown, path: string): string | undefined {
  const at = (what: string | undefined) => (what === undefined ? undefined : `\`${path}\` ${what}`);
  switch (field.kind) {
    case 'text':
      return at(textProblem(field, value));
    case 'texts': {
      if (!Array.isArray(value)) return at(`is ${shown(value)}, not a list of texts: write ["…", "…"]`);
      if (value.length > field.maxItems) return at(`has ${value.length} values, over the ${field.maxItems} it may have`);
      for (const [index, entry] of value.entries()) {
        const problem = fieldProblem(field.item, entry, `${path}[${index}]`);
        if (problem) return problem;
      }
      return undefined;
    }
    case 'choice':
      return field.values.includes(value as string | number)
        ? undefined
        : at(`is ${shown(value)}: use one of ${field.values.map((choice) => JSON.stringify(choice)).join(', ')}`);
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value) || value < field.min || value > field.max)
        return at(`is ${shown(value)}: give a number from ${field.min} to ${field.max}`);
      return undefined;
    case 'object':
      return fieldsProblem(field.fields, value, `${path}.`);
  }
}

/** The first problem of an object against its fields: a missing, unknown or malformed field, as a clause naming it. */
export function fieldsProblem(fields: Fields, value: unknown, prefix = ''): string | undefined {
  const where = prefix ? `\`${prefix.slice(0, -1)}\`` : 'the line';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${where} is ${shown(value)}, not an object {…}`;
  const given = value as Record<string, unknown>;
  for (const [name, { field, optional }] of Object.entries(fields)) {
    if (!Object.hasOwn(given, name)) {
      if (!optional) return `\`${prefix}${name}\` is missing: add ${field.description}`;
      continue;
    }
    const problem = fieldProblem(field, given[name], `${prefix}${name}`);
    if (problem) return problem;
  }
  const unknown = Object.keys(given).find((name) => !Object.hasOwn(fields, name));
  if (unknown !== undefined) {
    const known = Object.keys(fields).join(', ');
    return `${where} has a field ${shown(unknown)} that a grading item does not know: remove it (the fields are ${known})`;
  }
  return undefined;
}

/** A parsed line as a grading item, or the first thing wrong with it (a clause: "`gold` is 11: give a number from 0 to 10"). */
export function gradingItemOf(value: unknown, file: string, line: number): { item: GradingItem } | { problem: string } {
  const problem = fieldsProblem(ITEM_FIELDS, value);
  if (problem) return { problem };
  const given = value as Omit<GradingItem, 'file' | 'line'>;
  const { id, type, question, answer, stale } = given.check;
  const check = { id, ...(type === undefined ? {} : { type }), question, answer, ...(stale === undefined ? {} : { stale }) };
  const item: GradingItem = {
    key: given.key,
    benchmark: given.benchmark,
    check,
    answer: given.answer,
    attempt: given.attempt,
    kind: given.kind,
    gold: given.gold,
    rationale: given.rationale,
    file,
    line,
  };
  return { item };
}
