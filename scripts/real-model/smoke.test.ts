/**
 * `npm run test:real-model`: the starter benchmark's first phase played with a real model (Qwen2.5-
 * Coder 1.5B Instruct on node-llama-cpp, served by ./server.ts) as the persona and as the chatbot
 * agent. A smoke test of the real path, not a score: tool schemas, tool calls parsed from a model
 * that is not ours, usage, prefix caching. Outside CI's default run (minutes of CPU); its figures
 * go in docs/real-model.md.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

const ROOT = join(__dirname, '..', '..');
const TOOLS = process.env.MMB_E2E_TOOLS ?? join(ROOT, '.e2e', 'tools');
const MODEL = join(TOOLS, 'real-model', process.env.MMB_REAL_MODEL_FILE ?? 'qwen2.5-coder-1.5b-instruct-q4_k_m.gguf');
const MODEL_NAME = basename(MODEL, '.gguf');
const RUN_TIMEOUT_MS = Number(process.env.MMB_REAL_MODEL_TIMEOUT_MS ?? 40 * 60_000);
/** Persona turns before the engine's turn cap stops the phase: its own cap (60 and more) is hours here. */
const MAX_TURNS = process.env.MMB_MAX_TURNS_PER_PHASE ?? '8';
/** `MMB_REAL_MODEL_NICE=-5` runs the model server at that priority (as root), on a shared machine. */
const NICE = process.env.MMB_REAL_MODEL_NICE;

interface RequestLine {
  /** The server's KV-cache sequence: one per system prompt, so the persona's or the agent's. */
  sequence: number;
  ms: number;
  prompt: number;
  cached: number;
  completion: number;
  kind: string;
}

let server: ChildProcess | undefined;
let baseUrl = '';
const requests: RequestLine[] = [];

before(async () => {
  const command = [
    process.execPath,
    '--import',
    'tsx',
    join(__dirname, 'server.ts'),
    '--model',
    MODEL,
    ...(process.env.MMB_REAL_MODEL_THREADS ? ['--threads', process.env.MMB_REAL_MODEL_THREADS] : []),
  ];
  if (NICE) command.unshift('nice', '-n', NICE);
  server = spawn(command[0]!, command.slice(1), { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stderr!.setEncoding('utf8').on('data', (text: string) => {
    for (const line of text.split('\n')) {
      const match = /(\d+) ms prompt (\d+) \(cached (\d+)\) completion (\d+) (\S+) sequence (\d+)/.exec(line);
      if (match)
        requests.push({
          ms: Number(match[1]),
          prompt: Number(match[2]),
          cached: Number(match[3]),
          completion: Number(match[4]),
          kind: match[5]!,
          sequence: Number(match[6]),
        });
      // Each request as it is answered: a run of many minutes shows where it is.
      if (line.trim()) process.stderr.write(`server: ${line}\n`);
    }
  });
  baseUrl = await new Promise<string>((resolve, reject) => {
    server!.stdout!.setEncoding('utf8').on('data', (text: string) => {
      const match = /listening (\S+)/.exec(text);
      if (match) resolve(match[1]!);
    });
    server!.on('exit', (code) => reject(new Error(`the model server exited (${code}) before listening`)));
  });
});

after(() => {
  server?.kill('SIGTERM');
});

test(
  "the starter benchmark's first phase, with a real model as the persona and as the chatbot",
  { timeout: RUN_TIMEOUT_MS + 60_000 },
  async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'mmb-real-model-'));
    cpSync(join(ROOT, 'benchmarks', 'starter'), join(workspace, 'benchmarks', 'starter'), { recursive: true });
    const model = { model: MODEL_NAME, base_url: baseUrl };
    writeFileSync(
      join(workspace, 'config.jsonc'),
      JSON.stringify({ persona: model, runs: { real: { benchmark: 'starter', agent: 'chatbot', agent_model: model } } }, null, 2),
    );
    const started = Date.now();
    const run = await runFirstPhase(workspace);
    const wallSeconds = (Date.now() - started) / 1000;

    const report = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'report', '--json'], { cwd: workspace, encoding: 'utf8' });
    const summary = (
      JSON.parse(report.stdout) as {
        runs: {
          run: string;
          status: string;
          error?: string;
          usage: Record<string, { requests: number; promptTokens: number; completionTokens: number }>;
        }[];
      }
    ).runs[0]!;
    const state = JSON.parse(readFileSync(join(workspace, 'results', summary.run, 'state.json'), 'utf8')) as {
      status: string;
      error?: string;
      transcript?: { from: string; text: string }[];
      misbehaviours?: Record<string, number>;
      agentStatus?: { usage?: Record<string, Counted> };
    };
    printFigures(wallSeconds, { persona: summary.usage, agent: state.agentStatus?.usage ?? {} }, state);

    // The phase ends as the engine's rules say: the persona called next_phase, or the turn cap
    // stopped a persona that did not (exit 1, the run crashed with the cap's message).
    const capped = new RegExp(`^the persona took ${MAX_TURNS} turns in chapter1\\.md, phase 1, without finishing it`);
    if (summary.status === 'finished') assert.equal(run.code, 0, run.stderr.slice(-2000));
    else assert.match(state.error ?? '', capped, `the run ended otherwise: ${run.stderr.slice(-2000)}`);

    // Every request the server answered is counted once: the persona's in the run's usage, the
    // chatbot's in the agent's status, both under the model's name.
    const persona = summary.usage[MODEL_NAME];
    const agent = state.agentStatus?.usage?.[MODEL_NAME];
    assert.ok(
      persona && agent,
      `the usage is counted under the model's name: ${JSON.stringify({ persona: summary.usage, agent: state.agentStatus?.usage })}`,
    );
    const personaRequests = requests.filter((request) => request.sequence === requests[0]!.sequence);
    const agentRequests = requests.filter((request) => request.sequence !== requests[0]!.sequence);
    const sums = (list: RequestLine[]) => ({
      requests: list.length,
      promptTokens: list.reduce((sum, request) => sum + request.prompt, 0),
      completionTokens: list.reduce((sum, request) => sum + request.completion, 0),
    });
    assert.deepEqual(pick(persona), sums(personaRequests), "the persona's usage = what the server answered on her sequence");
    assert.deepEqual(pick(agent), sums(agentRequests), "the agent's usage = what the server answered on its sequence");
    // The persona talks only through send_message: a reply of the agent in the conversation means
    // a tool call parsed from the real model's output reached the agent, and the agent answered.
    assert.ok(
      requests.some((request) => request.kind.split(',').includes('send_message')),
      "a send_message call was parsed from the real persona's output",
    );
    const transcript = state.transcript ?? [];
    assert.ok(
      transcript.some((entry) => entry.from === 'persona' && entry.text.trim()),
      'a message of the real persona went to the agent',
    );
    assert.ok(
      transcript.some((entry) => entry.from === 'agent' && entry.text.trim()),
      'the real agent answered',
    );
    // A follow-up request of an append-only conversation reuses its prefix from the KV cache.
    assert.ok(
      requests.slice(1).some((request) => request.cached > 0 && request.cached > request.prompt / 2),
      'a follow-up request took most of its prompt from the cache',
    );
  },
);

/** `mmb run real --from chapter1.md:1 --only` in the workspace, stopped after RUN_TIMEOUT_MS: its exit code and stderr. */
function runFirstPhase(workspace: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    // A first request evaluates a few thousand prompt tokens on two cores: minutes, not seconds.
    const env = {
      ...process.env,
      MMB_MODEL_TIMEOUT_MS: String(20 * 60_000),
      MMB_REPLY_TIMEOUT_MS: String(30 * 60_000),
      MMB_MAX_TURNS_PER_PHASE: MAX_TURNS,
    };
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'run', 'real', '--from', 'chapter1.md:1', '--only'], {
      cwd: workspace,
      env,
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const timer = setTimeout(() => child.kill('SIGINT'), RUN_TIMEOUT_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

interface Counted {
  requests: number;
  promptTokens: number;
  completionTokens: number;
}

function pick(usage: Counted): Counted {
  return { requests: usage.requests, promptTokens: usage.promptTokens, completionTokens: usage.completionTokens };
}

function printFigures(
  wallSeconds: number,
  usage: Record<string, unknown>,
  state: { status: string; error?: string; misbehaviours?: Record<string, number> },
): void {
  const prompt = requests.reduce((sum, request) => sum + request.prompt, 0);
  const cached = requests.reduce((sum, request) => sum + request.cached, 0);
  const completion = requests.reduce((sum, request) => sum + request.completion, 0);
  const busy = requests.reduce((sum, request) => sum + request.ms, 0) / 1000;
  process.stdout.write(
    [
      `real model ${MODEL_NAME}: ${requests.length} requests in ${wallSeconds.toFixed(0)} s (${busy.toFixed(0)} s generating); ` +
        `run ${state.status}${state.error ? `: ${state.error.slice(0, 200)}` : ''}`,
      `  prompt tokens ${prompt}, of them from the prefix cache ${cached} (${prompt ? ((100 * cached) / prompt).toFixed(1) : 0}%)`,
      `  completion tokens ${completion}`,
      ...requests.map(
        (request, index) =>
          `  ${index + 1}. ${request.sequence === requests[0]!.sequence ? 'persona' : 'agent  '} ${(request.ms / 1000).toFixed(1)} s ` +
          `prompt ${request.prompt} (cached ${request.cached}) completion ${request.completion} ${request.kind}`,
      ),
      `  misbehaviours the engine counted: ${JSON.stringify(state.misbehaviours ?? {})}`,
      `  usage as the engine counted it: ${JSON.stringify(usage)}`,
    ].join('\n') + '\n',
  );
}
