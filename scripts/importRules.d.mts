/** The types of scripts/importRules.mjs (plain JavaScript, which the lint config loads), for the TypeScript that reads its table. */

/** An import a part never makes: how the table shows it, and for the lint its pattern, message and one import that must fail. */
export interface RefusedImport {
  shown: string;
  pattern?: { group: string[] } | { regex: string };
  message?: string;
  probe?: string;
}

/** One part of the project and what it may import. */
export interface ImportRule {
  part: string;
  files?: string[];
  ignores?: string[];
  may: string;
  why: string;
  never: RefusedImport[];
}

export const IMPORT_RULES: readonly ImportRule[];
export function importRulesLintBlocks(): object[];
export const IMPORT_RULES_START: string;
export const IMPORT_RULES_END: string;
export function importRulesTable(): string;
