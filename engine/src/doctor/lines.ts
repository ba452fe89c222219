/**
 * The lines of `mmb doctor`, declared once: what each checks, what to do when it fails, and which
 * behaviours of the chaos stand-in break it (at rate 1). The command prints them in this order, the
 * docs name them from here, and the tests derive from `brokenBy` which lines each behaviour must fail.
 */
import type { ChaosBehaviour, Misbehaviour } from '../protocol/chaos';

export type DoctorLineId = 'tool-calls' | 'send-message' | 'next-phase' | 'grading' | 'usage' | 'prefix-cache' | 'max-run';

export interface DoctorLine {
  id: DoctorLineId;
  /** The capability, as the line names it. */
  capability: string;
  /** What to do when the line fails. */
  fix: string;
  /** Chaos behaviours that fail this line when every request misbehaves; an informational line fails for none. */
  brokenBy: readonly ChaosBehaviour[];
  /** An estimate, not a capability: shown, never failed. */
  informational?: boolean;
}

/** The misbehaviours that turn a persona turn into no tool call: what the engine's `require_send_message` hook catches. */
const PLAIN_TURNS: readonly Misbehaviour[] = ['plain-text', 'empty-reply', 'refusal'];
/** The misbehaviours that call another tool than `send_message` in every turn, so she never talks. */
const NEVER_TALKS: readonly Misbehaviour[] = ['unknown-tool', 'mistyped-argument', 'unknown-check', 'bad-score'];

export const DOCTOR_LINES: readonly DoctorLine[] = [
  {
    id: 'tool-calls',
    capability: 'tool calls (one in a reply, two in one reply)',
    fix:
      'the persona acts only through tool calls: use a model and endpoint with function calling ' +
      '(for a local server, its tool-call template, e.g. llama.cpp --jinja)',
    brokenBy: ['empty-reply', 'refusal', 'long-message', 'invalid-json', 'unknown-tool', 'missing-argument', 'mistyped-argument'],
  },
  {
    id: 'send-message',
    capability: 'talks through send_message (no plain text)',
    fix:
      'each plain-text turn costs a request and an error message in a run: pick a model that keeps to tool calls, ' +
      'and keep hooks.require_send_message on',
    brokenBy: [...PLAIN_TURNS, ...NEVER_TALKS],
  },
  {
    id: 'next-phase',
    capability: 'follows a short phase to next_phase',
    fix: 'the persona must do what a phase says, grade its checks and call next_phase: try a larger model',
    brokenBy: [
      ...PLAIN_TURNS,
      ...NEVER_TALKS,
      'hallucinated-user',
      'invalid-json',
      'missing-argument',
      'early-next-phase',
      'never-next-phase',
      'long-message',
    ],
  },
  {
    id: 'grading',
    capability: 'grades a 20-item sample of the grading set as the gold does',
    fix:
      "the run's grades would not be trustworthy: audit the model on the whole set (mmb judge audit --judge <model>), " +
      'or grade its runs again with another judge (mmb regrade <run-id> --judge <model>)',
    // A judge's request is answered by the chaos judge: these behaviours leave it without a grade, or bend the grade.
    brokenBy: ['lenient-judge', 'harsh-judge', 'plain-text', 'bad-score', 'unknown-check', 'invalid-json', 'empty-reply'],
  },
  {
    id: 'usage',
    capability: 'reports usage (tokens per response)',
    fix: "without usage the report's tokens and cost read 0: use an endpoint that returns `usage`",
    brokenBy: [],
  },
  {
    id: 'prefix-cache',
    capability: 'prefix caching seen (cached prompt tokens)',
    fix:
      "the persona's requests repeat their prefix: without a cache every request pays for the whole prompt; " +
      'prefer a provider that caches prefixes (and reports prompt_tokens_details.cached_tokens)',
    brokenBy: [],
  },
  {
    id: 'max-run',
    capability: "a Max run's persona: requests, tokens, cost",
    fix: 'add the model\'s price to config.jsonc: "prices": { "<model>": { "input": 0.3, "output": 1.2 } } (USD per million tokens)',
    brokenBy: [],
    informational: true,
  },
];

export type DoctorStatus = 'pass' | 'fail' | 'info';

/** One line's outcome: the status and what was seen. */
export interface DoctorResult {
  id: DoctorLineId;
  status: DoctorStatus;
  /** What was seen, one line. */
  detail: string;
}

export function doctorLine(id: DoctorLineId): DoctorLine {
  return DOCTOR_LINES.find((line) => line.id === id)!;
}
