/**
 * The stand-in as a judge: a request that offers `record_grade` gets the item's grade by the
 * stand-in's rules (`grading.ts`), the very grader its persona uses in a run. The chaos stand-in's
 * grading behaviours bend that grade on purpose (a lenient and a harsh judge), and its other
 * behaviours answer the way a misbehaving model would (plain text, a score of 11, another item).
 */
import type { ChatMessage, ToolCall } from '../protocol/chat';
import type { ChaosBehaviour } from '../protocol/chaos';
import { JUDGE_TOOL, judgeItemOf, type JudgeItem } from '../protocol/judgeWire';
import { gradeByRule, type RuleGrade } from './grading';
import { keywords, numbers, saysDontKnow } from './text';
import type { StandInResponse } from './reply';

const grading = (args: Record<string, unknown>): StandInResponse => ({
  content: null,
  calls: [{ id: 'call_grade', type: 'function', function: { name: JUDGE_TOOL, arguments: JSON.stringify(args) } } satisfies ToolCall],
});

/** The item the request asks about: its last user message's. */
function itemOf(messages: readonly ChatMessage[]): JudgeItem | undefined {
  const last = [...messages].reverse().find((message) => message.role === 'user');
  return last && typeof last.content === 'string' ? judgeItemOf(last.content) : undefined;
}

/** The stand-in judge's grade of the item in the request, by rule. */
export function judgeReply(messages: readonly ChatMessage[]): StandInResponse {
  const item = itemOf(messages);
  if (!item) return { content: 'I found no item to grade in your message.', calls: [] };
  const grade = gradeByRule(item.check.type, item.check.answer, item.answer, item.check.stale ? { stale: item.check.stale } : {});
  return grading({ item: item.key, score: grade.score, comment: grade.comment });
}

/** Whether an answer is about the question at all: a word or a number in common, and no "I don't know". */
function onTopic(answer: string, question: string, correct: string): boolean {
  if (!answer.trim() || saysDontKnow(answer)) return false;
  const topic = new Set([...keywords(question), ...keywords(correct)]);
  return numbers(answer).length > 0 || keywords(answer).some((word) => topic.has(word));
}

const normalized = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[.!\s]+$/, '')
    .replace(/\s+/g, ' ');

/** A wrong grader's grade: the lenient passes anything on the topic, the harsh fails anything not word for word. */
export function bentGrade(
  behaviour: 'lenient-judge' | 'harsh-judge',
  check: { question: string; answer: string },
  answer: string,
  fair: RuleGrade,
): RuleGrade {
  if (behaviour === 'lenient-judge')
    return onTopic(answer, check.question, check.answer) ? { score: 10, comment: 'on topic: good enough' } : fair;
  return normalized(answer).includes(normalized(check.answer)) ? fair : { score: 0, comment: 'not the correct answer word for word' };
}

/** The judge's answer under a chaos behaviour; the fair grade where the behaviour is not one a judge plays. */
export function chaoticJudgeReply(kind: ChaosBehaviour, messages: readonly ChatMessage[], normal: StandInResponse): StandInResponse {
  const item = itemOf(messages);
  if (!item) return normal;
  switch (kind) {
    case 'lenient-judge':
    case 'harsh-judge': {
      const fair = gradeByRule(item.check.type, item.check.answer, item.answer, item.check.stale ? { stale: item.check.stale } : {});
      const bent = bentGrade(kind, item.check, item.answer, fair);
      return grading({ item: item.key, score: bent.score, comment: bent.comment });
    }
    case 'plain-text':
      return { content: `I would give this answer a 7 out of 10.`, calls: [] };
    case 'bad-score':
      return grading({ item: item.key, score: 11, comment: 'excellent' });
    case 'unknown-check':
      return grading({ item: `${item.key}-other`, score: 10, comment: 'fine' });
    case 'invalid-json':
      return { content: null, calls: [{ id: 'call_grade', type: 'function', function: { name: JUDGE_TOOL, arguments: '{"item": "' } }] };
    case 'empty-reply':
      return { content: '', calls: [] };
    default:
      return normal;
  }
}
