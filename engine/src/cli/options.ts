/**
 * The commands of `mmb` and their options, declared once: the parser knows from this table
 * which options take a value, and the usage text is printed from it. `mmb run`'s options are the
 * ones the editor's run requests produce (`protocol/runRequest.ts`; a test round-trips them).
 */
import { UsageError } from '../errors';
import { RUN_OPTIONS } from '../protocol/runRequest';

export interface OptionSpec {
  name: string;
  /** The value the option takes, as the usage shows it; absent for a flag. */
  value?: string;
  /** A good value, for the message when the value is missing. */
  example?: string;
  /** What follows a flag in the usage when it takes words rather than a value (`--compare <a> <b> ...`). */
  words?: string;
  help: string;
}

export interface CommandSpec {
  name: string;
  /** What follows the name in the usage, e.g. `[<run-id>...] [--config <file>]`. */
  synopsis: string;
  help: string;
  options: OptionSpec[];
}

const CONFIG: OptionSpec = { name: '--config', value: '<file>', example: 'path/to/config.jsonc', help: 'the config.jsonc to read (default: the one here)' };
const JUNIT: OptionSpec = { name: '--junit', value: '<file>', example: 'results.xml', help: 'a JUnit XML file for CI: one case per check, failing below the pass score' };
const PASS_SCORE: OptionSpec = { name: '--pass-score', value: 'N', example: '8', help: 'with --junit: a check passes from this grade (default 8)' };
const FAIL_UNDER: OptionSpec = { name: '--fail-under', value: 'SCORE', example: '7.5', help: 'exit 1 when a run averages below SCORE' };

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'check', synopsis: '[<benchmark-dir>... | config.jsonc]', help: 'validate benchmarks (default: benchmarks/* and config.jsonc here)',
    options: [
      { name: '--json', help: 'machine-readable diagnostics' },
      { name: '--coverage', help: 'facts, sheets told, checks and traps by type, trap-to-check distances' },
    ],
  },
  {
    name: 'run', synopsis: '[<run-id>...] [--config <file>]', help: 'run benchmarks as config.jsonc says (default: every run)',
    options: [
      CONFIG,
      { name: RUN_OPTIONS.restart, help: 'start the runs over (their results are deleted first)' },
      { name: RUN_OPTIONS.from, value: '<chapter.md>:<phase>', example: 'chapter1.md:1', help: 'a fresh run from this phase (named <run-id>.from-…)' },
      { name: RUN_OPTIONS.only, help: 'with --from: this phase only (named <run-id>.phase-…)' },
      { name: RUN_OPTIONS.rehearse, help: 'with --from: persona and agent on the stand-in model, no key, no cost' },
      { name: RUN_OPTIONS.benchmark, value: '<name>', example: 'starter', help: 'with --from --rehearse: no run of config.jsonc needed' },
      JUNIT, PASS_SCORE, FAIL_UNDER,
    ],
  },
  {
    name: 'report', synopsis: '[<run-id>...] [--config <file>]', help: 'the runs\' scores, or one run\'s full report entry',
    options: [
      CONFIG,
      { name: '--html', help: 'results/<run-id>/report.html: charts, imperfect answers, conversation, cost' },
      { name: '--compare', words: '<a> <b> ...', help: 'runs of one benchmark side by side: results/compare-<a>-vs-<b>.html' },
      { name: '--trends', words: '[<run-id>...]', help: 'repeated runs by benchmark and agent, flaky checks marked: results/trends.html' },
      { name: '--flaky', value: 'N', example: '3', help: 'with --trends: the spread of grades that makes a check flaky (default 3)' },
      { name: '--out', value: '<file>', example: 'report.html', help: 'write the HTML there instead' },
      { name: '--json', help: 'every run\'s summary (the figures of summary.json) as one JSON document on stdout' },
      JUNIT, PASS_SCORE, FAIL_UNDER,
    ],
  },
  { name: 'demo', synopsis: '', help: 'the bundled benchmarks on the built-in stand-in model', options: [] },
  {
    name: 'experiment', synopsis: 'filing [--seed N]', help: 'the filing-system experiment: three memory policies, one table',
    options: [{ name: '--seed', value: 'N', example: '1107', help: 'the seed of the simulated world' }],
  },
  { name: 'new', synopsis: '<name>', help: 'a new benchmark folder under benchmarks/ to start from', options: [] },
  {
    name: 'stand-in', synopsis: '[--port N]', help: 'serve the stand-in model (OpenAI-compatible) until Ctrl-C',
    options: [{ name: '--port', value: 'N', example: '8080', help: 'the port (default: one the system picks)' }],
  },
];

/** The usage text, from the table. */
export function usageText(): string {
  const lines = ['Usage: mmb <command> [options]', '', 'Commands:'];
  for (const command of COMMANDS) {
    lines.push(`  ${`${command.name} ${command.synopsis}`.trimEnd().padEnd(44)}${command.help}`);
    // Options already in the synopsis (`--config <file>`, `--seed N`) are not listed twice.
    const listed = command.options.filter((o) => !command.synopsis.includes(o.name));
    const shown = listed.map((o) => [o.name, o.value, o.words].filter(Boolean).join(' '));
    const width = Math.max(0, ...shown.map((s) => s.length)) + 3;
    listed.forEach((option, i) => lines.push(`      ${shown[i]!.padEnd(width)}${option.help}`));
  }
  lines.push('', 'Exit status: 0 success, 1 errors found or a run crashed, 2 usage or config error, 75 the disk is full',
    '(free space and run again to resume), 130 stopped.', '');
  return lines.join('\n');
}

/** A command line taken apart by the table of its command. */
export interface ParsedArguments {
  command: string | undefined;
  /** The arguments that are neither options nor an option's value. */
  words: string[];
  /** Every argument that starts with `-`, in order. */
  flags: string[];
  /** The value after an option; undefined without the option; throws when the option has none. */
  option(name: string): string | undefined;
  /** The argument right after an option, whatever it is, for options that check their value themselves. */
  valueAfter(name: string): string | undefined;
}

/** Splits a command line by its command's options; throws `UsageError` for an option the command does not know. */
export function parseArguments(argv: readonly string[]): ParsedArguments {
  const [command, ...rest] = argv;
  const spec = COMMANDS.find((c) => c.name === command);
  const takesValue = new Set(spec?.options.filter((o) => o.value !== undefined).map((o) => o.name) ?? []);
  const flags = rest.filter((a) => a.startsWith('-'));
  const words = rest.filter((a, i) => !a.startsWith('-') && !takesValue.has(rest[i - 1] ?? ''));
  if (spec) {
    for (const flag of flags) if (!spec.options.some((o) => o.name === flag)) throw new UsageError(`unknown option ${flag} for ${command}`);
  }
  const valueAfter = (name: string): string | undefined => {
    const at = rest.indexOf(name);
    return at < 0 ? undefined : rest[at + 1];
  };
  const option = (name: string): string | undefined => {
    if (!rest.includes(name)) return undefined;
    const value = valueAfter(name);
    const example = spec?.options.find((o) => o.name === name)?.example;
    if (value === undefined || value.startsWith('-')) throw new UsageError(`${name} needs a value${example ? `, as in ${name} ${example}` : ''}`);
    return value;
  };
  return { command, words, flags, option, valueAfter };
}
