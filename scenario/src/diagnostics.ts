/**
 * A diagnostic of the format: its code, severity, message and range, as the parser, the validator and
 * `mmb check` give it; and the rows of the codes the parser, the folder reader, the config reader and
 * the audit report. The validator's codes have their rows in their rule files (`rules/`).
 */
import { MAX_CONTAINER_DEPTH, MAX_INDENT_COLUMNS, MAX_LINE_CHARS } from './limits';
import type { RuleCode } from './rules';
import type { Range } from './text';

export type Severity = 'error' | 'warning';

/** A code's row: its fixed severity and its one description, which the table of codes in docs/format-notes.md shows. */
export interface CodeRow {
  severity: Severity;
  summary: string;
}

/**
 * The codes of the parser, the folder and config readers and the audit, each with its row;
 * `DIAGNOSTIC_CODES` (rules/index.ts) adds the validator rules' codes. Codes are stable: the CLI's
 * `--json`, the language server and authors' suppressions all key on them.
 */
export const FORMAT_CODES = {
  'invalid-manifest': { severity: 'error', summary: 'benchmark.json is missing, is not valid JSON, or a key has the wrong type' },
  'invalid-config': {
    severity: 'error',
    summary:
      'config.jsonc is not valid JSONC, a key has the wrong type, a secret is written in it, or a run names an unknown benchmark or agent',
  },
  'unknown-key': { severity: 'warning', summary: 'a key that benchmark.json does not know' },
  'unknown-config-key': {
    severity: 'error',
    summary: 'a key that config.jsonc does not know, at any level, or a run key its agent does not read (with the nearest keys)',
  },
  'missing-chapter': { severity: 'error', summary: 'a chapter listed in benchmark.json has no file' },
  'missing-sheet': { severity: 'error', summary: 'a sheet listed in benchmark.json has no file' },
  'unlisted-chapter': { severity: 'warning', summary: 'a `chapterN.md` file that benchmark.json does not list' },
  'missing-instructions': { severity: 'warning', summary: 'the benchmark has no instructions.md for the persona' },
  'duplicate-fact-id': { severity: 'error', summary: 'two live facts of one sheet share an id' },
  'malformed-fact-line': { severity: 'error', summary: 'a line of a sheet is not a `N.M text` fact or a `## N. Title` category' },
  'malformed-check': { severity: 'error', summary: 'a `❓` line without an id or without `Correct answer:`' },
  'unknown-check-type': { severity: 'error', summary: 'a check type that is not one of `CHECK_TYPES` (docs/format.md, "Checks")' },
  'malformed-trap': { severity: 'error', summary: 'a `🪤` line that does not follow `🪤 TYPE [refs] → CHECK-ID, ... [— note]`' },
  'unknown-trap-type': { severity: 'error', summary: 'a trap type that is not one of `TRAP_TYPES` (docs/format.md, "Trap writes")' },
  'js-syntax-error': { severity: 'error', summary: "a phase's JS block does not parse (reported at the line of the error)" },
  'unknown-bench-api': { severity: 'error', summary: 'a `bench.` member other than `newSession` and `log`' },
  'malformed-template': {
    severity: 'error',
    summary: 'a `{{...}}` date template with a bad keyword, number or unit, or an unclosed `{{`',
  },
  'malformed-time-anchor': {
    severity: 'error',
    summary: 'a date line or `HH:MM —` anchor that is not a real date or time: an impossible date, a wrong weekday, a bad `HH:MM`',
  },
  'time-anchor-order': { severity: 'warning', summary: 'a time anchor earlier than the one before it' },
  'js-block-not-first': { severity: 'warning', summary: 'a `js` block that is not at the start of its phase never runs' },
  'outside-phase': { severity: 'warning', summary: "a check or trap in a chapter's preamble, which the persona never sees" },
  'unsafe-file': {
    severity: 'error',
    summary: [
      'a file that is not read: a link leaving the folder, a dangling link, not a regular file (a FIFO, a folder),',
      'over 1 MiB, or a reserved name like `__proto__.md`',
    ].join(' '),
  },
  'over-limit': {
    severity: 'error',
    summary: [
      `a markdown file with a line over ${MAX_LINE_CHARS.toLocaleString('en')} characters, more than ${MAX_CONTAINER_DEPTH} nested quotes`,
      `or lists on a line, or indentation over ${MAX_INDENT_COLUMNS} columns: the file is not parsed`,
    ].join(' '),
  },
  'invalid-grading-item': {
    severity: 'error',
    summary: [
      "a line of the benchmark's grading.jsonl that is not a grading item: not JSON, a field missing, unknown or of the wrong",
      'kind, a score outside 0–10, a text over its size, a key used twice, or the set itself not readable',
    ].join(' '),
  },
  'grading-check-mismatch': {
    severity: 'error',
    summary: "a grading item's check that the benchmark lacks, or whose question, correct answer or type differ from the benchmark's",
  },
  'audit-missing-value': {
    severity: 'error',
    summary: [
      "`mmb check --audit`: a check's correct answer lacks the value its trap's fact had when the rehearsal asked it",
      '(for a HIST check, the value before the edit)',
    ].join(' '),
  },
  'audit-stale-value': {
    severity: 'error',
    summary: "`mmb check --audit`: a check's correct answer holds a value that its trap's edit replaced, or a fact it deleted",
  },
  'audit-not-edited': {
    severity: 'warning',
    summary: [
      "`mmb check --audit`: the rehearsal did not change a trap's fact in the trap's phase",
      '(the phase does not give the new text, nor an "X, not Y"), so its checks could not be compared',
    ].join(' '),
  },
  'audit-not-graded': { severity: 'warning', summary: '`mmb check --audit`: the rehearsal never graded a check that a trap aims at' },
} as const satisfies Record<string, CodeRow>;

export type FormatCode = keyof typeof FORMAT_CODES;

/** Every code a diagnostic may have: the format's own and the validator rules'. */
export type DiagnosticCode = FormatCode | RuleCode;

export interface RelatedInformation {
  file: string;
  range: Range;
  message: string;
}

export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  /** Path relative to the benchmark folder, e.g. `chapter3.md`. */
  file: string;
  range: Range;
  /** What is wrong and what to do about it. */
  message: string;
  related?: RelatedInformation[];
  /** Texts that could replace `range` exactly ("did you mean"), for quick fixes. */
  suggestions?: string[];
}

/** What makes a diagnostic of one of `rows`' codes, with the severity of its row. */
export type Reporter<Code extends DiagnosticCode> = (
  code: Code,
  file: string,
  range: Range,
  message: string,
  extra?: Pick<Diagnostic, 'related' | 'suggestions'>,
) => Diagnostic;

/** The reporter of a table of rows: a rule file makes its own from its codes. */
export function reporter<Code extends DiagnosticCode>(rows: Readonly<Record<Code, CodeRow>>): Reporter<Code> {
  return (code, file, range, message, extra = {}) => ({ code, severity: rows[code].severity, file, range, message, ...extra });
}

/** A diagnostic of one of the format's own codes (the validator's rules report theirs through `reporter`). */
export const diagnostic: Reporter<FormatCode> = reporter(FORMAT_CODES);
