/**
 * The keys of world.jsonc, declared once: each key's rule (its type and range) and what it means.
 * The reader (`spec.ts`) checks a file by this table, `npm run schemas` writes
 * schemas/world.schema.json and the table of keys in docs/generate.md from it (`specSchema.ts`), and
 * the mapped type makes a key of `WorldSpec` without a row a compile error. Defaults are
 * `DEFAULT_SPEC`'s (presets.ts), so they too are written once.
 */
import { CHECK_TYPES, TRAP_TYPES } from '../../../scenario/src';
import type { WorldSpec } from './model';
import { PRESET_NAMES } from './presets';

/** What a key's value may be. Every kind is bounded, so a spec cannot ask for a world no machine can write. */
export type KeyRule =
  | { kind: 'integer'; min: number; max: number }
  | { kind: 'number'; min: number; max: number }
  | { kind: 'choice'; values: readonly string[] }
  /** A list of one or more of `values`, each at most once. */
  | { kind: 'choices'; values: readonly string[] }
  | { kind: 'text'; pattern: RegExp; patternText: string; example: string; maxChars: number }
  /** A count of topics taken in the library's order, or a list of the library's sheet names. */
  | { kind: 'topics'; max: number }
  /** Relative weights by name (`noun`: what a name is, "trap type"): the names not given keep the base's weight. */
  | { kind: 'weights'; names: readonly string[]; noun: string; max: number }
  /** Whole numbers by name: the names not given keep the base's value. */
  | { kind: 'counts'; keys: Readonly<Record<string, KeyRow>> };

export interface KeyRow {
  rule: KeyRule;
  /** What the key means, one sentence for the schema's description and the docs' table. */
  doc: string;
}

/** The most topics a spec may name; the library's own size is the real bound, checked when it is known. */
export const MAX_TOPICS = 1000;
/** A spec is a page of settings: anything longer is not one, and is refused before it is parsed. */
export const MAX_SPEC_CHARS = 64 * 1024;
/** The largest seed: the generator's PRNG takes 32 bits, so a larger one would alias a smaller. */
export const MAX_SEED = 2 ** 32 - 1;

const WEIGHT_MAX = 1000;
const integer = (min: number, max: number): KeyRule => ({ kind: 'integer', min, max });

/** A moment as benchmark.json's `start_time` writes it. */
export const MOMENT_PATTERN = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/;

/** Every key of a `WorldSpec`, in the order docs and generated files list them. */
export const SPEC_KEYS: { readonly [Key in keyof WorldSpec]-?: KeyRow } = {
  topics: {
    rule: { kind: 'topics', max: MAX_TOPICS },
    doc: 'How many topics, taken in the library\'s order, or which, as a list of sheet names (`["car", "trip"]`).',
  },
  factsPerTopic: {
    rule: integer(4, 1000),
    doc: "Facts each topic's sheet starts with: ledger lines, details, the cascade's two facts, then events logged before.",
  },
  checkedFacts: {
    rule: integer(1, 100_000),
    doc:
      'How many facts are checked in each block (a month, or `chapters` chapters): ' +
      'each gets `editsPerCheckedFact` trap writes and a check.',
  },
  editsPerCheckedFact: {
    rule: integer(1, 100),
    doc:
      'Trap writes on each checked fact: more edits, more stale values to confuse ' +
      '(only the first when RECONSIDER, STALE and SELF-FIX all weigh 0).',
  },
  plainChecks: {
    rule: integer(0, 100_000),
    doc: 'RECALL checks of facts no trap changes ("where did I grow up?"), besides the checks the traps need.',
  },
  traps: {
    rule: { kind: 'weights', names: Object.keys(TRAP_TYPES), noun: 'trap type', max: WEIGHT_MAX },
    doc:
      "Relative weights of the trap types; a type at 0 is never drawn (a logged event's change is a SELF-FIX whatever its weight), " +
      "a type not named keeps the preset's weight.",
  },
  checks: {
    rule: { kind: 'weights', names: Object.keys(CHECK_TYPES), noun: 'check type', max: WEIGHT_MAX },
    doc:
      'Relative weights of the check types; a type at 0 is never drawn (a trap whose check cannot show its edit still gets a ' +
      "RECALL or HIST of its own), a type not named keeps the preset's weight.",
  },
  distance: {
    rule: {
      kind: 'counts',
      keys: {
        chapters: { rule: integer(0, 1000), doc: 'The least chapters (days, multi-day) from a trap to each check aimed at it.' },
        sessionSwitches: { rule: integer(0, 1000), doc: 'The least session switches between a trap and each check aimed at it.' },
      },
    },
    doc: "The least distance from a trap to each check aimed at it; a key not named keeps the preset's.",
  },
  filler: { rule: { kind: 'number', min: 0, max: 10 }, doc: 'Filler phases about topics never checked, per chapter on average (0: none).' },
  shape: {
    rule: { kind: 'choice', values: ['single-day', 'multi-day'] },
    doc: "`single-day`: Max's shape, topic switches in one session of chapters; `multi-day`: days on virtual time, a week a file.",
  },
  chapters: { rule: integer(2, 1000), doc: 'single-day: the chapters of the world (of one block, for `--extend`). multi-day: ignored.' },
  days: { rule: integer(1, 3660), doc: 'multi-day: the days on virtual time (a block of 30 is a month). single-day: ignored.' },
  checksAt: {
    rule: { kind: 'choices', values: ['exam', 'woven', 'recaps'] },
    doc:
      'Where checks are asked: `exam` (one at the end, after a session switch), `woven` (into the chapters or days), ' +
      '`recaps` (monthly, multi-day).',
  },
  sessionSwitches: { rule: integer(0, 10_000), doc: 'Session switches spread over the world (the exam always opens with one).' },
  offlineDays: {
    rule: { kind: 'number', min: 0, max: 0.5 },
    doc: 'multi-day: the share of days without signal, caught up the next day. single-day: ignored.',
  },
  start: {
    rule: { kind: 'text', pattern: MOMENT_PATTERN, patternText: 'YYYY-MM-DD HH:MM', example: '2026-03-02 09:00', maxChars: 16 },
    doc: "The world's first moment, `YYYY-MM-DD HH:MM`.",
  },
};

/** The keys a file holds besides the spec's: its base, its seed, what the generator wrote, and an editor's `$schema`. */
export const FILE_KEYS = {
  preset: {
    rule: { kind: 'choice', values: PRESET_NAMES },
    doc: 'The preset the other keys override (default: `max-like`); `--preset` on the command line wins over it.',
  },
  seed: {
    rule: integer(0, MAX_SEED),
    doc: 'The seed: the same spec and seed give a byte-identical folder; `--seed` on the command line wins over it.',
  },
  blocks: {
    rule: integer(1, 10_000),
    doc: 'Written by the generator: the blocks the world has (a block: `chapters` chapters, or a month of days); `--extend` adds more.',
  },
  $schema: {
    rule: { kind: 'text', pattern: /^\S+$/, patternText: 'a path or URL', example: '../../schemas/world.schema.json', maxChars: 2000 },
    doc: "The JSON schema an editor checks the file with; the generator's reader ignores it.",
  },
} as const satisfies Record<string, KeyRow>;

export type FileKey = keyof typeof FILE_KEYS;

/** Every top-level key of world.jsonc: the spec's, then the file's. */
export const ALL_KEYS: Readonly<Record<string, KeyRow>> = { ...SPEC_KEYS, ...FILE_KEYS };
