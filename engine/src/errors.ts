/**
 * The engine's error classes, below every folder, so any folder can throw or catch one. The first
 * three stop a command because of what the user asked for, as opposed to problems found inside a
 * benchmark (those are diagnostics): the CLI prints each as one message on stderr and exits 2,
 * without a stack trace. The others are the run's own ends and the agents' failures. Each class
 * has its exit status in `cli/exitStatus.ts`; exit 70 is left to the project's own bugs.
 */
import { isAbsolute, relative } from 'node:path';
import { maskSecrets } from './secrets';
import { oneLine } from '../../scenario/src/plainText';

/** A problem with what the user asked for: a path, a name, an option. */
export class UsageError extends Error {}

/** A problem with settings (config.jsonc, a model, a key) that stops a run before it starts. */
export class ConfigError extends Error {}

/** A run that another live process holds (its `run.lock`). */
export class RunBusy extends Error {}

/** Thrown when a run is stopped on request (Ctrl-C): the run is not finished, only paused. */
export class RunStopped extends Error {}

/**
 * The disk is full (ENOSPC, EDQUOT) or read-only (EROFS): the writer stopped with its files left
 * consistent (a half-written line cut off again); the run resumes once space is back.
 */
export class DiskFull extends Error {
  /** `bytes`: the size of the write that failed, when known. */
  constructor(
    readonly path: string,
    options?: ErrorOptions & { bytes?: number; readOnly?: boolean },
  ) {
    super(`${options?.readOnly ? 'a read-only disk' : 'no space left on the disk'} writing ${path}`, options);
    this.bytes = options?.bytes;
    this.readOnly = options?.readOnly ?? false;
  }

  readonly bytes: number | undefined;
  readonly readOnly: boolean;
}

/** A phase's JS block failed or overstayed; the message names its chapter and line. */
export class JsBlockError extends Error {}

/** An error frame of OpenClaw's gateway, with its code and the wait it asks for. */
export class GatewayError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** A mistake of the notebook's model with its notes: the tool result tells it what to do instead. */
export class NoteError extends Error {}

/** The notebook needs the `git` CLI, and there is none on PATH. */
export class GitMissingError extends Error {}

/** Lines of the agent's stderr an AgentStartFailure keeps, and the characters of each. */
const START_FAILURE_STDERR_LINES = 5;
const START_FAILURE_LINE_CHARS = 300;

/**
 * An agent that could not start or shake hands: its command failed to spawn, it printed something
 * that is not the protocol, it speaks another protocol version, it never answered, or its module
 * threw as it loaded. The run journals it as its crash. The message is one line and ends with the
 * agent's last lines on stderr, when it wrote any, with every key the process read masked.
 */
export class AgentStartFailure extends Error {
  readonly stderr: readonly string[];

  constructor(reason: string, options?: ErrorOptions & { stderr?: readonly string[] }) {
    const lines = options?.stderr ?? [];
    const stderr = lines.slice(-START_FAILURE_STDERR_LINES).map((line) => maskSecrets(oneLine(line).slice(0, START_FAILURE_LINE_CHARS)));
    const said = stderr.length ? `; its last lines on stderr: ${stderr.join(' | ')}` : '';
    super(maskSecrets(`the agent did not start: ${oneLine(reason)}${said}`), options);
    this.stderr = stderr;
  }
}

/**
 * A file of a run that is not what the engine writes (not JSON, cut, of the wrong shape, a folder
 * where a file goes): the run cannot be read or resumed, and it harms no other run. `file` is the
 * file's name in the run's folder, `path` where it is, `what` the first problem, one line.
 */
export class RunDamaged extends Error {
  constructor(
    readonly path: string,
    readonly file: string,
    readonly what: string,
    options?: ErrorOptions,
  ) {
    super(`damaged: ${shownPath(path)}: ${what}`, options);
  }
}

/** A path as the user may type it: relative to the working folder when inside it. */
function shownPath(path: string): string {
  const from = relative(process.cwd(), path);
  return from && !from.startsWith('..') && !isAbsolute(from) ? from : path;
}
