/** The figures of a run, from its state: what report.md shows and summary.json holds. */
import { expandTemplatesIn, startMoment, type Benchmark } from '../../../scenario/src';
import type { PhaseRange, RunState, TrueStatus } from '../state/runState';
import type { Usage } from '../protocol/chat';
import { parseFilter, pickedChecks } from '../protocol/runFilter';
import { boundedToolCalls, leftOutCount } from '../adapters/toolCalls';
import { DEFAULT_PASS_SCORE } from '../protocol/scores';
import { runDatasetMetric, type DatasetMetric } from './datasetAccuracy';

export interface ImperfectAnswer {
  id: string;
  type?: string;
  question: string;
  expected: string;
  got: string;
  comment: string;
  score: number;
  attempt: 1 | 2;
  /** The file and 1-based line of the check. */
  file: string;
  line: number;
}

export interface Summary {
  run: string;
  benchmark: string;
  agent: string;
  /** The run's true status when the caller knows it (`workspace/results.ts` `trueStatus`), else the state's. */
  status: TrueStatus;
  error?: string;
  /** A partial run (`--from`, `--only`, `--filter`): its first and last phase (`chapter2.md:1`) and its filter. */
  partial?: { from: string; to: string; filter?: string };
  startedAt: string;
  finishedAt?: string;
  runTimeMinutes: number;
  runTimeSeconds: number;
  evaluations: number;
  /** Mean of the standing grades, 0–10, two decimals; null before any grade. */
  average: number | null;
  /** Standing grade → how many checks got it, best first. */
  scores: [number, number][];
  coverage: { graded: number; planned: number; missing: string[] };
  imperfect: ImperfectAnswer[];
  compactions: number | null;
  /**
   * The agent's compactions: the phase each cut was first seen in (1-based) and the context size
   * before and after, when the agent gives it.
   */
  agentCompactions: { chapter: string; phase: number; tokensBefore?: number; tokensAfter?: number }[];
  /** The persona's own context compactions, with where they happened. */
  personaCompactions: { chapter: string; phase: number; tokensBefore: number; tokensAfter: number }[];
  hooks: Partial<Record<string, number>>;
  /** The persona model's misbehaviours the engine saw, by kind (`protocol/chaos.ts`). */
  misbehaviours: Partial<Record<string, number>>;
  /** Virtual time skipped by the Time Master, in hours. */
  skippedHours: number;
  sessionSwitches: number;
  unanswered: number;
  retries: number;
  usage: Record<string, Usage>;
  /**
   * The agent's tool calls its replies carried (those past the 50 a reply keeps included), and how
   * many replies carried any; absent when none did.
   */
  toolCalls?: { calls: number; replies: number };
  /** For a full run of an imported benchmark (`mmb import`): the dataset's metric, accuracy per type (docs/datasets.md). */
  dataset?: DatasetMetric;
}

/** The checks a run plays: all of them, or those of a partial run's phases (found by chapter file). */
export function plannedChecks(state: RunState, benchmark: Benchmark): Benchmark['checks'] {
  const range = state.phases;
  if (!range) return benchmark.checks;
  // A filtered run plans the checks its filter picks in its range; a filter that no longer parses plans none.
  if (state.filter !== undefined) return inRange(range, pickedChecksOr(benchmark.checks, state.filter), benchmark);
  return inRange(range, benchmark.checks, benchmark);
}

function pickedChecksOr(checks: Benchmark['checks'], filter: string): Benchmark['checks'] {
  try {
    return pickedChecks(checks, parseFilter(filter));
  } catch {
    return [];
  }
}

function inRange(range: PhaseRange, checks: Benchmark['checks'], benchmark: Benchmark): Benchmark['checks'] {
  const chapterAt = (file: string) => benchmark.chapters.findIndex((c) => c.file === file);
  const key = (chapter: number, phase: number) => chapter * 10_000 + phase;
  const from = key(chapterAt(range.from.chapter), range.from.phase);
  const to = key(chapterAt(range.to.chapter), range.to.phase);
  return checks.filter((c) => key(c.chapter, c.phase) >= from && key(c.chapter, c.phase) <= to);
}

/** A text of the benchmark as the run read it: its date templates written out with the run's dates. */
export function textInRun(state: Pick<RunState, 'templates' | 'startTime'>, text: string): string {
  return expandTemplatesIn(text, state.templates, state.startTime ? startMoment(state.startTime) : undefined);
}

/**
 * The agent's compactions where the engine first saw them; a state from before they were placed
 * puts each at the last phase the run reached, since its time is on the agent's clock.
 */
export function agentCompactionsPlaced(state: RunState): NonNullable<RunState['agentCompactions']> {
  if (state.agentCompactions) return state.agentCompactions;
  return (state.agentStatus?.compactions ?? []).map((c) => ({ ...c, seenAt: state.lastEventAt, position: state.position }));
}

/** ` : 100,000 → 41,000 tokens`, or nothing when the agent gave no sizes. */
export function cutSize(compaction: { tokensBefore?: number; tokensAfter?: number }): string {
  const size = (n: number | undefined) => (typeof n === 'number' && Number.isFinite(n) ? n.toLocaleString('en') : '?');
  return compaction.tokensBefore === undefined && compaction.tokensAfter === undefined
    ? ''
    : `: ${size(compaction.tokensBefore)} → ${size(compaction.tokensAfter)} tokens`;
}

/**
 * The figures of a run. `status` is its true status when the caller has read its lock: a state
 * says `running` for a run that was stopped, and the reports must not repeat that. `passScore`
 * draws the dataset's metric's line (the editor's setting on its run page).
 */
export function summarize(
  state: RunState,
  benchmark: Benchmark,
  status: TrueStatus = state.status,
  passScore = DEFAULT_PASS_SCORE,
): Summary {
  const planned = plannedChecks(state, benchmark);
  const standing = Object.entries(state.grades).flatMap(([id, grades]) => {
    const last = grades.at(-1);
    return last ? [{ id, grade: last }] : [];
  });
  const counts = new Map<number, number>();
  for (const { grade } of standing) counts.set(grade.effective, (counts.get(grade.effective) ?? 0) + 1);
  const total = standing.reduce((a, { grade }) => a + grade.effective, 0);
  const byId = new Map(planned.map((c) => [c.check.id, c]));
  const imperfect = standing
    .filter(({ grade }) => grade.effective < 10)
    .map(({ id, grade }): ImperfectAnswer => {
      const planned = byId.get(id);
      const out: ImperfectAnswer = {
        id,
        question: textInRun(state, planned?.check.question ?? ''),
        expected: textInRun(state, planned?.check.answer ?? ''),
        got: grade.answer,
        comment: grade.comment,
        score: grade.effective,
        attempt: grade.attempt,
        file: planned?.file ?? '',
        line: (planned?.check.idRange.start.line ?? 0) + 1,
      };
      if (planned?.check.type) out.type = planned.check.type;
      return out;
    })
    .sort((a, b) => order(a.id) - order(b.id));
  const summary: Summary = {
    run: state.run,
    benchmark: state.benchmark,
    agent: state.agent,
    status,
    startedAt: state.startedAt,
    runTimeMinutes: Math.round(state.activeMs / 6000) / 10,
    runTimeSeconds: Math.round(state.activeMs / 100) / 10,
    evaluations: standing.length,
    average: standing.length ? Math.round((total / standing.length) * 100) / 100 : null,
    scores: [...counts].sort((a, b) => b[0] - a[0]),
    coverage: {
      graded: planned.filter((c) => state.grades[c.check.id]?.length).length,
      planned: planned.length,
      missing: planned.filter((c) => !state.grades[c.check.id]?.length).map((c) => c.check.id),
    },
    imperfect,
    compactions: state.agentStatus?.compactions ? state.agentStatus.compactions.length : null,
    agentCompactions: agentCompactionsPlaced(state).map((c) => ({ chapter: c.position.chapter, phase: c.position.phase + 1, ...sizes(c) })),
    personaCompactions: (state.compactions ?? []).map((c) => ({
      chapter: c.position.chapter,
      phase: c.position.phase + 1,
      tokensBefore: c.tokensBefore,
      tokensAfter: c.tokensAfter,
    })),
    hooks: state.hooks ?? {},
    misbehaviours: state.misbehaviours ?? {},
    skippedHours: Math.round((state.skippedMs ?? 0) / 360_000) / 10,
    sessionSwitches: state.sessionSwitches.filter((x) => !x.ignored).length,
    unanswered: state.unanswered,
    retries: state.retries,
    usage: state.usage,
  };
  if (state.error) summary.error = state.error;
  const toolCalls = countToolCalls(state);
  if (toolCalls.calls) summary.toolCalls = toolCalls;
  if (state.phases) summary.partial = partialOf(state.phases, state.filter);
  if (state.finishedAt) summary.finishedAt = state.finishedAt;
  const dataset = runDatasetMetric(state, benchmark.title, passScore);
  if (dataset) summary.dataset = dataset;
  return summary;
}

/** A partial run's first and last phase (`chapter2.md:1`) and its filter. */
function partialOf(phases: PhaseRange, filter: string | undefined): NonNullable<Summary['partial']> {
  const at = (position: { chapter: string; phase: number }) => `${position.chapter}:${position.phase + 1}`;
  return { from: at(phases.from), to: at(phases.to), ...(filter !== undefined ? { filter } : {}) };
}

/** The agent's tool calls in the whole run, and the replies that carried any (bounded again: the state is a file). */
function countToolCalls(state: RunState): { calls: number; replies: number } {
  let calls = 0;
  let replies = 0;
  for (const entry of state.transcript) {
    const n = entry.from === 'agent' ? (boundedToolCalls(entry.toolCalls)?.length ?? 0) + leftOutCount(entry.toolCallsLeftOut) : 0;
    calls += n;
    if (n) replies++;
  }
  return { calls, replies };
}

function sizes(compaction: { tokensBefore?: number; tokensAfter?: number }): { tokensBefore?: number; tokensAfter?: number } {
  return {
    ...(compaction.tokensBefore !== undefined ? { tokensBefore: compaction.tokensBefore } : {}),
    ...(compaction.tokensAfter !== undefined ? { tokensAfter: compaction.tokensAfter } : {}),
  };
}

function order(id: string): number {
  const [a, b] = id.split('.').map(Number);
  return (a ?? 0) * 10_000 + (b ?? 0);
}
