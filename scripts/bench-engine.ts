/**
 * The engine's own speed, model time excluded: time per persona turn, journal persist time per
 * event at 100 and at 10,000 events, and the wall time of a stand-in run of each bundled
 * benchmark over real HTTP. Prints figures; asserts nothing.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBenchmark } from '../scenario/src';
import { ChatbotAdapter } from '../engine/src/adapters/chatbot';
import { Clock } from '../engine/src/clock';
import { createModel } from '../engine/src/models/resolve';
import { runBenchmark } from '../engine/src/run/runner';
import { emptyState, type RunEvent } from '../engine/src/state/runState';
import { type ChatMessage } from '../engine/src/models/messages';
import { countTokens } from '../engine/src/models/tokens';
import { FileRunStore } from '../engine/src/run/store';
import { InProcessStandIn } from '../engine/src/standin/inProcess';
import { startStandIn } from '../engine/src/standin/server';
import { readBenchmarkFolder } from '../engine/src/workspace/folders';

const BENCHMARKS = join(__dirname, '..', 'benchmarks');
const scratch = mkdtempSync(join(tmpdir(), 'mmb-bench-'));

/** The bundled benchmarks, by folder name (folders that are not benchmarks are skipped). */
function bundled(): { name: string; b: ReturnType<typeof loadBenchmark> }[] {
  return readdirSync(BENCHMARKS).sort().filter((name) => existsSync(join(BENCHMARKS, name, 'benchmark.json')))
    .map((name) => ({ name, b: loadBenchmark(readBenchmarkFolder(join(BENCHMARKS, name))) }));
}

async function engineTurns(): Promise<void> {
  const b = loadBenchmark(readBenchmarkFolder(join(BENCHMARKS, 'starter')));
  const persona = new InProcessStandIn();
  const agentModel = new InProcessStandIn();
  const dir = join(scratch, 'turns');
  const t = performance.now();
  const state = await runBenchmark({
    name: 'bench', benchmark: b, agent: 'chatbot', persona, adapter: new ChatbotAdapter(join(dir, 'agent'), agentModel),
    store: new FileRunStore(dir), clock: new Clock(), ignoreSessionBreak: true,
  });
  const total = performance.now() - t;
  const turns = state.persona.filter((m) => m.role === 'assistant').length;
  const engine = total - persona.spentMs - agentModel.spentMs;
  console.log(`engine time per persona turn (starter, models excluded): ${(engine / turns).toFixed(2)} ms over ${turns} turns`);
}

function persistPerEvent(): void {
  console.log('\njournal persist time per event (append + state, snapshots included)');
  for (const total of [100, 10_000]) {
    const dir = join(scratch, `persist-${total}`);
    const store = new FileRunStore(dir);
    const state = emptyState();
    const event = (i: number): RunEvent => ({ type: 'reply', at: new Date(1_700_000_000_000 + i).toISOString(), seq: i + 1, text: `Reply ${i}: the movers are booked for the 14th at 11:00, £340 for the day.` });
    store.append(state, { type: 'start', at: new Date(1_700_000_000_000).toISOString(), run: 'bench', benchmark: 'b', agent: 'a', startTime: '2026-01-01 00:00', position: { chapter: 'c.md', chapterIndex: 0, phase: 0 }, sheets: {}, templates: {} });
    const window: number[] = [];
    for (let i = 0; i < total; i++) {
      const t = performance.now();
      store.append(state, event(i));
      if (i >= total - 100) window.push(performance.now() - t);
    }
    const mean = window.reduce((a, b) => a + b, 0) / window.length;
    console.log(`  the last 100 of ${String(total).padStart(6)} events: ${(mean * 1000).toFixed(1)} µs each (state.json ${(JSON.stringify(state).length / 1024).toFixed(0)} KiB)`);
  }
}

async function wallTimes(): Promise<void> {
  console.log('\nwall time of a stand-in run over real HTTP, chatbot agent');
  const standIn = await startStandIn();
  try {
    for (const { name, b } of bundled()) {
      const dir = join(scratch, `run-${name}`);
      const models = { standInUrl: standIn.url, env: {} };
      const t = performance.now();
      const state = await runBenchmark({
        name: `bench-${name}`, benchmark: b, agent: 'chatbot', persona: createModel({ model: 'stand-in' }, models, 'persona'),
        adapter: new ChatbotAdapter(join(dir, 'agent'), createModel({ model: 'stand-in' }, models, 'agent')),
        store: new FileRunStore(dir), clock: new Clock(), timeMaster: { minSleepToSkipMs: 5000, preWakeDelayMs: 0, pollIntervalMs: 5 },
      });
      console.log(`  ${name.padEnd(12)} ${((performance.now() - t) / 1000).toFixed(2)} s, ${state.events} events, status ${state.status}`);
    }
  } finally {
    await standIn.close();
  }
}

/**
 * Providers cache the longest unchanged prefix of consecutive requests. For a stand-in run of each
 * bundled benchmark with the default compaction, the persona's total prompt tokens and the share
 * of each request that repeats the previous request's prefix (requests right after a compaction
 * excluded). Goal: at least 90%.
 */
async function prefixShare(): Promise<void> {
  console.log('\npersona prompt tokens, and the share of each request that repeats the last one\'s prefix');
  for (const { name, b } of bundled()) {
    const requests: ChatMessage[][] = [];
    const persona = new InProcessStandIn((r) => {
      if (r.tools?.length) requests.push([...r.messages]);
    });
    const dir = join(scratch, `prefix-${name}`);
    const state = await runBenchmark({
      name: `prefix-${name}`, benchmark: b, agent: 'chatbot', persona, adapter: new ChatbotAdapter(join(dir, 'agent'), new InProcessStandIn()),
      store: new FileRunStore(dir), clock: new Clock(), ignoreSessionBreak: true, compaction: { maxTokens: 30_000, trimToTokens: 10_000 },
      timeMaster: { minSleepToSkipMs: 5000, preWakeDelayMs: 0, pollIntervalMs: 5 },
    });
    let total = 0;
    const shares: number[] = [];
    requests.forEach((messages, i) => {
      const size = countTokens(messages);
      total += size;
      const before = requests[i - 1];
      if (!before) return;
      let same = 0;
      while (same < messages.length && same < before.length && JSON.stringify(messages[same]) === JSON.stringify(before[same])) same++;
      if (same < 2) return; // right after a compaction the history is rewritten: a new prefix starts
      shares.push(countTokens(messages.slice(0, same)) / size);
    });
    const mean = shares.reduce((a, x) => a + x, 0) / Math.max(1, shares.length);
    const min = Math.min(...shares);
    console.log(`  ${name.padEnd(12)} ${String(requests.length).padStart(5)} requests, ${String(total).padStart(9)} prompt tokens, prefix repeated: mean ${(100 * mean).toFixed(1)}%, lowest ${(100 * min).toFixed(1)}%, ${state.compactions.length} compactions`);
  }
}

void (async () => {
  await engineTurns();
  await prefixShare();
  persistPerEvent();
  await wallTimes();
  rmSync(scratch, { recursive: true, force: true });
})();
