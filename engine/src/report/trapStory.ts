/**
 * The trap story of a run: per trap write, the checks it aims at, how far apart they are in the
 * run (chapters, session switches and compactions between) and whether the agent held; then the
 * pass rate per trap type and per check type. Over repeated runs the rates are pooled and given
 * with a Wilson score interval, which stays inside 0–100 % and is honest for a few dozen checks.
 */
import type { Benchmark } from '../../../scenario/src';
import { DEFAULT_PASS_SCORE, passes } from '../protocol/scores';
import type { Position, RunState } from '../state/runState';
import { agentCompactionsPlaced, textInRun } from './summary';
import type { CheckResult, SourceRef, TrapLink } from './runView';

/** How far a check is from the trap write aimed at it, as the run played it. */
export interface TrapDistance {
  chapters: number;
  /** Switches to a new conversation after the write's phase, up to the check's (a switch opens its phase). */
  sessionSwitches: number;
  /** The persona's compactions, counted as the switches (the persona cuts only at a phase boundary). */
  personaCompactions: number;
  /** The agent's compactions seen from the write's phase to the check's, both included: the agent may cut mid-phase. */
  agentCompactions: number;
}

export interface TrapCheck {
  id: string;
  type: string;
  question: string;
  expected: string;
  source: SourceRef;
  distance: TrapDistance;
  grade?: CheckResult['grade'];
  /** At or above the pass score; null when not graded. */
  passed: boolean | null;
}

/**
 * `caught`: some check it aims at failed, counted against the agent; `not counted`: a check failed in
 * a run that did not play every write aimed at it (a partial run); `held`: every graded one passed.
 */
export type TrapResult = 'caught' | 'held' | 'not counted' | 'not graded';

export interface TrapStory {
  type: string;
  write: TrapLink;
  checks: TrapCheck[];
  result: TrapResult;
}

/** Checks of a kind (a trap type, a check type) that passed, of those graded. */
export interface Rate {
  key: string;
  passed: number;
  graded: number;
  /** passed / graded, 0–1; null when none was graded. */
  rate: number | null;
  /** 95 % Wilson score interval of the rate, 0–1; null when none was graded. */
  interval: [number, number] | null;
}

export interface RunStory {
  passScore: number;
  traps: TrapStory[];
  byTrapType: Rate[];
  byCheckType: Rate[];
}

type Place = Pick<Position, 'chapterIndex' | 'phase'>;
const order = (p: Place) => p.chapterIndex * 100_000 + p.phase;

/** The story of one run, from its check results (`checkResults`) and its state; `benchmarkPath` as there. */
export function runStory(
  state: RunState,
  benchmark: Benchmark,
  checks: readonly CheckResult[],
  benchmarkPath: string,
  passScore = DEFAULT_PASS_SCORE,
): RunStory {
  const byId = new Map(checks.map((c) => [c.id, c]));
  const located = new Map(benchmark.checks.map((c) => [c.check.id, c]));
  const switches = state.sessionSwitches.filter((s) => !s.ignored).map((s) => order(s.position));
  const persona = (state.compactions ?? []).map((c) => order(c.position));
  const agent = agentCompactionsPlaced(state).map((c) => order(c.position));
  const traps = benchmark.traps.map((t): TrapStory => {
    const from = order({ chapterIndex: t.chapter, phase: t.phase });
    const aimed = [...new Set(t.trap.targets.map((x) => x.name))].flatMap((id) => {
      const result = byId.get(id);
      const at = located.get(id);
      if (!result || !at) return [];
      const to = order({ chapterIndex: at.chapter, phase: at.phase });
      const distance = {
        chapters: at.chapter - t.chapter,
        sessionSwitches: switches.filter((x) => x > from && x <= to).length,
        personaCompactions: persona.filter((x) => x > from && x <= to).length,
        agentCompactions: agent.filter((x) => x >= from && x <= to).length,
      };
      const check: TrapCheck = {
        id,
        type: result.type,
        question: result.question,
        expected: result.expected,
        source: result.source,
        distance,
        passed: result.grade ? passes(result.grade.effective, passScore) : null,
      };
      if (result.grade) check.grade = result.grade;
      return [check];
    });
    const write: TrapLink = { type: t.trap.type, file: `${benchmarkPath}/${t.file}`, line: t.trap.range.start.line + 1 };
    if (t.trap.note) write.note = textInRun(state, t.trap.note);
    return { type: t.trap.type, write, checks: aimed, result: trapResult(aimed) };
  });
  return { passScore, traps, byTrapType: trapTypeRates(benchmark, byId, passScore), byCheckType: checkTypeRates(checks, passScore) };
}

function trapResult(checks: readonly TrapCheck[]): TrapResult {
  if (checks.some((c) => c.passed === false && !c.grade?.notCounted)) return 'caught';
  if (checks.some((c) => c.passed === false)) return 'not counted';
  return checks.some((c) => c.passed === true) ? 'held' : 'not graded';
}

/** Per trap type, the checks its writes aim at (each once), passed of graded. */
function trapTypeRates(benchmark: Benchmark, byId: ReadonlyMap<string, CheckResult>, passScore: number): Rate[] {
  const aimed = new Map<string, Set<string>>();
  for (const t of benchmark.traps)
    for (const x of t.trap.targets) aimed.set(t.trap.type, (aimed.get(t.trap.type) ?? new Set()).add(x.name));
  return [...aimed].map(([type, ids]) =>
    rateOf(
      type,
      [...ids].map((id) => byId.get(id)?.grade?.effective),
      passScore,
    ),
  );
}

function checkTypeRates(checks: readonly CheckResult[], passScore: number): Rate[] {
  const types = [...new Set(checks.map((c) => c.type))];
  return types.map((type) =>
    rateOf(
      type,
      checks.filter((c) => c.type === type).map((c) => c.grade?.effective),
      passScore,
    ),
  );
}

function rateOf(key: string, grades: readonly (number | undefined)[], passScore: number): Rate {
  const graded = grades.filter((g): g is number => g !== undefined);
  return rate(key, graded.filter((g) => passes(g, passScore)).length, graded.length);
}

/** A rate with its 95 % Wilson interval. */
export function rate(key: string, passed: number, graded: number): Rate {
  return { key, passed, graded, rate: graded ? passed / graded : null, interval: wilson(passed, graded) };
}

/**
 * The Wilson score interval of `passed` successes in `trials` trials at 95 % (z = 1.96): unlike the
 * normal approximation it never leaves 0–1 and does not collapse to a point at 0 or 1.
 */
export function wilson(passed: number, trials: number, z = 1.96): [number, number] | null {
  if (trials <= 0) return null;
  const p = passed / trials;
  const denominator = 1 + (z * z) / trials;
  const centre = (p + (z * z) / (2 * trials)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / trials + (z * z) / (4 * trials * trials))) / denominator;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** Rates of several runs pooled by key: the checks of every run counted together, in first-seen order. */
export function pooledRates(perRun: readonly (readonly Rate[])[]): Rate[] {
  const sums = new Map<string, { passed: number; graded: number }>();
  for (const rates of perRun) {
    for (const r of rates) {
      const sum = sums.get(r.key) ?? { passed: 0, graded: 0 };
      sums.set(r.key, { passed: sum.passed + r.passed, graded: sum.graded + r.graded });
    }
  }
  return [...sums].map(([key, s]) => rate(key, s.passed, s.graded));
}

/** Student's t quantiles (97.5 %) for 1–30 degrees of freedom; past that, 1.96. */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086,
  2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** The mean of repeated runs' averages with its 95 % Student t interval (sample standard deviation); null under two runs. */
export function meanInterval(values: readonly number[]): { mean: number; interval: [number, number] } | null {
  if (values.length < 2) return null;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1));
  const half = (T975[values.length - 2] ?? 1.96) * (sd / Math.sqrt(values.length));
  return { mean, interval: [Math.max(0, mean - half), Math.min(10, mean + half)] };
}
