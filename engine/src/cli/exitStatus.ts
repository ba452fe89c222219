/**
 * The exit status of each error class the engine throws (`errors.ts`), and the one line the CLI
 * prints for it. Exit 70 (sysexits' EX_SOFTWARE, "internal error") is left to the project's own
 * bugs: engine/test/exitStatus.test.ts walks every class `errors.ts` exports and holds each to a
 * row here.
 */
import { DISK_FULL_EXIT, diskFullMessage } from '../diskFull';
import {
  AgentStartFailure,
  ConfigError,
  DiskFull,
  GatewayError,
  GitMissingError,
  JsBlockError,
  NoteError,
  RunBusy,
  RunDamaged,
  RunStopped,
  UsageError,
} from '../errors';
import { damagedLine } from '../runFile';
import { oneLine as textOnOneLine, shorten } from '../../../scenario/src/plainText';

/** `mmb`'s exit status for a bug of this project: an error no row below knows. */
export const INTERNAL_ERROR_EXIT = 70;

/** The longest line printed for an error: a path, a name or an agent's words may be any length. */
export const MAX_ERROR_LINE_CHARS = 500;

type ErrorClass = abstract new (...args: never[]) => Error;

interface ExitRow {
  error: ErrorClass;
  status: number;
  /** Its line, when the message alone does not say it. */
  line?: (error: Error) => string;
}

/** One row per class of `errors.ts`, by what the user can do about it. */
export const EXIT_STATUS_TABLE: readonly ExitRow[] = [
  // What the user asked for, or settings that stop a command before anything runs.
  { error: UsageError, status: 2 },
  { error: ConfigError, status: 2 },
  { error: RunBusy, status: 2 },
  { error: GitMissingError, status: 2 },
  // A run named on the command line whose files are damaged: its data cannot be read, and the line says what to do.
  { error: RunDamaged, status: 2, line: (error) => damagedLine(error as RunDamaged) },
  // Stopped on request: resumable, as after Ctrl-C (128 + SIGINT).
  { error: RunStopped, status: 130 },
  { error: DiskFull, status: DISK_FULL_EXIT, line: (error) => diskFullMessage(error) },
  // Failures of an agent or of a benchmark's JS: the run's crash, as `mmb run` reports one.
  { error: AgentStartFailure, status: 1 },
  { error: GatewayError, status: 1 },
  { error: NoteError, status: 1 },
  { error: JsBlockError, status: 1 },
];

/** The status and the one line for an error of the table; undefined for any other (a bug: exit 70). */
export function knownFailure(error: unknown): { status: number; line: string } | undefined {
  if (!(error instanceof Error)) return undefined;
  const row = EXIT_STATUS_TABLE.find((entry) => error instanceof entry.error);
  if (!row) return undefined;
  return { status: row.status, line: oneLine(row.line ? row.line(error) : error.message) };
}

/** A message as one bounded line: an agent's or a model's words cannot pass for lines of the CLI's own. */
export function oneLine(text: string): string {
  return shorten(textOnOneLine(text) || 'failed, without a message', MAX_ERROR_LINE_CHARS);
}
