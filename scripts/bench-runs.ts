/**
 * Whole runs and the CLI's start, as a user meets them, with the shipped defaults: the wall time
 * of a stand-in run of Max and of multiday on the chatbot (config.jsonc's defaults: `mmb run` on
 * a workspace whose persona and agent are the stand-in), Max on the notebook against Max on the
 * chatbot (interleaved), the share of the notebook's prompt tokens a provider's prefix cache can
 * reuse, `mmb regrade` of a Max run on the stand-in judge, and `mmb --help` from a cold process.
 * Medians with min–max; prints figures, asserts nothing.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBenchmark, parseConfig } from '../scenario/src';
import { NotebookAdapter } from '../engine/src/adapters/notebook/adapter';
import { Clock } from '../engine/src/clock';
import type { ChatModel, ChatRequest, ChatResponse } from '../engine/src/models/chat';
import type { ChatMessage } from '../engine/src/protocol/chat';
import { createModel } from '../engine/src/models/resolve';
import { countTokens } from '../engine/src/models/tokens';
import { runBenchmark } from '../engine/src/run/runner';
import { FileRunStore } from '../engine/src/run/store';
import { startStandIn } from '../engine/src/standin/server';
import { launchRuns } from '../engine/src/workspace/launch';
import { readBenchmarkFolder } from '../engine/src/workspace/folders';
import { interleaved, summary, timed } from './benchStats';
import { benchRegrade } from './bench-regrade';

const ROOT = join(__dirname, '..');
const BENCHMARKS = join(ROOT, 'benchmarks');
const scratch = mkdtempSync(join(tmpdir(), 'mmb-bench-runs-'));
const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
let runs = 0;
/** The last run of Max on the chatbot, for the regrade's figure. */
let lastMaxRun: string | undefined;
/** What the agent's own model was asked in the last run of each agent: requests and prompt tokens. */
const agentUsage = new Map<string, { requests: number; promptTokens: number; runRequests: number }>();

/** One run as `mmb run` makes it, with config.jsonc's defaults and everything on the stand-in; its wall time in ms. */
async function shippedRun(benchmark: string, agent: string): Promise<number> {
  const config = { ...parseConfig('{}').config, persona: { model: 'stand-in' } };
  const run = { name: `${benchmark}-${agent}-${++runs}`, benchmark, agent, ignore_session_break: false, options: {}, range: zero };
  return timed(async () => {
    const [outcome] = await launchRuns({ root: scratch, benchmarksDir: BENCHMARKS, config, runs: [run], env: {} });
    if (outcome?.state?.status !== 'finished') console.log(`  (${run.name}: ${outcome?.problem ?? outcome?.state?.status})`);
    const usage = Object.values(outcome?.state?.agentStatus?.usage ?? {});
    const requests = usage.reduce((n, u) => n + u.requests, 0);
    const persona = Object.values(outcome?.state?.usage ?? {}).reduce((n, u) => n + u.requests, 0);
    if (benchmark === 'max' && agent === 'chatbot' && outcome?.state?.status === 'finished') lastMaxRun = run.name;
    if (benchmark === 'max')
      agentUsage.set(agent, { requests, promptTokens: usage.reduce((n, u) => n + u.promptTokens, 0), runRequests: requests + persona });
  });
}

class Recording implements ChatModel {
  readonly name: string;
  readonly requests: ChatMessage[][] = [];
  constructor(private readonly inner: ChatModel) {
    this.name = inner.name;
  }

  complete(request: ChatRequest): Promise<ChatResponse> {
    this.requests.push([...request.messages].map((m) => ({ ...m })));
    return this.inner.complete(request);
  }
}

/**
 * The notebook's requests in a stand-in run of Max: of the tokens each request sends again (its
 * messages that the previous request had), the share that lies in the prefix the two share, which
 * a provider's cache serves; the rest is billed as uncached input although it was sent before.
 */
async function notebookPrefixShare(): Promise<void> {
  const standIn = await startStandIn();
  try {
    const models = { standInUrl: standIn.url, env: {} };
    const recording = new Recording(createModel({ model: 'stand-in' }, models, 'agent'));
    const dir = join(scratch, 'prefix-notebook');
    const clock = new Clock();
    await runBenchmark({
      name: 'prefix-notebook',
      benchmark: loadBenchmark(readBenchmarkFolder(join(BENCHMARKS, 'max'))),
      agent: 'notebook',
      persona: createModel({ model: 'stand-in' }, models, 'persona'),
      adapter: new NotebookAdapter(join(dir, 'agent'), recording, undefined, () => clock.now()),
      store: new FileRunStore(dir),
      clock,
      timeMaster: { minSleepToSkipMs: 5000, preWakeDelayMs: 0, pollIntervalMs: 5 },
    });
    // A cache keeps a prefix per kind of request: a request is compared with the last one that
    // opened with the same system message (compaction and consolidation requests have their own).
    const lastBySystem = new Map<string, string[]>();
    let total = 0;
    let prefix = 0;
    let repeated = 0;
    let restarts = 0;
    for (const messages of recording.requests) {
      total += countTokens(messages);
      const json = messages.map((m) => JSON.stringify(m));
      const previous = lastBySystem.get(json[0] ?? '') ?? [];
      lastBySystem.set(json[0] ?? '', json);
      let same = 0;
      while (same < json.length && same < previous.length && json[same] === previous[same]) same++;
      // Right after a compaction the history is rewritten: a new prefix starts, as in the persona's figure.
      if (previous.length > 0 && same <= 1 && messages.length > 1) {
        restarts++;
        continue;
      }
      const sentBefore = new Set(previous);
      prefix += countTokens(messages.slice(0, same));
      repeated += countTokens(messages.filter((_, i) => sentBefore.has(json[i] ?? '')));
    }
    console.log(
      `  the notebook's prompt tokens reusable from a prefix cache (Max): ` +
        `${((100 * prefix) / repeated).toFixed(1)}% of the ${repeated} tokens a request repeats from the last one ` +
        `(${recording.requests.length} requests, ${total} prompt tokens; ${restarts} requests right after a compaction left out)`,
    );
  } finally {
    await standIn.close();
  }
}

function cliStart(args: string[]): number {
  const started = performance.now();
  spawnSync(process.execPath, args, { stdio: 'ignore' });
  return performance.now() - started;
}

void (async () => {
  if (process.argv.includes('--prefix-only')) {
    await notebookPrefixShare();
    return;
  }
  console.log(
    `\nstand-in runs with the shipped defaults (config.jsonc without time_master), over HTTP; load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
  );
  await shippedRun('starter', 'chatbot');
  const max: number[] = [];
  const multiday: number[] = [];
  for (let i = 0; i < 3; i++) {
    max.push(await shippedRun('max', 'chatbot'));
    multiday.push(await shippedRun('multiday', 'chatbot'));
  }
  console.log(
    `  Max, chatbot:      ${summary(
      max.map((ms) => ms / 1000),
      's',
      2,
    )}`,
  );
  console.log(
    `  multiday, chatbot: ${summary(
      multiday.map((ms) => ms / 1000),
      's',
      2,
    )}`,
  );
  if (lastMaxRun) await benchRegrade(scratch, BENCHMARKS, lastMaxRun);
  const pair = await interleaved(
    5,
    () => shippedRun('max', 'notebook'),
    () => shippedRun('max', 'chatbot'),
  );
  console.log(
    `  Max on the notebook ÷ Max on the chatbot, interleaved: ${summary(pair.ratios, '×', 2)} (notebook ${summary(
      pair.a.map((ms) => ms / 1000),
      's',
      2,
    )}, chatbot ${summary(
      pair.b.map((ms) => ms / 1000),
      's',
      2,
    )})`,
  );
  const [notebook, chatbot] = [agentUsage.get('notebook'), agentUsage.get('chatbot')];
  if (notebook && chatbot) {
    console.log(
      `  what each agent asked of its model in Max: ` +
        `notebook ${notebook.requests} requests, ${notebook.promptTokens.toLocaleString('en-US')} prompt tokens; ` +
        `chatbot ${chatbot.requests}, ${chatbot.promptTokens.toLocaleString('en-US')} ` +
        `(${(notebook.requests / chatbot.requests).toFixed(1)}× the requests, ` +
        `${(notebook.promptTokens / chatbot.promptTokens).toFixed(1)}× the tokens)`,
    );
    // Each pair's time over the model requests of its run (the persona's and the agent's): what a run costs per request.
    const perRequest = pair.a.map((a, i) => a / notebook.runRequests / (pair.b[i]! / chatbot.runRequests));
    console.log(
      `  the run's time per model request (persona's and agent's: notebook ${notebook.runRequests}, chatbot ${chatbot.runRequests}), ` +
        `notebook ÷ chatbot: ` +
        `${summary(perRequest, '×', 2)} (${(notebook.runRequests / chatbot.runRequests).toFixed(2)}× the requests)`,
    );
  }
  await notebookPrefixShare();
  const cli = join(ROOT, 'dist', 'cli.js');
  const help = await interleaved(
    15,
    () => cliStart([cli, '--help']),
    () => cliStart(['-e', '0']),
  );
  console.log(`\n\`mmb --help\`, a cold process each time: ${summary(help.a)}; \`node -e 0\` interleaved: ${summary(help.b)}`);
  rmSync(scratch, { recursive: true, force: true });
})();
