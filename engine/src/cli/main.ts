/** The `mmb` command: dispatch to each command's handler, by the option table of `options.ts`. */
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { endAllAgentGroups } from '../adapters/agentProcesses';
import { dirname, join, resolve } from 'node:path';
import { DISK_FULL_EXIT, diskFullMessage, isDiskFull } from '../diskFull';
import { INTERNAL_ERROR_EXIT, knownFailure, oneLine } from './exitStatus';
import { ConfigError, UsageError } from '../errors';
import { RUN_OPTIONS } from '../protocol/runRequest';
import { maskSecrets } from '../secrets';
import { startStandIn } from '../standin/server';
import { runCheck } from './check';
import { ciOutputsOf } from './ci';
import { runSelectionOf } from './runSelection';
import { DEFAULT_SEED } from '../experiments/filing';
import { formatFilingTable, runFilingExperiment } from '../experiments/filingRun';
import { initCommand } from './init';
import { newCommand } from './new';
import { newAgentCommand } from './newAgent';
import { generateCommand } from './generate';
import { importCommand } from './import';
import { conformanceCommand } from './conformance';
import { doctorCommand } from './doctor';
import { judgeAuditCommand, judgeAuditInput } from './judgeAudit';
import { printHelpOrVersion } from './help';
import { usageText } from './helpText';
import { COMMANDS, commandNamed } from './options';
import { parseArguments, type ParsedArguments } from './parseArguments';
import { runCommand, type Io, type RunCommandInput } from './run';
import { demoCommand } from './demo';
import { reportViews } from './reportHtml';
import { viewCommand } from './view';
import { regradeCommand } from './regrade';
import { shorten } from '../../../scenario/src/plainText';

/** The bundled benchmarks: beside the bundle in a package, or at the repository's top. */
function bundledBenchmarks(): string {
  const candidates = [join(__dirname, '..', 'benchmarks'), join(__dirname, '..', '..', '..', 'benchmarks')];
  return candidates.find((c) => existsSync(c)) ?? candidates[0]!;
}

/** The example agents `mmb new agent` copies: beside the bundle in a package, or at the repository's top. */
function bundledExamples(): string {
  const candidates = [join(__dirname, '..', 'examples', 'agents'), join(__dirname, '..', '..', '..', 'examples', 'agents')];
  return candidates.find((c) => existsSync(c)) ?? candidates[0]!;
}

/** `mmb run`'s arguments as `runCommand` takes them: what the editor's run requests turn into. */
export function runCommandInput(args: ParsedArguments, cwd: string): RunCommandInput {
  const configPath = configPathOf(args, cwd);
  const from = args.option(RUN_OPTIONS.from);
  const filter = args.option('--filter');
  const benchmark = args.option(RUN_OPTIONS.benchmark);
  const has = (flag: string) => args.flags.includes(flag);
  if (!from && has(RUN_OPTIONS.only)) throw new UsageError('--only goes with --from <chapter.md>:<phase>.');
  const ci = ciOutputsOf(args.flags, args.option, cwd);
  const selection = runSelectionOf(args.option);
  // A rehearsal with no --from or --filter plays the whole benchmark: a run of its own, full (cli/partialRun.ts).
  const partial = from !== undefined || filter !== undefined || has(RUN_OPTIONS.rehearse) || benchmark !== undefined;
  return {
    ids: args.words,
    configPath,
    restart: has(RUN_OPTIONS.restart),
    ...(ci ? { ci } : {}),
    ...(Object.keys(selection).length ? { selection } : {}),
    ...(partial
      ? {
          partial: {
            ...(from !== undefined ? { from } : {}),
            ...(filter !== undefined ? { filter } : {}),
            only: has(RUN_OPTIONS.only),
            rehearse: has(RUN_OPTIONS.rehearse),
            ...(benchmark ? { benchmark } : {}),
          },
        }
      : {}),
  };
}

/** `--config <file>`, or config.jsonc here. */
function configPathOf(args: ParsedArguments, cwd: string): string {
  return resolve(cwd, args.option('--config') ?? 'config.jsonc');
}

/** `mmb stand-in`: serves until the signal aborts. */
async function standInCommand(args: ParsedArguments, io: Io): Promise<number> {
  const port = Number(args.option('--port') ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port needs a port number, e.g. --port 8080');
  const server = await startStandIn({ port });
  io.out(`The stand-in model is serving at ${server.url} (model "stand-in", any API key). Ctrl-C stops it.\n`);
  await new Promise<void>((resolve) => {
    if (io.signal?.aborted) resolve();
    io.signal?.addEventListener('abort', () => resolve());
  });
  await server.close();
  return 0;
}

/** `mmb experiment filing [--seed N]`. */
async function experimentCommand(args: ParsedArguments, cwd: string, io: Io): Promise<number> {
  if (args.words[0] !== 'filing') throw new UsageError('unknown experiment: the one there is, is `mmb experiment filing [--seed N]`');
  const seed = Number(args.option('--seed') ?? DEFAULT_SEED);
  if (!Number.isInteger(seed) || seed < 0) throw new UsageError('--seed needs a whole number, e.g. --seed 1107');
  io.out(formatFilingTable(await runFilingExperiment(cwd, seed), seed));
  return 0;
}

type Handler = (args: ParsedArguments, cwd: string, io: Io) => number | Promise<number>;

/** Each command's handler; the parser has already refused options the command does not know. */
const HANDLERS: Record<string, Handler> = {
  check: (args, cwd, io) =>
    runCheck(
      {
        targets: args.words,
        json: args.flags.includes('--json'),
        coverage: args.flags.includes('--coverage'),
        audit: args.flags.includes('--audit'),
        cwd,
      },
      io.out,
    ),
  run: (args, cwd, io) => runCommand(runCommandInput(args, cwd), io),
  report: (args, cwd, io) => {
    const configPath = configPathOf(args, cwd);
    return reportViews(args.words, args.flags, args.option, { root: dirname(configPath), configPath, bundled: bundledBenchmarks() }, io);
  },
  regrade: (args, cwd, io) => {
    const configPath = configPathOf(args, cwd);
    const ws = { root: dirname(configPath), configPath, bundled: bundledBenchmarks() };
    return regradeCommand({ ids: args.words, judges: args.values('--judge'), repeat: args.option('--repeat'), ws }, io);
  },
  view: (args, cwd, io) => {
    if (args.words.length)
      throw new UsageError(`mmb view takes no run ids (got ${args.words[0]!.slice(0, 60)}): it serves every run of results/.`);
    const configPath = configPathOf(args, cwd);
    const ws = { root: dirname(configPath), configPath, bundled: bundledBenchmarks() };
    return viewCommand(
      { ws, port: args.option('--port'), host: args.option('--host'), open: args.flags.includes('--open') ? 'browser' : 'none' },
      io,
    );
  },
  demo: (_args, cwd, io) => demoCommand(cwd, bundledBenchmarks(), io),
  'stand-in': (args, _cwd, io) => standInCommand(args, io),
  init: (args, cwd, io) => {
    if (args.words.length > 1) throw new UsageError('mmb init takes one folder: mmb init my-bench-workspace');
    return initCommand(args.words[0], cwd, bundledBenchmarks(), io.out);
  },
  new: (args, cwd, io) => {
    if (args.words[0] === 'agent')
      return newAgentCommand({ name: args.words[1], kind: args.option('--kind'), cwd, examples: bundledExamples() }, io.out);
    if (args.flags.includes('--kind')) throw new UsageError('--kind goes with mmb new agent <name>.');
    return newCommand(args.words[0], cwd, io.out);
  },
  generate: (args, cwd, io) =>
    generateCommand(
      {
        words: args.words,
        preset: args.option('--preset'),
        seed: args.option('--seed'),
        spec: args.option('--spec'),
        extend: args.option('--extend'),
        months: args.option('--months'),
        cwd,
      },
      io.out,
    ),
  import: (args, cwd, io) =>
    importCommand(
      {
        words: args.words,
        ids: args.option('--ids'),
        types: args.option('--types'),
        sample: args.option('--sample'),
        seed: args.option('--seed'),
        haystack: args.option('--haystack'),
        cwd,
      },
      io.out,
    ),
  conformance: (args, cwd, io) =>
    conformanceCommand({ runId: args.words[0], configPath: configPathOf(args, cwd), memory: args.option('--memory') }, io),
  experiment: (args, cwd, io) => experimentCommand(args, cwd, io),
  doctor: (args, cwd, io) =>
    doctorCommand(
      { name: args.words[0], configPath: configPathOf(args, cwd), json: args.flags.includes('--json'), benchmarksDir: bundledBenchmarks() },
      io,
    ),
  judge: (args, cwd, io) => judgeAuditCommand(judgeAuditInput(args, cwd, bundledBenchmarks()), io),
};

/** The commands main dispatches, held equal to the table `COMMANDS` by `engine/test/cli-help.test.ts`. */
export const HANDLED_COMMANDS: readonly string[] = Object.keys(HANDLERS);

export async function main(argv: string[], cwd: string, io: Io): Promise<number> {
  const command = argv[0];
  if (command === undefined) {
    io.err(usageText());
    return 2;
  }
  try {
    const printed = printHelpOrVersion(argv, io);
    if (printed !== undefined) return printed;
    const handler = HANDLERS[commandNamed(command).name];
    if (!handler) throw new UsageError(`the command "${command}" has no handler`);
    return await handler(parseArguments(argv), cwd, io);
  } catch (e) {
    return failureExit(e, argv, io);
  }
}

/**
 * A command's failure as `mmb` ends it: one line on stderr and the status of its class
 * (`exitStatus.ts`). An error of no known class is a bug of this project and is thrown on (exit 70).
 */
export function failureExit(error: unknown, argv: readonly string[], io: Pick<Io, 'out' | 'err'>): number {
  if (error instanceof UsageError || error instanceof ConfigError) return usageProblem(error.message, argv, io);
  // A full disk by its error code too (ENOSPC, EDQUOT), not only as a DiskFull.
  if (isDiskFull(error)) {
    io.err(`mmb: ${oneLine(diskFullMessage(error))}\n`);
    return DISK_FULL_EXIT;
  }
  const known = knownFailure(error);
  if (!known) throw error;
  io.err(`mmb: ${known.line}\n`);
  return known.status;
}

/**
 * A usage or config problem: one line on stderr per problem, exit 2; for a command asked for
 * `--json`, `{"error": "<one line>"}` on stdout instead, so that a program reading it always gets JSON.
 */
/** The longest usage message: a path or a name the user typed may be any length. */
const MAX_PROBLEM_CHARS = 500;

function usageProblem(message: string, argv: readonly string[], io: Pick<Io, 'out' | 'err'>): number {
  const asJson =
    argv.slice(1).some((argument) => argument === '--json' || argument.startsWith('--json=')) &&
    COMMANDS.some((c) => c.name === argv[0] && c.options.some((o) => o.name === '--json'));
  const bound = (line: string) => shorten(line, MAX_PROBLEM_CHARS);
  // A config error may be several lines, one per problem: each is bounded, none is merged.
  const lines = message
    .trim()
    .split('\n')
    .map((line) => bound(line.trimEnd()));
  if (asJson) io.out(`${JSON.stringify({ error: lines.map((line) => line.trim()).join(' ') })}\n`);
  else io.err(`mmb: ${lines.join('\n')}\n`);
  return 2;
}

/** The process's `mmb`: Ctrl-C, the masked terminal, the exit status. `entry.ts` calls it once this file has loaded. */
export function startCli(): void {
  const controller = new AbortController();
  // A server's Ctrl-C is its normal end, and a doctor's check keeps nothing: there is no step to finish and no run to resume.
  const serving = ['view', 'stand-in', 'doctor'].includes(process.argv[2] ?? '');
  process.on('SIGINT', () => {
    if (controller.signal.aborted) process.exit(130);
    if (!serving)
      process.stderr.write(
        '\nmmb: stopping (a wait on a model or the agent at once, else after the current step; Ctrl-C again to quit at once); ' +
          'the run resumes where it stopped.\n',
      );
    controller.abort();
  });
  // Not a stop after the step, but at once: the journal is the truth, and a run resumes from any kill; the agents' processes go first.
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (!serving) process.stderr.write(`\nmmb: ${signal}: stopping now; the run resumes where it stopped.\n`);
      void endAllAgentGroups().finally(() => process.exit(128 + constants.signals[signal]));
    });
  }
  // The last guard of the terminal: whatever a run prints, no key it read reaches stdout or stderr.
  const io: Io = {
    out: (s) => process.stdout.write(maskSecrets(s)),
    err: (s) => process.stderr.write(maskSecrets(s)),
    tty: !!process.stdout.isTTY,
    columns: process.stdout.columns,
    env: process.env,
    signal: controller.signal,
  };
  // After the loop's first turn, which hands over a Ctrl-C pressed while the CLI loaded: main sees it aborted.
  const started = new Promise<void>((resolve) => setImmediate(resolve));
  started
    .then(() => main(process.argv.slice(2), process.cwd(), io))
    .then(
      (code) => {
        process.exitCode = code;
      },
      (e: unknown) => {
        const detail = maskSecrets(e instanceof Error ? (e.stack ?? e.message) : String(e));
        process.stderr.write(`mmb: internal error: ${detail}\nPlease report it with the command you ran.\n`);
        process.exitCode = INTERNAL_ERROR_EXIT;
      },
    );
}
