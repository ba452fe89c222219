/**
 * What the extension's notifications say and offer, as plain values: a run that could not start
 * or crashed, a key just stored, and a command that cannot do what it was asked. Each carries the
 * actions that fix it, and its severity is the one the run view's row shows (could not start is
 * an amber ⚠ in both; only a crash is red). No VS Code here, so each wording is tested on plain values.
 */
import type { PhaseTarget } from './commands';
import type { RunFailure } from './runInfo';

/** The actions a notification may offer, by the titles the user reads. */
export const ACTION = {
  setKey: 'Set an API key…',
  rehearse: 'Rehearse instead',
  addRun: 'Add a run…',
  openConfig: 'Open config.jsonc',
  openLog: 'Open the log',
  showOutput: 'Show the output',
  startAgain: 'Start again',
  resume: 'Resume',
  showRun: 'Show the run',
  copyBundled: 'Copy the bundled benchmarks',
  trust: 'Manage Workspace Trust',
} as const;

export type ToastAction = (typeof ACTION)[keyof typeof ACTION];

/**
 * A notification shows this many buttons whole (at 1,000 px a fourth cut them all to "Open th…"); the
 * log goes first when there are more: the reason is in the notification, and the log is on the run's row.
 */
const MAX_ACTIONS = 3;

/** `warning` is amber ⚠, `error` red ✗, `info` blue ⓘ: the same icons the run view's rows use. */
export type Severity = 'error' | 'warning' | 'info';

/** What an action acts on: the run, or the benchmark and phase a lens was above. */
export interface ToastSubject {
  run?: string;
  benchmark?: string;
  target?: PhaseTarget;
}

export interface Toast {
  severity: Severity;
  /** Without the `MarathonMemBench: ` prefix, which the glue adds. */
  text: string;
  actions: ToastAction[];
  subject: ToastSubject;
}

/** A command that cannot go on, with the actions that get the user going: its notification is built from it. */
export class ActionError extends Error {
  constructor(
    message: string,
    readonly actions: ToastAction[],
    readonly severity: Severity = 'warning',
    readonly subject: ToastSubject = {},
  ) {
    super(message);
  }
}

/** A thrown error as a notification: an ActionError's own; anything else amber, with the config to look at. */
export function errorToast(error: unknown): Toast {
  if (error instanceof ActionError)
    return { severity: error.severity, text: error.message, actions: error.actions, subject: error.subject };
  return { severity: 'warning', text: error instanceof Error ? error.message : String(error), actions: [ACTION.openConfig], subject: {} };
}

/**
 * How bad a failure is, for its row and its notification alike: an engine that refused to start
 * (a missing key, a broken config) ran nothing and is amber; a run that crashed is red.
 */
export function failureSeverity(failure: Pick<RunFailure, 'couldNotStart'>): Severity {
  return failure.couldNotStart ? 'warning' : 'error';
}

/** What the glue knows of a failed run besides the failure. */
export interface FailureContext {
  configExists: boolean;
  /** In config.jsonc: it resumes; a phase run or rehearsal starts again as it was asked for. */
  configured: boolean;
  /** It called a real model: a rehearsal on the stand-in is a way forward with no key. */
  real: boolean;
}

/**
 * A run that could not start or crashed, said with one word for what happened (`local-broken
 * crashed: …`, not `stopped: crashed: …`), and the actions that fix it, the likeliest first.
 */
export function failureToast(failure: RunFailure, context: FailureContext): Toast {
  const subject = { run: failure.run };
  if (failure.couldNotStart) {
    const actions: ToastAction[] = [
      ...(failure.missingKey ? [ACTION.setKey] : []),
      ...(context.real ? [ACTION.rehearse] : []),
      ...(context.configExists ? [ACTION.openConfig] : []),
      ACTION.openLog,
    ].slice(0, MAX_ACTIONS);
    return { severity: 'warning', text: `${failure.run} could not start: ${failure.reason}`, actions, subject };
  }
  const reason = failure.reason.replace(/^(?:crashed|stopped)(?::\s*|\s+)/, '');
  const actions: ToastAction[] = [
    ...(failure.missingKey ? [ACTION.setKey] : []),
    context.configured ? ACTION.resume : ACTION.startAgain,
    ACTION.openLog,
  ];
  return { severity: failureSeverity(failure), text: `${failure.run} crashed: ${reason}`, actions, subject };
}

/** After a key is stored: the runs that could not start without it, offered to start again. */
export function keyStoredToast(name: string, failures: readonly RunFailure[]): Toast & { runs: string[] } {
  const runs = failures
    .filter((f) => f.missingKey === name)
    .sort((a, b) => a.at.localeCompare(b.at))
    .map((f) => f.run);
  const stored = `${name} is stored; runs started from the editor get it.`;
  if (runs.length === 0) return { severity: 'info', text: stored, actions: [], subject: {}, runs };
  const waiting = runs.length === 1 ? `${runs[0]} could not start without it` : `${runs.length} runs could not start without it`;
  return { severity: 'info', text: `${stored} ${waiting}.`, actions: [ACTION.startAgain], subject: { run: runs[0] }, runs };
}
