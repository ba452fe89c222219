/**
 * The `results/` layout: where the engine writes a run and the editor reads it. Every name of a
 * file or folder of it is declared here once (see docs/engine.md, "Results").
 *
 * ```
 * results/
 *   <run>/state.json      the run state, a snapshot
 *   <run>/journal.jsonl   the events since the snapshot, one JSON object a line
 *   <run>/run.lock        the process running the run now: { pid, since }
 *   <run>/run.json        a partial run's own settings, so that `mmb run <run>` resumes it
 *   <run>/summary.json    the figures of a finished run
 *   <run>/memory/<n>/     the agent's memory after conversation n, for agents with a memory folder
 *   <run>/report.html     `mmb report <run> --html`
 *   .logs/<run>.log       the output of an engine the editor started
 *   report.md             every finished run's report entry
 * ```
 */
import { join } from 'node:path';

export const RESULTS_DIR = 'results';
export const STATE_FILE = 'state.json';
export const JOURNAL_FILE = 'journal.jsonl';
export const LOCK_FILE = 'run.lock';
export const PARTIAL_FILE = 'run.json';
export const SUMMARY_FILE = 'summary.json';
export const MEMORY_DIR = 'memory';
export const REPORT_HTML_FILE = 'report.html';
export const REPORT_FILE = 'report.md';
export const LOGS_DIR = '.logs';

/** `<root>/results`: `root` is the folder of config.jsonc. */
export function resultsDir(root: string): string {
  return join(root, RESULTS_DIR);
}

/** `<root>/results/<run>`. */
export function runDir(root: string, run: string): string {
  return join(resultsDir(root), run);
}

/** The log of an engine process the editor started: `<root>/results/.logs/<run>.log`. */
export function engineLogFile(root: string, run: string): string {
  return join(resultsDir(root), LOGS_DIR, `${run}.log`);
}

/** The memory snapshots of a run: `<run dir>/memory`, one numbered folder per conversation. */
export function memorySnapshotsDir(dirOfRun: string): string {
  return join(dirOfRun, MEMORY_DIR);
}
