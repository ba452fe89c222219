/**
 * Endpoints that fail fast and clearly: a dead port, a 501 with a whole HTML page, a 503 that
 * passes, and a key too short to be one, against real HTTP servers on 127.0.0.1:0 and the built CLI.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import OpenAI from 'openai';
import { OpenAIChatModel } from '../src/models/chat';
import { excerpt, isRetryable, retryAfterMs } from '../src/models/endpointErrors';
import { runSecrets } from '../src/secrets';
import { CLI, workspace, joinedPattern } from './helpers';
import { startMeddlingProxy } from './meddlingProxy';

interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function mmb(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Result> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('close', (status) => resolve({ status, stdout, stderr, ms: Date.now() - started }));
  });
}

/** A server on 127.0.0.1:0 that answers every request with `answer` and counts them. */
async function fixedServer(answer: {
  status: number;
  type: string;
  body: string;
}): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests++;
    req.resume();
    req.on('end', () => {
      res.writeHead(answer.status, { 'content-type': answer.type });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 where nothing listens: the OS gave it out, and it was closed again. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const state = (dir: string, run: string) =>
  JSON.parse(readFileSync(join(dir, 'results', run, 'state.json'), 'utf8')) as {
    status: string;
    error?: string;
    retries: number;
    retryLog: { error: string }[];
  };

test('a port where nothing listens fails at once, with no retry, and the error names the URL', async () => {
  const port = await deadPort();
  const dir = workspace({
    persona: { model: 'gpt-x', base_url: `http://127.0.0.1:${port}/v1` },
    runs: { d: { benchmark: 'starter', agent: 'chatbot' } },
  });
  // The default backoff (1 s, doubling): a retried refusal would take minutes, not seconds.
  const r = await mmb(['run'], dir, { MMB_BACKOFF_BASE_MS: '', MMB_MODEL_TIMEOUT_MS: '' });
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.ok(r.ms < 20_000, `took ${r.ms} ms`);
  const url = `http://127.0.0.1:${port}/v1/chat/completions`;
  const run = state(dir, 'd');
  assert.equal(run.status, 'crashed');
  assert.equal(run.retries, 0);
  assert.ok(run.error?.startsWith(`model gpt-x: ECONNREFUSED from ${url}: the connection was refused`), run.error);
  assert.doesNotMatch(r.stdout, /retrying/);
  assert.ok(r.stdout.includes(`ECONNREFUSED from ${url}`), r.stdout);
});

test('a 501 with a whole HTML page is not retried, and only a short excerpt without tags reaches the state and the reports', async () => {
  const filler = Array.from(
    { length: 400 },
    (_, i) => `<p class="x">paragraph ${i} of the proxy's page${i > 50 ? ', DEEP-PAGE-MARKER' : ''}</p>`,
  ).join('\n');
  const page = [
    '<!DOCTYPE html>',
    '<html><head><title>501 Not Implemented</title><style>body { color: red }</style></head>',
    '<body>',
    '  <h1>Not   Implemented</h1>',
    filler,
    '</body></html>',
  ].join('\n');
  const server = await fixedServer({ status: 501, type: 'text/html', body: page });
  try {
    const dir = workspace({ persona: { model: 'gpt-x', base_url: server.url }, runs: { h: { benchmark: 'starter', agent: 'chatbot' } } });
    const r = await mmb(['run'], dir, { MMB_BACKOFF_BASE_MS: '5' });
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.equal(server.requests(), 1, 'one request, no retry');
    const run = state(dir, 'h');
    assert.equal(run.retries, 0);
    const error = run.error ?? '';
    assert.match(
      error,
      joinedPattern([
        /^model gpt-x: 501 from http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: /,
        /501 Not Implemented Not Implemented paragraph 0 of the proxy's page/,
      ]),
    );
    assert.ok(error.length < 320, `${error.length} characters`);
    assert.doesNotMatch(error, /[<>]|color: red|\s{2}/);
    const html = await mmb(['report', 'h', '--html'], dir);
    assert.equal(html.status, 0, html.stdout + html.stderr);
    const files = ['report.md', join('h', 'summary.json'), join('h', 'report.html'), join('h', 'state.json')].map((f) =>
      join(dir, 'results', f),
    );
    for (const file of files) {
      assert.ok(existsSync(file), file);
      const text = readFileSync(file, 'utf8');
      assert.ok(!text.includes('DEEP-PAGE-MARKER'), `${file} holds the page`);
      assert.ok(!text.includes('<p class="x">') && !text.includes('&lt;p class'), `${file} holds the page's markup`);
    }
    assert.ok(!r.stdout.includes('<p') && !r.stdout.includes('DEEP-PAGE-MARKER'), 'the screen shows only the excerpt');
  } finally {
    await server.close();
  }
});

test('a 503 twice then 200: two retries shown as "retrying (n/7) in … s: 503 from <url>"; the agent model\'s retry journaled', async () => {
  let personaRequests = 0;
  const proxy = await startMeddlingProxy((request) => {
    if (request.path.startsWith('/agent')) return request.count === 1 ? { status: 503, message: 'agent side busy' } : undefined;
    return request.persona && ++personaRequests <= 2 ? { status: 503, message: 'overloaded, try later' } : undefined;
  });
  try {
    const dir = workspace({
      persona: { model: 'gpt-x', base_url: proxy.url() },
      runs: { s: { benchmark: 'starter', agent: 'chatbot', agent_model: { model: 'agent-x', base_url: proxy.url('/agent') } } },
    });
    const r = await mmb(['run', 's'], dir, { MMB_BACKOFF_BASE_MS: '20' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const url = (prefix: string) => `${proxy.url(prefix)}/chat/completions`.replace(/[.]/g, '\\.');
    const lines = r.stdout.split('\n').filter((line) => line.includes('retrying'));
    assert.equal(lines.length, 3, r.stdout);
    const persona = lines.filter((line) => line.startsWith('s: model gpt-x '));
    assert.equal(persona.length, 2, r.stdout);
    persona.forEach((line, index) =>
      assert.match(
        line,
        new RegExp(`^s: model gpt-x retrying \\(${index + 1}/7\\) in \\d+\\.\\d s: 503 from ${url('')}: overloaded, try later$`),
      ),
    );
    assert.ok(
      lines.some((line) =>
        new RegExp(`^s: the agent's model agent-x retrying \\(1/7\\) in \\d+\\.\\d s: 503 from ${url('/agent')}: agent side busy$`).test(
          line,
        ),
      ),
      r.stdout,
    );
    const run = state(dir, 's');
    assert.equal(run.status, 'finished');
    assert.equal(run.retries, 3);
    assert.deepEqual(run.retryLog.map((entry) => entry.error).sort(), [
      `503 from ${proxy.url('/agent')}/chat/completions: agent side busy`,
      `503 from ${proxy.url()}/chat/completions: overloaded, try later`,
      `503 from ${proxy.url()}/chat/completions: overloaded, try later`,
    ]);
  } finally {
    await proxy.close();
  }
});

test('a host name that does not resolve fails at once, with no retry, naming the URL', async () => {
  const model = new OpenAIChatModel({
    model: 'x',
    baseURL: 'http://mmb-no-such-host.invalid/v1',
    apiKey: 'none',
    secretKey: false,
    backoffBaseMs: 1,
  });
  const retries: string[] = [];
  const started = Date.now();
  await assert.rejects(
    model.complete({ messages: [{ role: 'user', content: 'hi' }] }, { onRetry: (notice) => retries.push(notice.error) }),
    joinedPattern([
      /^Error: model x: (ENOTFOUND|EAI_AGAIN) from http:\/\/mmb-no-such-host\.invalid\/v1\/chat\/completions: /,
      /the host name (does not resolve|could not be resolved)/,
    ]),
  );
  assert.deepEqual(retries, []);
  assert.ok(Date.now() - started < 30_000);
});

test('a key of 5 characters is refused before any request, naming its variable', async () => {
  const server = await fixedServer({ status: 200, type: 'application/json', body: '{}' });
  try {
    const dir = workspace({
      persona: { model: 'gpt-x', base_url: server.url, api_key_env: 'MMB_TEST_FIVE_KEY' },
      runs: { k: { benchmark: 'starter', agent: 'chatbot' } },
    });
    const r = await mmb(['run'], dir, { MMB_TEST_FIVE_KEY: 'abcde' });
    assert.notEqual(r.status, 0, r.stdout + r.stderr);
    assert.match(
      r.stdout + r.stderr,
      /the environment variable MMB_TEST_FIVE_KEY holds 5 characters, too short for an API key \(at least 8\)/,
    );
    assert.ok(!(r.stdout + r.stderr).includes('abcde'), 'the key itself is not shown');
    assert.equal(server.requests(), 0);
  } finally {
    await server.close();
  }
});

test('retries: refusals, unresolved names, 4xx and 501 fail at once; 408, 409, 429, 5xx, timeouts and dropped connections retry', () => {
  const headers = new Headers();
  const status = (code: number) => new OpenAI.APIError(code, undefined, 'x', headers);
  for (const code of [400, 401, 403, 404, 405, 413, 422, 501]) assert.equal(isRetryable(status(code)), false, String(code));
  for (const code of [408, 409, 429, 500, 502, 503, 504]) assert.equal(isRetryable(status(code)), true, String(code));
  const network = (code: string) =>
    new OpenAI.APIConnectionError({ cause: new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) }) });
  for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']) assert.equal(isRetryable(network(code)), false, code);
  assert.equal(isRetryable(network('ECONNRESET')), true);
  assert.equal(
    isRetryable(new OpenAI.APIConnectionError({ cause: new TypeError('fetch failed', { cause: new Error('bad port') }) })),
    false,
    'a port fetch refuses (9, 6000…)',
  );
  assert.equal(isRetryable(new OpenAI.APIConnectionTimeoutError()), true);
  const after = (name: string, value: string) => new OpenAI.APIError(429, undefined, 'x', new Headers({ [name]: value }));
  assert.equal(retryAfterMs(after('retry-after', '2')), 2000);
  assert.equal(retryAfterMs(after('retry-after-ms', '150')), 150);
  assert.equal(retryAfterMs(after('retry-after', new Date(10_000).toUTCString()), 4000), 6000);
  assert.equal(retryAfterMs(after('retry-after', '3600')), undefined, 'an hour is not waited for');
  assert.equal(retryAfterMs(status(503)), undefined);
});

test('an excerpt drops markup and whitespace runs, keeps 200 characters, and masks keys', () => {
  assert.equal(
    excerpt('<html><head><script>var a = 1 < 2;</script></head><body><h1>Bad\n\n  Gateway</h1>&amp; more</body></html>'),
    'Bad Gateway & more',
  );
  const long = excerpt(`<div>${'word '.repeat(500)}</div>`);
  assert.equal(long.length, 200);
  assert.ok(long.endsWith('…'));
  const key = 'sk-endpoint-test-4a7c9e21';
  runSecrets.add(key);
  assert.equal(
    excerpt(`<p>bad key ${key.slice(0, 12)}<b>${key.slice(12)}</b></p>`),
    'bad key *** ***',
    'both halves of a key split by markup are masked',
  );
  assert.equal(excerpt(`${'<b>'.repeat(5000)}x`), 'x', 'thousands of tags in a row stay cheap');
});
