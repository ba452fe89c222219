/**
 * The view model of the runs index (`mmb view`'s `/` and the editor's runs index): one row per
 * run of a workspace with its true status, and the filters by benchmark, agent, status and date.
 * Plain values, no markup and no disk: the callers read the states and the locks.
 */
import type { Benchmark } from '../../../scenario/src';
import type { RunState, TrueStatus } from '../state/runState';
import { isPartialState } from '../state/partialRule';
import { describeRun } from './compare';
import { summarize } from './summary';
import { shorten } from '../../../scenario/src/plainText';

/** A run's status in the index: its true status, or `damaged` when its files cannot be read. */
export type IndexStatus = TrueStatus | 'damaged';

export const INDEX_STATUSES: readonly IndexStatus[] = ['running', 'stopped', 'crashed', 'finished', 'damaged'];

export interface IndexRow {
  /** The run's folder in results/ (what a link names), which may differ from the state's own name. */
  id: string;
  benchmark: string;
  agent: string;
  /** The persona's models, then the agent's own with ` (agent)`, as the run used them. */
  models: string[];
  status: IndexStatus;
  /** When the run started, ISO; empty for a damaged run. */
  startedAt: string;
  average: number | null;
  graded: number;
  /** The checks the run plays; null when its benchmark cannot be read any more. */
  planned: number | null;
  /** A run of some phases or checks only (`--from`, `--only`, `--filter`). */
  partial: boolean;
  /** Why a damaged run cannot be shown: one line. */
  problem?: string;
}

/** What the index shows: each field absent means "any". Dates are `YYYY-MM-DD`, both ends included. */
export interface IndexFilter {
  benchmark?: string;
  agent?: string;
  status?: IndexStatus;
  from?: string;
  to?: string;
}

export interface RunsIndex {
  /** Every run of the workspace. */
  total: number;
  rows: IndexRow[];
  filter: IndexFilter;
  /** The values there are, for the filters' choices. */
  benchmarks: string[];
  agents: string[];
}

/** The longest text of a row shown: a state is a file anyone could have written. */
const MAX_TEXT = 200;
const MAX_MODELS = 8;

function bounded(text: unknown): string {
  const flat = String(text ?? '').replace(/\p{Cc}+/gu, ' ');
  return shorten(flat, MAX_TEXT);
}

/** The row of a run whose state was read; `benchmark` undefined when the benchmark it played cannot be read. */
export function indexRow(id: string, state: RunState, status: TrueStatus, benchmark: Benchmark | undefined): IndexRow {
  const persona = Object.keys(state.usage ?? {});
  const agent = Object.keys(state.agentStatus?.usage ?? {}).map((model) => `${model} (agent)`);
  const coverage = benchmark ? summarize(state, benchmark, status).coverage : undefined;
  return {
    id,
    benchmark: bounded(state.benchmark),
    agent: bounded(state.agent),
    models: [...persona, ...agent].slice(0, MAX_MODELS).map(bounded),
    status,
    startedAt: bounded(state.startedAt),
    average: describeRun(state).average,
    graded: coverage?.graded ?? Object.values(state.grades ?? {}).filter((grades) => grades.length).length,
    planned: coverage?.planned ?? null,
    partial: isPartialState(state),
  };
}

/** The row of a run whose files cannot be read: listed, with its problem, so one bad folder hides nothing. */
export function damagedRow(id: string, problem: string): IndexRow {
  return {
    id,
    benchmark: '',
    agent: '',
    models: [],
    status: 'damaged',
    startedAt: '',
    average: null,
    graded: 0,
    planned: null,
    partial: false,
    problem: bounded(problem.split('\n')[0]),
  };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The filter of a query string (`?benchmark=multiday&status=finished&from=2026-03-01`): a value
 * that cannot be one (too long, a date that is no date, an unknown status) is left out, not an error.
 */
export function indexFilterOf(parameter: (name: string) => string | null): IndexFilter {
  const filter: IndexFilter = {};
  const text = (name: string) => {
    const value = parameter(name)?.trim();
    return value && value.length <= MAX_TEXT ? value : undefined;
  };
  const benchmark = text('benchmark');
  const agent = text('agent');
  const status = text('status');
  const from = text('from');
  const to = text('to');
  if (benchmark) filter.benchmark = benchmark;
  if (agent) filter.agent = agent;
  if (status && (INDEX_STATUSES as readonly string[]).includes(status)) filter.status = status as IndexStatus;
  if (from && DAY.test(from)) filter.from = from;
  if (to && DAY.test(to)) filter.to = to;
  return filter;
}

/** Whether a row passes the filter: equal benchmark, agent and status, a start day inside the dates. */
export function rowPasses(row: IndexRow, filter: IndexFilter): boolean {
  const day = row.startedAt.slice(0, 10);
  if (filter.benchmark !== undefined && row.benchmark !== filter.benchmark) return false;
  if (filter.agent !== undefined && row.agent !== filter.agent) return false;
  if (filter.status !== undefined && row.status !== filter.status) return false;
  if (filter.from !== undefined && !(day >= filter.from)) return false;
  if (filter.to !== undefined && !(day && day <= filter.to)) return false;
  return true;
}

/** The index: newest run first, the rows the filter passes, the choices of its filters from every row. */
export function runsIndex(rows: readonly IndexRow[], filter: IndexFilter = {}): RunsIndex {
  const newestFirst = [...rows].sort((a, b) => (a.startedAt === b.startedAt ? (a.id < b.id ? -1 : 1) : a.startedAt < b.startedAt ? 1 : -1));
  const choices = (values: string[]) => [...new Set(values.filter(Boolean))].sort();
  return {
    total: rows.length,
    rows: newestFirst.filter((row) => rowPasses(row, filter)),
    filter,
    benchmarks: choices(rows.map((row) => row.benchmark)),
    agents: choices(rows.map((row) => row.agent)),
  };
}
