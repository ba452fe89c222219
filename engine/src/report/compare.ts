/**
 * Runs of one benchmark side by side, check by check, the checks whose grade differs first. Runs
 * of different benchmarks are not compared: the same check id there is a different question.
 */
import type { Benchmark } from '../../../scenario/src';
import type { RunState, TrueStatus } from '../state/runState';
import { isPartialState } from '../state/partialRule';
import { runStory, type TrapResult } from './trapStory';
import { plannedChecks } from './summary';
import { checkResults, type CheckResult, type SourceRef, type TrapLink } from './runView';
import type { RegradeView } from './regradeView';
import { oneLine } from '../runFile';

export interface ComparedRun {
  run: string;
  agent: string;
  /** The state's status; the callers that read the locks put the true one in (`withTrueStatus`). */
  status: TrueStatus;
  startedAt: string;
  /** Mean effective grade, two decimals; null before any grade. */
  average: number | null;
  /** True when the run ignored its session breaks (the whole conversation stayed in context). */
  sessionBreaksIgnored: boolean;
  /** True for a run of some phases only (`--from`, `--only`, a rehearsal): checks outside them were never played. */
  partial: boolean;
  /** The run's average under each judge that regraded it (`mmb regrade`), when the caller read them (`withRegrades`). */
  judges?: { judge: string; average: number | null; kappa: number | null }[];
}

export interface CompareRow {
  id: string;
  type: string;
  question: string;
  expected: string;
  source: SourceRef;
  /** One per run, in the order of `runs`; null where the run has no grade for the check. */
  cells: (NonNullable<CheckResult['grade']> | null)[];
  /** One per run: false where a partial run never played the check, so its missing grade is no difference. */
  played: boolean[];
  /** Highest minus lowest effective grade among the runs that graded it. */
  spread: number;
  differs: boolean;
  /** The trap writes aimed at the check: `index` into `Comparison.traps`' benchmark order, as the run page's trap story numbers them. */
  traps: { index: number; type: string }[];
}

/** A trap write aimed at a check that differs, with what it did in each run. */
export interface ComparedTrap {
  /** Its place among the benchmark's trap writes: the anchor `trap-<index>` on this page and on each run page. */
  index: number;
  type: string;
  write: TrapLink;
  /** The differing checks it aims at. */
  checks: string[];
  /** One per run, in the order of `runs`. */
  results: TrapResult[];
}

export interface Comparison {
  benchmark: string;
  title: string;
  runs: ComparedRun[];
  rows: CompareRow[];
  differing: number;
  /** Every pair of runs (`a` before `b` in `runs`): the checks both graded and how many of them they graded differently. */
  pairs: { a: number; b: number; compared: number; differing: number }[];
  /** The trap writes aimed at differing checks, in the benchmark's order. */
  traps: ComparedTrap[];
}

export function describeRun(state: RunState): ComparedRun {
  const grades = Object.values(state.grades).flatMap((g) => (g.length ? [g.at(-1)!.effective] : []));
  return {
    run: state.run,
    agent: state.agent,
    status: state.status,
    startedAt: state.startedAt,
    average: grades.length ? Math.round((grades.reduce((a, b) => a + b, 0) / grades.length) * 100) / 100 : null,
    sessionBreaksIgnored: state.sessionSwitches.some((s) => s.ignored),
    partial: isPartialState(state),
  };
}

/** The comparison with each run's averages under the judges that regraded it (`runRegrades`). */
export function withRegrades(comparison: Comparison, regradesOf: (index: number) => RegradeView | null): Comparison {
  const runs = comparison.runs.map((run, index) => {
    const judges = regradesOf(index)?.judges.map((judge) => ({ judge: judge.judge, average: judge.average, kappa: judge.agreement.kappa }));
    return judges?.length ? { ...run, judges } : run;
  });
  return { ...comparison, runs };
}

/** Every judge that regraded one of the runs, and each run's average under it (null where it did not regrade that run). */
export function judgeAverages(comparison: Comparison): { judge: string; averages: (number | null)[] }[] {
  const names = [...new Set(comparison.runs.flatMap((run) => (run.judges ?? []).map((judge) => judge.judge)))];
  return names.map((name) => ({
    judge: name,
    averages: comparison.runs.map((run) => run.judges?.find((judge) => judge.judge === name)?.average ?? null),
  }));
}

/** The comparison with each run's true status (a state that says `running` may have been stopped). */
export function withTrueStatus(comparison: Comparison, statusOf: (index: number) => TrueStatus): Comparison {
  return { ...comparison, runs: comparison.runs.map((r, index) => ({ ...r, status: statusOf(index) })) };
}

/** Throws when the runs are not all of `benchmark`; the CLI says so before calling. `passScore` decides which traps caught a run. */
export function compareRuns(states: readonly RunState[], benchmark: Benchmark, benchmarkPath?: string, passScore?: number): Comparison {
  const other = states.find((s) => s.benchmark !== benchmark.name);
  if (other) throw new Error(`run ${other.run} is of benchmark ${other.benchmark}, not ${benchmark.name}`);
  const results = states.map((s) => checkResults(s, benchmark, benchmarkPath));
  const perRun = results.map((checks) => new Map(checks.map((c) => [c.id, c])));
  const playedIds = states.map((s) =>
    s.phases || s.filter !== undefined ? new Set(plannedChecks(s, benchmark).map((c) => c.check.id)) : undefined,
  );
  const ids = [...new Set(perRun.flatMap((m) => [...m.keys()]))];
  const rows = ids.map((id, order) => {
    const first = perRun.map((m) => m.get(id)).find((c) => c)!;
    const cells = perRun.map((m) => m.get(id)?.grade ?? null);
    const played = playedIds.map((set, i) => (set ? set.has(id) || cells[i] !== null : true));
    const graded = cells.flatMap((c) => (c ? [c.effective] : []));
    const spread = graded.length ? Math.max(...graded) - Math.min(...graded) : 0;
    const differs = spread > 0 || (graded.length > 0 && graded.length < played.filter((p) => p).length);
    const traps = benchmark.traps.flatMap((t, index) => (t.trap.targets.some((x) => x.name === id) ? [{ index, type: t.trap.type }] : []));
    return {
      order,
      row: {
        id,
        type: first.type,
        question: first.question,
        expected: first.expected,
        source: first.source,
        cells,
        played,
        spread,
        differs,
        traps,
      },
    };
  });
  rows.sort((a, b) => Number(b.row.differs) - Number(a.row.differs) || b.row.spread - a.row.spread || a.order - b.order);
  const sorted = rows.map((r) => r.row);
  const stories = states.map((s, i) => runStory(s, benchmark, results[i]!, benchmarkPath ?? `benchmarks/${benchmark.name}`, passScore));
  return {
    benchmark: benchmark.name,
    title: benchmark.title,
    runs: states.map(describeRun),
    rows: sorted,
    differing: rows.filter((r) => r.row.differs).length,
    pairs: pairsOf(sorted, states.length),
    traps: comparedTraps(sorted, stories),
  };
}

/** The trap writes that aim at a differing check, each with its result in every run's trap story. */
function comparedTraps(rows: readonly CompareRow[], stories: readonly ReturnType<typeof runStory>[]): ComparedTrap[] {
  const aimed = new Map<number, string[]>();
  for (const row of rows) if (row.differs) for (const t of row.traps) aimed.set(t.index, [...(aimed.get(t.index) ?? []), row.id]);
  return [...aimed]
    .sort((a, b) => a[0] - b[0])
    .flatMap(([index, checks]) => {
      const story = stories[0]?.traps[index];
      return story
        ? [{ index, type: story.type, write: story.write, checks, results: stories.map((s) => s.traps[index]?.result ?? 'not graded') }]
        : [];
    });
}

/** For each pair of runs, the checks both graded and those graded differently (by effective grade, as the rows). */
function pairsOf(rows: readonly CompareRow[], runs: number): Comparison['pairs'] {
  const pairs: Comparison['pairs'] = [];
  for (let a = 0; a < runs; a++) {
    for (let b = a + 1; b < runs; b++) {
      const both = rows.flatMap((r) => (r.cells[a] && r.cells[b] ? [[r.cells[a]!, r.cells[b]!] as const] : []));
      pairs.push({ a, b, compared: both.length, differing: both.filter(([x, y]) => x.effective !== y.effective).length });
    }
  }
  return pairs;
}

/** A short text table for the terminal: differing checks first, one column per run. */
export function comparisonText(comparison: Comparison): string {
  const width = Math.max(8, ...comparison.runs.map((r) => r.run.length + 2));
  const cell = (g: CompareRow['cells'][number]) => (g ? `${fmt(g.effective)}${g.attempt === 2 ? '*' : ''}` : '—');
  const lines = [
    `${'check'.padEnd(8)}${comparison.runs.map((r) => r.run.padEnd(width)).join('')}`,
    `${'average'.padEnd(8)}${comparison.runs.map((r) => (r.average === null ? '—' : r.average.toFixed(2)).padEnd(width)).join('')}`,
    ...judgeAverages(comparison).map(
      (row) =>
        `${'judge'.padEnd(8)}${row.averages.map((a) => (a === null ? '—' : a.toFixed(2)).padEnd(width)).join('')}${oneLine(row.judge, 60)}`,
    ),
    ...comparison.rows
      .filter((r) => r.differs)
      .map((r) => `${r.id.padEnd(8)}${r.cells.map((g) => cell(g).padEnd(width)).join('')}${r.question.slice(0, 60)}`),
  ];
  const same = comparison.rows.length - comparison.differing;
  lines.push(
    `${comparison.differing} of ${comparison.rows.length} checks differ${same ? `; ${same} graded the same` : ''} (* = 2nd attempt)`,
  );
  if (comparison.runs.length > 2)
    lines.push(...comparison.pairs.map((p) => `${comparison.runs[p.a]!.run} vs ${comparison.runs[p.b]!.run}: ${pairText(p)}`));
  const partial = comparison.runs.filter((r) => r.partial).map((r) => r.run);
  if (partial.length) lines.push(`partial runs (checks they did not play are not counted as differences): ${partial.join(', ')}`);
  return `${lines.map((l) => l.trimEnd()).join('\n')}\n`;
}

/** `identical on 10 checks`, or `3 of 10 checks differ`. */
export function pairText(pair: Comparison['pairs'][number]): string {
  if (!pair.compared) return 'no check graded by both';
  return pair.differing ? `${pair.differing} of ${pair.compared} checks differ` : `identical on ${pair.compared} checks`;
}

function fmt(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}
