/**
 * The messages between the editor and its webviews, declared once as unions keyed on `type`.
 * The report pages (`report/html/page.ts`, a script inlined in the page) and the run panel
 * (`media/panel.js`, plain JS) post them; the extension (`extension/src/views.ts`, `panel.ts`)
 * receives them through `parseReportMessage` and `parsePanelMessage`, which accept nothing else:
 * a webview's message is untrusted input. The shapes are also in docs/extension.md.
 */

/** A report page asks to open a benchmark file at a 1-based line (relative to the workspace root). */
export const OPEN_SOURCE = 'mmb.openSource';

export type ReportMessage = { type: typeof OPEN_SOURCE; file: string; line: number };

/** The runs index asks to open a run's report, a comparison of the runs selected, or their trends. */
export const OPEN_RUN = 'mmb.openRun';
export const COMPARE_RUNS = 'mmb.compareRuns';
export const SHOW_TRENDS = 'mmb.showTrends';

export type IndexMessage = { type: typeof OPEN_RUN; run: string } | { type: typeof COMPARE_RUNS | typeof SHOW_TRENDS; runs: string[] };

/** The most runs one comparison or trends page takes from a selection. */
export const MAX_SELECTED_RUNS = 50;

/** What the run panel posts: a button on a run, a row selected, a check's cause, or the page loaded. */
export type PanelMessage =
  | { type: 'ready' }
  | { type: 'select'; run: string }
  | { type: 'start' | 'resume' | 'restart' | 'stop' | 'log' | 'report'; run: string }
  | { type: 'compare' | 'trends' }
  | { type: 'cause'; check: string };

export type PanelRunAction = Extract<PanelMessage, { run: string }>['type'];

/** What the extension posts to the run panel: the whole model to render (see `PanelModel`). */
export type PanelModelMessage<Model> = { type: 'model'; model: Model };

/** Run names, check ids and paths are short: anything longer is not one of ours. */
const MAX_FIELD = 1000;

function text(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_FIELD;
}

const RUN_ACTIONS = new Set<string>(['select', 'start', 'resume', 'restart', 'stop', 'log', 'report']);

/** The message of a report page, or undefined for anything that is not one. */
export function parseReportMessage(value: unknown): ReportMessage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const m = value as Record<string, unknown>;
  if (m.type !== OPEN_SOURCE || !text(m.file)) return undefined;
  const line = typeof m.line === 'number' && Number.isInteger(m.line) && m.line >= 1 ? m.line : 1;
  return { type: OPEN_SOURCE, file: m.file, line };
}

/**
 * The message of the runs index, or undefined for anything that is not one: run names are
 * checked for length only here, the extension looks each up among the runs it knows.
 */
export function parseIndexMessage(value: unknown): IndexMessage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const m = value as Record<string, unknown>;
  if (m.type === OPEN_RUN) return text(m.run) ? { type: OPEN_RUN, run: m.run } : undefined;
  if (m.type !== COMPARE_RUNS && m.type !== SHOW_TRENDS) return undefined;
  if (!Array.isArray(m.runs) || m.runs.length > MAX_SELECTED_RUNS || !m.runs.every(text)) return undefined;
  return { type: m.type, runs: [...(m.runs as string[])] };
}

/** The message of the run panel, or undefined for anything that is not one. */
export function parsePanelMessage(value: unknown): PanelMessage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const m = value as Record<string, unknown>;
  if (m.type === 'ready' || m.type === 'compare' || m.type === 'trends') return { type: m.type };
  if (m.type === 'cause') return text(m.check) ? { type: 'cause', check: m.check } : undefined;
  if (typeof m.type === 'string' && RUN_ACTIONS.has(m.type) && text(m.run)) return { type: m.type as PanelRunAction, run: m.run };
  return undefined;
}
