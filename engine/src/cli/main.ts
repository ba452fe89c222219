/** The `mmb` command: argument parsing and dispatch, nothing else. */
import { UsageError } from '../workspace/folders';
import { runCheck } from './check';

const USAGE = `Usage: mmb <command> [options]

Commands:
  check [<benchmark-dir>... | config.jsonc]   validate benchmarks (default: benchmarks/* and config.jsonc here)
      --json       machine-readable diagnostics
      --coverage   facts, sheets told, checks and traps by type, trap-to-check distances

Exit status: 0 no errors, 1 errors found, 2 usage error or unreadable folder.
`;

export function main(argv: string[], cwd: string, out: (s: string) => void, err: (s: string) => void): number {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
      if (command === undefined) {
        err(USAGE);
        return 2;
      }
      out(USAGE);
      return 0;
    }
    if (command === 'check') {
      const flags = new Set(rest.filter((a) => a.startsWith('-')));
      for (const f of flags) if (f !== '--json' && f !== '--coverage') throw new UsageError(`unknown option ${f} for check`);
      return runCheck({ targets: rest.filter((a) => !a.startsWith('-')), json: flags.has('--json'), coverage: flags.has('--coverage'), cwd }, out);
    }
    throw new UsageError(`unknown command "${command}"`);
  } catch (e) {
    if (e instanceof UsageError) {
      err(`mmb: ${e.message}\n${e.message.startsWith('unknown') ? `\n${USAGE}` : ''}`);
      return 2;
    }
    throw e;
  }
}

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2), process.cwd(), (s) => process.stdout.write(s), (s) => process.stderr.write(s));
}
