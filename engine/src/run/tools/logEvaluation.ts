/** `log_evaluation`: the persona's grade of the agent's answer to a check. */
import { effectiveScore } from '../../judge/rules';
import type { Position, RunState } from '../../state/runState';
import { fail, MAX_MESSAGE_CHARS, MAX_NAME_CHARS, text, type PersonaTool, type ToolArgs, type ToolOutcome } from './types';

const SCORE_INVALID = '`score` must be a number from 0 to 10.';
const ATTEMPT_INVALID = '`attempt` must be 1, or 2 when the assistant found the answer only after you asked it to search.';

/** Checks of phases up to and including the current one may be graded; later ones may not. */
export function logEvaluation(state: RunState, args: ToolArgs, checkAt: (id: string) => Position | undefined, now: string): ToolOutcome {
  const id = typeof args.check_id === 'string' ? args.check_id.trim() : '';
  const at = id ? checkAt(id) : undefined;
  if (!at)
    return fail(
      `there is no check ${id.slice(0, 80) || '(empty id)'}. Grade the checks (❓ lines) of this phase or earlier ones, by their id.`,
      'unknown-check',
    );
  const current = state.position;
  if (at.chapterIndex > current.chapterIndex || (at.chapterIndex === current.chapterIndex && at.phase > current.phase)) {
    return fail(`check ${id} belongs to a later phase; grade only the checks you have asked.`);
  }
  const score = args.score;
  if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 10) return fail(SCORE_INVALID, 'bad-score');
  const attempt = args.attempt === undefined ? 1 : args.attempt;
  if (attempt !== 1 && attempt !== 2) return fail(ATTEMPT_INVALID, 'mistyped-argument');
  const effective = effectiveScore(score, attempt);
  const grade = {
    score,
    effective,
    attempt: attempt as 1 | 2,
    answer: typeof args.answer === 'string' ? args.answer : '',
    comment: typeof args.comment === 'string' ? args.comment : '',
    at: now,
    position: at,
    turn: state.transcript.length,
  };
  const again = Object.hasOwn(state.grades, id) && state.grades[id]?.length ? ' (this grade replaces the earlier one)' : '';
  const assumed =
    args.attempt === undefined ? ' Attempt 1 was assumed: give `attempt` (1, or 2 after asking it to search) every time.' : '';
  return {
    content: `Recorded ${id}: ${effective}/10${attempt === 2 ? ' (second attempt counts ×0.5)' : ''}${again}.${assumed}`,
    effects: [{ kind: 'grade', checkId: id, grade }],
    ...(assumed ? { misbehaviour: 'no-attempt' as const } : {}),
  };
}

export const logEvaluationTool: PersonaTool = {
  name: 'log_evaluation',
  position: 8,
  description: "Record your grade of the assistant's answer to a check.",
  whenToUse: "once you have graded the assistant's answer to a check.",
  noteForAuthors:
    'Checks of this phase or earlier only. `attempt` 2 (found after she asked it to search) counts ×0.5; ' +
    'without `attempt` it is taken as 1, and said so. A later grade of the same check replaces the earlier one.',
  parameters: {
    check_id: text('The check id, e.g. "20.3".', MAX_NAME_CHARS, '`check_id` must be a check id such as "20.3".'),
    score: {
      type: 'number',
      minimum: 0,
      maximum: 10,
      description: '0–10. A single-number answer scores 0 or 10; several facts score in proportion.',
      invalid: SCORE_INVALID,
    },
    answer: text('What the assistant answered.', MAX_MESSAGE_CHARS),
    comment: text('Why this grade.', MAX_MESSAGE_CHARS),
    attempt: {
      type: 'integer',
      minimum: 1,
      maximum: 2,
      enum: [1, 2],
      description: '2 when it found the answer only after you asked it to search.',
      invalid: ATTEMPT_INVALID,
    },
  },
  required: ['check_id', 'score', 'answer', 'comment'],
  example: '{"check_id": "20.3", "score": 10, "answer": "4000 IU", "comment": "exact", "attempt": 1}',
  handle: (args, call) => logEvaluation(call.run.state, args, (id) => call.run.checkPositions.get(id), call.run.now()),
};
