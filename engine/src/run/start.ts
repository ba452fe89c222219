/**
 * How a run begins: a fresh start journals the benchmark's sheets and templates, a resume picks
 * up the saved state. Each sets the virtual clock and opens the agent's session.
 */
import { startMoment, type Benchmark } from '../../../scenario/src';
import { formatWallClock, wallClock } from '../clock';
import { jumpClock, type RunContext } from './context';
import { expandTemplates, indexOf } from './phases';
import type { LiveSheet } from './state';

/** How a loaded run goes on: it was resumed mid-way, it continues with appended phases, or it has nothing left to do. */
export type Resumption = 'resumed' | 'continuing' | 'done';

/** Starts a run never started: a new session, the start moment, and the `start` event. */
export async function startRun(run: RunContext): Promise<void> {
  const { options, order } = run;
  await options.adapter.destroySession();
  await options.adapter.createSession(options.name);
  const startTime = options.benchmark.manifest?.start_time ?? formatWallClock(wallClock(new Date()));
  options.clock.set(startMoment(startTime));
  const from = options.phases?.from ?? 0;
  const to = options.phases?.to;
  if (!order[from] || (to !== undefined && (to < from || !order[to]))) {
    throw new Error(`${options.benchmark.name} has no phases ${from + 1}–${(to ?? from) + 1} (it has ${order.length}).`);
  }
  run.record({
    type: 'start', at: run.now(), run: options.name, benchmark: options.benchmark.name, agent: options.agent, startTime,
    position: order[from]!.position, sheets: liveSheets(options.benchmark), templates: expandTemplates(order, startTime),
    ...(options.phases ? { phases: { from: order[from]!.position, to: order[to ?? order.length - 1]!.position } } : {}),
  });
  if (run.timeMaster.enabled) await jumpClock(run, options.clock.now(), 0);
}

/** Resumes a saved run: a finished run whose benchmark has grown goes on with the new phases. */
export async function resumeRun(run: RunContext): Promise<Resumption> {
  const { options, order, state } = run;
  const at = indexOf(order, state.position);
  if (at < 0) {
    throw new Error(`the run stopped in ${state.position.chapter}, phase ${state.position.phase + 1}, which ${options.benchmark.name} no longer has; restore it, or delete the run's folder to restart.`);
  }
  if (state.status === 'finished' && (at === order.length - 1 || state.phases)) return 'done';
  const continuing = state.status === 'finished';
  await options.adapter.createSession(options.name);
  // A multi-day run goes on from its virtual moment; any other lives on the real wall clock.
  options.clock.set(run.timeMaster.enabled && state.virtualTime ? new Date(state.virtualTime) : wallClock(new Date()));
  run.record({ type: 'resume', at: run.now() });
  if (run.timeMaster.enabled) await options.adapter.setVirtualTime?.(options.clock.now().toISOString());
  return continuing ? 'continuing' : 'resumed';
}

/** The sheets as the run starts them: deleted facts dropped, nothing told. */
function liveSheets(benchmark: Benchmark): Record<string, LiveSheet> {
  const out: [string, LiveSheet][] = [];
  for (const sheet of benchmark.sheets.values()) {
    const live = new Map<string, { id: string; category: number; text: string; told: boolean }>();
    for (const fact of sheet.facts) {
      if (fact.deleted) live.delete(fact.id);
      else live.set(fact.id, { id: fact.id, category: fact.category, text: fact.text, told: false });
    }
    const entry: LiveSheet = { name: sheet.name, categories: sheet.categories.map((c) => ({ number: c.number, title: c.title })), facts: [...live.values()] };
    if (sheet.title) entry.title = sheet.title;
    out.push([sheet.name, entry]);
  }
  // Own properties even for a sheet named like an Object member (`__proto__`, `constructor`).
  return Object.fromEntries(out);
}
