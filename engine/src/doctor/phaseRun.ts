/**
 * The persona lines of `mmb doctor`: a tiny benchmark (a fact to tell, then a check to ask and
 * grade) played by the real run loop, with the real system prompt and hooks, the model under test
 * as the persona and the stand-in's recall as the agent, in memory and capped in turns. One run
 * answers two lines: whether every turn was a tool call (what `require_send_message` catches),
 * and whether she followed the phases to their end.
 */
import { loadBenchmark, type Benchmark } from '../../../scenario/src';
import { Clock } from '../clock';
import type { ChatModel } from '../models/chat';
import { runBenchmark } from '../run/runner';
import { MemoryRunStore } from '../run/store';
import type { RunEvent, RunState } from '../state/runState';
import { shorten } from '../../../scenario/src/plainText';
import type { DoctorResult } from './lines';
import { RecallAgent } from './recallAgent';

/** The check the second phase asks: the run passes when she graded it and ended the phase. */
export const PROBE_CHECK = '1.1';
/** Persona turns a phase may take: the stand-in needs 4, a real model a few more; a stuck one stops here. */
export const PROBE_TURNS_PER_PHASE = 12;

const CHAPTER = [
  '# Chapter 1: a quick check',
  '',
  '## Hello',
  'Tell the `pet` sheet in one short message, then call `next_phase`.',
  '',
  '## A question',
  'Ask the question below, grade the answer, then call `next_phase`.',
  '',
  `❓ ${PROBE_CHECK} [RECALL] What is my dog called? Correct answer: Biscuit.`,
  '',
].join('\n');

/** The tiny benchmark, valid as `mmb check` sees it (a test holds it so). */
export function probeBenchmark(): Benchmark {
  const files = new Map(
    Object.entries({
      'benchmark.json': JSON.stringify({ title: 'mmb doctor: a quick check', chapters: ['chapter1.md'] }),
      'instructions.md': 'You are Alex Reid, 34, a nurse in Bristol. You write short, friendly messages to your assistant.',
      'pet.md': '# My dog\n\n## 1. Biscuit\n1.1 My dog is called Biscuit, a three-year-old beagle\n',
      'chapter1.md': CHAPTER,
    }),
  );
  return loadBenchmark({ name: 'doctor', files });
}

interface Seen {
  turns: number;
  plainTurns: string[];
  sends: number;
  /** The tools she called, by name, for a failure that names them. */
  called: Set<string>;
}

/** Runs the tiny benchmark with `persona`; the discipline line and the phase line. */
export async function probePhases(persona: ChatModel): Promise<DoctorResult[]> {
  const seen: Seen = { turns: 0, plainTurns: [], sends: 0, called: new Set() };
  const onEvent = (_state: RunState, event: RunEvent): void => {
    if (event.type === 'persona' && event.message.role === 'assistant') {
      seen.turns++;
      for (const call of event.message.tool_calls ?? []) seen.called.add(shorten(call.function.name, 30));
      seen.sends += (event.message.tool_calls ?? []).filter((call) => call.function.name === 'send_message').length;
    }
    if (event.type === 'hook' && event.hook === 'require_send_message') seen.plainTurns.push(event.misbehaviour ?? 'plain-text');
  };
  const state = await runBenchmark({
    name: 'doctor',
    benchmark: probeBenchmark(),
    agent: 'stand-in recall',
    persona,
    adapter: new RecallAgent(),
    store: new MemoryRunStore(),
    clock: new Clock(),
    ignoreSessionBreak: true,
    hooks: { requireSendMessage: true, dropEchoedUserMessages: true },
    maxTurnsPerPhase: PROBE_TURNS_PER_PHASE,
    replyTimeoutMs: 5_000,
    onEvent,
  });
  return [disciplineResult(seen), phaseResult(state, seen)];
}

function disciplineResult(seen: Seen): DoctorResult {
  if (seen.turns === 0) return { id: 'send-message', status: 'fail', detail: 'no turn was taken' };
  if (seen.plainTurns.length) {
    const kinds = [...new Set(seen.plainTurns)].join(', ');
    return { id: 'send-message', status: 'fail', detail: `${seen.plainTurns.length} of ${seen.turns} turns had no tool call (${kinds})` };
  }
  if (seen.sends === 0) {
    const called = [...seen.called].slice(0, 4).join(', ');
    return { id: 'send-message', status: 'fail', detail: `${seen.turns} turns without a send_message (called ${called})` };
  }
  return { id: 'send-message', status: 'pass', detail: `${seen.turns} turns, each a tool call; ${seen.sends} send_message` };
}

function phaseResult(state: RunState, seen: Seen): DoctorResult {
  const grade = state.grades[PROBE_CHECK]?.at(-1);
  if (state.status !== 'finished') {
    const why = state.error ? shorten(state.error, 120) : 'the run did not finish';
    return { id: 'next-phase', status: 'fail', detail: `${why}` };
  }
  if (!grade) return { id: 'next-phase', status: 'fail', detail: `called next_phase without grading check ${PROBE_CHECK}` };
  return {
    id: 'next-phase',
    status: 'pass',
    detail: `2 phases in ${seen.turns} turns: told the fact, asked and graded ${PROBE_CHECK} (${grade.score}/10), next_phase`,
  };
}
