/**
 * The conversation of a run's report as a view model: persona and agent messages by chapter, with
 * a marker where a phase begins, the agent switches conversation, a context is compacted or the
 * virtual clock jumps, and each grade where the persona gave it.
 */
import type { Benchmark } from '../../../scenario/src';
import type { AgentToolCall } from '../protocol/agent';
import type { Position, RunState } from '../state/runState';
import { entryLeftOut, entryToolCalls, turnToolCalls } from './turnToolCalls';
import { agentCompactionsPlaced, cutSize } from './summary';
import type { CheckResult, SourceRef } from './runView';

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

/**
 * Every grade of the run at the moment it was given; a grade carries no phase of its own (its
 * position is the check's), so time places it.
 */
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
      // Every grade of a check is given at its phase, so the standing grade's count rule holds for the earlier ones.
      const notCounted = check.grade?.notCounted;
      const grade = { score: g.score, effective: g.effective, attempt: g.attempt, got: g.answer, comment: g.comment };
      const turn = turnToolCalls(state, g.at);
      return {
        item: {
          kind: 'grade' as const,
          at: g.at,
          check,
          grade: notCounted ? { ...grade, notCounted } : grade,
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
export function conversationAt(state: RunState, at: string): number {
  return state.sessionSwitches.filter((x) => !x.ignored && x.at <= at).length + 1;
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
      const phaseNumber = `${position.phase + 1}${chapter ? `/${chapter.phases.length}` : ''}`;
      const begins = marker('phase', item.at, `Phase ${phaseNumber} of ${position.chapter}${phase ? ` — ${phase.title}` : ''}`);
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
