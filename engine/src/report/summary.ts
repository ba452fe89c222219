/** The figures of a run, from its state: what report.md shows and summary.json holds. */
import type { Benchmark } from '../../../scenario/src';
import type { RunState } from '../state/runState';
import type { Usage } from '../models/usage';

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
  status: RunState['status'];
  error?: string;
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
}

/** The checks a run plays: all of them, or those of a partial run's phases (found by chapter file). */
export function plannedChecks(state: RunState, benchmark: Benchmark): Benchmark['checks'] {
  const range = state.phases;
  if (!range) return benchmark.checks;
  const chapterAt = (file: string) => benchmark.chapters.findIndex((c) => c.file === file);
  const key = (chapter: number, phase: number) => chapter * 10_000 + phase;
  const from = key(chapterAt(range.from.chapter), range.from.phase);
  const to = key(chapterAt(range.to.chapter), range.to.phase);
  return benchmark.checks.filter((c) => key(c.chapter, c.phase) >= from && key(c.chapter, c.phase) <= to);
}

export function summarize(state: RunState, benchmark: Benchmark): Summary {
  const planned = plannedChecks(state, benchmark);
  const standing = Object.entries(state.grades).flatMap(([id, grades]) => {
    const last = grades.at(-1);
    return last ? [{ id, grade: last }] : [];
  });
  const counts = new Map<number, number>();
  for (const { grade } of standing) counts.set(grade.effective, (counts.get(grade.effective) ?? 0) + 1);
  const total = standing.reduce((a, { grade }) => a + grade.effective, 0);
  const byId = new Map(planned.map((c) => [c.check.id, c]));
  const imperfect = standing.filter(({ grade }) => grade.effective < 10).map(({ id, grade }): ImperfectAnswer => {
    const planned = byId.get(id);
    const out: ImperfectAnswer = {
      id, question: planned?.check.question ?? '', expected: planned?.check.answer ?? '', got: grade.answer, comment: grade.comment,
      score: grade.effective, attempt: grade.attempt, file: planned?.file ?? '', line: (planned?.check.idRange.start.line ?? 0) + 1,
    };
    if (planned?.check.type) out.type = planned.check.type;
    return out;
  }).sort((a, b) => order(a.id) - order(b.id));
  const summary: Summary = {
    run: state.run,
    benchmark: state.benchmark,
    agent: state.agent,
    status: state.status,
    startedAt: state.startedAt,
    runTimeMinutes: Math.round(state.activeMs / 6000) / 10,
    runTimeSeconds: Math.round(state.activeMs / 100) / 10,
    evaluations: standing.length,
    average: standing.length ? Math.round((total / standing.length) * 100) / 100 : null,
    scores: [...counts].sort((a, b) => b[0] - a[0]),
    coverage: { graded: planned.filter((c) => state.grades[c.check.id]?.length).length, planned: planned.length, missing: planned.filter((c) => !state.grades[c.check.id]?.length).map((c) => c.check.id) },
    imperfect,
    compactions: state.agentStatus?.compactions ? state.agentStatus.compactions.length : null,
    personaCompactions: (state.compactions ?? []).map((c) => ({ chapter: c.position.chapter, phase: c.position.phase + 1, tokensBefore: c.tokensBefore, tokensAfter: c.tokensAfter })),
    hooks: state.hooks ?? {},
    misbehaviours: state.misbehaviours ?? {},
    skippedHours: Math.round((state.skippedMs ?? 0) / 360_000) / 10,
    sessionSwitches: state.sessionSwitches.filter((x) => !x.ignored).length,
    unanswered: state.unanswered,
    retries: state.retries,
    usage: state.usage,
  };
  if (state.error) summary.error = state.error;
  if (state.finishedAt) summary.finishedAt = state.finishedAt;
  return summary;
}

function order(id: string): number {
  const [a, b] = id.split('.').map(Number);
  return (a ?? 0) * 10_000 + (b ?? 0);
}
