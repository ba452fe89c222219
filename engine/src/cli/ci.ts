/**
 * The outputs for CI of `mmb run` and `mmb report`: `--junit <file>` (a JUnit XML document, one
 * case per check, failing below `--pass-score`), `--fail-under <score>` (exit 1 when a run's
 * average is below it) and, for `mmb report`, `--json` (every run's summary as one JSON document
 * on stdout, nothing else there).
 */
import { writeWholeFile } from '../diskFull';
import { hostname } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { Benchmark } from '../../../scenario/src';
import { RunDamaged, UsageError } from '../errors';
import { damagedLine } from '../runFile';
import { junitDocument, type JunitRun } from '../report/junit';
import { summarize, type Summary } from '../report/summary';
import { DEFAULT_PASS_SCORE } from '../protocol/scores';
import { resultsDir, runDir } from '../protocol/layout';
import { runRegrades, type RegradeView } from '../report/regradeView';
import type { RunState } from '../state/runState';
import type { RunOutcome } from '../workspace/launch';
import { loadValidBenchmark } from '../workspace/launch';
import { knownRuns, loadRun, shown, trueStatus, type ReportWorkspace } from '../workspace/results';
import { runBenchmarkReader } from '../workspace/reportBenchmark';

/** What the command line asked for CI; every field is optional, and none means none of it. */
export interface CiOutputs {
  /** The JUnit file, resolved against the working folder. */
  junit?: string;
  passScore?: number;
  failUnder?: number;
  /** `mmb report` only. */
  json?: boolean;
}

export const CI_OPTION_NAMES = { json: '--json', junit: '--junit', passScore: '--pass-score', failUnder: '--fail-under' } as const;

/** The CI options of a command line, checked; undefined when there are none. */
export function ciOutputsOf(flags: readonly string[], option: (name: string) => string | undefined, cwd: string): CiOutputs | undefined {
  const junit = option(CI_OPTION_NAMES.junit);
  const passScore = scoreOption(CI_OPTION_NAMES.passScore, option(CI_OPTION_NAMES.passScore), '8');
  const failUnder = scoreOption(CI_OPTION_NAMES.failUnder, option(CI_OPTION_NAMES.failUnder), '7.5');
  const json = flags.includes(CI_OPTION_NAMES.json);
  if (passScore !== undefined && junit === undefined)
    throw new UsageError('--pass-score goes with --junit: it decides which checks fail there.');
  if (junit === undefined && failUnder === undefined && !json) return undefined;
  return {
    ...(junit !== undefined ? { junit: resolve(cwd, junit) } : {}),
    ...(passScore !== undefined ? { passScore } : {}),
    ...(failUnder !== undefined ? { failUnder } : {}),
    ...(json ? { json } : {}),
  };
}

/** A score given on the command line: a number from 0 to 10. */
function scoreOption(name: string, value: string | undefined, example: string): number | undefined {
  if (value === undefined) return undefined;
  const score = Number(value);
  if (value.trim() === '' || !Number.isFinite(score) || score < 0 || score > 10)
    throw new UsageError(`${name} needs a score from 0 to 10, as in ${name} ${example} (got "${value.slice(0, 40)}").`);
  return score;
}

/** `mmb report [ids…]` with `--json`, `--junit` or `--fail-under`: the runs named, or every run in results/. */
export function ciReportCommand(
  ids: string[],
  ws: ReportWorkspace,
  ci: CiOutputs,
  io: { out: (s: string) => void; err: (s: string) => void },
  textReport: () => number,
): number {
  const chosen = ids.length ? ids : knownRuns(ws.root);
  if (chosen.length === 0 && ci.failUnder !== undefined)
    throw new UsageError(`no runs in ${shown(resultsDir(ws.root))} to hold to --fail-under: start some with \`mmb run\`.`);
  // Summaries fresh from each state, as `mmb report <id>` shows them: also for runs that have not finished yet.
  const benchmarkOf = runBenchmarkReader(ws);
  const played: (Extract<JunitRun, { kind: 'played' }> & { id: string; benchmarkNote?: string })[] = [];
  const damaged: RunDamaged[] = [];
  for (const id of chosen) {
    let state: RunState;
    try {
      state = loadRun(ws.root, id);
    } catch (e) {
      // One damaged run harms only itself: it is listed apart, the others as ever.
      if (!(e instanceof RunDamaged)) throw e;
      damaged.push(e);
      continue;
    }
    // Many runs of one benchmark read it once; each run's kept copy first.
    const { benchmark, note } = benchmarkOf(id, state);
    played.push({ kind: 'played', state, benchmark, id, ...(note ? { benchmarkNote: note } : {}) });
  }
  // A state that says `running` with no live engine was stopped: the JSON says so, as `mmb report` does.
  const summaries = played.map((run) => summarize(run.state, run.benchmark, trueStatus(ws.root, run.id, run.state)));
  if (ci.json) io.out(`${JSON.stringify({ runs: jsonRuns(summaries, played, ws), damaged: damaged.map(damagedEntry) }, null, 2)}\n`);
  else textReport();
  // The text report said each damaged run already.
  if (ci.json) for (const e of damaged) io.err(`mmb: ${damagedLine(e)}\n`);
  // With --json, stdout holds the document alone: the file's line goes to stderr.
  if (ci.junit) writeJunit(ci, [...played, ...damaged.map(damagedJunitRun)], ci.json ? io.err : io.out);
  return missedThreshold(ci, summaries, io.err) ? 1 : 0;
}

/**
 * Each summary as `--json` gives it: with the line the text report shows above it when the run's benchmark is not read
 * as it is now (`benchmarkNote`: changed since the run, gone, a damaged copy; `loadRunBenchmark`), and its regrades
 * (`mmb regrade`), for the runs that have them.
 */
function jsonRuns(
  summaries: readonly Summary[],
  played: readonly { id: string; state: RunState; benchmark: Benchmark; benchmarkNote?: string }[],
  ws: ReportWorkspace,
): (Summary & { benchmarkNote?: string; regrades?: RegradeView })[] {
  return summaries.map((summary, index) => {
    const run = played[index]!;
    const regrades = runRegrades(runDir(ws.root, run.id), run.state, run.benchmark);
    return { ...summary, ...(run.benchmarkNote ? { benchmarkNote: run.benchmarkNote } : {}), ...(regrades ? { regrades } : {}) };
  });
}

/** A damaged run in `--json`'s `damaged` list: its id, the file and what is wrong with it. */
function damagedEntry(damaged: RunDamaged): { run: string; file: string; what: string } {
  return { run: basename(dirname(damaged.path)), file: damaged.file, what: damaged.what };
}

function damagedJunitRun(damaged: RunDamaged): JunitRun {
  return { kind: 'damaged', run: basename(dirname(damaged.path)), benchmark: '', problem: damaged.message };
}

/** After `mmb run`: the JUnit file of the runs it ran, and the exit status with `--fail-under` applied. */
export function finishRunForCi(
  code: number,
  outcomes: readonly RunOutcome[],
  runs: readonly { name: string; benchmark: string }[],
  benchmarksDir: string,
  ci: CiOutputs,
  io: { out: (s: string) => void; err: (s: string) => void },
): number {
  if (ci.junit) {
    const reported = outcomes.map((outcome, i): JunitRun => {
      const benchmark = runs[i]?.benchmark ?? '';
      if (!outcome.state)
        return {
          kind: outcome.stopped ? 'stopped' : 'not-started',
          run: outcome.run,
          benchmark,
          problem: outcome.problem ?? 'did not run',
        };
      const dir = join(benchmarksDir, outcome.state.benchmark);
      return { kind: 'played', state: outcome.state, benchmark: loadValidBenchmark(dir, relative(process.cwd(), dir) || dir) };
    });
    writeJunit(ci, reported, io.out);
  }
  const summaries = outcomes.flatMap((o) => (o.summary ? [o.summary] : []));
  // A crash, a stop or a full disk says more than a missed threshold: their status stays.
  return missedThreshold(ci, summaries, io.err) && code === 0 ? 1 : code;
}

function writeJunit(ci: CiOutputs, runs: readonly JunitRun[], say: (s: string) => void): void {
  const file = ci.junit!;
  writeWholeFile(file, junitDocument(runs, { passScore: ci.passScore ?? DEFAULT_PASS_SCORE, hostname: hostname() }));
  say(`Wrote ${shown(file)}\n`);
}

/** Whether a run's average is below `--fail-under`, each one said on stderr; a run with no grade misses it. */
function missedThreshold(ci: CiOutputs, summaries: readonly Summary[], err: (s: string) => void): boolean {
  const threshold = ci.failUnder;
  if (threshold === undefined) return false;
  const missed = summaries.filter((s) => s.average === null || s.average < threshold);
  for (const s of missed)
    err(`mmb: ${s.run} ${s.average === null ? 'has no grade' : `averages ${s.average.toFixed(2)}/10`}, below --fail-under ${threshold}\n`);
  return missed.length > 0;
}
