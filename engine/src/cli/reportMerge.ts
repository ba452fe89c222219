/** `mmb report --merge FOLDER…`: the shards' results brought together, then reported as one. */
import { resolve } from 'node:path';
import { summarize } from '../report/summary';
import { resultsDir } from '../protocol/layout';
import { writeResults } from '../workspace/launch';
import { mergeResults } from '../workspace/merge';
import { shown, type ReportWorkspace } from '../workspace/results';
import { runBenchmarkReader } from '../workspace/reportBenchmark';
import { ciReportCommand, type CiOutputs } from './ci';
import { reportCommand } from './reportList';
import type { Io } from './run';

export function mergeCommand(folders: readonly string[], ws: ReportWorkspace, ci: CiOutputs | undefined, io: Io): number {
  const result = mergeResults(
    ws.root,
    folders.map((folder) => resolve(folder)),
  );
  for (const line of result.leftOut) io.err(`mmb: --merge left out ${line}\n`);
  const benchmarkOf = runBenchmarkReader(ws);
  for (const { id, state } of result.merged) {
    // report.md holds finished and crashed runs, as `mmb run` writes them; a stopped one gets its entry when it is resumed here.
    if (state.status === 'running') continue;
    try {
      writeResults(ws.root, summarize(state, benchmarkOf(id, state).benchmark));
    } catch (e) {
      io.err(`mmb: --merge: run "${state.run}" has no report.md entry: ${(e as Error).message.split('\n')[0]}\n`);
    }
  }
  const say = ci?.json ? io.err : io.out;
  const here = result.alreadyHere.length ? ` (${result.alreadyHere.length} already there)` : '';
  say(`Merged ${result.merged.length} run${result.merged.length === 1 ? '' : 's'} into ${shown(resultsDir(ws.root))}${here}.\n`);
  if (!ci?.json) say('\n');
  const ids = [...result.merged.map((run) => run.id), ...result.alreadyHere].sort();
  // With CI outputs, the merged runs are what the JSON, the JUnit file and the threshold cover.
  if (ci) return ciReportCommand(ids, ws, ci, io, () => reportCommand([], ws, io));
  return reportCommand([], ws, io);
}
