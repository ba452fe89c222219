/**
 * The engine's own speed, model time excluded: time per persona turn, journal persist time per
 * event at 100 and at 10,000 events, the time to count the tokens of 1 MiB with and without
 * spaces, the cost of a JS block, and the wall time of a stand-in run of each bundled benchmark
 * over real HTTP. Prints figures; asserts nothing.
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
import { type ChatMessage } from '../engine/src/protocol/chat';
import { encode } from 'gpt-tokenizer';
import { countTextTokens, countTokens } from '../engine/src/models/tokens';
import { loadQuickJs, runBlock } from '../engine/src/persona/isolate';
import { runJsBlock } from '../engine/src/persona/sandbox';
import { FileRunStore } from '../engine/src/run/store';
import { InProcessStandIn } from '../engine/src/standin/inProcess';
import { startStandIn } from '../engine/src/standin/server';
import { readBenchmarkFolder } from '../engine/src/workspace/folders';
import { runLegacyJsBlock } from './legacy-js-worker';

const BENCHMARKS = join(__dirname, '..', 'benchmarks');
const scratch = mkdtempSync(join(tmpdir(), 'mmb-bench-'));

/** The bundled benchmarks, by folder name (folders that are not benchmarks are skipped). */
function bundled(): { name: string; b: ReturnType<typeof loadBenchmark> }[] {
  return readdirSync(BENCHMARKS)
    .sort()
    .filter((name) => existsSync(join(BENCHMARKS, name, 'benchmark.json')))
    .map((name) => ({ name, b: loadBenchmark(readBenchmarkFolder(join(BENCHMARKS, name))) }));
}

async function engineTurns(): Promise<void> {
  const b = loadBenchmark(readBenchmarkFolder(join(BENCHMARKS, 'starter')));
  const persona = new InProcessStandIn();
  const agentModel = new InProcessStandIn();
  const dir = join(scratch, 'turns');
  const t = performance.now();
  const state = await runBenchmark({
    name: 'bench',
    benchmark: b,
    agent: 'chatbot',
    persona,
    adapter: new ChatbotAdapter(join(dir, 'agent'), agentModel),
    store: new FileRunStore(dir),
    clock: new Clock(),
    ignoreSessionBreak: true,
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
    const event = (i: number): RunEvent => ({
      type: 'reply',
      at: new Date(1_700_000_000_000 + i).toISOString(),
      seq: i + 1,
      text: `Reply ${i}: the movers are booked for the 14th at 11:00, £340 for the day.`,
    });
    store.append(state, {
      type: 'start',
      at: new Date(1_700_000_000_000).toISOString(),
      run: 'bench',
      benchmark: 'b',
      agent: 'a',
      startTime: '2026-01-01 00:00',
      position: { chapter: 'c.md', chapterIndex: 0, phase: 0 },
      sheets: {},
      templates: {},
    });
    const window: number[] = [];
    for (let i = 0; i < total; i++) {
      const t = performance.now();
      store.append(state, event(i));
      if (i >= total - 100) window.push(performance.now() - t);
    }
    const mean = window.reduce((a, b) => a + b, 0) / window.length;
    console.log(
      `  the last 100 of ${String(total).padStart(6)} events: ` +
        `${(mean * 1000).toFixed(1)} µs each (state.json ${(JSON.stringify(state).length / 1024).toFixed(0)} KiB)`,
    );
  }
}

/** Counting must stay linear: a 1 MiB reply without spaces once took minutes. Goal: well under a second. */
function tokenCounting(): void {
  console.log('\ntoken counting of 1 MiB');
  const prose = 'The movers are booked for the 14th at 11:00, £340 for the day. ';
  const texts: [string, string][] = [
    ['without spaces', 'a'.repeat(1 << 20)],
    ['of prose', prose.repeat(Math.ceil((1 << 20) / prose.length)).slice(0, 1 << 20)],
  ];
  for (const [label, text] of texts) {
    const t = performance.now();
    const tokens = countTextTokens(text);
    console.log(`  ${label.padEnd(15)} ${(performance.now() - t).toFixed(0).padStart(5)} ms, ${tokens} tokens`);
  }
  const sample = texts[1]![1].slice(0, 20_000);
  console.log(`  20,000 characters of prose: ${countTextTokens(sample)} tokens counted, ${encode(sample).length} by the tokenizer whole`);
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
        name: `bench-${name}`,
        benchmark: b,
        agent: 'chatbot',
        persona: createModel({ model: 'stand-in' }, models, 'persona'),
        adapter: new ChatbotAdapter(join(dir, 'agent'), createModel({ model: 'stand-in' }, models, 'agent')),
        store: new FileRunStore(dir),
        clock: new Clock(),
        timeMaster: { minSleepToSkipMs: 5000, preWakeDelayMs: 0, pollIntervalMs: 5 },
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
  console.log("\npersona prompt tokens, and the share of each request that repeats the last one's prefix");
  for (const { name, b } of bundled()) {
    const requests: ChatMessage[][] = [];
    const persona = new InProcessStandIn((r) => {
      if (r.tools?.length) requests.push([...r.messages]);
    });
    const dir = join(scratch, `prefix-${name}`);
    const state = await runBenchmark({
      name: `prefix-${name}`,
      benchmark: b,
      agent: 'chatbot',
      persona,
      adapter: new ChatbotAdapter(join(dir, 'agent'), new InProcessStandIn()),
      store: new FileRunStore(dir),
      clock: new Clock(),
      ignoreSessionBreak: true,
      compaction: { maxTokens: 30_000, trimToTokens: 10_000 },
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
    console.log(
      `  ${name.padEnd(12)} ${String(requests.length).padStart(5)} requests, ${String(total).padStart(9)} prompt tokens, ` +
        `prefix repeated: mean ${(100 * mean).toFixed(1)}%, lowest ${(100 * min).toFixed(1)}%, ${state.compactions.length} compactions`,
    );
  }
}

/**
 * The cost of one JS block, A/B interleaved so that a busy machine slows every variant alike: the
 * old way (a `node:vm` context in a fresh worker per block), the QuickJS isolate as the engine
 * runs it (a message to the long-lived sandbox worker and back), and the isolate alone in this
 * thread (a fresh runtime and context, the prelude, the block, the vars checked out). Goal: at
 * most 2 ms per block.
 */
async function jsBlockCost(): Promise<void> {
  console.log('\ncost of one JS block (median of each round, interleaved)');
  const code =
    'vars.n = (vars.n ?? 0) + 1;\nvars.require_all_facts = ["family", ' +
    '"car"];\nbench.log(`n=${vars.n}`);\nif (vars.n % 2) await bench.newSession();';
  const vars = { n: 1, seen: ['a', 'b', 'c'] };
  let started = performance.now();
  await loadQuickJs();
  const load = performance.now() - started;
  started = performance.now();
  await runJsBlock(code, vars, 'bench.md', 1);
  const first = performance.now() - started;
  const variants: [string, () => Promise<unknown>][] = [
    ['old: vm in a worker per block', () => runLegacyJsBlock(code, vars)],
    ['isolate through the sandbox worker', () => runJsBlock(code, vars, 'bench.md', 1)],
    ['isolate alone, in this thread', () => runBlock({ id: 0, code, varsJson: JSON.stringify(vars), file: 'bench.md', line: 1 })],
  ];
  const medians = new Map<string, number[]>(variants.map(([name]) => [name, []]));
  for (let round = 0; round < 5; round++) {
    for (const [name, run] of variants) {
      const times: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t = performance.now();
        await run();
        times.push(performance.now() - t);
      }
      medians.get(name)!.push(times.sort((a, b) => a - b)[times.length >> 1]!);
    }
  }
  console.log(
    `  QuickJS module load ${load.toFixed(1)} ms once per thread; the first block, sandbox worker start included, ${first.toFixed(1)} ms`,
  );
  for (const [name, rounds] of medians) {
    const sorted = [...rounds].sort((a, b) => a - b);
    console.log(
      `  ${name.padEnd(36)} ${sorted[sorted.length >> 1]!.toFixed(2)} ms per block (rounds: ${rounds.map((m) => m.toFixed(2)).join(', ')})`,
    );
  }
}

void (async () => {
  await jsBlockCost();
  await engineTurns();
  await prefixShare();
  persistPerEvent();
  tokenCounting();
  await wallTimes();
  rmSync(scratch, { recursive: true, force: true });
})();
