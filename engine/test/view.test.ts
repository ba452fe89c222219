/**
 * `mmb view`'s server over real HTTP on port 0, on a workspace of runs made by the real engine
 * (the report fixtures) plus a stopped run, a damaged one, a hostile one and a link out of results/.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { parseIndexMessage } from '../src/protocol/messages';
import { renderRunsIndex } from '../src/report/html/runsIndexPage';
import { indexRow, runsIndex } from '../src/report/runsIndex';
import type { RunState } from '../src/state/runState';
import { acquireLock } from '../src/workspace/lock';
import { MAX_EVENT_CLIENTS } from '../src/view/events';
import { startViewServer, type ViewServer } from '../src/view/server';
import { REPORTS, ROOT, tempDir } from './helpers';

let server: ViewServer;
let root: string;
let cookie: string;
let releaseLock: () => void = () => {};

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request as a browser (or an attacker's page) sends it: the Host header and the cookie are the caller's. */
function get(path: string, o: { host?: string; cookie?: string | null; method?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: o.host ?? `127.0.0.1:${server.port}` };
    if (o.cookie !== null) headers.Cookie = o.cookie ?? cookie;
    const req = request({ host: '127.0.0.1', port: server.port, path, method: o.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

function stateOf(id: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(REPORTS, 'runs', id, 'state.json'), 'utf8')) as Record<string, unknown>;
}

function writeRun(id: string, state: unknown): void {
  mkdirSync(join(root, 'results', id), { recursive: true });
  writeFileSync(join(root, 'results', id, 'state.json'), typeof state === 'string' ? state : JSON.stringify(state));
}

before(async () => {
  root = tempDir('mmb-view-');
  cpSync(join(REPORTS, 'benchmarks'), join(root, 'benchmarks'), { recursive: true });
  cpSync(join(REPORTS, 'runs'), join(root, 'results'), { recursive: true });
  writeFileSync(join(root, 'config.jsonc'), '{}');
  // A run whose state says running, with no engine behind a lock: it was stopped.
  writeRun('stopped-1', { ...stateOf('chatbot-1'), run: 'stopped-1', status: 'running', finishedAt: undefined });
  writeRun('hostile', {
    ...stateOf('chatbot-1'),
    run: '</script><script>alert(3)</script>',
    benchmark: '<img src=x onerror=alert(1)>',
    agent: '<b>agent</b>',
    usage: { '<script>alert(4)</script>': { requests: 1, promptTokens: 1, completionTokens: 1 } },
  });
  writeRun('broken', '{ not json');
  const outside = tempDir('mmb-view-outside-');
  writeFileSync(join(outside, 'state.json'), JSON.stringify({ ...stateOf('chatbot-1'), run: 'linked', agent: 'outside-agent' }));
  symlinkSync(outside, join(root, 'results', 'linked'));
  // A real folder whose state file is a link out of results/.
  mkdirSync(join(root, 'results', 'inner-link'));
  symlinkSync(join(outside, 'state.json'), join(root, 'results', 'inner-link', 'state.json'));
  // A run an engine (this process) holds the lock of: running.
  writeRun('live-1', { ...stateOf('chatbot-1'), run: 'live-1', status: 'running', finishedAt: undefined });
  const lock = acquireLock(join(root, 'results', 'live-1'));
  assert.ok(lock.ok);
  releaseLock = lock.release;
  server = await startViewServer({
    ws: { root, configPath: join(root, 'config.jsonc'), bundled: join(ROOT, 'benchmarks') },
    prices: () => ({}),
    port: 0,
    host: '127.0.0.1',
  });
  const first = await get(`/?token=${server.token}`, { cookie: null });
  cookie = String(first.headers['set-cookie']).split(';')[0]!;
});

after(async () => {
  releaseLock();
  await server?.close();
});

test('the URL printed holds a token; the first visit trades it for an HttpOnly, SameSite=Strict cookie and a URL without it', async () => {
  assert.match(server.url, new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/\\?token=[\\w-]{32}$`));
  const first = await get(`/run/chatbot-1?token=${server.token}`, { cookie: null });
  assert.equal(first.status, 303);
  assert.equal(first.headers.location, '/run/chatbot-1');
  assert.equal(String(first.headers['set-cookie']), `mmb_view_${server.port}=${server.token}; HttpOnly; SameSite=Strict; Path=/`);
  assert.equal((await get('/')).status, 200);
});

test('without the token, or with a wrong one, every path is 403', async () => {
  for (const path of ['/', '/run/chatbot-1', '/events', '/compare?run=chatbot-1&run=chatbot-2']) {
    assert.equal((await get(path, { cookie: null })).status, 403, path);
    assert.equal((await get(path, { cookie: `mmb_view_${server.port}=${'x'.repeat(server.token.length)}` })).status, 403, path);
  }
  assert.equal((await get('/?token=wrong', { cookie: null })).status, 403);
});

test("DNS rebinding: a Host header other than the server's loopback address and port is 403, token or not", async () => {
  for (const host of [
    'evil.example',
    `evil.example:${server.port}`,
    `127.0.0.1:${server.port + 1}`,
    '127.0.0.1',
    `127.0.0.2:${server.port}`,
  ]) {
    const answer = await get('/', { host });
    assert.equal(answer.status, 403, host);
    assert.doesNotMatch(answer.body, /chatbot-1/, host);
  }
  assert.equal(
    (await get(`/?token=${server.token}`, { host: `evil.example:${server.port}`, cookie: null })).status,
    403,
    'no cookie for a rebound name',
  );
  assert.equal((await get('/', { host: `localhost:${server.port}` })).status, 200);
});

test('only GET and HEAD: POST, PUT, DELETE are 405; HEAD has the headers and no body', async () => {
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
    const answer = await get('/', { method });
    assert.equal(answer.status, 405, method);
    assert.equal(answer.headers.allow, 'GET, HEAD');
  }
  const head = await get('/run/chatbot-1', { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(head.body, '');
  assert.ok(Number(head.headers['content-length']) > 1000);
});

test('every page: the CSP of the report pages (with the nonce of its own document), nosniff, no referrer, no cache, no CORS', async () => {
  for (const path of ['/', '/run/chatbot-2', '/run/stopped-1', '/compare?run=chatbot-1&run=chatbot-2', '/trends', '/run/nope']) {
    const answer = await get(path);
    const nonce = /script-src 'nonce-([^']+)'/.exec(String(answer.headers['content-security-policy']))?.[1];
    assert.ok(nonce, path);
    const connect = path === '/' ? "; connect-src 'self'" : '';
    assert.equal(
      answer.headers['content-security-policy'],
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src data:${connect}`,
      path,
    );
    assert.ok(answer.body.includes(`<script nonce="${nonce}">`), `${path}: the document's scripts carry the header's nonce`);
    assert.equal(answer.headers['x-content-type-options'], 'nosniff');
    assert.equal(answer.headers['referrer-policy'], 'no-referrer');
    assert.equal(answer.headers['cache-control'], 'no-store');
    assert.equal(Object.keys(answer.headers).filter((h) => h.startsWith('access-control-')).length, 0, path);
  }
});

test('the index: every run with benchmark, agent, models, true status, date, score, graded checks; no link out of results/', async () => {
  const { status, body } = await get('/');
  assert.equal(status, 200);
  const rows = [...body.matchAll(/<tr data-run="([^"]+)"[^>]*data-status="([^"]+)"/g)].map((m) => `${m[1]}:${m[2]}`).sort();
  assert.deepEqual(rows, [
    'broken:damaged',
    'chatbot-1:finished',
    'chatbot-2:finished',
    'chatbot-3:finished',
    'hostile:finished',
    'in-context:finished',
    'inner-link:damaged',
    'live-1:running',
    'stopped-1:stopped',
  ]);
  assert.match(body, /<tr data-run="inner-link"[\s\S]*?damaged: inner-link\/state\.json: not a regular file/);
  assert.ok(!body.includes('outside-agent'), 'the symlinked folder is not followed');
  const chatbot2 = /<tr data-run="chatbot-2"[\s\S]*?<\/tr>/.exec(body)![0];
  assert.match(chatbot2, /<a href="\/run\/chatbot-2" data-open-run="chatbot-2">chatbot-2<\/a>/);
  assert.match(chatbot2, /<td>multiday<\/td><td>chatbot<\/td><td class="models">stand-in<\/td>/);
  assert.match(chatbot2, /<span class="grade g-poor">2\.40\/10<\/span>/);
  assert.match(chatbot2, /<td class="num">10\/10<\/td>/);
  assert.match(chatbot2, /<td class="when"><span>2026-\d\d-\d\d<\/span> <span>\d\d:\d\d<\/span><\/td>/);
  assert.match(body, /<tr data-run="broken"[\s\S]*?damaged: broken\/state\.json: not JSON/);
  assert.match(body, /<form id="mmb-selection" method="get" action="\/compare">/);
  assert.match(body, /<button type="submit" formaction="\/trends" data-action="trends">Trends<\/button>/);
  assert.match(body, /<input type="checkbox" name="run" value="chatbot-1"/);
});

test('the filters are query parameters: benchmark, agent, status and dates pick the rows, with no script', async () => {
  const ids = async (query: string) => [...(await get(`/${query}`)).body.matchAll(/<tr data-run="([^"]+)"/g)].map((m) => m[1]).sort();
  assert.deepEqual(await ids('?status=stopped'), ['stopped-1']);
  assert.deepEqual(await ids('?status=damaged'), ['broken', 'inner-link']);
  assert.deepEqual(await ids('?benchmark=multiday&status=finished'), ['chatbot-1', 'chatbot-2', 'chatbot-3', 'in-context']);
  assert.deepEqual(await ids('?agent=chatbot&benchmark=multiday'), [
    'chatbot-1',
    'chatbot-2',
    'chatbot-3',
    'in-context',
    'live-1',
    'stopped-1',
  ]);
  assert.deepEqual(await ids('?status=running'), ['live-1']);
  assert.deepEqual(await ids('?from=2099-01-01'), []);
  assert.match((await get('/?from=2099-01-01')).body, /<p class="note" id="mmb-none">No run matches these filters\.<\/p>/);
  const day = String(stateOf('chatbot-1').startedAt).slice(0, 10);
  assert.equal((await ids(`?from=${day}&to=${day}&status=finished`)).length, 5);
  assert.equal((await ids('?status=<script>&from=yesterday')).length, 9, 'a value that is no status or date filters nothing');
  assert.match((await get('/?status=stopped')).body, /<option value="stopped" selected>stopped<\/option>/);
});

test("HTML in a run's benchmark, agent, model and name is escaped in the index and its page", async () => {
  const index = (await get('/')).body;
  for (const page of [index, (await get('/run/hostile')).body]) {
    assert.ok(!page.includes('<img src=x'), 'no img element from a benchmark name');
    assert.ok(!/<script>alert/.test(page), 'no script element from a name');
    assert.ok(!page.includes('<b>agent</b>'));
  }
  assert.ok(index.includes('&lt;img src=x onerror=alert(1)&gt;'));
  assert.ok(index.includes('&lt;script&gt;alert(4)&lt;/script&gt;'));
  const injected = await get('/run/%3Cscript%3Ealert(5)%3C%2Fscript%3E');
  assert.equal(injected.status, 404);
  assert.ok(!injected.body.includes('<script>alert(5)'));
});

test('run ids are folder names: ../ and encoded traversals, links out of results/ and unknown runs are 404', async () => {
  const inner = await get('/run/inner-link');
  assert.equal(inner.status, 200, "a damaged run's page says what is damaged");
  assert.match(inner.body, /damaged: inner-link\/state\.json: not a regular file/);
  assert.ok(!inner.body.includes('outside-agent'), 'a state file linked out of results/ is not read');
  for (const path of [
    '/run/..%2Fconfig.jsonc',
    '/run/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '/run/..%5c..%5cx',
    '/run/%252e%252e',
    '/run/linked',
    '/run/nope',
    '/run/%E0%A4%A',
    '/run/chatbot-1/state.json',
    '/results/chatbot-1/state.json',
    '/config.jsonc',
    '/benchmarks/multiday/exam.md',
  ]) {
    const answer = await get(path);
    assert.equal(answer.status, 404, path);
    assert.ok(!answer.body.includes('outside-agent') && !answer.body.includes('"persona"'), path);
  }
});

test('a run page: the report renderer, with the true status; a damaged run is one line and the server goes on', async () => {
  const report = await get('/run/chatbot-2');
  assert.equal(report.status, 200);
  assert.match(report.body, /<h1>chatbot-2: multiday @ chatbot<\/h1>/);
  assert.match(report.body, /<canvas id="chart-distribution"/);
  assert.doesNotMatch(report.body, /new EventSource/, 'a finished run does not follow');
  const stopped = await get('/run/stopped-1');
  assert.match(stopped.body, /<h1>stopped-1: multiday @ chatbot <span class="tag">stopped<\/span><\/h1>/);
  assert.doesNotMatch(stopped.body, /<span class="tag">running<\/span>/);
  const live = await get('/run/live-1');
  assert.match(live.body, /<h1>live-1: multiday @ chatbot <span class="tag">running<\/span><\/h1>/);
  assert.match(String(live.headers['content-security-policy']), /; connect-src 'self'$/, "a running run's page may reach /events");
  assert.match(live.body, /var watched = "live-1";[\s\S]*new EventSource\('\/events'\)/);
  const broken = await get('/run/broken');
  assert.equal(broken.status, 200, 'a damaged run is no fault of the server');
  assert.match(broken.body, /<p class="problem">damaged: broken\/state\.json: not JSON [^<\n]*<\/p>/);
  assert.equal((await get('/')).status, 200, 'the server still answers');
});

test('compare and trends of a selection answer; one run, or runs of two benchmarks, get a one-line page', async () => {
  const compare = await get('/compare?run=chatbot-1&run=in-context&run=stopped-1');
  assert.equal(compare.status, 200);
  assert.match(compare.body, /<h1>Comparison: chatbot-1 · in-context · stopped-1<\/h1>/);
  assert.match(compare.body, /stopped-1 \(stopped\)/);
  assert.equal((await get('/compare?run=chatbot-1')).status, 400);
  const mixed = await get('/compare?run=chatbot-1&run=hostile');
  assert.equal(mixed.status, 400);
  assert.match(mixed.body, /runs of different benchmarks cannot be compared/);
  assert.equal((await get('/compare?run=chatbot-1&run=..%2Fx')).status, 404);
  const trends = await get('/trends?run=chatbot-1&run=chatbot-2&run=chatbot-3');
  assert.equal(trends.status, 200);
  assert.match(trends.body, /<tr class="flaky" data-check="15\.4">/);
  assert.equal((await get('/trends')).status, 200);
});

test("Server-Sent Events: a change of a run's state is told to the pages that follow, by run id; clients are bounded", async () => {
  const events = await new Promise<{ text: () => string; close: () => void }>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, path: '/events', headers: { Host: `127.0.0.1:${server.port}`, Cookie: cookie } },
      (res) => {
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['content-type'], 'text/event-stream; charset=utf-8');
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        resolve({ text: () => text, close: () => req.destroy() });
      },
    );
    req.on('error', reject);
    req.end();
  });
  try {
    await new Promise((r) => setTimeout(r, 300));
    writeRun('chatbot-3', { ...stateOf('chatbot-3'), status: 'crashed', error: 'a change' });
    const deadline = Date.now() + 6000;
    while (!/event: change/.test(events.text()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const data = /event: change\ndata: (.+)\n\n/.exec(events.text());
    assert.ok(data, `an event came: ${events.text()}`);
    assert.deepEqual(JSON.parse(data[1]!), { runs: ['chatbot-3'] });
    assert.match((await get('/')).body, /<tr data-run="chatbot-3"[^>]*data-status="crashed"/);
    assert.match((await get('/')).body, /new EventSource\('\/events'\)/, 'the index follows');
  } finally {
    events.close();
  }
});

test('SSE: no more than MAX_EVENT_CLIENTS pages follow at once', async () => {
  const open: (() => void)[] = [];
  const connect = () =>
    new Promise<number>((resolve) => {
      const req = request(
        { host: '127.0.0.1', port: server.port, path: '/events', headers: { Host: `127.0.0.1:${server.port}`, Cookie: cookie } },
        (res) => {
          resolve(res.statusCode ?? 0);
          if (res.statusCode !== 200) res.resume();
        },
      );
      req.on('error', () => resolve(0));
      open.push(() => req.destroy());
      req.end();
    });
  try {
    for (let i = 0; i < MAX_EVENT_CLIENTS; i++) assert.equal(await connect(), 200);
    assert.equal(await connect(), 503);
    assert.equal(server.eventClients(), MAX_EVENT_CLIENTS);
  } finally {
    for (const close of open) close();
  }
});

test("the index's messages in the editor: open a run, compare or trends of a selection; anything else is refused", () => {
  assert.deepEqual(parseIndexMessage({ type: 'mmb.openRun', run: 'chatbot-1#2' }), { type: 'mmb.openRun', run: 'chatbot-1#2' });
  assert.deepEqual(parseIndexMessage({ type: 'mmb.compareRuns', runs: ['a', 'b'] }), { type: 'mmb.compareRuns', runs: ['a', 'b'] });
  assert.deepEqual(parseIndexMessage({ type: 'mmb.showTrends', runs: [] }), { type: 'mmb.showTrends', runs: [] });
  for (const bad of [
    null,
    'mmb.openRun',
    { type: 'mmb.openRun' },
    { type: 'mmb.openRun', run: '' },
    { type: 'mmb.compareRuns', runs: 'a' },
    { type: 'mmb.compareRuns', runs: [1] },
    { type: 'mmb.compareRuns', runs: Array.from({ length: 51 }, (_, i) => `r${i}`) },
    { type: 'mmb.openRun', run: 'x'.repeat(1001) },
    { type: 'other', run: 'a' },
  ]) {
    assert.equal(parseIndexMessage(bad), undefined, JSON.stringify(bad)?.slice(0, 80));
  }
});

test('the index in a webview: links carry the run and post mmb.openRun, the buttons post the runs ticked; no path of the server', () => {
  const state = stateOf('chatbot-1') as unknown as RunState;
  const html = renderRunsIndex(runsIndex([indexRow('chatbot-1#2', state, 'finished', undefined)]), { nonce: 'n', postMessageLinks: true });
  assert.match(html, /<a href="#" data-open-run="chatbot-1#2">chatbot-1#2<\/a>/);
  assert.match(html, /<td class="num">0\/\?<\/td>|<td class="num">\d+\/\?<\/td>/, 'checks planned unknown without the benchmark');
  assert.match(html, /vscode\.postMessage\(\{ type: 'mmb\.openRun', run: link\.getAttribute\('data-open-run'\) \}\)/);
  assert.match(html, /type: action === 'trends' \? 'mmb\.showTrends' : 'mmb\.compareRuns', runs: runs/);
  assert.doesNotMatch(html, /href="\/run\//);
  const served = renderRunsIndex(runsIndex([indexRow('chatbot-1#2', state, 'finished', undefined)]), { nonce: 'n' });
  assert.match(served, /<a href="\/run\/chatbot-1%232" data-open-run="chatbot-1#2">/, "a repeat's # is %23 in its address");
  assert.match(renderRunsIndex(runsIndex([]), { nonce: 'n' }), /No runs yet: <code>mmb demo<\/code>/);
});
