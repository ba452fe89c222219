/**
 * The one way every report reads the benchmark a run played (`mmb report`, its `--html`,
 * `--compare`, `--trends`, `--json`, `mmb regrade`, `mmb view`): the copy kept with the run when it
 * reads back whole, else the benchmark folder, else the run's state alone. It never refuses: what
 * differs from the plain case is one line (`note`) the report shows.
 */
import { relative } from 'node:path';
import { loadBenchmark, validateBenchmark, type Benchmark } from '../../../scenario/src';
import { keptBenchmarkDir, runDir } from '../protocol/layout';
import type { RunState } from '../state/runState';
import { isBenchmarkFolder, readBenchmarkFolder } from './folders';
import { benchmarkDigest, readKeptBenchmark, type KeptRead } from './keptBenchmark';
import { posix, runBenchmarkFolder, type ReportWorkspace } from './results';
import { stateBenchmark } from './stateBenchmark';

/** The benchmark of a run's report, where it came from, and the one line a report shows when it is not the plain case. */
export interface RunBenchmark {
  benchmark: Benchmark;
  /** The folder its source links point to, relative to the workspace: `benchmarks/<name>` or `results/<run>/benchmark`. */
  path: string;
  /** `kept`: the copy kept with the run; `live`: the benchmark folder; `state`: made from the run's state alone. */
  source: 'kept' | 'live' | 'state';
  note?: string;
}

/** Reads the benchmark of a run (`id`, `state`), each folder and each kept copy parsed once per reader. */
export type RunBenchmarkReader = (id: string, state: RunState) => RunBenchmark;

/** The benchmark folder as it is now: its files and their digest, or why there is none to read. */
type LiveRead = { path: string; files: ReadonlyMap<string, string>; digest: string } | { problem: string };

/** `loadRunBenchmark` for a report of many runs: the folders and copies they share are read and parsed once. */
export function runBenchmarkReader(ws: ReportWorkspace): RunBenchmarkReader {
  const live = new Map<string, LiveRead>();
  const valid = new Map<string, Benchmark | undefined>();
  const parsed = new Map<string, Benchmark>();
  const liveOf = (name: string): LiveRead => {
    if (!live.has(name)) live.set(name, readLive(ws, name));
    return live.get(name)!;
  };
  // The folder as a valid benchmark, as reports read it before copies were kept: errors make it unusable.
  const validOf = (name: string, read: Extract<LiveRead, { files: unknown }>): Benchmark | undefined => {
    if (!valid.has(name)) {
      const benchmark = loadBenchmark({ name, files: read.files });
      valid.set(name, validateBenchmark(benchmark).some((d) => d.severity === 'error') ? undefined : benchmark);
    }
    return valid.get(name);
  };
  // A copy whose digest was read and parsed for another run is checked by size only (`readKeptBenchmark`'s `known`).
  const parsedOf = (name: string, kept: Extract<KeptRead, { digest: string }>): Benchmark => {
    if (kept.kind === 'kept' && !parsed.has(kept.digest)) parsed.set(kept.digest, loadBenchmark({ name, files: kept.files }));
    return parsed.get(kept.digest)!;
  };
  return (id, state) => {
    const name = String(state.benchmark);
    const read = liveOf(name);
    const kept = readKeptBenchmark(runDir(ws.root, id), (digest) => parsed.has(digest));
    const keptPath = posix(relative(ws.root, keptBenchmarkDir(runDir(ws.root, id))));
    const copy = `the copy kept with the run (${keptPath}/)`;
    if (kept.kind === 'kept' || kept.kind === 'known') {
      const benchmark = parsedOf(name, kept);
      if ('files' in read && read.digest === kept.digest) return { benchmark, path: read.path, source: 'kept' };
      const why = 'files' in read ? 'the benchmark has changed since this run' : read.problem;
      return { benchmark, path: keptPath, source: 'kept', note: `${why}; the report uses ${copy}` };
    }
    const folder = 'files' in read ? validOf(name, read) : undefined;
    if (kept.kind === 'damaged') {
      if (folder && 'files' in read && kept.manifest?.digest === read.digest)
        return {
          benchmark: folder,
          path: read.path,
          source: 'live',
          note: `${kept.problem}; the report reads ${read.path}/, unchanged since`,
        };
      return fromState(state, `${kept.problem}`);
    }
    if (folder && 'files' in read) return { benchmark: folder, path: read.path, source: 'live' };
    const why = 'files' in read ? `${read.path} has errors now (mmb check ${read.path})` : read.problem;
    return fromState(state, `${why} and no copy was kept with this run`);
  };
}

/** The benchmark of one run's report: the copy kept with it, else its folder, else its state alone; never refuses. */
export function loadRunBenchmark(ws: ReportWorkspace, id: string, state: RunState): RunBenchmark {
  return runBenchmarkReader(ws)(id, state);
}

/** A report from the state alone: the checks it graded, placed where they were graded, with the line saying what is unknown. */
function fromState(state: RunState, why: string): RunBenchmark {
  const benchmark = stateBenchmark(state);
  const graded = benchmark.checks.length;
  const what = `the ${graded} check${graded === 1 ? '' : 's'} it graded, without their questions; how many checks it had is unknown`;
  return {
    benchmark,
    path: `benchmarks/${benchmark.name}`,
    source: 'state',
    note: `${why}: the report shows what the run's state holds (${what})`,
  };
}

function readLive(ws: ReportWorkspace, name: string): LiveRead {
  let dir: string;
  try {
    dir = runBenchmarkFolder(ws, name);
  } catch (e) {
    return { problem: (e as Error).message.replace(/\.$/, '') };
  }
  // Paths as the workspace names them, like the kept copy's `results/<run>/benchmark/`.
  const path = posix(relative(ws.root, dir)) || '.';
  if (!isBenchmarkFolder(dir)) return { problem: `the benchmark is gone (${path} has no benchmark.json)` };
  try {
    const files = readBenchmarkFolder(dir, path).files;
    return { path, files, digest: benchmarkDigest(files) };
  } catch (e) {
    return { problem: `the benchmark cannot be read (${(e as Error).message.replace(/\.$/, '')})` };
  }
}

/**
 * The benchmarks trends group runs on, by name: the copy kept with the newest run of that name
 * (or its folder), else what the newest run's state holds; the folder is no longer needed.
 */
export function trendsBenchmarks(
  ws: ReportWorkspace,
  runs: readonly { id: string; state: RunState }[],
): (name: string) => { benchmark: Benchmark; path: string } | undefined {
  const benchmarkOf = runBenchmarkReader(ws);
  const chosen = new Map<string, RunBenchmark | undefined>();
  return (name) => {
    if (!chosen.has(name)) {
      const newestFirst = runs
        .filter((run) => run.state.benchmark === name)
        .sort((a, b) => (a.state.startedAt < b.state.startedAt ? 1 : -1));
      let found: RunBenchmark | undefined;
      for (const run of newestFirst) {
        const read = benchmarkOf(run.id, run.state);
        found ??= read;
        if (read.source !== 'state') {
          found = read;
          break;
        }
      }
      chosen.set(name, found);
    }
    return chosen.get(name);
  };
}
