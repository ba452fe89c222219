/**
 * The trap story of a run: per trap write, the checks it aims at, how far apart they are in the
 * run (chapters, session switches and compactions between) and whether the agent held; then the
 * pass rate per trap type and per check type (`rates.ts` gives each its interval).
 */
import type { Benchmark } from '../../../scenario/src';
import { DEFAULT_PASS_SCORE, passes } from '../protocol/scores';
import type { Position, RunState } from '../state/runState';
import { agentCompactionsPlaced, textInRun } from './summary';
import type { CheckResult, SourceRef, TrapLink } from './runView';
import { rate, type Rate } from './rates';

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
