/**
 * The grading of `mmb regrade`: each judge grades each item of a run (× `--repeat`), and each grade
 * is appended to the judge's own file beside the persona's grades as soon as it comes, so that a
 * run killed mid-way resumes with what is left and grades nothing twice.
 */
import { lstatSync } from 'node:fs';
import { makeFolder } from '../diskFull';
import { UsageError } from '../errors';
import type { Judge, JudgeOutcome } from '../judge/judge';
import { appendLine, loadJsonLinesForAppend } from '../jsonl';
import { regradeFile, regradesDir } from '../protocol/layout';
import { MAX_JUDGE_NAME, readJudgeFile, type RegradeLine } from '../report/regradeFiles';
import type { RegradeItem } from '../report/regradeItems';
import { maskSecrets } from '../secrets';

/** Grades asked of one judge at once: a real endpoint answers several requests in the time of one. */
const AT_ONCE = 4;
const MAX_COMMENT_CHARS = 1000;
const MAX_RAW_CHARS = 4000;

export interface RegradeTally {
  judge: string;
  /** Grades asked for now, grades that came back as none, and items × repeats done before. */
  asked: number;
  noGrade: number;
  before: number;
}

/**
 * What was done, judge by judge, each tally also given to `done` as its judge finishes; stops early
 * (the tallies so far) when `signal` aborts; throws what a judge's endpoint threw.
 */
export async function gradeItems(
  dirOfRun: string,
  items: readonly RegradeItem[],
  judges: readonly Judge[],
  repeat: number,
  options: { signal?: AbortSignal; done?: (tally: RegradeTally) => void } = {},
): Promise<RegradeTally[]> {
  const tallies: RegradeTally[] = [];
  for (const judge of judges) {
    if (options.signal?.aborted) break;
    const tally = await gradeWithJudge(dirOfRun, items, judge, repeat, options.signal);
    tallies.push(tally);
    options.done?.(tally);
  }
  return tallies;
}

const doneKey = (check: string, grade: number, repeat: number) => `${check}\u0000${grade}\u0000${repeat}`;

/** The items × repeats a judge's file has no line for yet. */
function itemsLeft(file: string, items: readonly RegradeItem[], repeat: number): { left: [RegradeItem, number][]; before: number } {
  const read = readJudgeFile(file);
  // A link or a FIFO in its place is not graded into: the user removes it (a damaged line is only graded again).
  if (read.problem && !read.file) throw new UsageError(read.problem.replace(/; it is left out\.$/, ': remove it and regrade.'));
  // A line cut by a kill is cut off the file before anything is appended after it.
  if (read.file) loadJsonLinesForAppend(file);
  const done = new Set((read.file?.lines ?? []).map((line) => doneKey(line.check, line.grade, line.repeat)));
  const left: [RegradeItem, number][] = [];
  for (let index = 1; index <= repeat; index++)
    for (const item of items) if (!done.has(doneKey(item.key, item.grade, index))) left.push([item, index]);
  return { left, before: items.length * repeat - left.length };
}

async function gradeWithJudge(
  dirOfRun: string,
  items: readonly RegradeItem[],
  judge: Judge,
  repeat: number,
  signal?: AbortSignal,
): Promise<RegradeTally> {
  const dir = regradesDir(dirOfRun);
  if (lstatSync(dir, { throwIfNoEntry: false })?.isSymbolicLink())
    throw new UsageError(`${dir} is a link, which is never followed: remove it.`);
  makeFolder(dir);
  const file = regradeFile(dirOfRun, judge.name);
  const { left, before } = itemsLeft(file, items, repeat);
  const tally: RegradeTally = { judge: judge.name.slice(0, MAX_JUDGE_NAME), asked: 0, noGrade: 0, before };
  let next = 0;
  let failure: unknown;
  const worker = async () => {
    while (next < left.length && failure === undefined && !signal?.aborted) {
      const [item, index] = left[next++]!;
      const started = Date.now();
      try {
        // Blind: the judge gets the item alone, never the persona's grade beside it.
        const outcome = await judge.grade({ key: item.key, check: item.check, answer: item.answer, attempt: item.attempt });
        appendLine(file, regradeLine(judge.name, item, index, outcome, (Date.now() - started) / 1000));
        tally.asked++;
        if (outcome.kind === 'no-grade') tally.noGrade++;
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, left.length) }, worker));
  if (failure !== undefined) throw failure;
  return tally;
}

/** The line a judge's grade of one item is kept as; its texts bounded and masked, since a model wrote them. */
export function regradeLine(judge: string, item: RegradeItem, repeat: number, outcome: JudgeOutcome, seconds: number): RegradeLine {
  const text = (value: string, max: number) => maskSecrets(value.slice(0, max));
  return {
    judge: judge.slice(0, MAX_JUDGE_NAME),
    check: item.key,
    grade: item.grade,
    repeat,
    attempt: item.attempt,
    outcome: outcome.kind,
    ...(outcome.kind === 'graded' ? { score: outcome.score } : {}),
    comment: text(outcome.kind === 'graded' ? outcome.comment : outcome.reason, MAX_COMMENT_CHARS),
    ...(outcome.kind === 'no-grade' ? { raw: text(outcome.raw, MAX_RAW_CHARS) } : {}),
    promptTokens: Math.max(0, Math.round(outcome.usage.promptTokens)),
    completionTokens: Math.max(0, Math.round(outcome.usage.completionTokens)),
    seconds: Math.round(seconds * 1000) / 1000,
    at: new Date().toISOString(),
  };
}
