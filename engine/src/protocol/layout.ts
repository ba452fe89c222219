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
 *   <run>/benchmark/      the benchmark files the run played, kept at its start (`kept.json`: their digests)
 *   <run>/regrades/<judge>.jsonl   `mmb regrade`: a judge's grades of the run's checks, one a line (`judgeSlug`)
 *   .logs/<run>.log       the output of an engine the editor started
 *   .judge/<audit>/       `mmb judge audit`: journal.jsonl (one line per answer), run.lock, audit.html
 *   report.md             every finished run's report entry
 * ```
 */
import { createHash } from 'node:crypto';
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
export const REGRADES_DIR = 'regrades';
export const REGRADE_EXTENSION = '.jsonl';
export const JUDGE_DIR = '.judge';
export const AUDIT_HTML_FILE = 'audit.html';
export const KEPT_BENCHMARK_DIR = 'benchmark';
export const KEPT_MANIFEST_FILE = 'kept.json';

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

/** The copy of the benchmark a run played, kept with it so that its reports outlive the benchmark: `<run dir>/benchmark`. */
export function keptBenchmarkDir(dirOfRun: string): string {
  return join(dirOfRun, KEPT_BENCHMARK_DIR);
}

/** The judges' grades of a run, beside the persona's: `<run dir>/regrades`. */
export function regradesDir(dirOfRun: string): string {
  return join(dirOfRun, REGRADES_DIR);
}

/** One judge's grades of a run: `<run dir>/regrades/<judge slug>.jsonl`. */
export function regradeFile(dirOfRun: string, judgeName: string): string {
  return join(regradesDir(dirOfRun), `${judgeSlug(judgeName)}${REGRADE_EXTENSION}`);
}

/** A name that is its own file name: lower case letters, digits, `.`, `_` and `-`, starting with a letter or digit. */
const PLAIN_SLUG = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/**
 * A judge's name as a file name. Names are the user's text (`stand-in:chaos?rate=1`, a key of
 * config.jsonc, anything typed after `--judge`): a plain one is kept; any other is cut to the safe
 * characters and given a digest of the whole name, so that `../x`, control characters or two names
 * that differ only in what was cut never meet in one file.
 */
export function judgeSlug(name: string): string {
  if (PLAIN_SLUG.test(name) && !name.endsWith('.')) return name;
  const kept = name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[-._]+|[-._]+$/g, '')
    .slice(0, 48)
    .replace(/[-._]+$/, '');
  const digest = createHash('sha256').update(name).digest('hex').slice(0, 10);
  return kept ? `${kept}-${digest}` : `judge-${digest}`;
}

/** A judge audit's folder: `<root>/results/.judge/<audit-id>`, beside the runs and never taken for one. */
export function judgeAuditDir(root: string, audit: string): string {
  return join(resultsDir(root), JUDGE_DIR, audit);
}
