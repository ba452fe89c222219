/**
 * Repeated runs of one configuration (a benchmark, an agent, session breaks kept or ignored) as a
 * mean and spread per check and per trap type. A check whose grades spread by the threshold or
 * more across the runs is *flaky*; one that stays low in every run is *failing*, which is what a
 * real regression looks like; the rest are *stable*.
 */
import type { Benchmark } from '../../../scenario/src';
import type { RunState } from '../state/runState';
import { isPartialState } from '../state/partialRule';
import { isStandInRun } from './standInNote';
import { describeRun, type ComparedRun } from './compare';
import { runStory } from './trapStory';
import { meanInterval, pooledRates, type Rate } from './rates';
import { checkResults, type SourceRef } from './runView';
import { repeatOf } from '../protocol/runRequest';
import { DEFAULT_PASS_SCORE } from '../protocol/scores';
import { datasetAccuracy, datasetAccuracyLines, datasetRunFigures, type DatasetAccuracy } from './datasetAccuracy';

export interface Stats {
  n: number;
  mean: number;
  min: number;
  max: number;
  /** Population standard deviation. */
  stddev: number;
}

/** `single`: one run of the configuration, so there is no spread to judge. */
export type Verdict = 'stable' | 'flaky' | 'failing' | 'ungraded' | 'single';

export interface CheckTrend {
  id: string;
  type: string;
  question: string;
  source: SourceRef;
  /** Effective grade per run, in run order; null where the run did not grade it. */
  grades: (number | null)[];
  stats: Stats | null;
  verdict: Verdict;
}

export interface TrapTrend {
  type: string;
  /** The checks that traps of this type aim at. */
  checks: string[];
  /** Per run, the mean grade of those checks. */
  grades: (number | null)[];
  stats: Stats | null;
  verdict: Verdict;
}

export interface TrendGroup {
  /** The run of config.jsonc whose `--repeat`s (`<run>#1` …) make up the group, alone: repeats are one group of their own. */
  repeatsOf?: string;
  benchmark: string;
  title: string;
  agent: string;
  /** Its persona was the stand-in: a rehearsal's grades are a rule's, never pooled with a real model's. */
  standIn: boolean;
  sessionBreaksIgnored: boolean;
  /** The finished runs of the configuration, oldest first. */
  runs: ComparedRun[];
  average: Stats | null;
  checks: CheckTrend[];
  traps: TrapTrend[];
  /**
   * Over the repeats: the mean of the run averages with its 95 % Student t interval (null under
   * two runs), and the pass rate per trap type and per check type with the checks of every run
   * pooled, each with its 95 % Wilson score interval.
   */
  repeats: { average: { mean: number; interval: [number, number] } | null; byTrapType: Rate[]; byCheckType: Rate[] };
}

export interface Trends {
  /** Grades spreading by this much or more (highest minus lowest) make a check flaky. */
  threshold: number;
  groups: TrendGroup[];
  /** Runs left out, with why (not finished, partial, or their benchmark could not be read). */
  skipped: { run: string; reason: string }[];
  /** Imported benchmarks' runs (`mmb import`) by dataset and agent: the dataset's accuracy per type, every question pooled. */
  datasets: DatasetAccuracy[];
  /** The grade from which a check counts as correct in `datasets`. */
  passScore: number;
}

export const DEFAULT_FLAKY_THRESHOLD = 3;

/** Why a run of some phases only is no repeat. */
export const PARTIAL_REASON = 'a partial run (--from a later phase, --only or --filter): not a repeat';

const round2 = (n: number) => Math.round(n * 100) / 100;

export function stats(values: readonly number[]): Stats | null {
  if (!values.length) return null;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length;
  return { n: values.length, mean: round2(mean), min: Math.min(...values), max: Math.max(...values), stddev: round2(Math.sqrt(variance)) };
}

export function verdict(stats: Stats | null, threshold: number): Verdict {
  if (!stats) return 'ungraded';
  if (stats.max - stats.min >= threshold) return 'flaky';
  return stats.mean <= 10 - threshold ? 'failing' : 'stable';
}

/**
 * The configuration a run belongs to: the repeats of one run (`chatbot-1#1` …, from `mmb run
 * --repeat`) are one group, since they share every setting; any other run groups with the runs of
 * its benchmark and agent, and a stand-in run (a rehearsal, whole and so full) apart from the real
 * ones, whose means it would skew.
 */
export function groupKey(state: RunState): string {
  const repeat = repeatOf(state.run);
  if (repeat) return `repeats of ${repeat.base}`;
  const standIn = isStandInRun(state) ? ' on the stand-in' : '';
  return `${state.benchmark} @ ${state.agent}${standIn}${state.sessionSwitches.some((s) => s.ignored) ? ' (session breaks ignored)' : ''}`;
}

/** A benchmark by name with its folder relative to the workspace root, or undefined when it cannot be read. */
export type BenchmarkLookup = (name: string) => { benchmark: Benchmark; path?: string } | undefined;

/** Groups the finished runs by configuration. */
export function computeTrends(states: readonly RunState[], benchmarkOf: BenchmarkLookup, threshold = DEFAULT_FLAKY_THRESHOLD): Trends {
  const skipped: Trends['skipped'] = [];
  const groups = new Map<string, RunState[]>();
  for (const s of [...states].sort((a, b) => a.startedAt.localeCompare(b.startedAt))) {
    if (s.status !== 'finished') skipped.push({ run: s.run, reason: s.status === 'crashed' ? 'crashed' : 'not finished' });
    // A partial run scores only the phases it played: beside full runs it would read as a jump.
    else if (isPartialState(s)) skipped.push({ run: s.run, reason: PARTIAL_REASON });
    else if (!benchmarkOf(s.benchmark)) skipped.push({ run: s.run, reason: `benchmark ${s.benchmark} not found` });
    else groups.set(groupKey(s), [...(groups.get(groupKey(s)) ?? []), s]);
  }
  // A dataset's questions are a benchmark each: beside their one-run groups, the dataset's metric pools them by type.
  const counted = [...groups.values()].flat().map((s) => datasetRunFigures(s, benchmarkOf(s.benchmark)!.benchmark.title));
  return {
    threshold,
    skipped,
    groups: [...groups.values()].map((runs) => trendGroup(runs, benchmarkOf(runs[0]!.benchmark)!, threshold)),
    datasets: datasetAccuracy(counted, DEFAULT_PASS_SCORE),
    passScore: DEFAULT_PASS_SCORE,
  };
}

function trendGroup(runs: RunState[], { benchmark, path }: { benchmark: Benchmark; path?: string }, threshold: number): TrendGroup {
  const lists = runs.map((s) => checkResults(s, benchmark, path));
  const results = lists.map((list) => new Map(list.map((c) => [c.id, c])));
  const stories = runs.map((s, i) => runStory(s, benchmark, lists[i]!, path ?? `benchmarks/${benchmark.name}`));
  const judge = (st: Stats | null): Verdict => (runs.length < 2 && st ? 'single' : verdict(st, threshold));
  const described = runs.map(describeRun);
  const ids = [...new Set(results.flatMap((m) => [...m.keys()]))];
  const checks = ids.map((id): CheckTrend => {
    const first = results.map((m) => m.get(id)).find((c) => c)!;
    const grades = results.map((m) => m.get(id)?.grade?.effective ?? null);
    const st = stats(grades.filter((g): g is number => g !== null));
    return { id, type: first.type, question: first.question, source: first.source, grades, stats: st, verdict: judge(st) };
  });
  const types = [...new Set(benchmark.traps.map((t) => t.trap.type))];
  const traps = types.map((type): TrapTrend => {
    const aimed = [...new Set(benchmark.traps.filter((t) => t.trap.type === type).flatMap((t) => t.trap.targets.map((x) => x.name)))];
    const grades = results.map((m) => {
      const got = aimed.flatMap((id) => (m.get(id)?.grade ? [m.get(id)!.grade!.effective] : []));
      return got.length ? round2(got.reduce((a, b) => a + b, 0) / got.length) : null;
    });
    const st = stats(grades.filter((g): g is number => g !== null));
    return { type, checks: aimed, grades, stats: st, verdict: judge(st) };
  });
  const first = runs[0]!;
  const repeat = repeatOf(first.run);
  return {
    ...(repeat ? { repeatsOf: repeat.base } : {}),
    benchmark: first.benchmark,
    title: benchmark.title,
    agent: first.agent,
    standIn: isStandInRun(first),
    sessionBreaksIgnored: described[0]!.sessionBreaksIgnored,
    runs: described,
    average: stats(described.flatMap((r) => (r.average === null ? [] : [r.average]))),
    checks,
    traps,
    repeats: {
      average: meanInterval(described.flatMap((r) => (r.average === null ? [] : [r.average]))),
      byTrapType: pooledRates(stories.map((st) => st.byTrapType)),
      byCheckType: pooledRates(stories.map((st) => st.byCheckType)),
    },
  };
}

/**
 * A group as its heading names it: `starter @ chatbot`, `starter @ chatbot on the stand-in`, or
 * `repeats of chatbot-1 (starter @ chatbot)`.
 */
export function groupName(group: TrendGroup): string {
  const standIn = group.standIn ? ' on the stand-in' : '';
  const configuration = `${group.benchmark} @ ${group.agent}${standIn}${group.sessionBreaksIgnored ? ' (session breaks ignored)' : ''}`;
  return group.repeatsOf !== undefined ? `repeats of ${group.repeatsOf} (${configuration})` : configuration;
}

/** A short text summary for the terminal: per configuration, its runs and the checks that are not stable. */
export function trendsText(trends: Trends): string {
  const lines: string[] = [];
  for (const g of trends.groups) {
    const avg = g.average ? `mean ${g.average.mean.toFixed(2)}, ${g.average.min.toFixed(2)}–${g.average.max.toFixed(2)}` : 'no grades';
    lines.push(`${groupName(g)}: ${g.runs.length} run${g.runs.length === 1 ? '' : 's'} (${g.runs.map((r) => r.run).join(', ')}), ${avg}`);
    const flaky = g.checks.filter((c) => c.verdict === 'flaky');
    const failing = g.checks.filter((c) => c.verdict === 'failing');
    if (flaky.length) lines.push(`  flaky:   ${flaky.map((c) => `${c.id} (${c.stats!.min}–${c.stats!.max})`).join(', ')}`);
    if (failing.length) lines.push(`  failing: ${failing.map((c) => `${c.id} (mean ${c.stats!.mean})`).join(', ')}`);
    if (g.runs.length < 2) lines.push('  one full run: nothing to compare yet');
    else if (!flaky.length && !failing.length) lines.push('  every check stable');
  }
  lines.push(...datasetAccuracyLines(trends.datasets, trends.passScore));
  for (const s of trends.skipped) lines.push(`left out: ${s.run} (${s.reason})`);
  return `${lines.join('\n')}\n`;
}
