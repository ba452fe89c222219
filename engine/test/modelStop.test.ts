/**
 * Ctrl-C cuts a model's request in flight: a slow OpenAI-compatible server (the meddling proxy in
 * front of the stand-in, holding a request) is not waited for, whether the persona's request or the
 * agent's model's is in flight; `mmb run` ends within a second, the request is cut (the server sees
 * its client go), and the resumed run ends as an uninterrupted one. Also the real process, on
 * SIGINT, and the chat client alone: a request, a stream and the wait before a retry.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCommand, type Io } from '../src/cli/run';
import { RunStopped } from '../src/errors';
import { OpenAIChatModel } from '../src/models/chat';
import { FileRunStore } from '../src/run/store';
import type { RunState } from '../src/state/runState';
import { CLI, runOnStandIn, starter, workspace } from './helpers';
import { startMeddlingProxy, type Meddling, type ProxiedRequest } from './meddlingProxy';

/** Longer than any test here: a request held this long is only ever ended by its client. */
const SLOW_MS = 20_000;

function config(personaUrl: string, agentUrl: string, agent = 'chatbot'): unknown {
  return {
    persona: { model: 'gpt-x', base_url: personaUrl },
    runs: { s: { benchmark: 'starter', agent, agent_model: { model: 'agent-x', base_url: agentUrl } } },
  };
}

function quietIo(signal: AbortSignal): Io & { text: () => string } {
  let text = '';
  return {
    out: (s) => (text += s),
    err: (s) => (text += s),
    tty: false,
    env: { ...process.env, MMB_BACKOFF_BASE_MS: '20' },
    signal,
    text: () => text,
  };
}

const loaded = (dir: string): RunState => new FileRunStore(join(dir, 'results', 's')).load()!;

/** What an uninterrupted run and a resumed one must share: every grade and every message, in order. */
const ending = (state: RunState) => ({
  status: state.status,
  grades: Object.fromEntries(Object.entries(state.grades).map(([id, g]) => [id, g.map((x) => [x.effective, x.answer])])),
  transcript: state.transcript.map((entry) => `${entry.from}: ${entry.text}`),
});

/** Requests of one side (the persona's, or the agent's model's under `/agent`): the `nth` is held. */
function slowAt(side: 'persona' | 'agent', nth: number, onHeld: () => void): (request: ProxiedRequest) => Meddling {
  let seen = 0;
  return (request) => {
    const agent = request.path.startsWith('/agent');
    if ((side === 'agent') !== agent || (side === 'persona' && !request.persona)) return undefined;
    if (++seen !== nth) return undefined;
    onHeld();
    return { holdMs: SLOW_MS };
  };
}

/** An uninterrupted run of `agent` through a proxy that meddles with nothing: the end every resumed run must reach. */
async function uninterrupted(agent: string): Promise<ReturnType<typeof ending>> {
  const reference = await startMeddlingProxy(() => undefined);
  try {
    const dir = workspace(config(reference.url(), reference.url('/agent'), agent));
    const io = quietIo(new AbortController().signal);
    assert.equal(await runCommand({ ids: ['s'], configPath: join(dir, 'config.jsonc') }, io), 0, io.text());
    const end = ending(loaded(dir));
    assert.equal(end.status, 'finished');
    return end;
  } finally {
    await reference.close();
  }
}

test('mmb run: a stop while the persona or the agent model waits on a slow server cuts the request; the resume ends the same', async () => {
  const cases = [
    { side: 'persona', agent: 'chatbot' },
    { side: 'agent', agent: 'chatbot' },
    // The notebook's model works a tool loop inside the turn: cut mid-loop, its journal resumes the turn.
    { side: 'agent', agent: 'notebook' },
  ] as const;
  for (const { side, agent } of cases) {
    const what = `${side} (${agent})`;
    const expected = await uninterrupted(agent);
    const controller = new AbortController();
    let stoppedAt = 0;
    const proxy = await startMeddlingProxy(
      slowAt(side, 3, () =>
        setTimeout(() => {
          stoppedAt = Date.now();
          controller.abort();
        }, 100),
      ),
    );
    try {
      const dir = workspace(config(proxy.url(), proxy.url('/agent'), agent));
      const io = quietIo(controller.signal);
      const code = await runCommand({ ids: ['s'], configPath: join(dir, 'config.jsonc') }, io);
      const tookMs = Date.now() - stoppedAt;
      assert.ok(stoppedAt > 0, `${what}: the slow request came: ${io.text()}`);
      assert.equal(code, 130, `${what}: ${io.text()}`);
      assert.ok(tookMs < 1000, `${what}: mmb run ended ${tookMs} ms after the stop`);
      assert.match(io.text(), /run "s": stopped; run it again to resume/);
      // The request itself was cut, not left to end on its own: the server saw its client go.
      await until(() => proxy.cut.length > 0);
      assert.deepEqual(proxy.cut, [side === 'agent' ? '/agent/v1/chat/completions' : '/v1/chat/completions'], what);
      assert.equal(loaded(dir).status, 'running', what);
      assert.equal(loaded(dir).retries, 0, `${what}: a cut request is no failure to retry`);

      const again = quietIo(new AbortController().signal);
      assert.equal(await runCommand({ ids: ['s'], configPath: join(dir, 'config.jsonc') }, again), 0, again.text());
      assert.deepEqual(ending(loaded(dir)), expected, `${what}: the resumed run ends as the uninterrupted one`);
    } finally {
      await proxy.close();
    }
  }
});

test('mmb run, the real process: Ctrl-C while the persona waits on a slow server exits in a second (130); mmb run resumes', async () => {
  let child: ReturnType<typeof spawn> | undefined;
  let interruptedAt = 0;
  const proxy = await startMeddlingProxy(
    slowAt('persona', 2, () =>
      setTimeout(() => {
        interruptedAt = Date.now();
        child?.kill('SIGINT');
      }, 100),
    ),
  );
  try {
    const dir = workspace(config(proxy.url(), proxy.url('/agent')));
    child = spawn(process.execPath, [CLI, 'run', 's'], { cwd: dir });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const watchdog = setTimeout(() => child?.kill('SIGKILL'), 30_000);
    const code = await new Promise<number | null>((resolve) => child!.on('close', (exit) => resolve(exit)));
    clearTimeout(watchdog);
    const tookMs = Date.now() - interruptedAt;
    assert.ok(interruptedAt > 0, `the slow request came: ${output}`);
    assert.equal(code, 130, output);
    assert.ok(tookMs < 1000, `mmb exited ${tookMs} ms after Ctrl-C`);
    assert.match(output, /mmb: stopping \(a wait on a model or the agent at once, else after the current step/);
    await until(() => proxy.cut.length > 0);
    assert.deepEqual(proxy.cut, ['/v1/chat/completions']);
    const again = await mmbAsync(['run', 's'], dir);
    assert.equal(again.code, 0, again.output);
    assert.match(again.output, /^s: resumed \(/m);
    assert.equal(loaded(dir).status, 'finished');
  } finally {
    await proxy.close();
  }
});

/** The built CLI without blocking this process, which serves the proxy it calls. */
function mmbAsync(args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

async function until(condition: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** A server that answers every request through `answer`, and counts the requests whose client went away unanswered. */
async function serve(
  answer: (response: ServerResponse, count: number) => void,
): Promise<{ url: string; cut: () => number; close: () => Promise<void> }> {
  let count = 0;
  let cut = 0;
  const server = createServer((request, response) => {
    request.resume();
    response.on('close', () => {
      if (!response.writableEnded) cut++;
    });
    answer(response, ++count);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    cut: () => cut,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const hello = { messages: [{ role: 'user' as const, content: 'hi' }] };

test('the chat client: a stop cuts a request, a stream and the wait before a retry; an aborted signal sends nothing', async () => {
  const cases: Record<string, { answer: (response: ServerResponse, count: number) => void; stream?: boolean; cuts: number }> = {
    'a request with no answer yet': { answer: () => undefined, cuts: 1 },
    'a stream that stalls': {
      stream: true,
      cuts: 1,
      answer: (response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = { id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'Hel' } }] };
        response.write(`data: ${JSON.stringify(chunk)}\n\n`);
      },
    },
    'the wait before a retry': {
      cuts: 0,
      answer: (response) =>
        response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '30' }).end('{"error":{"message":"busy"}}'),
    },
  };
  for (const [what, { answer, stream, cuts }] of Object.entries(cases)) {
    const server = await serve(answer);
    try {
      const model = new OpenAIChatModel({
        model: 'x',
        baseURL: server.url,
        apiKey: 'none',
        secretKey: false,
        ...(stream ? { stream } : {}),
      });
      const controller = new AbortController();
      const retries: number[] = [];
      setTimeout(() => controller.abort(), 200);
      const started = Date.now();
      await assert.rejects(model.complete(hello, { signal: controller.signal, onRetry: (n) => retries.push(n.delayMs) }), RunStopped, what);
      assert.ok(Date.now() - started < 700, `${what}: stopped in ${Date.now() - started} ms`);
      await until(() => server.cut() >= cuts);
      assert.equal(server.cut(), cuts, what);
      if (what === 'the wait before a retry') assert.deepEqual(retries, [30_000], 'the stop came during the 30 s wait');
    } finally {
      await server.close();
    }
  }

  // The model's own signal (the agents' models are made with the run's) stands for calls that name none.
  let requests = 0;
  const server = await serve((response) => {
    requests++;
    response.end();
  });
  try {
    const controller = new AbortController();
    controller.abort();
    const model = new OpenAIChatModel({ model: 'x', baseURL: server.url, apiKey: 'none', secretKey: false, signal: controller.signal });
    await assert.rejects(model.complete(hello), RunStopped);
    assert.equal(requests, 0);
  } finally {
    await server.close();
  }
});

test("the run loop hands its stop to the persona's request: a persona model made without one is cut too", async () => {
  const server = await serve(() => undefined);
  try {
    // Without the stop the request would end by the client's timeout, in 3 s: a bug fails here, not by hanging.
    const persona = new OpenAIChatModel({
      model: 'x',
      baseURL: server.url,
      apiKey: 'none',
      secretKey: false,
      timeoutMs: 3000,
      maxAttempts: 1,
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    await assert.rejects(runOnStandIn(starter(), { extra: { persona, signal: controller.signal } }), RunStopped);
    assert.ok(Date.now() - started < 1000, `stopped in ${Date.now() - started} ms`);
    await until(() => server.cut() > 0);
    assert.equal(server.cut(), 1);
  } finally {
    await server.close();
  }
});
