/**
 * The dataset's own metric for imported benchmarks (`mmb import`): accuracy, the share of graded
 * checks at or above the pass score, per question type, with its 95 % Wilson interval, pooled over
 * the full runs of one dataset by one agent (a stand-in rehearsal apart), and the line saying how
 * on-policy play differs from the dataset's protocol. Pure: runs in, figures and lines out.
 */
import { LOCOMO_CATEGORIES } from '../import/locomo';
import { BY_CATEGORY } from '../import/locomoRender';
import { datasetMarkOf, type DatasetMark } from '../import/provenance';
import { passes } from '../protocol/scores';
import { isPartialState } from '../state/partialRule';
import type { RunState } from '../state/runState';
import { isStandInRun } from './standInNote';
import { rate, type Rate } from './rates';

/** What the metric reads of one run. */
export interface DatasetRunFigures {
  /** The benchmark's title: an imported one's names the dataset and the question's type. */
  title: string;
  agent: string;
  standIn: boolean;
  /** A run of some phases only (`--from`, `--filter`): not counted, its checks were chosen. */
  partial: boolean;
  /** The standing grade of each check graded, by check id. */
  grades: readonly { id: string; score: number }[];
}

export interface DatasetAccuracy {
  /** `LongMemEval @ chatbot`, `… on the stand-in`. */
  group: string;
  dataset: string;
  /** What a row counts: `question type` (LongMemEval), `category` (LoCoMo). */
  by: string;
  /** Per type, by name; `all` last. */
  rates: Rate[];
  runs: number;
}

/** The row pooling every type. */
export const ALL_TYPES = 'all';

/** What the metric reads of a run's state, its benchmark's title given. */
export function datasetRunFigures(state: RunState, title: string): DatasetRunFigures {
  return {
    title,
    agent: state.agent,
    standIn: isStandInRun(state),
    partial: state.filter !== undefined || isPartialState(state),
    grades: Object.entries(state.grades).flatMap(([id, grades]) => {
      const last = grades.at(-1);
      return last ? [{ id, score: last.effective }] : [];
    }),
  };
}

/** A check's type in the dataset's words: the benchmark's, or for LoCoMo the category its id's first number names (`2.7`: temporal). */
export function typeOfCheck(mark: DatasetMark, checkId: string): string {
  if (mark.type !== BY_CATEGORY) return mark.type;
  return LOCOMO_CATEGORIES[Number(checkId.split('.')[0])]?.name ?? 'other';
}

/** The accuracy of each dataset and agent over the full runs of imported benchmarks; none for other runs. */
export function datasetAccuracy(runs: readonly DatasetRunFigures[], passScore: number): DatasetAccuracy[] {
  const groups = new Map<string, { dataset: string; by: string; runs: number; byType: Map<string, { passed: number; graded: number }> }>();
  for (const run of runs) {
    const mark = datasetMarkOf(run.title);
    if (!mark || run.partial) continue;
    const group = `${mark.dataset} @ ${run.agent}${run.standIn ? ' on the stand-in' : ''}`;
    const by = mark.type === BY_CATEGORY ? 'category' : 'question type';
    const entry = groups.get(group) ?? { dataset: mark.dataset, by, runs: 0, byType: new Map() };
    groups.set(group, entry);
    entry.runs++;
    for (const { id, score } of run.grades) {
      const type = typeOfCheck(mark, id);
      const sum = entry.byType.get(type) ?? { passed: 0, graded: 0 };
      entry.byType.set(type, { passed: sum.passed + (passes(score, passScore) ? 1 : 0), graded: sum.graded + 1 });
    }
    // A question graded by no check still shows its type, at 0/0.
    if (run.grades.length === 0 && mark.type !== BY_CATEGORY && !entry.byType.has(mark.type))
      entry.byType.set(mark.type, { passed: 0, graded: 0 });
  }
  return [...groups]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([group, { dataset, by, runs: count, byType }]) => {
      const types = [...byType].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      const passed = types.reduce((n, [, s]) => n + s.passed, 0);
      const graded = types.reduce((n, [, s]) => n + s.graded, 0);
      return {
        group,
        dataset,
        by,
        runs: count,
        rates: [...types.map(([type, s]) => rate(type, s.passed, s.graded)), rate(ALL_TYPES, passed, graded)],
      };
    });
}

/** What differs from the datasets' protocols, said once under the figures. */
export const ON_POLICY_NOTE =
  "On-policy: the persona told the recorded user's turns in her own words at their dates (MemoryAgentBench: the list's " +
  "facts, in order), the agent answered as itself, and the persona graded; the dataset's protocol feeds the recorded " +
  'history (or the context in chunks) and grades with its own judge (or by matching the answer), so these figures sit ' +
  'beside published ones as a different measurement (docs/datasets.md).';

const percent = (value: number) => `${Math.round(value * 100)}`;

/** The metric's rule, as every surface words it: `accuracy (a check at or above 8/10 counts as correct)`. */
export function accuracyRule(passScore: number): string {
  return `accuracy (a check at or above ${passScore}/10 counts as correct)`;
}

/** A row's figure, as every surface writes it: `67 % (21–94 %)`, the 95 % Wilson interval in brackets; `—` when none was graded. */
export function accuracyFigure(r: Rate): string {
  return r.rate === null || r.interval === null ? '—' : `${percent(r.rate)} % (${percent(r.interval[0])}–${percent(r.interval[1])} %)`;
}

/** The figures as lines: a heading per group, a row per type, the note last; nothing when there is no imported run. */
export function datasetAccuracyLines(groups: readonly DatasetAccuracy[], passScore: number): string[] {
  if (groups.length === 0) return [];
  const lines: string[] = [];
  for (const group of groups) {
    const width = Math.max(...group.rates.map((r) => r.key.length));
    lines.push(
      `${group.group}: ${accuracyRule(passScore)} over ${group.runs} run${group.runs === 1 ? '' : 's'}, with 95 % Wilson intervals:`,
    );
    for (const r of group.rates) lines.push(`  ${r.key.padEnd(width)}  ${`${r.passed}/${r.graded}`.padStart(7)}  ${accuracyFigure(r)}`);
  }
  lines.push(ON_POLICY_NOTE);
  return lines;
}

/**
 * The dataset's metric of one run, as summary.json holds it and report.md and the run page show it: the
 * same figures `mmb report <run>` prints, and the note, so a reader of the file alone sees the protocol differs.
 */
export interface DatasetMetric {
  dataset: string;
  by: string;
  passScore: number;
  /** Per type, by name; `all` last. */
  rates: Rate[];
  note: string;
}

/** The metric of one run of an imported benchmark; undefined for any other benchmark, and for a partial run (its checks were chosen). */
export function runDatasetMetric(state: RunState, title: string, passScore: number): DatasetMetric | undefined {
  const [group] = datasetAccuracy([datasetRunFigures(state, title)], passScore);
  return group && { dataset: group.dataset, by: group.by, passScore, rates: group.rates, note: ON_POLICY_NOTE };
}
