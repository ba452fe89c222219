/**
 * What each part of the project may import, in one table: eslint.config.mjs builds its
 * `no-restricted-imports` blocks from it, ARCHITECTURE.md shows it (written between its markers by
 * `npm run schemas`, a test holding the two equal), and engine/test/architecture.test.ts plants each
 * refused import (its `probe`) and wants the lint to fail. Plain JavaScript: the lint config loads it.
 */
import { builtinModules } from 'node:module';

/** Every Node built-in, bare and with `node:`, with its subpaths (`fs/promises`): Node's own list, not ours. */
const NODE_BUILTINS = ['node:*', ...builtinModules.flatMap((name) => [name, `${name}/*`])];

/** The editor's API and the language server's packages. */
const VSCODE_ANY = ['vscode', 'vscode-*'];

/** What neither side of the scenario model imports: the editor, the language server, the rest of the project. */
const SCENARIO_STANDS_ALONE = [
  {
    shown: '`vscode*`',
    pattern: { group: VSCODE_ANY },
    message: 'The scenario model never imports the editor or the language server.',
    probe: 'vscode-languageserver',
  },
  {
    shown: 'engine, server, extension',
    pattern: { group: ['**/engine/**', '**/server/**', '**/extension/**'] },
    message: 'The scenario model depends on nothing of the project.',
    probe: '../../engine/src/clock',
  },
];

/**
 * One row a part: the files it covers (none where another checker holds the rule), what it may
 * import and why, and what it never imports, each with the lint's message and one import that must fail.
 */
export const IMPORT_RULES = [
  {
    part: '`scenario/src`',
    files: ['scenario/**/*.ts'],
    ignores: ['scenario/test/**', 'scenario/node/**'],
    may: 'itself',
    why: 'the pure model: text in, plain values out, the same in the editor, the server and the CLI',
    never: [
      {
        shown: 'Node built-ins',
        pattern: { group: NODE_BUILTINS },
        message: 'The scenario model has no file system or network: take text, return values.',
        probe: 'node:fs',
      },
      ...SCENARIO_STANDS_ALONE,
    ],
  },
  {
    part: '`scenario/node`',
    files: ['scenario/node/**/*.ts'],
    may: '`scenario/src`, Node',
    why: "the one disk side of the format: Node's file system and the pure model",
    never: [...SCENARIO_STANDS_ALONE],
  },
  {
    part: '`engine/`',
    files: ['engine/**/*.ts'],
    may: '`scenario/`, Node, its npm packages',
    why: 'it runs from a terminal, from CI and as a child process of the extension',
    never: [
      { shown: '`vscode*`', pattern: { group: VSCODE_ANY }, message: 'The engine runs without an editor.', probe: 'vscode' },
      {
        shown: 'server, extension',
        pattern: { group: ['**/server/**', '**/extension/**'] },
        message: 'The engine depends on the scenario model alone.',
        probe: '../../extension/src/results',
      },
    ],
  },
  {
    part: '`server/src`',
    files: ['server/src/**/*.ts'],
    may: '`scenario/`, `vscode-languageserver`',
    why: 'it runs outside the editor and speaks LSP',
    never: [
      {
        shown: '`vscode`',
        pattern: { group: ['vscode'] },
        message: 'The language server runs outside the editor: vscode-languageserver only.',
        probe: 'vscode',
      },
      {
        shown: 'engine, extension',
        pattern: { group: ['**/engine/**', '**/extension/**'] },
        message: 'The language server uses the scenario model alone.',
        probe: '../../engine/src/api',
      },
    ],
  },
  {
    part: '`extension/src`',
    files: ['extension/src/**/*.ts'],
    may: '`scenario/`, `engine/src/api` only, `vscode`, `vscode-languageclient`',
    why: 'the engine has one door (`engine/src/api`); the server is reached over LSP',
    never: [
      {
        shown: 'any other engine file',
        // A regex: ignore-style negations do not see `../`.
        pattern: { regex: '(^|/)engine/(?!src/api(/index)?$)' },
        message: 'The editor uses the engine through engine/src/api alone (ARCHITECTURE.md): add what it needs there.',
        probe: '../../engine/src/protocol/layout',
      },
      {
        shown: 'server',
        pattern: { group: ['**/server/**'] },
        message: 'The editor talks to the language server over LSP, never through its modules.',
        probe: '../../server/src/workspace',
      },
    ],
  },
  {
    part: 'folders of `engine/src`',
    may: 'each other, with no cycle (type-only imports count)',
    why: 'a cycle makes its folders one; `scripts/check-imports.ts` (in `npm run lint`) finds it',
    never: [{ shown: 'a cycle' }],
  },
];

/** The lint's blocks: one `no-restricted-imports` rule per part that has files. */
export function importRulesLintBlocks() {
  return IMPORT_RULES.filter((rule) => rule.files).map((rule) => ({
    files: rule.files,
    ...(rule.ignores ? { ignores: rule.ignores } : {}),
    rules: {
      'no-restricted-imports': ['error', { patterns: rule.never.map((refused) => ({ ...refused.pattern, message: refused.message })) }],
    },
  }));
}

export const IMPORT_RULES_START = '<!-- generated:import-rules by scripts/schemas.ts from scripts/importRules.mjs -->';
export const IMPORT_RULES_END = '<!-- /generated:import-rules -->';

/** The table ARCHITECTURE.md shows, with its markers. */
export function importRulesTable() {
  const rows = IMPORT_RULES.map(
    (rule) => `| ${rule.part} | ${rule.may} | ${rule.never.map((refused) => refused.shown).join(', ')} | ${rule.why} |`,
  );
  return [IMPORT_RULES_START, '| part | may import | never | why |', '|---|---|---|---|', ...rows, IMPORT_RULES_END].join('\n');
}
