/** Reading saved runs from results/ and the benchmarks they played, for the reports. */
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { didYouMean, nearNames, type Benchmark } from '../../../scenario/src';
import type { RunState } from '../state/runState';
import { FileRunStore } from '../run/store';
import { UsageError } from '../errors';
import { resultsDir } from '../protocol/layout';
import { BENCHMARKS_DIR, isBenchmarkFolder } from './folders';
import { loadValidBenchmark } from './launch';

export interface ReportWorkspace {
  /** The folder of config.jsonc: results/ and benchmarks/ are here. */
  root: string;
  configPath: string;
  /** The bundled benchmarks, for runs of `mmb demo`. */
  bundled: string;
}

/** The run ids that have a saved state in results/. */
export function knownRuns(root: string): string[] {
  const dir = resultsDir(root);
  return existsSync(dir) ? readdirSync(dir).filter((name) => FileRunStore.exists(join(dir, name))).sort() : [];
}

/** A run's state; an unknown id is a usage error that lists the runs there are. */
export function loadRun(root: string, id: string): RunState {
  const dir = resultsDir(root);
  let state: RunState | undefined;
  try {
    state = new FileRunStore(join(dir, id)).load();
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (state) return state;
  const known = knownRuns(root);
  throw new UsageError(`no results for run "${id}" in ${shown(dir)}; the runs there: ${known.join(', ') || 'none'}.${didYouMean(nearNames(id, known))}`);
}

/** The benchmark a run played: the workspace's own folder first, then the bundled one of that name. */
export function runBenchmark(ws: ReportWorkspace, name: string): { benchmark: Benchmark; path: string } {
  const own = join(ws.root, BENCHMARKS_DIR, name);
  const dir = isBenchmarkFolder(own) || !isBenchmarkFolder(join(ws.bundled, name)) ? own : join(ws.bundled, name);
  return { benchmark: loadValidBenchmark(dir, shown(dir)), path: posix(relative(ws.root, dir)) };
}

export function shown(path: string): string {
  return relative(process.cwd(), path) || path;
}

export function posix(path: string): string {
  return path.split(sep).join('/');
}
