/**
 * The validator's rule groups in the order they run, and every diagnostic code with its row: the
 * format's own (diagnostics.ts) and each rule group's. A new rule with its row goes into the group
 * file it belongs to; a new group file is one entry in `RULE_GROUPS`.
 */
import { FORMAT_CODES, type CodeRow, type DiagnosticCode } from '../diagnostics';
import { CHECK_ID_RULES } from './checkIds';
import { REFERENCE_RULES } from './references';
import { SHEET_RULES } from './sheets';
import type { RuleGroup } from './rule';
import { TRAP_RULES } from './traps';

/** The groups as `validateFile` runs them on each file. */
export const RULE_GROUPS = [REFERENCE_RULES, CHECK_ID_RULES, TRAP_RULES, SHEET_RULES] as const;

/** The codes of one group. */
type CodesOf<Group> = Group extends RuleGroup<infer Code> ? Code : never;

/** Each code any group reports. */
export type RuleCode = CodesOf<(typeof RULE_GROUPS)[number]>;

/** Every diagnostic code with its fixed severity and its one description; docs/format-notes.md's table is generated from it. */
export const DIAGNOSTIC_CODES: Readonly<Record<DiagnosticCode, CodeRow>> = Object.assign(
  {},
  FORMAT_CODES,
  ...RULE_GROUPS.map((group) => group.codes),
);
