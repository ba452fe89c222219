/**
 * The worlds `mmb generate` makes without a spec: `DEFAULT_SPEC` (a world of Max's size) and the
 * presets an author starts from (`--preset`, or `"preset"` in world.jsonc, whose keys override it).
 * The figures of each are quoted in docs/generate.md; the generator's tests count what they give.
 */
import type { WorldSpec } from './model';

/** The world's moment zero when a spec names none: a Monday, as Max's and the bundled multi-day benchmarks start. */
const DEFAULT_START = '2026-03-02 09:00';

/**
 * Max's counts (benchmarks/max/README.md): 20 chapters in one day, 8 topics of some 18 facts (143
 * in Max), 12 checked facts edited twice (Max's 24 trap writes, by Max's mix of types), checks in an
 * exam after one session switch and a few woven (Max asks 36: 22 RECALL, 5 AGG, 2 NEG, 2 VOID,
 * 4 HIST, 1 SERIES), every check at least 3 chapters after its trap, two filler phases in 20 chapters.
 */
export const DEFAULT_SPEC: WorldSpec = {
  topics: 8,
  factsPerTopic: 17,
  checkedFacts: 12,
  editsPerCheckedFact: 2,
  plainChecks: 14,
  traps: { RECONSIDER: 8, STALE: 4, 'SELF-FIX': 3, XREF: 2, CASCADE: 2, 'LATE-ADD': 3, RETIRE: 2 },
  checks: { RECALL: 22, AGG: 5, NEG: 2, VOID: 2, HIST: 4, SERIES: 1 },
  distance: { chapters: 3, sessionSwitches: 1 },
  filler: 0.1,
  shape: 'single-day',
  chapters: 20,
  days: 30,
  checksAt: ['exam', 'woven'],
  sessionSwitches: 1,
  offlineDays: 0,
  start: DEFAULT_START,
};

/**
 * Harder than Max on every axis (issue #31): 12 topics of 34 facts make 408 facts in the sheets, and
 * the series' events and the late additions of 60 chapters bring the world past 500 facts; each of
 * 64 checked facts is edited 4 times, every check stands at least 20 chapters and 2 session switches
 * after its trap, and the conversation is switched 10 times.
 */
const HARD: WorldSpec = {
  ...DEFAULT_SPEC,
  topics: 12,
  factsPerTopic: 34,
  checkedFacts: 64,
  plainChecks: 24,
  editsPerCheckedFact: 4,
  traps: { RECONSIDER: 3, STALE: 3, 'SELF-FIX': 2, XREF: 2, CASCADE: 3, 'LATE-ADD': 2, RETIRE: 2 },
  checks: { RECALL: 6, AGG: 4, NEG: 3, VOID: 2, HIST: 4, SERIES: 2 },
  distance: { chapters: 20, sessionSwitches: 2 },
  filler: 0.5,
  chapters: 60,
  checksAt: ['woven', 'exam'],
  sessionSwitches: 10,
};

/**
 * A month on virtual time: 30 days (five weeks of phases with `HH:MM` anchors), one day in ten
 * without signal and caught up the next, checks woven into the days, a monthly recap ("how far did
 * I run this month?") and an exam, four session switches.
 */
const MONTH: WorldSpec = {
  ...DEFAULT_SPEC,
  topics: 10,
  factsPerTopic: 16,
  checkedFacts: 20,
  plainChecks: 10,
  editsPerCheckedFact: 2,
  traps: { RECONSIDER: 3, STALE: 3, 'SELF-FIX': 2, XREF: 1, CASCADE: 2, 'LATE-ADD': 2, RETIRE: 2 },
  checks: { RECALL: 6, AGG: 3, NEG: 2, VOID: 1, HIST: 3, SERIES: 3 },
  distance: { chapters: 1, sessionSwitches: 0 },
  filler: 0.3,
  shape: 'multi-day',
  days: 30,
  checksAt: ['woven', 'recaps', 'exam'],
  sessionSwitches: 4,
  offlineDays: 0.1,
};

/** The presets by name, in the order help and docs list them. */
export const PRESETS = { 'max-like': DEFAULT_SPEC, hard: HARD, month: MONTH } as const satisfies Record<string, WorldSpec>;

export type PresetName = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];

/**
 * The seed when none is given: fixed, never drawn, so that the same command gives the same world
 * on every machine (`mmb generate` prints it, and world.jsonc keeps it).
 */
export const DEFAULT_SEED = 31;

/** What each preset is, in a few words, for `--help` and the docs. */
export const PRESET_DOCS: Readonly<Record<PresetName, string>> = {
  'max-like': "Max's counts: 20 chapters in one day, 8 topics, 24 trap writes, an exam after a session switch",
  hard: '60 chapters, 12 topics, 500+ facts, 4 edits per checked fact, checks 20 chapters after their trap, 10 session switches',
  month: '30 days on virtual time: woven checks, a monthly recap and an exam, days without signal, 4 session switches',
};
