/**
 * What `mmb regrade` asks a judge about a run: for each graded check, the question as the persona
 * asked it and the agent's answer as the transcript holds it (never her quote of it), the correct
 * answer, the values out of date, and the attempt of her grade. Nothing else of the conversation.
 */
import type { Benchmark } from '../../../scenario/src';
import { STOP_WORDS, words } from '../../../scenario/src/plainText';
import type { JudgeItem } from '../judge/item';
import type { Grade, RunState, TranscriptEntry } from '../state/runState';
import { checkResults } from './runView';
import { staleValues } from './staleValues';

/** An item to regrade, with the persona's grade it stands beside. */
export interface RegradeItem extends JudgeItem {
  /** The number of the persona's grade of the check regraded (1 = her first): a later grade makes a new item. */
  grade: number;
  persona: { score: number; effective: number; attempt: 1 | 2 };
  /** Whether the question and answer were found in the transcript (else the check's question and no answer). */
  found: boolean;
}

/** The characters of the question and of the answer given to a judge: a reply is cut at 50,000 in the journal already. */
const MAX_QUESTION_CHARS = 4000;
const MAX_ANSWER_CHARS = 20_000;
/** How many of her messages before a grade are searched for the question. */
const QUESTIONS_SEARCHED = 12;

/** Every check with a standing grade, in the benchmark's order, as an item for a judge. */
export function regradeItems(state: RunState, benchmark: Benchmark): RegradeItem[] {
  // A grade of a check the benchmark no longer has has no correct answer to grade against.
  const known = new Set(benchmark.checks.map((located) => located.check.id));
  return checkResults(state, benchmark).flatMap((check): RegradeItem[] => {
    const grades = state.grades[check.id] ?? [];
    const grade = grades.at(-1);
    if (!grade || !check.grade || !known.has(check.id)) return [];
    const exchange = exchangeOf(state.transcript, grade, check.question);
    // A HIST check asks for the value before the change: what its traps replaced is its answer, not stale.
    const stale = check.type === 'HIST' ? [] : staleValues(state, benchmark, check.id, check.expected);
    return [
      {
        key: check.id,
        check: {
          id: check.id,
          ...(check.type !== 'untyped' ? { type: check.type } : {}),
          question: (exchange?.question ?? check.question).slice(0, MAX_QUESTION_CHARS),
          answer: check.expected,
          ...(stale.length ? { stale } : {}),
        },
        answer: (exchange?.answer ?? '').slice(0, MAX_ANSWER_CHARS),
        attempt: grade.attempt,
        grade: grades.length,
        persona: { score: grade.score, effective: grade.effective, attempt: grade.attempt },
        found: exchange !== undefined,
      },
    ];
  });
}

/**
 * The question she asked and the agent's answer it graded, from the transcript before the grade
 * (its `turn`, or its time in older states): among her last messages since the check's phase, the
 * one that shares most words with the check's question (the latest of equals; for a second attempt
 * the earliest, since her follow-up repeats it), and the agent's replies to it, or on a second
 * attempt its replies to her last message after it (the follow-up). Undefined when she asked nothing there.
 */
export function exchangeOf(
  transcript: readonly TranscriptEntry[],
  grade: Grade,
  checkQuestion: string,
): { question: string; answer: string } | undefined {
  const end = endOfGrade(transcript, grade);
  const asked: number[] = [];
  for (let index = end - 1; index >= 0 && asked.length < QUESTIONS_SEARCHED; index--) {
    const entry = transcript[index]!;
    if (entry.from === 'persona' && !before(entry.position, grade.position)) asked.push(index);
  }
  if (asked.length === 0) return undefined;
  const wanted = new Set(words(checkQuestion).filter((word) => !STOP_WORDS.has(word)));
  const shared = (index: number) => new Set(words(transcript[index]!.text).filter((word) => wanted.has(word))).size;
  // `asked` runs latest first: a strict `>` keeps the latest of equals, `>=` the earliest.
  let best = asked[0]!;
  for (const index of asked.slice(1)) if (grade.attempt === 2 ? shared(index) >= shared(best) : shared(index) > shared(best)) best = index;
  const followUp = grade.attempt === 2 ? asked.find((index) => index > best) : undefined;
  const repliesFrom = followUp ?? best;
  const replies: string[] = [];
  for (let index = repliesFrom + 1; index < end && transcript[index]!.from !== 'persona'; index++)
    if (transcript[index]!.from === 'agent') replies.push(transcript[index]!.text);
  return { question: transcript[best]!.text, answer: replies.join('\n\n') };
}

/** Where the transcript stood when the grade was given: its `turn`, or the entries up to its time. */
function endOfGrade(transcript: readonly TranscriptEntry[], grade: Grade): number {
  if (grade.turn !== undefined) return Math.min(grade.turn, transcript.length);
  const at = Date.parse(grade.at);
  let end = 0;
  while (end < transcript.length && !(Date.parse(transcript[end]!.at) > at)) end++;
  return end;
}

/** Whether a transcript entry's phase comes before the check's phase. */
function before(position: Grade['position'], checkAt: Grade['position']): boolean {
  return position.chapterIndex < checkAt.chapterIndex || (position.chapterIndex === checkAt.chapterIndex && position.phase < checkAt.phase);
}
