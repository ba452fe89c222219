/**
 * `mmb judge audit [--judge <model>] [--repeat N] [--set <file>...] [--json] [--html] [--out f]
 * [--fail-under-kappa K] [--id <audit-id>] [--config f]`: a judge grades the labelled grading sets
 * and the audit says how far to trust it — agreement with gold, leniency, the probes, test–retest,
 * cost. Resumable: the answers are journaled in `results/.judge/<audit-id>/`, and a run of the same
 * command after a kill, a Ctrl-C or an endpoint failure asks only what is left.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DEFAULT_CONFIG, type Config } from '../../../scenario/src';
import { makeFolder } from '../diskFull';
import { UsageError } from '../errors';
import { auditFigures, type AuditFigures } from '../judge/auditFigures';
import { auditId } from '../judge/auditJournal';
import { auditAsks, MAX_AUDIT_REPEATS, type AuditAsk } from '../judge/auditPlan';
import { runAudit, type AuditRun } from '../judge/auditRun';
import { gradingSetErrorText } from '../judge/gradingSet';
import { judgeModel, openJudges, PERSONA_JUDGE } from '../judge/models';
import { AUDIT_HTML_FILE, JOURNAL_FILE, judgeAuditDir } from '../protocol/layout';
import { runIdProblem } from '../protocol/runRequest';
import { priceOf } from '../report/cost';
import { acquireLock } from '../workspace/lock';
import { renderJudgeAudit } from './judgeAuditPage';
import { AuditProgress } from './judgeAuditProgress';
import { readAuditSets } from './judgeAuditSets';
import { auditReportText, type AuditReportContext } from './judgeAuditText';
import { loadConfig, type Io } from './run';
import { oneLine } from './exitStatus';
import type { ParsedArguments } from './parseArguments';

export interface JudgeAuditInput {
  /** The words after `judge`: `audit`, then the set files of `--set`. */
  words: readonly string[];
  judge?: string;
  repeat?: string;
  sets: boolean;
  json: boolean;
  html: boolean;
  out?: string;
  failUnderKappa?: string;
  id?: string;
  /** `--config`, when given. */
  config?: string;
  cwd: string;
  /** The bundled benchmarks' folder: their sets when the workspace has no benchmark. */
  bundled: string;
}

/** The input of the command line's arguments; `bundled` is the bundled benchmarks' folder. */
export function judgeAuditInput(args: ParsedArguments, cwd: string, bundled: string): JudgeAuditInput {
  return {
    words: args.words,
    judge: args.option('--judge'),
    repeat: args.option('--repeat'),
    sets: args.flags.includes('--set'),
    json: args.flags.includes('--json'),
    html: args.flags.includes('--html'),
    out: args.option('--out'),
    failUnderKappa: args.option('--fail-under-kappa'),
    id: args.option('--id'),
    config: args.option('--config'),
    cwd,
    bundled,
  };
}

interface AuditRequest {
  judge: string;
  repeats: number;
  setFiles: string[];
  failUnderKappa?: number;
}

/** The request the arguments make, or a usage error naming what is wrong. */
function requestOf(input: JudgeAuditInput): AuditRequest {
  const [sub, ...rest] = input.words;
  if (sub !== 'audit') throw new UsageError('the judge command there is, is `mmb judge audit [--judge <model>]`: see mmb judge --help.');
  if (rest.length && !input.sets) throw new UsageError(`unexpected "${oneLine(rest[0]!).slice(0, 60)}": set files go after --set.`);
  if (input.sets && !rest.length) throw new UsageError('--set needs a file: --set benchmarks/max/grading.jsonl.');
  if (input.out !== undefined && !input.html) throw new UsageError('--out goes with --html: mmb judge audit --html --out audit.html.');
  const repeats = Number(input.repeat ?? 1);
  if (!Number.isInteger(repeats) || repeats < 1 || repeats > MAX_AUDIT_REPEATS)
    throw new UsageError(`--repeat needs a whole number from 1 to ${MAX_AUDIT_REPEATS}, e.g. --repeat 3.`);
  const kappa = input.failUnderKappa === undefined ? undefined : Number(input.failUnderKappa);
  if (kappa !== undefined && !(Number.isFinite(kappa) && kappa >= -1 && kappa <= 1))
    throw new UsageError('--fail-under-kappa needs a number from -1 to 1, e.g. --fail-under-kappa 0.8.');
  if (input.id !== undefined) {
    const problem = runIdProblem(input.id);
    if (problem) throw new UsageError(`--id: ${problem.replace('the run', 'the audit')}.`);
  }
  return { judge: input.judge ?? PERSONA_JUDGE, repeats, setFiles: [...rest], ...(kappa !== undefined ? { failUnderKappa: kappa } : {}) };
}

/** config.jsonc when there is one (or `--config` names one); the defaults otherwise, whose persona is the stand-in. */
function configOf(input: JudgeAuditInput): { config: Config; root: string } {
  const path = resolve(input.cwd, input.config ?? 'config.jsonc');
  if (input.config === undefined && !existsSync(path)) return { config: { ...DEFAULT_CONFIG, runs: [] }, root: input.cwd };
  return { config: loadConfig(path), root: dirname(path) };
}

/** The judge's cost in USD from its model's price, null when the price is unknown. */
function costOf(figures: AuditFigures, model: string, config: Config): number | null {
  const price = priceOf(model, config.prices);
  return price ? (figures.usage.promptTokens * price.input + figures.usage.completionTokens * price.output) / 1e6 : null;
}

/** Why the audit stopped early, as one line with what to do, and its exit status. */
function stoppedEarly(run: AuditRun, judge: string, journal: string): { line: string; status: number } | undefined {
  if (!run.stopped) return undefined;
  const resume = `${run.entries.size} answers are journaled in ${journal}: run the same command again to resume`;
  if (run.stopped.by === 'signal') return { line: `judge audit stopped; ${resume}.`, status: 130 };
  return { line: `judge ${judge}: ${oneLine(run.stopped.error)}; ${resume}.`, status: 1 };
}

export async function judgeAuditCommand(input: JudgeAuditInput, io: Io): Promise<number> {
  const request = requestOf(input);
  const { config, root } = configOf(input);
  const model = judgeModel(request.judge, config).model;
  const sets = readAuditSets(input.cwd, root, request.setFiles, input.bundled);
  for (const error of sets.errors) io.err(`${oneLine(gradingSetErrorText(error))}\n`);
  if (!sets.items.length) throw new UsageError('no grading items to audit: add a grading.jsonl beside a benchmark, or give --set <file>.');
  const asks = auditAsks(sets.items, request.repeats);
  const id = input.id ?? auditId(request.judge, sets.items, request.repeats);
  const dir = judgeAuditDir(root, id);
  const lock = acquireLock(dir);
  if (!lock.ok) throw new UsageError(`the audit ${id} is running (process ${lock.holder.pid}): wait for it, or stop it first.`);
  const journal = join(dir, JOURNAL_FILE);
  try {
    const run = await audited(request, config, asks, journal, id, io);
    const stopped = stoppedEarly(run, request.judge, journal);
    if (stopped) {
      io.err(`mmb: ${stopped.line}\n`);
      return stopped.status;
    }
    const figures = auditFigures(request.judge, sets.items, run.entries, { repeats: request.repeats, asks: asks.map((ask) => ask.key) });
    const context: AuditReportContext = {
      id,
      journal,
      sets: sets.files,
      cost: costOf(figures, model, config),
      model,
      damaged: run.damaged,
    };
    if (input.html) {
      context.html = input.out !== undefined ? resolve(input.cwd, input.out) : join(dir, AUDIT_HTML_FILE);
      makeFolder(dirname(context.html));
      writeFileSync(context.html, renderJudgeAudit(figures, context));
    }
    io.out(input.json ? `${JSON.stringify({ ...context, ...figures }, null, 2)}\n` : auditReportText(figures, context));
    return kappaVerdict(figures, request.failUnderKappa, io);
  } finally {
    lock.release();
  }
}

/** The judge opened, the asks played with progress on stderr, the judge closed. */
async function audited(
  request: AuditRequest,
  config: Config,
  asks: readonly AuditAsk[],
  journal: string,
  id: string,
  io: Io,
): Promise<AuditRun> {
  const opened = await openJudges([request.judge], config, io.env, io.signal);
  const progress = new AuditProgress(io.err, { terminal: io.tty, ...(io.columns ? { width: io.columns } : {}), judge: request.judge });
  try {
    return await runAudit({
      judge: opened.judges[0]!,
      asks,
      journalFile: journal,
      ...(io.signal ? { signal: io.signal } : {}),
      onStart: (journaled) => progress.start(asks.length, journaled, id),
      onAnswered: (entry, answered, total) => progress.answered(entry, answered, total),
    });
  } finally {
    progress.stop();
    await opened.close();
  }
}

/** `--fail-under-kappa`: exit 1 when the judge's κ is below it, or cannot be computed. */
function kappaVerdict(figures: AuditFigures, failUnder: number | undefined, io: Io): number {
  if (failUnder === undefined) return 0;
  const kappa = figures.overall.kappa;
  if (kappa !== null && kappa >= failUnder) return 0;
  const measured = kappa === null ? 'κ cannot be computed (no grade varies)' : `κ ${kappa.toFixed(3)}`;
  io.err(`mmb: judge ${figures.judge}: ${measured} is below --fail-under-kappa ${failUnder}.\n`);
  return 1;
}
