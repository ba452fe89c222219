/**
 * The pages of `mmb view`, by path: `/` the runs index, `/run/<id>` a run's report,
 * `/compare?run=a&run=b` and `/trends?run=…`. Each is rendered by the same renderers as
 * `mmb report --html/--compare/--trends`; a run that cannot be read, an unknown path or runs that
 * cannot be compared are a one-line page with its status code, never an exception.
 */
import { compareRuns, withTrueStatus } from '../report/compare';
import type { Price } from '../report/cost';
import { renderComparison } from '../report/html/comparePage';
import { renderRunReport } from '../report/html/runPage';
import { renderProblem, renderRunsIndex } from '../report/html/runsIndexPage';
import { renderTrends } from '../report/html/trendsPage';
import type { RenderOptions } from '../report/html/page';
import { readMemorySnapshots } from '../report/memory';
import { indexFilterOf, runsIndex } from '../report/runsIndex';
import { computeTrends, DEFAULT_FLAKY_THRESHOLD } from '../report/trends';
import { runView } from '../report/runView';
import { runRegrades } from '../report/regradeView';
import { MAX_SELECTED_RUNS } from '../protocol/messages';
import type { ReportWorkspace } from '../workspace/results';
import { indexRows, servedIds, servedRun } from './runs';
import { loadRunBenchmark, trendsBenchmarks } from '../workspace/reportBenchmark';
import { liveScript } from './events';

export interface Page {
  status: number;
  html: string;
  /** Whether the page follows runs live (its CSP then allows `connect-src 'self'` for `/events`). */
  live: boolean;
}

function problem(status: number, title: string, text: string, options: RenderOptions): Page {
  return { status, html: renderProblem(title, text, options), live: false };
}

/** What the pages read: the workspace, and config.jsonc's prices read fresh for each page (the CLI's reader). */
export interface ViewContext {
  ws: ReportWorkspace;
  prices: () => Readonly<Record<string, Price>>;
}

/** The page at `path` with its query; `o` carries the nonce of the response. */
export function pageAt(context: ViewContext, path: string, query: URLSearchParams, given: RenderOptions): Page {
  const ws = context.ws;
  // Every page but the index links back to it.
  const o: RenderOptions = { ...given, indexHref: '/' };
  if (path === '/') {
    const index = runsIndex(
      indexRows(ws),
      indexFilterOf((name) => query.get(name)),
    );
    return { status: 200, html: renderRunsIndex(index, { ...given, connectSelf: true, extraScript: liveScript(null) }), live: true };
  }
  const run = /^\/run\/([^/]+)$/.exec(path);
  if (run) {
    let id: string;
    try {
      id = decodeURIComponent(run[1]!);
    } catch {
      return problem(404, 'No such run', 'the run id in this address is not valid.', o);
    }
    return runPage(context, id, o);
  }
  const selected = query.getAll('run').slice(0, MAX_SELECTED_RUNS + 1);
  if (selected.length > MAX_SELECTED_RUNS) return problem(400, 'Too many runs', `select at most ${MAX_SELECTED_RUNS} runs.`, o);
  if (path === '/compare') return comparePage(ws, selected, o);
  if (path === '/trends') return trendsPage(ws, selected, o);
  return problem(404, 'Not found', 'there is no such page: the index is at /.', o);
}

function runPage(context: ViewContext, id: string, options: RenderOptions): Page {
  const ws = context.ws;
  const run = servedRun(ws.root, id);
  // A damaged run is a run like the others, whose page says what is wrong with it: the server has no fault.
  if ('problem' in run)
    return problem(
      run.damaged ? 200 : servedIds(ws.root).includes(id) ? 500 : 404,
      run.damaged ? 'This run is damaged' : 'This run cannot be shown',
      run.problem,
      options,
    );
  // Never refused for its benchmark: the copy kept with the run, the folder, or the state alone (`loadRunBenchmark`).
  const found = loadRunBenchmark(ws, id, run.state);
  const view = runView(run.state, found.benchmark, {
    benchmarkPath: found.path,
    ...(found.note ? { benchmarkNote: found.note } : {}),
    prices: context.prices(),
    memory: readMemorySnapshots(run.dir),
    status: run.status,
    regrades: runRegrades(run.dir, run.state, found.benchmark),
  });
  const live = run.status === 'running';
  return {
    status: 200,
    html: renderRunReport(view, { ...options, ...(live ? { connectSelf: true, extraScript: liveScript(id) } : {}) }),
    live,
  };
}

function comparePage(ws: ReportWorkspace, ids: string[], options: RenderOptions): Page {
  if (ids.length < 2) return problem(400, 'Nothing to compare', 'select two runs or more of one benchmark to compare them.', options);
  const runs = ids.map((id) => servedRun(ws.root, id));
  const unreadable = runs.find((r) => 'problem' in r && !r.damaged);
  if (unreadable && 'problem' in unreadable) return problem(404, 'These runs cannot be compared', unreadable.problem, options);
  // Damaged runs are left out; the others are compared as ever.
  const states = runs.flatMap((r) => ('state' in r ? [r] : []));
  const damaged = runs.find((r) => 'problem' in r);
  if (states.length < 2 && damaged && 'problem' in damaged) return problem(404, 'These runs cannot be compared', damaged.problem, options);
  const benchmarks = [...new Set(states.map((r) => r.state.benchmark))];
  if (benchmarks.length > 1) {
    const named = states.map((served) => `${served.id}: ${String(served.state.benchmark).slice(0, 60)}`).join(', ');
    const text = `runs of different benchmarks cannot be compared check by check (${named}): select runs of one benchmark.`;
    return problem(400, 'These runs cannot be compared', text, options);
  }
  const found = loadRunBenchmark(ws, states[0]!.id, states[0]!.state);
  const comparison = withTrueStatus(
    compareRuns(
      states.map((r) => r.state),
      found.benchmark,
      found.path,
    ),
    (index) => states[index]!.status,
  );
  return { status: 200, html: renderComparison(comparison, options), live: false };
}

function trendsPage(ws: ReportWorkspace, ids: string[], options: RenderOptions): Page {
  const chosen = ids.length ? ids : servedIds(ws.root);
  const runs = chosen.map((id) => servedRun(ws.root, id));
  const states = runs.flatMap((r) => ('state' in r ? [r.state] : []));
  // A damaged run is left out; a run that is not one of results/ is no selection of the user's.
  const unreadable = runs.find((r) => 'problem' in r && !r.damaged);
  if (ids.length && unreadable && 'problem' in unreadable) return problem(404, 'No trends for these runs', unreadable.problem, options);
  if (states.length === 0) return problem(404, 'No trends yet', 'there are no runs in results/ yet: `mmb demo` makes some.', options);
  const benchmarkOf = trendsBenchmarks(
    ws,
    runs.flatMap((r) => ('state' in r ? [{ id: r.id, state: r.state }] : [])),
  );
  return { status: 200, html: renderTrends(computeTrends(states, benchmarkOf, DEFAULT_FLAKY_THRESHOLD), options), live: false };
}
