/**
 * The shape of a command's entry in `mmb`'s table (`options.ts`), its exit statuses, and the
 * options several commands share (`--config`, the CI outputs), declared once for the table to use.
 */
import { DISK_FULL_EXIT } from '../diskFull';

export interface OptionSpec {
  name: string;
  /** A short name that means the same (`-j` for `--max-concurrency`); the parser reports it by `name`. */
  alias?: string;
  /** The value the option takes, as the usage shows it; absent for a flag. */
  value?: string;
  /** A good value, for the message when the value is missing. */
  example?: string;
  /** What follows a flag in the usage when it takes words rather than a value (`--compare <a> <b> ...`). */
  words?: string;
  /** An option with a value that may be given more than once (`--judge a --judge b`): `ParsedArguments.values` has them all. */
  repeatable?: true;
  help: string;
}

export interface CommandSpec {
  name: string;
  /** What follows the name in the usage, e.g. `[<run-id>...] [--config <file>]`. */
  synopsis: string;
  help: string;
  options: OptionSpec[];
  /** What each exit status of the command means, for its `--help`; absent: done or a usage problem. */
  exits?: readonly ExitStatus[];
}

export interface ExitStatus {
  code: number;
  meaning: string;
}

/** The exit statuses every command shares; docs/commands.md documents them and scripts rely on them. */
export const EXIT = {
  done: { code: 0, meaning: 'done' },
  usage: { code: 2, meaning: 'a usage or config problem (nothing was done)' },
  diskFull: { code: DISK_FULL_EXIT, meaning: 'the disk is full or read-only: free space (or make it writable) and run again to resume' },
  stopped: { code: 130, meaning: 'stopped with Ctrl-C: run again to resume' },
} as const satisfies Record<string, ExitStatus>;

export const RUN_EXITS: readonly ExitStatus[] = [
  { code: 0, meaning: 'every run finished' },
  { code: 1, meaning: 'a run crashed, or a --fail-under threshold was missed' },
  { code: 2, meaning: 'a usage, config or benchmark problem (nothing ran)' },
  EXIT.diskFull,
  EXIT.stopped,
];

/** `mmb demo`'s: a run's, but the demo takes no --fail-under (a command's help names only options it takes). */
export const DEMO_EXITS: readonly ExitStatus[] = RUN_EXITS.map((exit) => (exit.code === 1 ? { code: 1, meaning: 'a run crashed' } : exit));

export const CONFIG: OptionSpec = {
  name: '--config',
  value: '<file>',
  example: 'path/to/config.jsonc',
  help: 'the config.jsonc to read (default: the one here)',
};
export const JUNIT: OptionSpec = {
  name: '--junit',
  value: '<file>',
  example: 'results.xml',
  help: 'a JUnit XML file for CI: one case per check, failing below the pass score',
};
export const PASS_SCORE: OptionSpec = {
  name: '--pass-score',
  value: 'N',
  example: '8',
  help: 'with --junit: a check passes from this grade (default 8)',
};
export const FAIL_UNDER: OptionSpec = {
  name: '--fail-under',
  value: 'SCORE',
  example: '7.5',
  help: 'exit 1 when a run averages below SCORE',
};
