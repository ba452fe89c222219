/** `mmb report <id> --html`, `mmb report --compare a b …`, `mmb report --trends`: the HTML views written to results/. */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { writeWholeFile } from '../diskFull';
import { dirname, join, relative, resolve } from 'node:path';
import { compareRuns, comparisonText, withRegrades, withTrueStatus } from '../report/compare';
import type { Price } from '../report/cost';
import { renderComparison } from '../report/html/comparePage';
import { renderRunReport } from '../report/html/runPage';
import { renderTrends } from '../report/html/trendsPage';
import { computeTrends, DEFAULT_FLAKY_THRESHOLD, trendsText } from '../report/trends';
import { readMemorySnapshots } from '../report/memory';
import { runView } from '../report/runView';
import { runRegrades } from '../report/regradeView';
import { RunDamaged, UsageError } from '../errors';
import { damagedLine } from '../runFile';
import type { RunState } from '../state/runState';
import { REPORT_HTML_FILE, resultsDir, runDir } from '../protocol/layout';
import { knownRuns, loadRun, posix, shown, trueStatus, type ReportWorkspace } from '../workspace/results';
import { wroteLine } from './wroteLine';
import { runBenchmarkReader, trendsBenchmarks, type RunBenchmark } from '../workspace/reportBenchmark';
import { oneLine } from '../runFile';
import { loadConfig, type Io } from './run';
import { reportCommand } from './reportList';
import { mergeCommand } from './reportMerge';
import { ciOutputsOf, ciReportCommand } from './ci';
import { maskSecrets } from '../secrets';
import { registerWorkspaceSecrets } from '../workspaceSecrets';

/** The longest note line printed about a run's benchmark: it names paths, which may be long. */
const MAX_NOTE_CHARS = 600;

/** Bytes of a file name that every common file system takes (255), with room to spare. */
const MAX_FILE_NAME = 240;

/** `mmb report` with its flags: the text report, or one of the HTML views. */
export function reportViews(
  words: string[],
  flags: string[],
  option: (name: string) => string | undefined,
  ws: ReportWorkspace,
  io: Io,
): number {
  // The reports hold text agents wrote (their memory snapshots): masked with every key of this process and of config.jsonc.
  registerWorkspaceSecrets(ws.configPath, io.env);
  const out = option('--out');
  const views = ['--html', '--compare', '--trends'].filter((f) => flags.includes(f));
  if (views.length > 1) throw new UsageError(`${views.join(' and ')} do not go together: pick one view.`);
  if (flags.includes('--flaky') && !flags.includes('--trends')) throw new UsageError('--flaky goes with --trends.');
  // Paths on the command line are the user's, from where they stand, like --out's.
  const ci = ciOutputsOf(flags, option, process.cwd());
  if (flags.includes('--merge')) {
    if (views.length || out !== undefined)
      throw new UsageError(
        '--merge reports as text (with --json, --junit, --fail-under if asked): run --html, --compare or --trends after it.',
      );
    return mergeCommand(words, ws, ci, io);
  }
  if (ci && views.length) throw new UsageError(`--json, --junit and --fail-under go with the text report, not with ${views[0]}.`);
  if (ci) {
    if (out !== undefined) throw new UsageError('--out goes with --html, --compare or --trends.');
    return ciReportCommand(words, ws, ci, io, () => reportCommand(words, ws, io));
  }
  if (flags.includes('--compare')) return compareCommand(words, ws, out, io);
  if (flags.includes('--trends')) {
    const flaky = option('--flaky');
    const threshold = flaky === undefined ? undefined : Number(flaky);
    if (threshold !== undefined && !(threshold > 0 && threshold <= 10))
      throw new UsageError('--flaky needs a number of grade points above 0 and up to 10, e.g. --flaky 3');
    return trendsCommand(words, ws, threshold, out, io);
  }
  if (flags.includes('--html')) return htmlReportCommand(words, ws, out, io);
  if (out !== undefined) throw new UsageError('--out goes with --html, --compare or --trends.');
  return reportCommand(words, ws, io);
}

function prices(ws: ReportWorkspace): Record<string, Price> {
  return existsSync(ws.configPath) ? loadConfig(ws.configPath).prices : {};
}

function write(ws: ReportWorkspace, file: string, html: (linkBase: string) => string, io: Io): void {
  writeWholeFile(file, maskSecrets(html(posix(relative(dirname(file), ws.root)) || '.')));
  io.out(`${wroteLine(file, shown(file))}\n`);
}

export function htmlReportCommand(ids: string[], ws: ReportWorkspace, out: string | undefined, io: Io): number {
  if (ids.length === 0)
    throw new UsageError(`--html needs a run: mmb report <run-id> --html; the runs: ${knownRuns(ws.root).join(', ') || 'none'}.`);
  if (out && ids.length > 1) throw new UsageError('--out names one file: give one run with it.');
  const benchmarkOf = runBenchmarkReader(ws);
  for (const id of ids) {
    const state = loadRun(ws.root, id);
    const { benchmark, path, note } = benchmarkOf(id, state);
    if (note) io.out(`${oneLine(`Note: ${note}.`, MAX_NOTE_CHARS)}\n`);
    const view = runView(state, benchmark, {
      benchmarkPath: path,
      ...(note ? { benchmarkNote: note } : {}),
      prices: prices(ws),
      memory: readMemorySnapshots(runDir(ws.root, id)),
      status: trueStatus(ws.root, id, state),
      regrades: runRegrades(runDir(ws.root, id), state, benchmark),
    });
    for (const problem of view.regrades?.problems ?? []) io.err(`mmb: ${problem}\n`);
    write(ws, out ? resolve(out) : join(resultsDir(ws.root), id, REPORT_HTML_FILE), (linkBase) => renderRunReport(view, { linkBase }), io);
  }
  return 0;
}

export function compareCommand(ids: string[], ws: ReportWorkspace, out: string | undefined, io: Io): number {
  if (ids.length < 2)
    throw new UsageError(
      `--compare needs two runs or more: mmb report --compare <run-a> <run-b> …; the runs: ${knownRuns(ws.root).join(', ') || 'none'}.`,
    );
  const readable = readableRuns(ws, ids, io);
  if (readable.length < 2)
    throw new UsageError(
      `--compare needs two runs or more that can be read; ${readable.length ? `only ${readable[0]!.id} can` : 'none can'}.`,
    );
  const states = readable.map((run) => run.state);
  const benchmarks = [...new Set(states.map((s) => s.benchmark))];
  if (benchmarks.length > 1) {
    const each = states.map((state) => `${state.run}: ${state.benchmark}`).join(', ');
    throw new UsageError(`runs of different benchmarks cannot be compared check by check (${each}): compare runs of one benchmark.`);
  }
  const { benchmark, path } = comparedBenchmark(ws, readable, io);
  const statuses = withTrueStatus(compareRuns(states, benchmark, path), (index) =>
    trueStatus(ws.root, readable[index]!.id, states[index]!),
  );
  const comparison = withRegrades(statuses, (index) => runRegrades(runDir(ws.root, readable[index]!.id), states[index]!, benchmark));
  io.out(comparisonText(comparison));
  write(
    ws,
    out ? resolve(out) : join(resultsDir(ws.root), comparisonFile(ids)),
    (linkBase) => renderComparison(comparison, { linkBase }),
    io,
  );
  return 0;
}

/**
 * The benchmark runs are compared on: that of the first run (`loadRunBenchmark`), its note said; a
 * run that played another version of it (its kept copy differs) is named in one line.
 */
function comparedBenchmark(ws: ReportWorkspace, runs: readonly { id: string; state: RunState }[], io: Io): RunBenchmark {
  const benchmarkOf = runBenchmarkReader(ws);
  const first = benchmarkOf(runs[0]!.id, runs[0]!.state);
  if (first.note) io.out(`${oneLine(`Note: ${runs[0]!.id}: ${first.note}.`, MAX_NOTE_CHARS)}\n`);
  const others = runs.slice(1).filter((run) => benchmarkOf(run.id, run.state).benchmark !== first.benchmark);
  if (others.length && first.source !== 'state')
    io.out(
      `${oneLine(
        `Note: ${others.map((run) => run.id).join(', ')} played another version of the benchmark; ` +
          `the comparison shows the checks as ${runs[0]!.id} played them.`,
        MAX_NOTE_CHARS,
      )}\n`,
    );
  return first;
}

/** The runs of `ids` that can be read, in order; each damaged one is said on stderr and left out. */
function readableRuns(ws: ReportWorkspace, ids: readonly string[], io: Io): { id: string; state: RunState }[] {
  return ids.flatMap((id) => {
    try {
      return [{ id, state: loadRun(ws.root, id) }];
    } catch (e) {
      if (!(e instanceof RunDamaged)) throw e;
      io.err(`mmb: ${damagedLine(e)} It is left out.\n`);
      return [];
    }
  });
}

/** `compare-<a>-vs-<b>.html`, or a digest of the ids when that would be longer than a file system allows. */
function comparisonFile(ids: string[]): string {
  const plain = `compare-${ids.join('-vs-')}.html`;
  return plain.length <= MAX_FILE_NAME
    ? plain
    : `compare-${ids[0]}-vs-${ids.length - 1}-more-${createHash('sha256').update(ids.join('\n')).digest('hex').slice(0, 12)}.html`;
}

export function trendsCommand(ids: string[], ws: ReportWorkspace, threshold: number | undefined, out: string | undefined, io: Io): number {
  const chosen = ids.length ? ids : knownRuns(ws.root);
  if (chosen.length === 0) throw new UsageError(`no runs in ${shown(resultsDir(ws.root))} yet: start some with \`mmb run\`.`);
  const runs = readableRuns(ws, chosen, io);
  const states = runs.map((run) => run.state);
  if (states.length === 0)
    throw new UsageError(`no run of ${chosen.length === 1 ? chosen[0] : 'these'} can be read: there are no trends to show.`);
  const trends = computeTrends(states, trendsBenchmarks(ws, runs), threshold ?? DEFAULT_FLAKY_THRESHOLD);
  io.out(trendsText(trends));
  write(ws, out ? resolve(out) : join(resultsDir(ws.root), 'trends.html'), (linkBase) => renderTrends(trends, { linkBase }), io);
  return 0;
}
