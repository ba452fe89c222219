/**
 * The view model of a run's regrades: per check the persona's grade beside each judge's, the checks
 * where they differ by more than 2 points first; each judge's agreement with the persona and the
 * run's average under it; a panel's mean and spread. Plain values: the terminal, report.md, `--json`,
 * the HTML report and the comparison show the same figures.
 */
import type { Benchmark } from '../../../scenario/src';
import { agreementOf, retestOf, type Agreement, type Retest } from '../judge/agreement';
import { effectiveScore } from '../judge/rules';
import type { RunState } from '../state/runState';
import { readRegrades, type JudgeFile, type RegradeLine } from './regradeFiles';
import { regradeItems, type RegradeItem } from './regradeItems';

/** A judge's grade and the persona's differ by more than this, and the check is listed first. */
export const DISAGREEMENT_POINTS = 2;

/** One judge's grade of one check: the mean of its graded repeats, with their spread. */
export interface JudgeCell {
  /** Mean effective score of its repeats (after the second attempt's halving), two decimals. */
  effective: number;
  /** Highest minus lowest of its repeats (0 for one). */
  spread: number;
  repeats: number;
  /** Each repeat's effective score, in the order they were given. */
  scores: number[];
  /** The comment of its latest grade. */
  comment: string;
}

export interface RegradedCheck {
  id: string;
  type: string;
  /** The question as she asked it, the correct answer and the agent's answer, as the judges got them. */
  question: string;
  expected: string;
  answer: string;
  persona: RegradeItem['persona'];
  /** One per judge, in the order of `judges`: null where the judge gave no grade. */
  judges: (JudgeCell | null)[];
  /** The panel's mean and spread (highest minus lowest judge) for the check; null when no judge graded it. */
  panel: { mean: number; spread: number } | null;
  /** The largest difference between the persona's effective grade and a judge's. */
  gap: number;
  disagrees: boolean;
}

export interface JudgeSummary {
  judge: string;
  /** The file its grades are in: `regrades/<slug>.jsonl`. */
  slug: string;
  /** Checks it graded (of `RegradeView.checks`), and its replies that held no grade. */
  graded: number;
  noGrade: number;
  /** The run's average under this judge: the mean of its grades of the checks it graded, two decimals; null for none. */
  average: number | null;
  /** Against the persona: each graded repeat is a pair (the persona's effective grade, the judge's). */
  agreement: Agreement;
  /** With `--repeat`: how often its grade of a check changed between repeats. */
  retest?: Retest;
  tokens: { prompt: number; completion: number };
}

export interface RegradeView {
  /** The persona's average over the checks regraded, two decimals; null for none. */
  personaAverage: number | null;
  judges: JudgeSummary[];
  /** With two judges or more: the mean of their averages and its spread (highest minus lowest). */
  panel: { average: number | null; spread: number | null } | null;
  /** Every graded check, those where a judge and the persona differ by more than 2 points first. */
  checks: RegradedCheck[];
  disagreements: number;
  /** Lines that grade an older grade of hers (she graded the check again since): not shown. */
  outdated: number;
  /** One line per damaged regrade file or skipped line. */
  problems: string[];
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const mean = (values: readonly number[]) => (values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : null);
const spreadOf = (values: readonly number[]) => (values.length ? Math.max(...values) - Math.min(...values) : 0);

/** The regrades of a run beside its persona's grades; null when no judge has graded it. */
export function regradeView(
  state: RunState,
  benchmark: Benchmark,
  regrades: { files: readonly JudgeFile[]; problems: readonly string[] },
): RegradeView | null {
  if (regrades.files.length === 0 && regrades.problems.length === 0) return null;
  const items = regradeItems(state, benchmark);
  const current = (line: RegradeLine, item: RegradeItem | undefined) => item !== undefined && line.grade === item.grade;
  const byCheck = new Map(items.map((item) => [item.key, item]));
  const linesOf = regrades.files.map((file) => file.lines.filter((line) => current(line, byCheck.get(line.check))));
  const outdated = regrades.files.reduce((sum, file, index) => sum + file.lines.length - linesOf[index]!.length, 0);
  const gradedByCheck = linesOf.map((lines) => {
    const byId = new Map<string, RegradeLine[]>();
    for (const line of lines)
      if (line.outcome === 'graded' && line.score !== undefined) byId.set(line.check, [...(byId.get(line.check) ?? []), line]);
    return byId;
  });
  const checks = items.map((item) => regradedCheck(item, gradedByCheck));
  const judges = regrades.files.map((file, index) => judgeSummary(file, linesOf[index]!, checks, index));
  const averages = judges.flatMap((judge) => (judge.average === null ? [] : [judge.average]));
  const panelAverage = mean(averages);
  const personaAverage = mean(items.map((item) => item.persona.effective));
  const ordered = [...checks.filter((check) => check.disagrees).sort((a, b) => b.gap - a.gap), ...checks.filter((c) => !c.disagrees)];
  return {
    personaAverage: personaAverage === null ? null : round2(personaAverage),
    judges,
    panel:
      judges.length >= 2
        ? { average: panelAverage === null ? null : round2(panelAverage), spread: averages.length ? round2(spreadOf(averages)) : null }
        : null,
    checks: ordered,
    disagreements: checks.filter((check) => check.disagrees).length,
    outdated,
    problems: [...regrades.problems],
  };
}

/** One check: the persona's grade and each judge's mean over its repeats. */
function regradedCheck(item: RegradeItem, gradedByCheck: readonly ReadonlyMap<string, RegradeLine[]>[]): RegradedCheck {
  const cells = gradedByCheck.map((byId): JudgeCell | null => {
    const graded = byId.get(item.key) ?? [];
    if (graded.length === 0) return null;
    const scores = graded.map((line) => effectiveScore(line.score!, line.attempt));
    const comment = graded.at(-1)!.comment;
    return { effective: round2(mean(scores)!), spread: round2(spreadOf(scores)), repeats: graded.length, scores, comment };
  });
  const given = cells.flatMap((cell) => (cell ? [cell.effective] : []));
  const gap = given.length ? Math.max(...given.map((score) => Math.abs(score - item.persona.effective))) : 0;
  return {
    id: item.key,
    type: item.check.type ?? 'untyped',
    question: item.check.question,
    expected: item.check.answer,
    answer: item.answer,
    persona: item.persona,
    judges: cells,
    panel: given.length ? { mean: round2(mean(given)!), spread: round2(spreadOf(given)) } : null,
    gap: round2(gap),
    disagrees: gap > DISAGREEMENT_POINTS,
  };
}

function judgeSummary(file: JudgeFile, lines: readonly RegradeLine[], checks: readonly RegradedCheck[], index: number): JudgeSummary {
  const personaOf = new Map(checks.map((check) => [check.id, check.persona.effective]));
  const graded = lines.filter((line) => line.outcome === 'graded' && line.score !== undefined);
  const pairs = graded.map((line) => ({ gold: personaOf.get(line.check)!, judge: effectiveScore(line.score!, line.attempt) }));
  const cells = checks.flatMap((check) => (check.judges[index] ? [check.judges[index]] : []));
  const average = mean(cells.map((cell) => cell.effective));
  const perCheck = checks.map((check) => check.judges[index]?.scores ?? []);
  const repeated = lines.some((line) => line.repeat > 1);
  return {
    judge: file.judge,
    slug: file.slug,
    graded: cells.length,
    noGrade: lines.filter((line) => line.outcome === 'no-grade').length,
    average: average === null ? null : round2(average),
    agreement: agreementOf(pairs),
    ...(repeated ? { retest: retestOf(perCheck) } : {}),
    tokens: {
      prompt: lines.reduce((sum, line) => sum + line.promptTokens, 0),
      completion: lines.reduce((sum, line) => sum + line.completionTokens, 0),
    },
  };
}

/** The regrades of the run in `dirOfRun` (its `regrades/` folder read as untrusted); null when it has none. */
export function runRegrades(dirOfRun: string, state: RunState, benchmark: Benchmark): RegradeView | null {
  return regradeView(state, benchmark, readRegrades(dirOfRun));
}
