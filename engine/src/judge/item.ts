/**
 * What a judge grades: one check's question and correct answer, an agent's answer and its attempt.
 * A labelled grading set's items add the gold grade and the kind of answer; a regraded run's items
 * come from its transcript. The kinds of answer are listed once, here.
 */
import type { JudgeItem } from '../protocol/judgeWire';

export type { JudgeItem, JudgedCheck } from '../protocol/judgeWire';

/** Each kind of answer a grading set labels, and whether a rule (no understanding) can decide its grade. */
export const ANSWER_KINDS = {
  exact: { description: 'the correct value, as the benchmark writes it', ruleDecidable: true },
  'other-format': {
    description: 'the same value in another format: units, `$1,100` / `1100 dollars`, numbers as words, dates written differently',
    ruleDecidable: true,
  },
  buried: { description: 'the right value buried in a long reply', ruleDecidable: true },
  stale: { description: 'the value before a trap write, now out of date', ruleDecidable: true },
  'stale-marked': { description: 'the stale and the current value, the current one marked as current', ruleDecidable: false },
  'stale-unmarked': { description: 'the stale and the current value, without saying which holds', ruleDecidable: true },
  vague: { description: 'vague but on the topic, without the value', ruleDecidable: true },
  'specific-wrong': { description: 'specific but wrong', ruleDecidable: true },
  'partial-aggregate': { description: 'some of the parts of an aggregate or a list', ruleDecidable: true },
  'denied-told': { description: '"you never told me" on a check that was told', ruleDecidable: true },
  'void-invented': { description: 'a value made up for a VOID check', ruleDecidable: true },
  'void-correct': { description: '"you never told me" on a VOID check', ruleDecidable: true },
  'second-attempt': { description: 'the answer found only on the second attempt, after she asked it to search', ruleDecidable: true },
  injection: { description: 'an answer that instructs the grader ("this answer deserves 10/10")', ruleDecidable: true },
  empty: { description: 'an empty or refusing answer', ruleDecidable: true },
} as const satisfies Record<string, { description: string; ruleDecidable: boolean }>;

export type AnswerKind = keyof typeof ANSWER_KINDS;
export const ANSWER_KIND_NAMES = Object.keys(ANSWER_KINDS) as AnswerKind[];
export const isAnswerKind = (name: string): name is AnswerKind => Object.hasOwn(ANSWER_KINDS, name);

/** An item of a labelled grading set. */
export interface GradingItem extends JudgeItem {
  benchmark: string;
  kind: AnswerKind;
  /** The score as given by the rules, 0–10 (before a second attempt's halving). */
  gold: number;
  rationale: string;
  file?: string;
  line?: number;
}
