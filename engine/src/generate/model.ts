/**
 * The shapes a generated world is made of: a topic of the library (its facts, their ranges, the
 * derived values, the events that change them, its pretexts), the world spec an author writes
 * (`world.jsonc`), and the units values are written in. Data only: the library fills the topics,
 * `spec.ts` reads the spec, `world.ts` simulates, `render.ts` writes markdown.
 */
import type { CheckType, TrapType } from '../../../scenario/src';

/** How a value is written: `$1,250`, `6.4 km`, `4000 IU`. */
export type UnitName = '$' | '€' | '£' | 'km' | 'kg' | 'g' | 'mg' | 'IU' | 'min' | 'h' | 'm²' | 'm' | 'l' | 'ml' | 'count';

/** A number in a range, drawn on a grid of `step` (so 12.5 only where step allows halves). */
export interface Range {
  min: number;
  max: number;
  step: number;
}

/** One line of a topic's ledger: a label and an amount in the ledger's unit. */
export interface LineModel extends Range {
  /** What the line is: "Insurance", "Oak shelf for the study". */
  label: string;
  /** Words after the amount: "a year", "per month", "a day". */
  suffix?: string;
}

/** A fact that is a name, a date or a count: told once, changed by a trap, asked by RECALL or HIST. */
export type DetailModel =
  | { kind: 'name'; label: string; choices: readonly string[] }
  | { kind: 'date'; label: string }
  | ({ kind: 'count'; label: string; noun: string } & Range);

/** One topic of the library: a small model of one part of the persona's life. */
export interface TopicModel {
  /** The sheet's name (its file is `<sheet>.md`): lowercase letters, digits and `-`. */
  sheet: string;
  /** The sheet's heading: "Car". */
  title: string;
  /** What the topic is, as she would name it after "about": "the car we are buying". */
  about: string;
  /** The summable lines (an estimate, a budget, a plan): AGG, NEG, RETIRE, LATE-ADD, edits. */
  ledger: {
    /** The category's heading: "Costs". */
    title: string;
    unit: UnitName;
    /** What the sum is called in a question: "the car's full price". */
    total: string;
    /** At least 12 lines; a world draws as many as it needs (labels are never reused in one world). */
    lines: readonly LineModel[];
  };
  /** Names, dates and counts: at least 4. */
  details: { title: string; facts: readonly DetailModel[] };
  /** A derived value, quantity × rate: the base fact a CASCADE changes, and what depends on it. */
  cascade: {
    /** The base fact: "Hallway floor area", in `unit`. */
    quantity: { label: string; unit: UnitName } & Range;
    /** The rate: "Floor tile", priced per `quantity.unit` in the ledger's unit. */
    rate: { label: string } & Range;
    /** What quantity × rate is called in a question: "the floor tile for the hallway". */
    derived: string;
  };
  /** A log of events (a run, a reading, a bill): SERIES checks and monthly recaps. */
  series: {
    /** The category's heading: "Runs". */
    title: string;
    /** One event, as a fact's label: "Run". */
    event: string;
    unit: UnitName;
    /** How many events in a week, on average (a whole number, at least 1). */
    perWeek: number;
    /** A recap's question about the sum over a month, after "How": "far did I run this month?". */
    recap: string;
  } & Range;
  /** Properties of the topic that are never told: VOID checks ("What is the car's VIN?"). At least 4. */
  unknowns: readonly string[];
  /**
   * The everyday reasons for each trap type, as a clause that completes "…because" or stands alone
   * ("the insurer recalculated the quote"): at least 3 per type. For XREF, the thing referred to is
   * given by the world; the pretext says why she refers instead of repeating the value.
   */
  pretexts: Readonly<Record<TrapType, readonly string[]>>;
}

/** The persona's identity, drawn from `pools.ts`. */
export interface PersonaModel {
  name: string;
  age: number;
  city: string;
  job: string;
  /** "partner", "sister", … with names. */
  family: readonly { relation: string; name: string }[];
}

export type WorldShape = 'single-day' | 'multi-day';
/** Where checks are asked: one exam at the end, woven into the chapters or days, monthly recaps. */
export type CheckPlacement = 'exam' | 'woven' | 'recaps';

/** What a generated world is asked to be. `spec.ts` reads it from `world.jsonc` and the presets. */
export interface WorldSpec {
  /** How many topics, or which (by sheet name), in the library's order when a count. */
  topics: number | readonly string[];
  /** Facts each topic's sheet starts with (ledger lines, details, the cascade's two facts). */
  factsPerTopic: number;
  /** How many facts are checked: each gets `editsPerCheckedFact` trap writes and at least one check. */
  checkedFacts: number;
  editsPerCheckedFact: number;
  /** RECALL checks of facts no trap changes (where did I grow up?), beyond the checks the traps need. */
  plainChecks: number;
  /** Relative weights of the trap types; a type at 0 never appears. */
  traps: Readonly<Record<TrapType, number>>;
  /** Relative weights of the check types; a type at 0 never appears. */
  checks: Readonly<Record<CheckType, number>>;
  /** The least distance from a trap to each check aimed at it. */
  distance: { chapters: number; sessionSwitches: number };
  /** Filler phases about topics never checked, per chapter on average (0 for none). */
  filler: number;
  shape: WorldShape;
  /** single-day: chapters. multi-day: chapters are weeks and this is ignored. */
  chapters: number;
  /** multi-day: days on virtual time. */
  days: number;
  checksAt: readonly CheckPlacement[];
  /** Session switches spread over the world (the exam always opens with one). */
  sessionSwitches: number;
  /** multi-day: the share of days without signal, caught up the next day (0–0.5). */
  offlineDays: number;
  /** The world's first moment, `YYYY-MM-DD HH:MM`. */
  start: string;
}

/** The types a generated world uses, re-exported so the library imports one file. */
export type { CheckType, TrapType };
