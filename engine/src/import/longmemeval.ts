/**
 * LongMemEval's items (longmemeval_s, _m and _oracle share one schema): the schema a file is
 * checked against, the question types and the check type each becomes, and which sessions of an
 * item's haystack the persona tells. Pure: an item in, a plan out; `longmemevalRender.ts` writes it.
 */
import { firstDifference, type Shape, type ShapeDifference } from './shape';
import { parseDatasetMoment } from './timeline';

export interface LongMemEvalTurn {
  role: string;
  content: string;
  has_answer?: boolean;
}

export interface LongMemEvalItem {
  question_id: string;
  question_type: string;
  question: string;
  answer: string | number;
  question_date: string;
  haystack_session_ids: string[];
  haystack_dates: string[];
  haystack_sessions: LongMemEvalTurn[][];
  answer_session_ids: string[];
}

/** The fields of an item, from the dataset's README ("Dataset Format"). */
export const LONGMEMEVAL_SHAPE: Shape = {
  fields: {
    question_id: 'string',
    question_type: 'string',
    question: 'string',
    answer: 'string or number',
    question_date: 'string',
    haystack_session_ids: { list: 'string' },
    haystack_dates: { list: 'string' },
    haystack_sessions: {
      list: { list: { fields: { role: 'string', content: 'string', has_answer: 'boolean' }, optional: ['has_answer'] } },
    },
    answer_session_ids: { list: 'string' },
  },
};

/** The question types of the dataset, and the check type each is played as (abstention, `_abs`, is VOID whatever its type). */
export const LONGMEMEVAL_TYPES = [
  'single-session-user',
  'single-session-preference',
  'single-session-assistant',
  'multi-session',
  'knowledge-update',
  'temporal-reasoning',
] as const;
export type LongMemEvalType = (typeof LONGMEMEVAL_TYPES)[number];

/** Why a type is not played: the summary and docs/datasets.md say it. */
export const NOT_ON_POLICY =
  'asks what a recorded assistant said, and on-policy the agent under test said something else, so the question has no answer';

/** The first difference from the schema, or from what the fields must agree on (lengths, dates, a known type). */
export function longMemEvalDifference(value: unknown): ShapeDifference | undefined {
  const shaped = firstDifference(value, LONGMEMEVAL_SHAPE);
  if (shaped) return shaped;
  const item = value as LongMemEvalItem;
  if (!(LONGMEMEVAL_TYPES as readonly string[]).includes(item.question_type))
    return {
      field: 'question_type',
      expected: `one of ${LONGMEMEVAL_TYPES.join(', ')}`,
      found: JSON.stringify(item.question_type.slice(0, 40)),
    };
  const sessions = item.haystack_sessions.length;
  for (const key of ['haystack_session_ids', 'haystack_dates'] as const)
    if (item[key].length !== sessions)
      return { field: key, expected: `${sessions} entries, one per haystack session`, found: `${item[key].length}` };
  const dates = [...item.haystack_dates.map((date, index) => ({ date, field: `haystack_dates[${index}]` }))];
  for (const { date, field } of [...dates, { date: item.question_date, field: 'question_date' }])
    if (parseDatasetMoment(date) === undefined)
      return { field, expected: 'a date such as "2023/05/20 (Sat) 02:21"', found: JSON.stringify(date.slice(0, 40)) };
  return undefined;
}

/** The check type a question is played as, or undefined when it cannot be played on-policy. */
export function checkTypeOf(item: Pick<LongMemEvalItem, 'question_id' | 'question_type' | 'question'>): string | undefined {
  if (item.question_type === 'single-session-assistant') return undefined;
  if (item.question_id.endsWith('_abs')) return 'VOID';
  if (item.question_type === 'multi-session') return 'AGG';
  // A question after a value before a change ("what did I use to…") is a HIST; other time questions, an order of events.
  if (item.question_type === 'temporal-reasoning')
    return /\b(?:did I use to|used to|previous(?:ly)?|originally|at first|initially|before (?:I|my|we) (?:changed|switched|moved))\b/i.test(
      item.question,
    )
      ? 'HIST'
      : 'SERIES';
  return 'RECALL';
}

/** How much of the haystack the persona tells: the evidence sessions alone, all of it, or the evidence and N others. */
export type Haystack = { kind: 'oracle' } | { kind: 'full' } | { kind: 'some'; others: number };

export interface ToldSession {
  /** The session's place in the haystack. */
  index: number;
  id: string;
  moment: number;
  turns: LongMemEvalTurn[];
  evidence: boolean;
}

/**
 * The sessions told, in time order (the oracle file's are not sorted): the evidence sessions (in
 * `answer_session_ids`, or holding a `has_answer` turn) and the others the haystack option keeps,
 * spread evenly over the haystack so a short import still spaces its evidence among filler.
 */
export function toldSessions(item: LongMemEvalItem, haystack: Haystack): ToldSession[] {
  const evidenceIds = new Set(item.answer_session_ids);
  const all = item.haystack_sessions.map((turns, index) => ({
    index,
    id: item.haystack_session_ids[index] ?? '',
    moment: parseDatasetMoment(item.haystack_dates[index] ?? '') ?? 0,
    turns,
    evidence: evidenceIds.has(item.haystack_session_ids[index] ?? '') || turns.some((turn) => turn.has_answer === true),
  }));
  const others = all.filter((session) => !session.evidence);
  const wanted = haystack.kind === 'full' ? others.length : haystack.kind === 'oracle' ? 0 : Math.min(haystack.others, others.length);
  const kept = new Set<number>();
  for (let k = 0; k < wanted; k++) kept.add(others[Math.floor(((k + 0.5) * others.length) / wanted)]!.index);
  return all.filter((session) => session.evidence || kept.has(session.index)).sort((a, b) => a.moment - b.moment || a.index - b.index);
}

/** A user turn of a told session that the dataset marks as evidence: a fact of that session's sheet. */
export const isFactTurn = (turn: LongMemEvalTurn): boolean => turn.role === 'user' && turn.has_answer === true;
