/**
 * The shape of `summary.json`, declared beside `Summary` (`summary.ts`). The file is made from the
 * state at a run's end, and read back only to tell whether it is whole: a damaged one is written
 * again. Its core fields are required; the others, added over time, are optional when absent.
 */
import { array, count, nullable, number, object, oneOf, optional, record, string, type Shape } from '../protocol/shape';
import type { Summary } from './summary';

const COMPACTION_AT = { chapter: string(), phase: count() };

const RATE = object({
  key: string(),
  passed: count(),
  graded: count(),
  rate: nullable(number()),
  interval: nullable(array(number()) as Shape<[number, number]>),
});

export const SUMMARY_SHAPE = object({
  run: string(),
  benchmark: string(),
  agent: string(),
  status: oneOf('running', 'finished', 'crashed', 'stopped'),
  error: optional(string()),
  startedAt: string(),
  finishedAt: optional(string()),
  runTimeMinutes: optional(number()),
  runTimeSeconds: optional(number()),
  evaluations: optional(count()),
  average: nullable(number()),
  scores: optional(array(array(number())) as Shape<[number, number][]>),
  coverage: object({ graded: count(), planned: count(), missing: array(string()) }),
  compactions: optional(nullable(count())),
  agentCompactions: optional(array(object({ ...COMPACTION_AT, tokensBefore: optional(number()), tokensAfter: optional(number()) }))),
  personaCompactions: optional(array(object({ ...COMPACTION_AT, tokensBefore: count(), tokensAfter: count() }))),
  hooks: optional(record(count())),
  misbehaviours: optional(record(count())),
  skippedHours: optional(number()),
  sessionSwitches: optional(count()),
  unanswered: optional(count()),
  retries: optional(count()),
  usage: optional(record(object({ requests: count(), promptTokens: count(), completionTokens: count() }))),
  toolCalls: optional(object({ calls: count(), replies: count() })),
  dataset: optional(object({ dataset: string(), by: string(), passScore: number(), rates: array(RATE), note: string() })),
}) satisfies Shape<Partial<Summary>>;
