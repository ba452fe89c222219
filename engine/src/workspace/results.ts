/** Reading saved runs from results/ and the benchmarks they played, for the reports. */
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { folderNameProblem } from '../../../scenario/src';
import { didYouMeanSentence } from '../didYouMean';
import type { RunState, TrueStatus } from '../state/runState';
import { FileRunStore } from '../run/store';
import { RunDamaged, UsageError } from '../errors';
import { resultsDir } from '../protocol/layout';
import { repeatOf, runIdProblem } from '../protocol/runRequest';
import { readLock } from './lock';
import { BENCHMARKS_DIR, isBenchmarkFolder } from './folders';

export interface ReportWorkspace {
  /** The folder of config.jsonc: results/ and benchmarks/ are here. */
  root: string;
  configPath: string;
  /** The bundled benchmarks, for runs of `mmb demo`. */
  bundled: string;
}

/** The run ids that have a saved state in results/, the repeats of a run together and in number order (`#2` before `#10`). */
export function knownRuns(root: string): string[] {
  const dir = resultsDir(root);
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => !runIdProblem(name) && FileRunStore.exists(join(dir, name)))
        .sort(byRepeat)
    : [];
}

function byRepeat(left: string, right: string): number {
  const [baseA, indexA] = [repeatOf(left)?.base ?? left, repeatOf(left)?.index ?? 0];
  const [baseB, indexB] = [repeatOf(right)?.base ?? right, repeatOf(right)?.index ?? 0];
  if (baseA !== baseB) return baseA < baseB ? -1 : 1;
  return indexA - indexB;
}

export type { TrueStatus } from '../state/runState';

export function trueStatus(root: string, id: string, state: RunState): TrueStatus {
  if (state.status !== 'running') return state.status;
  return readLock(join(resultsDir(root), id)) ? 'running' : 'stopped';
}

/** A run's state; an unknown id is a usage error that lists the runs there are; a damaged run is `RunDamaged`. */
export function loadRun(root: string, id: string): RunState {
  // The same rule as `mmb run`: an id is one folder of results/, so no report reads or writes elsewhere.
  const problem = runIdProblem(id);
  if (problem) throw new UsageError(`${problem}.`);
  const dir = resultsDir(root);
  let state: RunState | undefined;
  try {
    state = new FileRunStore(join(dir, id)).load();
  } catch (e) {
    // A damaged run stays `RunDamaged`, so that a listing can show it as a row and go on.
    if (e instanceof RunDamaged) throw e;
    throw new UsageError((e as Error).message);
  }
  if (state) return state;
  const known = knownRuns(root);
  throw new UsageError(
    `no results for run "${id}" in ${shown(dir)}; the runs there: ${known.join(', ') || 'none'}.${didYouMeanSentence(id, known)}`,
  );
}

/**
 * The folder of the benchmark a run played: the workspace's own first, then the bundled one of that
 * name; it may be gone. Reports read it through `loadRunBenchmark`, the copy kept with the run first.
 */
export function runBenchmarkFolder(ws: ReportWorkspace, name: string): string {
  // The name comes from a saved state, which is a file like any other: it must not lead out of benchmarks/.
  const problem = folderNameProblem(name);
  if (problem) throw new UsageError(`the run's benchmark "${name.slice(0, 60)}" cannot be a folder name: ${problem}.`);
  const own = join(ws.root, BENCHMARKS_DIR, name);
  return isBenchmarkFolder(own) || !isBenchmarkFolder(join(ws.bundled, name)) ? own : join(ws.bundled, name);
}

export function shown(path: string): string {
  return relative(process.cwd(), path) || path;
}

export function posix(path: string): string {
  return path.split(sep).join('/');
}
