/**
 * A check's stale values and grade as the stand-in persona gives them, kept. Her script is played
 * again from its phase's start at every turn, so an exam of a hundred checks graded each of them a
 * hundred times, each against every change of the run: a year's world spent most of its audit
 * there. A check's stale values are kept for the changes they were read from (`factChanges` hands
 * out the same array until an edit adds one), and a grade for what it graded.
 */
import { gradeByRule, type RuleGrade } from './grading';
import type { CheckLine } from './phaseParts';
import { staleValuesFor, type FactChange } from './sheetHistory';

const staleByChanges = new WeakMap<readonly FactChange[], Map<string, readonly string[]>>();
/** Enough for the longest exam's replays; few, since a key holds the agent's whole reply. */
const MAX_GRADES_KEPT = 2_000;
const grades = new Map<string, RuleGrade>();

/** `staleValuesFor(check, changes)`, read once for each array of changes. */
export function staleFor(check: CheckLine, changes: readonly FactChange[]): readonly string[] {
  let byCheck = staleByChanges.get(changes);
  if (!byCheck) staleByChanges.set(changes, (byCheck = new Map()));
  const key = JSON.stringify([check.question, check.answer]);
  let stale = byCheck.get(key);
  if (!stale) byCheck.set(key, (stale = staleValuesFor(check, changes)));
  return stale;
}

/** `gradeByRule` of the check's answer against the reply, graded once while kept. */
export function gradeOf(check: CheckLine, reply: string, stale: readonly string[]): RuleGrade {
  const key = JSON.stringify([check.type ?? null, check.answer, reply, stale]);
  let grade = grades.get(key);
  if (!grade) {
    if (grades.size >= MAX_GRADES_KEPT) grades.clear();
    grade = gradeByRule(check.type, check.answer, reply, { stale });
    grades.set(key, grade);
  }
  return grade;
}
