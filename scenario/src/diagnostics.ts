/** A diagnostic of the format: its code, severity, message and range, as the parser, the validator and `mmb check` give it. */
import { MAX_CONTAINER_DEPTH, MAX_INDENT_COLUMNS, MAX_LINE_CHARS } from './limits';
import type { Range } from './text';

export type Severity = 'error' | 'warning';

/**
 * Every diagnostic the validator can report, with its fixed severity and its one description: the
 * table of codes in docs/format-notes.md is generated from it (`npm run schemas`). Codes are stable:
 * the CLI's `--json`, the language server and authors' suppressions all key on them.
 */
export const DIAGNOSTIC_CODES = {
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
  'unknown-sheet': { severity: 'error', summary: 'a reference to a sheet that does not exist' },
  'unknown-fact': { severity: 'error', summary: 'a `sheet#N.M` reference to a fact that does not exist or is deleted' },
  'duplicate-check-id': { severity: 'error', summary: 'two checks share an id (the diagnostic points at the first)' },
  'malformed-check': { severity: 'error', summary: 'a `❓` line without an id or without `Correct answer:`' },
  'unknown-check-type': { severity: 'error', summary: 'a check type other than RECALL, AGG, NEG, VOID, HIST, SERIES' },
  'malformed-trap': { severity: 'error', summary: 'a `🪤` line that does not follow `🪤 TYPE [refs] → CHECK-ID, ... [— note]`' },
  'unknown-trap-type': { severity: 'error', summary: 'a trap type other than the seven of the format' },
  'trap-target-missing': { severity: 'error', summary: 'a trap aims at a check id that no check has' },
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
  'trap-target-before-write': { severity: 'warning', summary: 'a trap aims at a check that is asked before the trap is written' },
  'sheet-never-told': { severity: 'warning', summary: 'no phase names the sheet, so the persona never tells it' },
  'hist-without-trap': { severity: 'warning', summary: 'a HIST check that no trap aims at' },
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
} as const satisfies Record<string, { severity: Severity; summary: string }>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

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

export function diagnostic(
  code: DiagnosticCode,
  file: string,
  range: Range,
  message: string,
  extra: Pick<Diagnostic, 'related' | 'suggestions'> = {},
): Diagnostic {
  return { code, severity: DIAGNOSTIC_CODES[code].severity, file, range, message, ...extra };
}
