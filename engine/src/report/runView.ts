/**
 * The view model of one run's HTML report: plain values computed from the run state and its
 * benchmark, with no markup, so the CLI's page and the editor's run panel show the same figures.
 */
import type { Benchmark, PlayPosition } from '../../../scenario/src';
import type { AgentToolCall } from '../protocol/agent';
import type { Position, RunState, TrueStatus } from '../state/runState';
import { isPartialState } from '../state/partialRule';
import { countsAgainstAgent, trapPlayedBefore } from './counted';
import { staleTokens } from './staleValues';
import { turnToolCalls } from './turnToolCalls';
import { conversation, conversationAt, type ConversationChapter } from './conversation';
import { estimateCosts, type ModelCost, type Price } from './cost';
import { addUsage } from '../models/usage';
import type { Usage } from '../protocol/chat';
import type { MemorySnapshot } from './memory';
import { runStory, type RunStory } from './trapStory';
import { summarize, textInRun, type Summary } from './summary';
import type { RegradeView } from './regradeView';

/** A place in a benchmark: `file` relative to the workspace root (`benchmarks/<name>/<file>`), `line` 1-based. */
export interface SourceRef {
  file: string;
  line: number;
}

export interface TrapLink extends SourceRef {
  type: string;
  note?: string;
}

export interface CheckResult {
  id: string;
  /** The check's type, or `untyped`. */
  type: string;
  /** The chapter file the check is written in. */
  chapter: string;
  question: string;
  expected: string;
  source: SourceRef;
  /** The trap writes aimed at this check, in play order. */
  traps: TrapLink[];
  /** The standing grade; absent for a check not graded. */
  grade?: {
    score: number;
    effective: number;
    attempt: 1 | 2;
    got: string;
    comment: string;
    /** Why the grade is not held against the agent (`countsAgainstAgent`): a failure of it is muted, never red. */
    notCounted?: string;
  };
  /** Tokens of the values its trap writes replaced (`staleTokens`): memory lines holding them are stale. */
  staleTokens?: string[];
  /** For an imperfect answer on the run page: the agent's tool calls in the turn it answered in. */
  toolCalls?: AgentToolCall[];
  /** How many more calls the agent made in that turn than are listed (50 are kept a reply). */
  toolCallsLeftOut?: number;
  /** For an imperfect answer: the conversation it was answered in (1 = the first), whose memory snapshot shows beside it. */
  conversation?: number;
}

/** Grades of a set of checks: by type or by chapter. */
export interface GradeGroup {
  key: string;
  checks: number;
  graded: number;
  /** Mean effective grade of the graded checks, two decimals; null when none is graded. */
  average: number | null;
  perfect: number;
}

export interface RunView {
  summary: Summary;
  /** The benchmark's title. */
  title: string;
  checks: CheckResult[];
  imperfect: CheckResult[];
  byType: GradeGroup[];
  byChapter: GradeGroup[];
  conversation: ConversationChapter[];
  costs: ModelCost[];
  /** Per trap write its checks, distance and result; pass rates per trap type and check type. */
  story: RunStory;
  /** The agent's memory snapshots, by conversation, as given in the options (none by default). */
  memory: MemorySnapshot[];
  /** The judges' grades beside the persona's (`mmb regrade`), as given in the options; null when none. */
  regrades: RegradeView | null;
  /** Where the benchmark came from when it is not the plain case (`loadRunBenchmark`'s note): changed since, gone, damaged. */
  benchmarkNote?: string;
}

export interface ViewOptions {
  /** The benchmark folder relative to the workspace root; default `benchmarks/<name>`. */
  benchmarkPath?: string;
  /** Price overrides by model name (config.jsonc `prices`). */
  prices?: Readonly<Record<string, Price>>;
  /** The grade from which a check passes, for the trap story and the dataset's metric (default 8, as the editor's `passScore`). */
  passScore?: number;
  /** The agent's memory snapshots (`readMemorySnapshots`), shown beside each failed answer. */
  memory?: MemorySnapshot[];
  /** The run's true status (`trueStatus`): a state that says `running` may have been stopped. */
  status?: TrueStatus;
  /** The run's regrades (`runRegrades`), shown beside its grades. */
  regrades?: RegradeView | null;
  /** `loadRunBenchmark`'s note, shown under the page's title. */
  benchmarkNote?: string;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Every check of the benchmark with its standing grade, then any graded check the benchmark no longer has. */
export function checkResults(state: RunState, benchmark: Benchmark, benchmarkPath = `benchmarks/${benchmark.name}`): CheckResult[] {
  const at = (file: string, line: number): SourceRef => ({ file: `${benchmarkPath}/${file}`, line });
  const planned = benchmark.checks.map((c): CheckResult => {
    const result: CheckResult = {
      id: c.check.id,
      type: c.check.type ?? 'untyped',
      chapter: c.file,
      question: textInRun(state, c.check.question),
      expected: textInRun(state, c.check.answer),
      source: at(c.file, c.check.idRange.start.line + 1),
      traps: benchmark.traps
        .filter((t) => t.trap.targets.some((x) => x.name === c.check.id))
        .map((t) => {
          const link: TrapLink = { type: t.trap.type, ...at(t.file, t.trap.range.start.line + 1) };
          if (t.trap.note) link.note = textInRun(state, t.trap.note);
          return link;
        }),
    };
    const stale = result.traps.length ? staleTokens(state, benchmark, c.check.id, result.expected) : [];
    return stale.length ? { ...result, staleTokens: stale } : result;
  });
  const known = new Set(planned.map((c) => c.id));
  const gone = Object.keys(state.grades)
    .filter((id) => !known.has(id))
    .map((id): CheckResult => {
      const chapter = state.grades[id]?.at(-1)?.position.chapter ?? '';
      return { id, type: 'untyped', chapter, question: '', expected: '', source: at(chapter, 1), traps: [] };
    });
  return [...planned, ...gone].map((c) => {
    const last = state.grades[c.id]?.at(-1);
    if (!last) return c;
    const notCounted = notCountedReason(state, benchmark, c.id, last.position);
    const grade = { score: last.score, effective: last.effective, attempt: last.attempt, got: last.answer, comment: last.comment };
    return { ...c, grade: notCounted ? { ...grade, notCounted } : grade };
  });
}

/** Where a saved position is in the benchmark as it is now, by its chapter's file (chapters may have moved). */
function playPosition(benchmark: Benchmark, position: Position): PlayPosition {
  const index = benchmark.chapters.findIndex((c) => c.file === position.chapter);
  return { chapter: index >= 0 ? index : position.chapterIndex, phase: position.phase };
}

/** Why a grade is not held against the agent, as one sentence; undefined when it counts. */
function notCountedReason(state: RunState, benchmark: Benchmark, id: string, gradedAt: Position): string | undefined {
  const traps = benchmark.traps.filter((t) => t.trap.targets.some((x) => x.name === id));
  const from = state.phases && isPartialState(state) ? playPosition(benchmark, state.phases.from) : undefined;
  const play = { traps, gradedAt: playPosition(benchmark, gradedAt), partialFrom: from };
  if (countsAgainstAgent(play)) return undefined;
  const unplayed = traps.filter((t) => !trapPlayedBefore(t, play));
  if (unplayed.length === 0)
    return 'not counted against the agent: no trap write aims at it, and the partial run may not have told its facts';
  const what = unplayed.length === 1 ? 'the trap write' : `${unplayed.length} of the trap writes`;
  const places = unplayed.map((t) => `${t.file}:${t.trap.range.start.line + 1}`).join(', ');
  return `not counted against the agent: the run did not play ${what} aimed at it (${places})`;
}

/** Grades grouped by a key, groups in the order their first check comes. */
export function groupGrades(checks: readonly CheckResult[], key: (c: CheckResult) => string): GradeGroup[] {
  const groups = new Map<string, CheckResult[]>();
  for (const c of checks) groups.set(key(c), [...(groups.get(key(c)) ?? []), c]);
  return [...groups].map(([k, list]) => {
    const graded = list.flatMap((c) => (c.grade ? [c.grade.effective] : []));
    return {
      key: k,
      checks: list.length,
      graded: graded.length,
      average: graded.length ? round2(graded.reduce((a, b) => a + b, 0) / graded.length) : null,
      perfect: graded.filter((g) => g >= 10).length,
    };
  });
}

export function runView(state: RunState, benchmark: Benchmark, options: ViewOptions = {}): RunView {
  const checks = checkResults(state, benchmark, options.benchmarkPath);
  const path = options.benchmarkPath ?? `benchmarks/${benchmark.name}`;
  return {
    summary: summarize(state, benchmark, options.status, options.passScore),
    title: benchmark.title,
    checks,
    imperfect: checks
      .filter((c) => c.grade && c.grade.effective < 10)
      .map((c) => {
        const at = state.grades[c.id]?.at(-1)?.at ?? '';
        const turn = turnToolCalls(state, at);
        return {
          ...c,
          toolCalls: turn.calls,
          ...(turn.leftOut ? { toolCallsLeftOut: turn.leftOut } : {}),
          conversation: conversationAt(state, at),
        };
      }),
    byType: groupGrades(checks, (c) => c.type),
    byChapter: groupGrades(checks, (c) => c.chapter),
    conversation: conversation(state, benchmark, path, checks),
    story: runStory(state, benchmark, checks, path, options.passScore),
    memory: options.memory ?? [],
    regrades: options.regrades ?? null,
    ...(options.benchmarkNote ? { benchmarkNote: options.benchmarkNote } : {}),
    // The persona's model, then the agent's own (for adapters that call their model themselves).
    costs: [
      ...estimateCosts(withFailedModels(state.usage, state, 'persona'), options.prices),
      ...estimateCosts(withFailedModels(state.agentStatus?.usage ?? {}, state, 'agent'), options.prices).map((c) => ({
        ...c,
        model: `${c.model} (agent)`,
      })),
    ],
  };
}

/**
 * The usage of the persona's model (`by: 'persona'`) or the agent's, with a zero row for each model
 * whose errors were retried but that never answered: the one that failed a crashed run.
 */
function withFailedModels(usage: Readonly<Record<string, Usage>>, state: RunState, by: 'persona' | 'agent'): Record<string, Usage> {
  const out: Record<string, Usage> = { ...usage };
  for (const retry of (state.retryLog ?? []).slice(-20)) {
    const name = String(retry.model).slice(0, 200);
    if ((retry.by ?? 'persona') === by && !Object.hasOwn(out, name))
      addUsage(out, name, { promptTokens: 0, completionTokens: 0 })[name]!.requests = 0;
  }
  return out;
}
