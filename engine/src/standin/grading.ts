/** The stand-in persona's grading by rule: the numbers and key words of the correct answer. */
import { keywords, numbers, saysDontKnow } from './text';

export interface RuleGrade {
  score: number;
  comment: string;
}

/** What else the grader knows of the check: the values that were true once and are out of date now. */
export interface GradingContext {
  stale?: readonly string[];
}

export function gradeByRule(type: string | undefined, expected: string, reply: string, context: GradingContext = {}): RuleGrade {
  void context.stale;
  if (type === 'VOID') {
    return saysDontKnow(reply)
      ? { score: 10, comment: 'said it was never told' }
      : { score: 0, comment: 'gave an answer to something never said' };
  }
  const wanted = numbers(expected);
  const got = new Set(numbers(reply));
  if (wanted.length > 0) {
    const missing = wanted.filter((n) => !got.has(n));
    const score = round((10 * (wanted.length - missing.length)) / wanted.length);
    return { score, comment: missing.length ? `missing ${missing.join(', ')}` : 'all numbers right' };
  }
  const words = [...new Set(keywords(expected))];
  if (words.length === 0) return { score: 0, comment: 'nothing to compare' };
  const replyWords = new Set(keywords(reply));
  const missing = words.filter((w) => !replyWords.has(w));
  return {
    score: round((10 * (words.length - missing.length)) / words.length),
    comment: missing.length ? `missing ${missing.join(', ')}` : 'all key words present',
  };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
