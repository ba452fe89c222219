/**
 * The answer audit (`mmb check --audit`): for each trap, the value its facts had when the
 * rehearsal asked each check the trap aims at must be in that check's correct answer (for a HIST
 * check, the value before the trap's edit), and the value the edit replaced must not. A value is
 * compared by what tells it from the other one: the numbers that differ, or else the key words.
 * Each disagreement is a diagnostic at the check's line; a trap whose edit the rehearsal could not
 * make is a warning at the trap's line, since nothing could be compared.
 */
import { diagnostic, type Benchmark, type Diagnostic, type LocatedCheck, type LocatedTrap } from '../../../scenario/src';
import { keywords, numbers as allNumbers } from '../standin/text';
import { phaseKey, rehearse, type Rehearsal } from './rehearsal';

/** Plays the benchmark on the stand-in and compares every trap's checks with the live sheets. */
export async function auditBenchmark(benchmark: Benchmark): Promise<Diagnostic[]> {
  const rehearsal = await rehearse(benchmark);
  if (rehearsal.state.status !== 'finished') {
    const first = benchmark.checks[0];
    return first
      ? [
          diagnostic(
            'audit-not-graded',
            first.file,
            first.check.range,
            `the audit's rehearsal did not finish (${(rehearsal.state.error ?? 'stopped').slice(0, 300)}), so no check was compared.`,
          ),
        ]
      : [];
  }
  return auditRehearsal(benchmark, rehearsal);
}

/** The audit of a rehearsal already played. */
export function auditRehearsal(benchmark: Benchmark, rehearsal: Rehearsal): Diagnostic[] {
  const checks = new Map(benchmark.checks.map((located) => [located.check.id, located]));
  const out: Diagnostic[] = [];
  for (const located of benchmark.traps) {
    const facts = trapFacts(located, rehearsal);
    if (facts.length === 0) continue;
    const changed = rehearsal.changedInPhase.get(phaseKey(located.chapter, located.phase)) ?? new Set();
    const unchanged = facts.filter((fact) => !changed.has(fact));
    // An XREF's fact is told as a reference ("the same tile as in the bathroom"), not edited: its
    // answer lives in the fact referred to, so there is no new text to compare.
    if (unchanged.length && located.trap.type !== 'XREF') {
      const problem = `the rehearsal did not change ${unchanged.join(', ')} in this trap's phase, so its checks were not compared`;
      const remedy = 'give the new text in the phase (Update `sheet` fact N.M to "…"), or an "X, not Y" the old text holds';
      out.push(diagnostic('audit-not-edited', located.file, located.trap.range, `${problem}: ${remedy}.`));
    }
    for (const target of located.trap.targets) {
      const check = checks.get(target.name);
      if (!check) continue;
      const at = rehearsal.atGrade.get(check.check.id);
      if (!at) {
        const trapAt = `${located.file}:${located.trap.range.start.line + 1}`;
        out.push(
          diagnostic(
            'audit-not-graded',
            check.file,
            check.check.range,
            `the rehearsal never graded ${check.check.id}, which the trap at ${trapAt} aims at: it was not compared.`,
          ),
        );
        continue;
      }
      const before = rehearsal.atPhaseStart.get(phaseKey(located.chapter, located.phase)) ?? rehearsal.initial;
      for (const fact of facts.filter((f) => changed.has(f)))
        out.push(...compare(check, located, fact, before.get(fact), at.get(fact) ?? rehearsal.lastText.get(fact), !at.has(fact)));
    }
  }
  return out;
}

/** The trap's facts: the ones it names, or, when it names none, the ones the rehearsal changed in its phase. */
function trapFacts(located: LocatedTrap, rehearsal: Rehearsal): string[] {
  if (located.trap.facts.length) return [...new Set(located.trap.facts.map((ref) => `${ref.sheet}#${ref.id}`))];
  return [...(rehearsal.changedInPhase.get(phaseKey(located.chapter, located.phase)) ?? [])];
}

/**
 * One fact against one check. `before`: its text when the trap's phase began (none for a fact the
 * phase added); `now`: its text when the check was graded, or its last text when it was `deleted`.
 * A HIST check wants `before` (and may well name the new value too); any other wants `now` and
 * not what it replaced, or, for a deleted fact, none of it.
 */
function compare(
  located: LocatedCheck,
  trap: LocatedTrap,
  fact: string,
  before: string | undefined,
  now: string | undefined,
  deleted: boolean,
): Diagnostic[] {
  const check = located.check;
  const where = `the trap at ${trap.file}:${trap.trap.range.start.line + 1}`;
  const range = check.answerRange ?? check.range;
  const answerNumbers = new Set(numbers(check.answer));
  if (check.type === 'HIST') {
    const missing = before === undefined ? [] : missingFrom(check.answer, before, now);
    return missing.length
      ? [
          diagnostic(
            'audit-missing-value',
            located.file,
            range,
            `${check.id}'s correct answer lacks ${missing.join(', ')}: ${fact} was "${before}" before ${where} changed it.`,
          ),
        ]
      : [];
  }
  if (deleted) {
    const kept = now === undefined ? [] : [...new Set(numbers(now))];
    const stale = kept.length > 0 && kept.every((n) => answerNumbers.has(n));
    return stale
      ? [
          diagnostic(
            'audit-stale-value',
            located.file,
            range,
            `${check.id}'s correct answer still holds ${kept.join(', ')}: ${fact} ("${now}") was deleted by then (${where}).`,
          ),
        ]
      : [];
  }
  if (now === undefined) return [];
  const out: Diagnostic[] = [];
  const missing = missingFrom(check.answer, now, before);
  if (missing.length)
    out.push(
      diagnostic(
        'audit-missing-value',
        located.file,
        range,
        `${check.id}'s correct answer lacks ${missing.join(', ')}: ${fact} was "${now}" when the rehearsal asked it, after ${where}.`,
      ),
    );
  const stale = before === undefined ? [] : distinctNumbers(before, now).filter((n) => answerNumbers.has(n));
  if (stale.length)
    out.push(
      diagnostic(
        'audit-stale-value',
        located.file,
        range,
        `${check.id}'s correct answer still holds ${stale.join(', ')}: ` +
          `${fact} was "${before}" only before ${where}, and "${now}" when the rehearsal asked it.`,
      ),
    );
  return out;
}

/** The numbers of a text, but not the digits of a name such as RAV4 or CX-5, which are no values. */
export function numbers(text: string): string[] {
  return allNumbers(text.replace(/\p{L}+[\d-]*\d[\p{L}\d]*/gu, ' '));
}

const MONTH = '(?:January|February|March|April|May|June|July|August|September|October|November|December)';
/** A written date: `1 December 2026`, `21 June`, `December 1, 2026`. */
const DATES = new RegExp(`\\b(?:\\d{1,2} ${MONTH}(?: \\d{4})?|${MONTH} \\d{1,2}(?:, \\d{4})?)\\b`, 'g');
const DATE = new RegExp(`\\b${MONTH}\\b|\\{\\{`);

/** The numbers of `value` that `other` lacks. */
export function distinctNumbers(value: string, other: string | undefined): string[] {
  const theirs = new Set(other === undefined ? [] : numbers(other));
  return [...new Set(numbers(value))].filter((n) => !theirs.has(n));
}

/**
 * What of `value` the answer lacks, among what tells it from `other`: every number that differs,
 * or, when no number differs, the key words that differ (at least half of them must be there).
 */
export function missingFrom(answer: string, value: string, other: string | undefined): string[] {
  // A date in a fact often says when it was told ("Tracker log: 1 December 2026 126/82"): an answer
  // that names no date at all is not asked for it, so its day and year are no missing values.
  const distinct = distinctNumbers(DATE.test(answer) ? value : value.replace(DATES, ' '), other);
  if (distinct.length) {
    const present = new Set(numbers(answer));
    return distinct.filter((n) => !present.has(n));
  }
  const theirs = new Set(other === undefined ? [] : keywords(other));
  const words = [...new Set(keywords(value))].filter((word) => !theirs.has(word));
  const present = new Set(keywords(answer));
  const missing = words.filter((word) => !present.has(word));
  return missing.length * 2 > words.length ? missing : [];
}
