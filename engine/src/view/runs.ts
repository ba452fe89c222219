/**
 * The runs `mmb view` serves, read from results/ as untrusted files: a run id is a folder name
 * by the rule of `mmb run` (`runIdProblem`), the folder a real directory inside results/ (a link
 * is never followed out), its state files bounded before they are read. A run that cannot be
 * read is a one-line problem, never an exception out of here.
 */
import { lstatSync, readdirSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import { JOURNAL_FILE, resultsDir, STATE_FILE } from '../protocol/layout';
import { runIdProblem } from '../protocol/runRequest';
import { RunDamaged } from '../errors';
import { damagedRow, indexRow, type IndexRow } from '../report/runsIndex';
import { FileRunStore } from '../run/store';
import type { RunState, TrueStatus } from '../state/runState';
import { trueStatus, type ReportWorkspace } from '../workspace/results';
import { runBenchmarkReader } from '../workspace/reportBenchmark';

/** The most runs the index lists and the watcher follows: a results/ folder past it is not one a person reads. */
export const MAX_SERVED_RUNS = 2000;
/** The largest state.json plus journal.jsonl of a run served: bigger ones are listed as damaged. */
export const MAX_RUN_BYTES = 128 * 1024 * 1024;

/** A run served, or its problem; `damaged`: its folder is a run's, but a file of it is not what the engine writes. */
export type ServedRun =
  { id: string; state: RunState; status: TrueStatus; dir: string } | { id: string; problem: string; damaged?: boolean };

/** Whether `path` is `dir` or inside it, both already real paths. */
function inside(dir: string, path: string): boolean {
  return path === dir || path.startsWith(dir + sep);
}

/**
 * The folder of a run, or why there is none: an id that is no folder name, a folder that is a link
 * or not a directory, or a state file that is a link leading out of results/.
 */
export function runFolder(root: string, id: string): { dir: string } | { problem: string; damaged?: boolean } {
  const problem = runIdProblem(id);
  if (problem) return { problem };
  const results = resultsDir(root);
  const dir = join(results, id);
  try {
    if (!lstatSync(dir).isDirectory()) return { problem: `${id} is not a folder of results/` };
    const real = realpathSync(results);
    if (!inside(real, realpathSync(dir))) return { problem: `${id} leads outside results/` };
    let bytes = 0;
    for (const file of [STATE_FILE, JOURNAL_FILE]) {
      const stat = lstatSync(join(dir, file), { throwIfNoEntry: false });
      if (!stat) continue;
      if (!stat.isFile()) return { problem: `damaged: ${id}/${file}: not a regular file`, damaged: true };
      bytes += stat.size;
    }
    if (bytes > MAX_RUN_BYTES)
      return {
        problem: `${id}'s state files hold ${Math.round(bytes / 1048576)} MiB, more than the ${MAX_RUN_BYTES / 1048576} MiB served`,
        damaged: true,
      };
    return { dir };
  } catch {
    return { problem: `no run ${id} in results/` };
  }
}

/** The folders of results/ that may be runs: names by the run-id rule, real directories, at most MAX_SERVED_RUNS. */
export function servedIds(root: string): string[] {
  let names: string[];
  try {
    names = readdirSync(resultsDir(root));
  } catch {
    return [];
  }
  return names
    .filter((name) => !runIdProblem(name))
    .sort()
    .slice(0, MAX_SERVED_RUNS)
    .filter((name) => {
      const stat = lstatSync(join(resultsDir(root), name), { throwIfNoEntry: false });
      return stat?.isDirectory() && FileRunStore.exists(join(resultsDir(root), name));
    });
}

/** A run's state and true status, or its problem in one line. */
export function servedRun(root: string, id: string): ServedRun {
  const folder = runFolder(root, id);
  if ('problem' in folder) return { id, ...folder };
  try {
    const state = new FileRunStore(folder.dir).load();
    if (!state || typeof state !== 'object') return { id, problem: `${id} has no saved state yet` };
    return { id, state, status: trueStatus(root, id, state), dir: folder.dir };
  } catch (e) {
    // Named by the run's folder, never by a path of the server's disk.
    if (e instanceof RunDamaged) return { id, problem: `damaged: ${id}/${e.file}: ${e.what}`, damaged: true };
    return { id, problem: String((e as Error).message ?? e).split('\n')[0]! };
  }
}

/** Every run's row of the index; a run that cannot be read is a damaged row with its problem. */
export function indexRows(ws: ReportWorkspace): IndexRow[] {
  // Read once per request: a workspace's runs mostly share a few benchmarks.
  const benchmarkOf = runBenchmarkReader(ws);
  return servedIds(ws.root).map((id) => {
    const run = servedRun(ws.root, id);
    if ('problem' in run) return damagedRow(id, run.problem);
    try {
      const read = benchmarkOf(id, run.state);
      // From the state alone, the number of checks is unknown: the row says `?`, as `mmb report` does.
      return indexRow(id, run.state, run.status, read.source === 'state' ? undefined : read.benchmark);
    } catch (e) {
      return damagedRow(id, `${id} cannot be read: ${(e as Error).message}`);
    }
  });
}
