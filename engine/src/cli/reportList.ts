/**
 * `mmb report` as text: every run of results/ with its true status (a run whose state says
 * `running` but whose engine is gone was stopped), in columns cut to the terminal's width, the
 * repeats of a run summed up below them; `mmb report <id>…`: each run's full entry.
 */
import { RunDamaged } from '../errors';
import { damagedLine } from '../runFile';
import { reportEntry } from '../report/markdown';
import { describeRun } from '../report/compare';
import { summarize } from '../report/summary';
import { datasetAccuracy, datasetAccuracyLines, datasetRunFigures } from '../report/datasetAccuracy';
import { DEFAULT_PASS_SCORE } from '../protocol/scores';
import { stats } from '../report/trends';
import { repeatOf } from '../protocol/runRequest';
import { resultsDir, runDir } from '../protocol/layout';
import { runRegrades } from '../report/regradeView';
import { regradeMarkdown } from '../report/regradeText';
import type { RunState } from '../state/runState';
import { isPartialState } from '../state/partialRule';
import { knownRuns, loadRun, shown, trueStatus, type ReportWorkspace } from '../workspace/results';
import { runBenchmarkReader } from '../workspace/reportBenchmark';
import { cutToWidth, printable, textWidth } from './textWidth';
import type { Io } from './run';
import { shorten } from '../../../scenario/src/plainText';

interface Column {
  head: string;
  /** Flexible columns give up width, down to `min`, when the row is wider than the terminal. */
  min?: number;
}

const COLUMNS: readonly Column[] = [
  { head: 'run', min: 12 },
  { head: 'benchmark', min: 9 },
  { head: 'agent', min: 7 },
  { head: 'status' },
  { head: 'average' },
  { head: 'coverage' },
  { head: 'scope' },
];
const GAP = 2;

/** `mmb report`: every run's figures; `mmb report <id>`: one run's entry, fresh from its state. */
export function reportCommand(ids: string[], ws: ReportWorkspace, io: Io): number {
  if (ids.length === 0) return listRuns(ws, io);
  const benchmarkOf = runBenchmarkReader(ws);
  for (const id of ids) {
    const state = loadRun(ws.root, id);
    const { benchmark, note } = benchmarkOf(id, state);
    if (note) io.out(`${printable(`Note: ${note}.`)}\n\n`);
    // An imported benchmark's entry holds its dataset's metric (docs/datasets.md).
    io.out(reportEntry(summarize(state, benchmark, trueStatus(ws.root, id, state)), new Date(state.finishedAt ?? state.lastEventAt)));
    const regrades = runRegrades(runDir(ws.root, id), state, benchmark);
    for (const problem of regrades?.problems ?? []) io.err(`mmb: ${problem}\n`);
    if (regrades) io.out(`\n${regradeMarkdown(regrades)}\n`);
  }
  return 0;
}

interface Listed {
  id: string;
  /** Absent for a run whose state cannot be read: it is listed as damaged, and said on stderr. */
  state?: RunState;
  status: string;
  average: number | null;
}

function listRuns(ws: ReportWorkspace, io: Io): number {
  const ids = knownRuns(ws.root);
  if (ids.length === 0) {
    io.out(`No results yet in ${shown(resultsDir(ws.root))}. Start a run with \`mmb run\`, or try \`mmb demo\`.\n`);
    return 0;
  }
  const benchmarkOf = runBenchmarkReader(ws);
  const unknownTotals: string[] = [];
  const listed: Listed[] = ids.map((id) => {
    try {
      const state = loadRun(ws.root, id);
      return { id, state, status: trueStatus(ws.root, id, state), average: describeRun(state).average };
    } catch (e) {
      // One damaged run does not hide the others: it is listed, and its problem said once.
      io.err(`mmb: ${e instanceof RunDamaged ? damagedLine(e) : (e as Error).message.split('\n')[0]}\n`);
      return { id, status: 'damaged', average: null };
    }
  });
  const rows = listed.map(({ id, state, status, average }) => {
    if (!state) return [id, '—', '—', status, '—', '—', ''].map((cell) => printable(cell));
    const read = benchmarkOf(id, state);
    // A benchmark gone, with no copy kept with the run: how many checks it had is unknown, and the table says so below.
    const coverage = read.source === 'state' ? undefined : summarize(state, read.benchmark).coverage;
    if (!coverage) unknownTotals.push(id);
    const graded = Object.values(state.grades).filter((grades) => grades.length).length;
    const scope = state.filter !== undefined ? 'filter' : isPartialState(state) ? 'partial' : '';
    return [
      id,
      state.benchmark,
      state.agent,
      status,
      average === null ? '—' : average.toFixed(2),
      coverage ? `${coverage.graded}/${coverage.planned}` : `${graded}/?`,
      scope,
    ].map((cell) => printable(cell));
  });
  const width = terminalWidth(io);
  const columns = listed.some(({ state }) => state?.phases) ? COLUMNS : COLUMNS.slice(0, -1);
  const widths = columnWidths(
    columns,
    rows.map((row) => row.slice(0, columns.length)),
    width,
  );
  const line = (cells: readonly string[]) =>
    cells
      .slice(0, columns.length)
      .map((cell, i) => padded(cutToWidth(cell, widths[i]!), widths[i]!))
      .join(' '.repeat(GAP))
      .trimEnd();
  io.out(`${[line(columns.map((c) => c.head)), ...rows.map(line)].join('\n')}\n`);
  if (unknownTotals.length) io.out(`\n${printable(unknownTotalLine(unknownTotals))}\n`);
  const repeats = repeatLines(listed);
  if (repeats.length) io.out(`\n${repeats.map((text) => (width ? cutToWidth(text, width) : text)).join('\n')}\n`);
  const finished = listed.flatMap(({ id, state, status }) =>
    state && status === 'finished' ? [datasetRunFigures(state, benchmarkOf(id, state).benchmark.title)] : [],
  );
  const datasets = datasetAccuracyLines(datasetAccuracy(finished, DEFAULT_PASS_SCORE), DEFAULT_PASS_SCORE);
  if (datasets.length) io.out(`\n${datasets.map((text) => printable(text)).join('\n')}\n`);
  const crashes = crashLines(listed);
  if (crashes.length) io.out(`\n${crashes.map((text) => (width ? cutToWidth(text, width) : text)).join('\n')}\n`);
  return 0;
}

/** What the `?` of a coverage `36/?` is: the runs whose benchmark is gone, with no copy kept, by name (the first few). */
function unknownTotalLine(ids: readonly string[]): string {
  const named = ids.length > 3 ? `${ids.slice(0, 3).join(', ')} and ${ids.length - 3} more` : ids.join(', ');
  return (
    `coverage ?: the number of checks is unknown for ${named}: the benchmark is gone (or broken) and no copy was kept with ` +
    'the run (runs kept none before this version); `mmb report <run>` shows what its state holds.'
  );
}

/** The longest reason shown for a crashed run in the list: `mmb report <id>` shows it whole. */
const MAX_CRASH_CHARS = 300;

/** One line per crashed run: why it crashed (an agent that could not start, a model gone). */
function crashLines(listed: readonly Listed[]): string[] {
  return listed.flatMap(({ id, state, status }) => {
    if (status !== 'crashed' || !state?.error) return [];
    const reason = state.error.replace(/\s+/g, ' ').trim();
    return [printable(`${id} crashed: ${shorten(reason, MAX_CRASH_CHARS)}`)];
  });
}

/** The width to fit: the terminal's, or `COLUMNS` off a terminal; undefined: no limit (a pipe gets whole ids). */
function terminalWidth(io: Io): number | undefined {
  const fromEnv = Number(io.env.COLUMNS);
  const width = io.columns ?? (Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : undefined);
  return width === undefined ? undefined : Math.max(40, width);
}

/** Each column as wide as its widest cell; past `width`, the widest flexible column gives a column at a time. */
export function columnWidths(columns: readonly Column[], rows: readonly string[][], width: number | undefined): number[] {
  const widths = columns.map((column, i) => Math.max(textWidth(column.head), ...rows.map((row) => textWidth(row[i] ?? ''))));
  if (width === undefined) return widths;
  const total = () => widths.reduce((sum, w) => sum + w, 0) + GAP * (widths.length - 1);
  while (total() > width) {
    let widest = -1;
    columns.forEach((column, i) => {
      if (column.min !== undefined && widths[i]! > column.min && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
    });
    if (widest < 0) break;
    widths[widest]! -= 1;
  }
  return widths;
}

function padded(text: string, width: number): string {
  return `${text}${' '.repeat(Math.max(0, width - textWidth(text)))}`;
}

/** One line per run that has repeats: how many, how they stand, the mean and range of the finished ones' averages. */
function repeatLines(listed: readonly Listed[]): string[] {
  const groups = new Map<string, Listed[]>();
  for (const run of listed) {
    const repeat = repeatOf(run.id);
    if (repeat) groups.set(repeat.base, [...(groups.get(repeat.base) ?? []), run]);
  }
  return [...groups].map(([base, runs]) => {
    const counts = new Map<string, number>();
    for (const run of runs) counts.set(run.status, (counts.get(run.status) ?? 0) + 1);
    const finished = stats(runs.flatMap((run) => (run.status === 'finished' && run.average !== null ? [run.average] : [])));
    const spread = finished ? `, mean ${finished.mean.toFixed(2)} (${finished.min.toFixed(2)}–${finished.max.toFixed(2)})` : '';
    return printable(`repeats of ${base}: ${runs.length} (${[...counts].map(([status, n]) => `${n} ${status}`).join(', ')})${spread}`);
  });
}
