/** The `mmb` command: argument parsing and dispatch, nothing else. */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from '../errors';
import { startStandIn } from '../standin/server';
import { UsageError } from '../errors';
import { runCheck } from './check';
import { DEFAULT_SEED } from '../experiments/filing';
import { formatFilingTable, runFilingExperiment } from '../experiments/filingRun';
import { newCommand } from './new';
import { demoCommand, runCommand, type Io } from './run';
import { reportViews } from './reportHtml';

const USAGE = `Usage: mmb <command> [options]

Commands:
  check [<benchmark-dir>... | config.jsonc]   validate benchmarks (default: benchmarks/* and config.jsonc here)
      --json       machine-readable diagnostics
      --coverage   facts, sheets told, checks and traps by type, trap-to-check distances
  run [<run-id>...] [--config <file>]         run benchmarks as config.jsonc says (default: every run)
      --restart    start the runs over (their results are deleted first)
      --from <chapter.md>:<phase>   a fresh run from this phase (named <run-id>.from-…)
      --only       with --from: this phase only (named <run-id>.phase-…)
      --rehearse   with --from: persona and agent on the stand-in model, no key, no cost
      --benchmark <name>   with --from --rehearse: no run of config.jsonc needed
  report [<run-id>...] [--config <file>]      the runs' scores, or one run's full report entry
      --html                  results/<run-id>/report.html: charts, imperfect answers, conversation, cost
      --compare <a> <b> ...   runs of one benchmark side by side: results/compare-<a>-vs-<b>.html
      --trends [<run-id>...]  repeated runs by benchmark and agent, flaky checks marked: results/trends.html
      --flaky N               with --trends: the spread of grades that makes a check flaky (default 3)
      --out <file>            write the HTML there instead
  demo                                        the bundled benchmarks on the built-in stand-in model
  experiment filing [--seed N]                the filing-system experiment: three memory policies, one table
  new <name>                                  a new benchmark folder under benchmarks/ to start from
  stand-in [--port N]                         serve the stand-in model (OpenAI-compatible) until Ctrl-C

Exit status: 0 success, 1 errors found or a run crashed, 2 usage or config error, 130 stopped.
`;

/** The bundled benchmarks: beside the bundle in a package, or at the repository's top. */
function bundledBenchmarks(): string {
  const candidates = [join(__dirname, '..', 'benchmarks'), join(__dirname, '..', '..', '..', 'benchmarks')];
  return candidates.find((c) => existsSync(c)) ?? candidates[0]!;
}

export async function main(argv: string[], cwd: string, io: Io): Promise<number> {
  const [command, ...rest] = argv;
  const flags = rest.filter((a) => a.startsWith('-'));
  const words = rest.filter((a, i) => !a.startsWith('-') && !['--config', '--seed', '--port', '--from', '--benchmark', '--out', '--flaky'].includes(rest[i - 1] ?? ''));
  /** The value after an option, or undefined without the option; `example` shows a good one. */
  const option = (name: string, example = '') => {
    const at = rest.indexOf(name);
    if (at < 0) return undefined;
    const value = rest[at + 1];
    if (value === undefined || value.startsWith('-')) throw new UsageError(`${name} needs a value${example ? `, as in ${name} ${example}` : ''}`);
    return value;
  };
  const configAt = rest.indexOf('--config');
  const configPath = resolve(cwd, configAt >= 0 ? rest[configAt + 1] ?? '' : 'config.jsonc');
  const allow = (...known: string[]) => {
    for (const f of flags) if (!known.includes(f)) throw new UsageError(`unknown option ${f} for ${command}`);
    if (configAt >= 0 && !rest[configAt + 1]) throw new UsageError('--config needs a file: --config path/to/config.jsonc');
  };
  try {
    switch (command) {
      case undefined:
        io.err(USAGE);
        return 2;
      case 'help': case '--help': case '-h':
        io.out(USAGE);
        return 0;
      case 'check':
        allow('--json', '--coverage');
        return runCheck({ targets: words, json: flags.includes('--json'), coverage: flags.includes('--coverage'), cwd }, io.out);
      case 'run': {
        allow('--config', '--restart', '--from', '--only', '--rehearse', '--benchmark');
        const from = option('--from', 'chapter1.md:1');
        const benchmark = option('--benchmark', 'starter');
        if (!from && (flags.includes('--only') || flags.includes('--rehearse') || benchmark)) throw new UsageError('--only, --rehearse and --benchmark go with --from <chapter.md>:<phase>.');
        return await runCommand({
          ids: words, configPath, restart: flags.includes('--restart'),
          ...(from ? { partial: { from, only: flags.includes('--only'), rehearse: flags.includes('--rehearse'), ...(benchmark ? { benchmark } : {}) } } : {}),
        }, io);
      }
      case 'report':
        allow('--config', '--html', '--compare', '--trends', '--out', '--flaky');
        return reportViews(words, flags, option, { root: dirname(configPath), configPath, bundled: bundledBenchmarks() }, io);
      case 'demo':
        allow();
        return await demoCommand(cwd, bundledBenchmarks(), io);
      case 'stand-in': {
        allow('--port');
        const portAt = rest.indexOf('--port');
        const port = portAt >= 0 ? Number(rest[portAt + 1]) : 0;
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
      case 'new':
        allow();
        return newCommand(words[0], cwd, io.out);
      case 'experiment': {
        allow('--seed');
        if (words[0] !== 'filing') throw new UsageError('unknown experiment: the one there is, is `mmb experiment filing [--seed N]`');
        const seedAt = rest.indexOf('--seed');
        const seed = seedAt >= 0 ? Number(rest[seedAt + 1]) : DEFAULT_SEED;
        if (!Number.isInteger(seed) || seed < 0) throw new UsageError('--seed needs a whole number, e.g. --seed 1107');
        io.out(formatFilingTable(await runFilingExperiment(cwd, seed), seed));
        return 0;
      }
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (e) {
    if (e instanceof UsageError || e instanceof ConfigError) {
      io.err(`mmb: ${e.message}\n${e.message.startsWith('unknown') ? `\n${USAGE}` : ''}`);
      return 2;
    }
    throw e;
  }
}

if (require.main === module) {
  const controller = new AbortController();
  process.on('SIGINT', () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\nmmb: stopping after the current step (Ctrl-C again to quit at once); the run resumes where it stopped.\n');
    controller.abort();
  });
  const io: Io = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s), tty: !!process.stdout.isTTY, env: process.env, signal: controller.signal };
  main(process.argv.slice(2), process.cwd(), io).then((code) => {
    process.exitCode = code;
  }, (e: unknown) => {
    process.stderr.write(`mmb: internal error: ${e instanceof Error ? e.stack : String(e)}\nPlease report it with the command you ran.\n`);
    process.exitCode = 70;
  });
}
