/**
 * The view model of one run's HTML report: plain values computed from the run state and its
 * benchmark, with no markup, so the CLI's page and the editor's run panel show the same figures.
 */
import type { Benchmark } from '../../../scenario/src';
import type { AgentToolCall } from '../protocol/agent';
import type { Position, RunState, TrueStatus } from '../state/runState';
import { entryLeftOut, entryToolCalls, staleTokens, turnToolCalls } from './beside';
import { estimateCosts, type ModelCost, type Price } from './cost';
import { addUsage } from '../models/usage';
import type { Usage } from '../protocol/chat';
import type { MemorySnapshot } from './memory';
import { runStory, type RunStory } from './story';
import { agentCompactionsPlaced, cutSize, summarize, textInRun, type Summary } from './summary';

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
  grade?: { score: number; effective: number; attempt: 1 | 2; got: string; comment: string };
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

export type MarkerKind = 'phase' | 'session' | 'compaction' | 'agent-compaction' | 'time' | 'note';

export type ConversationItem =
  | { kind: 'message'; from: 'persona' | 'agent'; text: string; at: string; toolCalls?: AgentToolCall[]; toolCallsLeftOut?: number }
  | { kind: 'marker'; marker: MarkerKind; text: string; at: string; source?: SourceRef }
  /** A grade the persona gave, where it gave it; `standing` false for one a later grade replaced. */
  | {
      kind: 'grade';
      at: string;
      check: CheckResult;
      grade: NonNullable<CheckResult['grade']>;
      standing: boolean;
      conversation: number;
      toolCalls: AgentToolCall[];
      toolCallsLeftOut: number;
    };

export interface ConversationChapter {
  chapter: string;
  messages: number;
  items: ConversationItem[];
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
}

export interface ViewOptions {
  /** The benchmark folder relative to the workspace root; default `benchmarks/<name>`. */
  benchmarkPath?: string;
  /** Price overrides by model name (config.jsonc `prices`). */
  prices?: Readonly<Record<string, Price>>;
  /** The grade from which a check passes, for the trap story (default 8, as the editor's `passScore`). */
  passScore?: number;
  /** The agent's memory snapshots (`readMemorySnapshots`), shown beside each failed answer. */
  memory?: MemorySnapshot[];
  /** The run's true status (`trueStatus`): a state that says `running` may have been stopped. */
  status?: TrueStatus;
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
    return last
      ? { ...c, grade: { score: last.score, effective: last.effective, attempt: last.attempt, got: last.answer, comment: last.comment } }
      : c;
  });
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

export function runView(state: RunState, benchmark: Benchmark, o: ViewOptions = {}): RunView {
  const checks = checkResults(state, benchmark, o.benchmarkPath);
  const path = o.benchmarkPath ?? `benchmarks/${benchmark.name}`;
  return {
    summary: summarize(state, benchmark, o.status),
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
    story: runStory(state, benchmark, checks, path, o.passScore),
    memory: o.memory ?? [],
    // The persona's model, then the agent's own (for adapters that call their model themselves).
    costs: [
      ...estimateCosts(withFailedModels(state.usage, state, 'persona'), o.prices),
      ...estimateCosts(withFailedModels(state.agentStatus?.usage ?? {}, state, 'agent'), o.prices).map((c) => ({
        ...c,
        model: `${c.model} (agent)`,
      })),
    ],
  };
}

/** Every grade of the run at the moment it was given; a grade carries no phase of its own (its position is the check's), so time places it. */
function gradeItems(state: RunState, checks: readonly CheckResult[]): { item: ConversationItem }[] {
  const byId = new Map(checks.map((c) => [c.id, c]));
  return Object.entries(state.grades).flatMap(([id, grades]) =>
    grades.slice(-10).map((g, index) => {
      const check = byId.get(id) ?? {
        id,
        type: 'untyped',
        chapter: g.position.chapter,
        question: '',
        expected: '',
        source: { file: '', line: 1 },
        traps: [],
      };
      const grade = { score: g.score, effective: g.effective, attempt: g.attempt, got: g.answer, comment: g.comment };
      const turn = turnToolCalls(state, g.at);
      return {
        item: {
          kind: 'grade' as const,
          at: g.at,
          check,
          grade,
          standing: index === Math.min(grades.length, 10) - 1,
          conversation: conversationAt(state, g.at),
          toolCalls: turn.calls,
          toolCallsLeftOut: turn.leftOut,
        },
      };
    }),
  );
}

/** The conversation (1 = the first) the agent was in at `at`: one more for each session switch it took before. */
function conversationAt(state: RunState, at: string): number {
  return state.sessionSwitches.filter((x) => !x.ignored && x.at <= at).length + 1;
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

/**
 * The conversation between persona and agent by chapter, with markers where a phase begins, the
 * agent switches to a new conversation, a context is compacted, or the virtual clock jumps.
 */
export function conversation(
  state: RunState,
  benchmark: Benchmark,
  benchmarkPath: string,
  checks: readonly CheckResult[] = [],
): ConversationChapter[] {
  const switches = new Set(state.sessionSwitches.map((s) => s.at));
  const marker = (m: MarkerKind, at: string, text: string): ConversationItem => ({ kind: 'marker', marker: m, at, text });
  // Everything in time order, each with the phase it happened in when known.
  const timeline: { item: ConversationItem; position?: Position }[] = [
    ...state.transcript.map((e) => ({
      position: e.position,
      item: e.from === 'engine' ? marker(switches.has(e.at) ? 'session' : 'note', e.at, e.text) : messageItem(e),
    })),
    ...(state.compactions ?? []).map((c) => ({
      position: c.position,
      item: marker('compaction', c.at, `The persona's context was compacted: ${c.tokensBefore} → ${c.tokensAfter} tokens`),
    })),
    ...(state.clockJumps ?? [])
      .filter((j) => j.skippedMs > 0)
      .map((j) => ({
        position: j.position,
        item: marker('time', j.at, `Virtual time jumps to ${j.virtualTime.slice(0, 16).replace('T', ' ')} (${hours(j.skippedMs)} skipped)`),
      })),
    ...agentCompactionsPlaced(state).map((c) => ({
      position: c.position,
      item: marker('agent-compaction', c.seenAt, `The agent compacted its context${cutSize(c)}`),
    })),
    ...gradeItems(state, checks),
  ];
  timeline.sort((a, b) => a.item.at.localeCompare(b.item.at));
  const chapters: ConversationChapter[] = [];
  let phaseKey = '';
  for (const { item, position } of timeline) {
    if (position && `${position.chapter}#${position.phase}` !== phaseKey) {
      phaseKey = `${position.chapter}#${position.phase}`;
      if (chapters.at(-1)?.chapter !== position.chapter) chapters.push({ chapter: position.chapter, messages: 0, items: [] });
      const chapter = benchmark.chapters.find((c) => c.file === position.chapter);
      const phase = chapter?.phases[position.phase];
      const begins = marker(
        'phase',
        item.at,
        `Phase ${position.phase + 1}${chapter ? `/${chapter.phases.length}` : ''} of ${position.chapter}${phase ? ` — ${phase.title}` : ''}`,
      );
      if (phase && begins.kind === 'marker')
        begins.source = { file: `${benchmarkPath}/${position.chapter}`, line: phase.headingRange.start.line + 1 };
      chapters.at(-1)!.items.push(begins);
    }
    if (!chapters.length) chapters.push({ chapter: '', messages: 0, items: [] });
    const current = chapters.at(-1)!;
    current.items.push(item);
    if (item.kind === 'message') current.messages++;
  }
  return chapters;
}

/** A message of the conversation; an agent's with its tool calls, when it made any. */
function messageItem(entry: RunState['transcript'][number]): ConversationItem {
  const toolCalls = entryToolCalls(entry);
  const leftOut = entryLeftOut(entry);
  return {
    kind: 'message',
    from: entry.from === 'agent' ? 'agent' : 'persona',
    text: entry.text,
    at: entry.at,
    ...(toolCalls.length ? { toolCalls } : {}),
    ...(leftOut ? { toolCallsLeftOut: leftOut } : {}),
  };
}

function hours(ms: number): string {
  const h = ms / 3_600_000;
  return h >= 1 ? `${Math.round(h * 10) / 10} h` : `${Math.round(ms / 60_000)} min`;
}
