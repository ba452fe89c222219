/**
 * What the run view, the failure notifications and the Test Explorer say about a run, as plain
 * values: the one-line reason an engine gave up, the row a run gets, the order of the rows, each
 * check's own duration and the paid models a run would call. No VS Code here, so it is tested
 * on plain values.
 */
import { averageLabel, type PanelRunAction, type RunRequest, type RunState } from '../../engine/src/api';
import type { Config } from '../../scenario/src';
import type { RunStatus, RunView } from './results';
import { shorten, shortenMiddle } from '../../scenario/src/plainText';
import { failureSeverity, type Severity } from './toasts';

/** The model name of the built-in stand-in: a run on it costs nothing. */
const STAND_IN = 'stand-in';
/** A reason is one line of the engine's (it bounds its own at 500); a longer one is not its own. */
const MAX_REASON = 500;
/** The longest environment variable name we offer to fill in: anything longer is not a variable name. */
const MAX_VARIABLE = 128;

/** Why a run started from the editor ended badly, as the engine said it. */
export interface RunFailure {
  run: string;
  /** The engine's one-line error, without its `mmb: ` and run-name prefix. */
  reason: string;
  /** The environment variable a missing API key should be in, when that was the problem. */
  missingKey?: string;
  /** True when the engine refused to start: no results to resume, only the reason. */
  couldNotStart: boolean;
  /** When the engine ended (ISO time). */
  at: string;
}

/** Cuts a text to `max` characters, marking the cut. */
function bounded(text: string, max: number): string {
  return shorten(text, max);
}

/**
 * The reason in an engine's log: its last `mmb: ` line that is not a notice (the CLI writes
 * every problem as one), else the last line it wrote. `exitCode` says whether it started at all: 2 is a problem with
 * what was asked (a missing key, a broken config), before anything ran.
 */
export function failureFromLog(run: string, log: string, exitCode: number | null, at: string): RunFailure {
  const lines = log
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  // A notice (a shared key, no sandbox here) comes first and is not why a run failed.
  const problems = lines.filter((l) => !l.startsWith('mmb: notice: '));
  const own = problems.filter((l) => l.startsWith('mmb: ')).pop();
  let reason = own?.slice('mmb: '.length) ?? problems.pop() ?? `the engine ended with status ${exitCode ?? 'unknown'} and wrote nothing`;
  for (const prefix of [`run "${run}": `, `run "${run}" `]) if (reason.startsWith(prefix)) reason = reason.slice(prefix.length);
  reason = bounded(reason, MAX_REASON);
  const variable = /environment variable ([A-Z_][A-Z0-9_]*)/.exec(reason)?.[1];
  return {
    run,
    reason,
    at,
    couldNotStart: exitCode === 2,
    ...(variable && variable.length <= MAX_VARIABLE && /API key/i.test(reason) ? { missingKey: variable } : {}),
  };
}

/**
 * A row's status: a run's, that it could not start (the engine refused it), or that this window
 * just started its engine, which has not taken the run's lock yet (`starting`, `resuming`).
 */
export type RowStatus = RunStatus | 'could not start' | StartWord;

/** What a row says between *Start* or *Resume* and the engine's lock: never the status it had before. */
export type StartWord = 'starting' | 'resuming';

/** `resuming` for a run of config.jsonc that has results to go on from; `starting` for everything else. */
export function startWord(request: RunRequest, statusBefore: RunStatus | undefined): StartWord {
  const resumes = request.kind === 'configured' && request.start === 'resume';
  return resumes && (statusBefore === 'stopped' || statusBefore === 'crashed') ? 'resuming' : 'starting';
}

/** How a row of the run view looks; `icon` is a codicon id, `colour` a theme colour id. */
export interface RunRow {
  name: string;
  status: RowStatus;
  description: string;
  tooltip: string[];
  icon: string;
  colour?: string;
  /** What the row's inline actions key on (`view/item/context` `when` clauses). */
  contextValue: string;
}

/** The row icon of a notification's severity: a failure's row and its notification wear the same one. */
export const SEVERITY_ICONS: Record<Severity, { icon: string; colour: string }> = {
  error: { icon: 'error', colour: 'testing.iconFailed' },
  warning: { icon: 'warning', colour: 'list.warningForeground' },
  info: { icon: 'info', colour: 'charts.blue' },
};

const STATUS_ICONS: Record<RowStatus, { icon: string; colour?: string }> = {
  running: { icon: 'sync~spin', colour: 'charts.blue' },
  starting: { icon: 'loading~spin', colour: 'charts.blue' },
  resuming: { icon: 'loading~spin', colour: 'charts.blue' },
  finished: { icon: 'pass-filled', colour: 'testing.iconPassed' },
  crashed: SEVERITY_ICONS[failureSeverity({ couldNotStart: false })],
  stopped: { icon: 'debug-pause', colour: 'charts.yellow' },
  'not started': { icon: 'circle-large-outline' },
  'could not start': SEVERITY_ICONS[failureSeverity({ couldNotStart: true })],
  damaged: { icon: 'warning', colour: 'testing.iconFailed' },
};

/** The buttons a run of each status offers in its conversation panel. */
export const ROW_ACTIONS: Record<RowStatus, Exclude<PanelRunAction, 'select'>[]> = {
  running: ['stop', 'log'],
  // Its engine has not taken the lock yet: nothing to stop, the log already fills.
  starting: ['log'],
  resuming: ['log'],
  'not started': ['start'],
  'could not start': ['start', 'log'],
  stopped: ['resume', 'restart', 'report', 'log'],
  crashed: ['resume', 'restart', 'report', 'log'],
  finished: ['report', 'restart', 'log'],
  damaged: ['restart', 'log'],
};

/** Where a run is, said for its status: a run that ended is not "now" anywhere. */
export function whereLabel(status: RunStatus, position: string): string {
  switch (status) {
    case 'running':
      return `Now ${position}`;
    case 'finished':
      return `Ended after ${position}`;
    case 'crashed':
      return `Crashed in ${position}`;
    case 'stopped':
      return `Stopped in ${position}; resume to go on`;
    default:
      return position;
  }
}

/**
 * The row of a run: its status icon and colour, the score and progress as its description, the
 * details in its tooltip. A failure newer than the run's last event wins: the run could not start.
 * `started`, while this window's engine of the run has not taken its lock, wins over the status
 * the run had before (a resumed run is not "stopped" while its engine comes up).
 */
export function runRow(view: RunView, failure: RunFailure | undefined, started?: StartWord): RunRow {
  const failed = failure && failure.couldNotStart && view.status !== 'running' && (!view.lastEventAt || view.lastEventAt < failure.at);
  const status: RowStatus = started && view.status !== 'running' ? started : failed ? 'could not start' : view.status;
  const score = view.average === null ? undefined : averageLabel(view.average);
  const where = view.chapter ? `${view.chapter} ph ${view.phase ?? ''}` : undefined;
  const parts: (string | undefined)[] =
    status === 'could not start'
      ? [`could not start: ${failure!.reason}`]
      : status === 'running'
        ? [where, `${view.graded} graded`, view.waiting]
        : status === 'starting' || status === 'resuming'
          ? [status, ...(score ? [score] : [])]
          : status === 'not started'
            ? ['not started']
            : [score, status, `${view.graded} graded`];
  const tooltip = [
    `${view.name}: ${status}`,
    ...(view.benchmark ? [`${view.benchmark} @ ${view.agent}`] : []),
    // While its engine comes up, a resumed run is not "stopped" anywhere, its tooltip included.
    ...(where && status !== 'resuming' ? [whereLabel(view.status, `${view.chapter}, phase ${view.phase ?? ''}`)] : []),
    ...(score ? [`average ${score} over ${view.graded} checks`] : []),
    ...(view.waiting ? [view.waiting] : []),
    ...(status === 'could not start' ? [failure!.reason] : view.error ? [view.error] : []),
    ...(view.standInNote && status !== 'could not start' ? [view.standInNote] : []),
  ];
  const kind = status === 'could not start' ? 'failed' : status.replace(' ', '');
  return {
    name: view.name,
    status,
    description: bounded(parts.filter((p) => p).join(' · '), 200),
    tooltip,
    ...STATUS_ICONS[status],
    // A damaged run has no results to show: its actions are a restart and the log.
    contextValue: `run-${kind}${view.status === 'not started' || view.status === 'damaged' ? '' : '-results'}`,
  };
}

/**
 * The rows in an order that holds while runs go: config.jsonc's runs in its order, then the
 * others by when they started, newest first (never by their last event, which moves).
 */
export function stableOrder(views: readonly RunView[], startedAt: (run: string) => string | undefined): RunView[] {
  const configured = views.filter((v) => v.configured);
  const others = views
    .filter((v) => !v.configured)
    .map((v) => ({ v, started: startedAt(v.name) ?? '' }))
    .sort((a, b) => b.started.localeCompare(a.started) || a.v.name.localeCompare(b.v.name))
    .map((x) => x.v);
  return [...configured, ...others];
}

/**
 * Each check's own time: from the grade before it (the run's start for the first) to its grade,
 * so that the checks of a run add up to the run's time. A run stopped and resumed has gaps of
 * wall time in it: the durations are scaled down to the time the run was active.
 */
export function checkDurations(state: Pick<RunState, 'grades' | 'startedAt' | 'activeMs'>): Map<string, number> {
  const graded = Object.entries(state.grades)
    .flatMap(([id, grades]) => {
      const at = Date.parse(grades[grades.length - 1]?.at ?? '');
      return Number.isFinite(at) ? [{ id, at }] : [];
    })
    .sort((a, b) => a.at - b.at);
  const out = new Map<string, number>();
  let previous = Date.parse(state.startedAt);
  for (const g of graded) {
    out.set(g.id, Number.isFinite(previous) ? Math.max(0, g.at - previous) : 0);
    previous = g.at;
  }
  const total = [...out.values()].reduce((a, b) => a + b, 0);
  if (state.activeMs > 0 && total > state.activeMs) for (const [id, ms] of out) out.set(id, Math.round((ms * state.activeMs) / total));
  return out;
}

/** The paid models a run of config.jsonc calls, as `persona deepseek-v4-flash`; empty when all are the stand-in. */
export function paidModels(config: Pick<Config, 'persona' | 'runs'>, run: string): string[] {
  const out: string[] = [];
  if (config.persona.model !== STAND_IN) out.push(`persona ${config.persona.model}`);
  const options = config.runs.find((r) => r.name === run)?.options ?? {};
  for (const [key, value] of Object.entries(options)) {
    const model = typeof value === 'object' && value !== null ? (value as { model?: unknown }).model : undefined;
    if (typeof model === 'string' && model !== STAND_IN) out.push(`${key} ${bounded(model, 100)}`);
  }
  return out;
}

/**
 * The longest run name a row of the run view shows whole. VS Code cuts a row's label and description
 * at their end, so a long id (`starter.phase-chapter3-1.rehearsal`) hid the status and score after it
 * in a 300 px side bar (1,000 px window); 18 characters leave room for `10.00/10 · finished` there. A
 * longer name is cut in its middle, most of it kept from the end, where ids differ; the whole id is
 * in the tooltip and the aria label.
 */
export const RUN_LABEL_MAX = 18;

/** A run view row's label: the run id, cut in its middle past `RUN_LABEL_MAX`. */
export function runLabel(name: string): string {
  return shortenMiddle(name, RUN_LABEL_MAX);
}
