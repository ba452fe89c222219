/**
 * `mmb regrade <run-id> --judge <model> … [--repeat N]`: a finished (or partial) run graded again,
 * blind, by other judges: each gets every graded check's question as she asked it, the correct
 * answer, the agent's answer from the transcript and the attempt, nothing else. Their grades go
 * beside hers (`results/<run>/regrades/`), never over them, and are shown side by side.
 */
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { parseConfig, type Config } from '../../../scenario/src';
import { isDiskFull } from '../diskFull';
import { UsageError } from '../errors';
import { openJudges } from '../judge/models';
import { runDir } from '../protocol/layout';
import { readRegrades } from '../report/regradeFiles';
import { regradeItems } from '../report/regradeItems';
import { regradeText } from '../report/regradeText';
import { regradeView } from '../report/regradeView';
import { registerWorkspaceSecrets } from '../workspaceSecrets';
import { loadRun, type ReportWorkspace } from '../workspace/results';
import { loadRunBenchmark } from '../workspace/reportBenchmark';
import { knownFailure, oneLine } from './exitStatus';
import { clip } from './options';
import { gradeItems, type RegradeTally } from './regradeRun';
import { loadConfig, type Io } from './run';

/** The most repeats of one judge's grading: enough for test–retest, not a way to spend a fortune by a typo. */
export const MAX_REGRADE_REPEATS = 20;

export interface RegradeRequest {
  ids: readonly string[];
  judges: readonly string[];
  repeat: string | undefined;
  ws: ReportWorkspace;
}

export async function regradeCommand(request: RegradeRequest, io: Io): Promise<number> {
  const [id, ...more] = request.ids;
  if (id === undefined || more.length)
    throw new UsageError('mmb regrade takes one run: mmb regrade <run-id> --judge <model> [--judge <model> …]');
  const repeat = repeatOf(request.repeat);
  registerWorkspaceSecrets(request.ws.configPath, io.env);
  const config = configOf(request.ws.configPath);
  const state = loadRun(request.ws.root, id);
  const { benchmark, source, note } = loadRunBenchmark(request.ws, id, state);
  // A judge grades an answer against the check's own words: a report from the state alone has none to give it.
  if (source === 'state') throw new UsageError(`mmb regrade needs the checks' questions and answers, which ${clip(id)} lacks: ${note}.`);
  const items = regradeItems(state, benchmark);
  if (items.length === 0) {
    io.out(`${clip(id)} has no graded check yet: there is nothing to regrade.\n`);
    return 0;
  }
  const names = [...new Set(request.judges)];
  const dir = runDir(request.ws.root, id);
  const opened = await openJudges(names, config, io.env, io.signal);
  try {
    await gradeItems(dir, items, opened.judges, repeat, {
      ...(io.signal ? { signal: io.signal } : {}),
      done: (tally) => io.out(`${tallyLine(tally, repeat)}\n`),
    });
  } catch (error) {
    // A judge's request cut by Ctrl-C: what it graded is kept, as after a stop between two items.
    if (io.signal?.aborted && !isDiskFull(error)) return stoppedRegrade(io);
    if (knownFailure(error) || isDiskFull(error) || error instanceof UsageError) throw error;
    // A judge's endpoint failed after its retries: what it graded is kept, and the next regrade goes on from there.
    io.err(`mmb: a judge failed: ${oneLine(error instanceof Error ? error.message : String(error))}; run mmb regrade again to resume.\n`);
    return 1;
  } finally {
    await opened.close();
  }
  if (io.signal?.aborted) return stoppedRegrade(io);
  const regrades = readRegrades(dir, names);
  for (const problem of regrades.problems) io.err(`mmb: ${oneLine(problem)}\n`);
  const view = regradeView(state, benchmark, regrades);
  if (view) io.out(`\nRegrades of ${clip(state.run)} (${clip(state.benchmark)} @ ${clip(state.agent)}):\n${regradeText(view)}`);
  io.out(`The grades are in ${relative(process.cwd(), dir) || dir}/regrades/; \`mmb report ${clip(id)} --html\` shows them.\n`);
  return 0;
}

function stoppedRegrade(io: Io): number {
  io.err('mmb: stopped; run mmb regrade again to grade what is left.\n');
  return 130;
}

/** `stand-in: 36 graded, 2 without a grade, 10 done before`. */
function tallyLine(tally: RegradeTally, repeat: number): string {
  const times = repeat > 1 ? ` (×${repeat})` : '';
  const none = tally.noGrade ? `, ${tally.noGrade} without a grade (kept in its file with the reply)` : '';
  const before = tally.before ? `, ${tally.before} done before` : '';
  return `${clip(tally.judge)}: ${tally.asked - tally.noGrade} graded now${times}${none}${before}`;
}

function repeatOf(value: string | undefined): number {
  if (value === undefined) return 1;
  const repeat = Number(value);
  if (!Number.isInteger(repeat) || repeat < 1 || repeat > MAX_REGRADE_REPEATS)
    throw new UsageError(`--repeat needs a whole number from 1 to ${MAX_REGRADE_REPEATS}, e.g. --repeat 3 (got "${clip(value)}").`);
  return repeat;
}

/** config.jsonc's judges and persona; without a config.jsonc, the defaults (the stand-in judges need none). */
function configOf(configPath: string): Config {
  return existsSync(configPath) ? loadConfig(configPath) : parseConfig('{}').config;
}
