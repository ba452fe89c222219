/**
 * The judges' grades of a run (`results/<run>/regrades/<judge>.jsonl`, one grade a line), declared
 * and read back here. Like every run file they are untrusted: a link, a FIFO, a line that is not
 * JSON or not of the shape is one problem line, said and skipped, never an exception.
 */
import { lstatSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { RunDamaged } from '../errors';
import { parseJsonLines } from '../jsonl';
import { judgeSlug, REGRADE_EXTENSION, regradesDir } from '../protocol/layout';
import { count, number, numberFrom, object, oneOf, optional, problemOf, problemText, string, type Infer } from '../protocol/shape';
import { oneLine, readRunBytes } from '../runFile';

/** One grade of one judge, as its file holds it. */
export const REGRADE_LINE = object({
  /** The judge's name as the user gave it (cut to `MAX_JUDGE_NAME`). */
  judge: string(),
  /** The check regraded: the item's key. */
  check: string(),
  /** Which of the persona's grades of the check it stands beside (1 = her first); a later one of hers is regraded anew. */
  grade: count(),
  /** Which repeat (`--repeat N`) it is, from 1. */
  repeat: count(),
  attempt: oneOf(1, 2),
  outcome: oneOf('graded', 'no-grade'),
  /** The score as the judge gave it, for `graded`. */
  score: optional(numberFrom(0, 10)),
  /** The judge's comment, or why there is no grade. */
  comment: string(),
  /** The judge's reply as it came, kept for a `no-grade`. */
  raw: optional(string()),
  promptTokens: count(),
  completionTokens: count(),
  /** Seconds the judge took. */
  seconds: optional(number()),
  at: string(),
});

export type RegradeLine = Infer<typeof REGRADE_LINE>;

/** The characters of a judge's name kept in its lines and shown. */
export const MAX_JUDGE_NAME = 200;
/** The most judges' files read of one run: a folder planted with thousands is not read whole. */
const MAX_JUDGE_FILES = 50;

/** One judge's grades of a run, read back. */
export interface JudgeFile {
  /** The file's name without `.jsonl`. */
  slug: string;
  /** The judge's name its lines give (the last), else the slug. */
  judge: string;
  lines: RegradeLine[];
}

/**
 * Every judge's grades of a run, and one line per problem met (a damaged file, skipped lines): the
 * judges named in `first` in that order (as `--judge` gave them), then the others by file name.
 */
export function readRegrades(dirOfRun: string, first: readonly string[] = []): { files: JudgeFile[]; problems: string[] } {
  const dir = regradesDir(dirOfRun);
  const stat = lstatSync(dir, { throwIfNoEntry: false });
  if (!stat) return { files: [], problems: [] };
  if (!stat.isDirectory())
    return { files: [], problems: [`damaged: ${dir}: not a folder (a link is never followed); the regrades are left out.`] };
  const rank = new Map(first.map((judge, index) => [`${judgeSlug(judge)}${REGRADE_EXTENSION}`, index]));
  const order = (name: string) => rank.get(name) ?? first.length;
  const names = readdirSync(dir)
    .filter((name) => name.endsWith(REGRADE_EXTENSION))
    .sort((left, right) => order(left) - order(right) || (left < right ? -1 : left > right ? 1 : 0))
    .slice(0, MAX_JUDGE_FILES);
  const files: JudgeFile[] = [];
  const problems: string[] = [];
  for (const name of names) {
    const read = readJudgeFile(join(dir, name));
    if (read.problem) problems.push(read.problem);
    if (read.file) files.push(read.file);
  }
  return { files, problems };
}

/** One judge's file: its whole lines of the shape, and what was wrong with the others, in one line. */
export function readJudgeFile(path: string): { file?: JudgeFile; problem?: string } {
  let bytes: Buffer | undefined;
  try {
    bytes = readRunBytes(path);
  } catch (error) {
    if (error instanceof RunDamaged) return { problem: `${error.message}; it is left out.` };
    throw error;
  }
  const slug = basename(path, REGRADE_EXTENSION);
  if (bytes === undefined) return {};
  const parsed = parseJsonLines<unknown>(bytes.toString('utf8'));
  const lines: RegradeLine[] = [];
  let firstBad: string | undefined = parsed.damaged ? `line ${parsed.damaged.line} is not JSON` : undefined;
  let bad = parsed.damaged ? 1 : 0;
  for (const entry of parsed.entries) {
    const problem = problemOf(REGRADE_LINE, entry.value);
    if (!problem) lines.push(entry.value as RegradeLine);
    else {
      bad++;
      firstBad ??= `line ${entry.line}: ${problemText(problem)}`;
    }
  }
  const judge = lines.at(-1)?.judge.slice(0, MAX_JUDGE_NAME) ?? slug;
  const problem = firstBad
    ? `damaged: ${path}: ${bad} line${bad === 1 ? '' : 's'} skipped (${oneLine(firstBad, 200)}); ` +
      '`mmb regrade` grades what they held again.'
    : undefined;
  return { file: { slug, judge, lines }, ...(problem ? { problem } : {}) };
}
