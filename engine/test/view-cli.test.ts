/**
 * `mmb view` and the true status through the built CLI (`npm run build` first): the URL printed,
 * a non-loopback host refused in one line, Ctrl-C stopping it; `mmb report --json`, `mmb report
 * <id>` and `--html` saying "stopped" for a run whose state says running with no live lock.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, mmb, REPORTS, tempDir, joinedPattern } from './helpers';

/** A workspace of the report fixtures, with `stopped-1`: a copy of chatbot-1 whose state says running, and no lock. */
function fixtureWorkspace(): string {
  const root = tempDir('mmb-view-cli-');
  cpSync(join(REPORTS, 'benchmarks'), join(root, 'benchmarks'), { recursive: true });
  cpSync(join(REPORTS, 'runs'), join(root, 'results'), { recursive: true });
  writeFileSync(join(root, 'config.jsonc'), '{}');
  const state = JSON.parse(readFileSync(join(REPORTS, 'runs', 'chatbot-1', 'state.json'), 'utf8')) as Record<string, unknown>;
  mkdirSync(join(root, 'results', 'stopped-1'));
  writeFileSync(
    join(root, 'results', 'stopped-1', 'state.json'),
    JSON.stringify({ ...state, run: 'stopped-1', status: 'running', finishedAt: undefined }),
  );
  return root;
}

test('mmb view refuses a host that is not loopback, and a port that is no port, in one line each', () => {
  const root = fixtureWorkspace();
  for (const [args, message] of [
    [
      ['--host', '0.0.0.0'],
      joinedPattern([
        /^mmb: --host 0\.0\.0\.0 is not a loopback address: /,
        /mmb view serves your results with no login but its token, so only to this machine \(127\.0\.0\.1, localhost or ::1\)\.\n$/,
      ]),
    ],
    [['--host', '192.168.1.2'], /is not a loopback address/],
    [['--port', 'http'], /^mmb: --port needs a port number from 0/],
    [['--port', '70000'], /^mmb: --port needs a port number/],
    [['chatbot-1'], /^mmb: mmb view takes no run ids/],
  ] as const) {
    const r = mmb(['view', ...args], root);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(r.stdout, '');
  }
});

test('mmb view prints its loopback URL with the token, serves the index there, and Ctrl-C stops it with 0', async () => {
  const root = fixtureWorkspace();
  const child = spawn(process.execPath, [CLI, 'view'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const deadline = Date.now() + 10_000;
    while (!/http:\/\/\S+/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const url = /http:\/\/127\.0\.0\.1:(\d+)\/\?token=[\w-]+/.exec(out);
    assert.ok(url, out);
    assert.match(out, /^Serving the runs of results at http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+\n/);
    const cookie = await new Promise<string>((resolve, reject) =>
      get(url[0], (res) => {
        assert.equal(res.statusCode, 303);
        res.resume();
        resolve(String(res.headers['set-cookie']).split(';')[0]!);
      }).on('error', reject),
    );
    const body = await new Promise<string>((resolve, reject) =>
      get({ host: '127.0.0.1', port: Number(url[1]), path: '/', headers: { Cookie: cookie } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => resolve(text));
      }).on('error', reject),
    );
    assert.match(body, /<tr data-run="stopped-1"[^>]*data-status="stopped"/);
  } finally {
    child.kill('SIGINT');
  }
  assert.equal(await exited, 0);
  assert.equal(err, '', "a server's Ctrl-C is its normal end: nothing on stderr");
});

test('the true status everywhere: report --json, the run entry and HTML page say "stopped" for a running state with no live lock', () => {
  const root = fixtureWorkspace();
  const json = mmb(['report', '--json', 'stopped-1', 'chatbot-1'], root);
  assert.equal(json.code, 0, json.stderr);
  const { runs } = JSON.parse(json.stdout) as { runs: { run: string; status: string }[] };
  assert.deepEqual(
    runs.map((r) => `${r.run}:${r.status}`),
    ['stopped-1:stopped', 'chatbot-1:finished'],
  );
  const html = mmb(['report', 'stopped-1', '--html'], root);
  assert.equal(html.code, 0, html.stderr);
  const page = readFileSync(join(root, 'results', 'stopped-1', 'report.html'), 'utf8');
  assert.match(page, /<h1>stopped-1: multiday @ chatbot <span class="tag">stopped<\/span><\/h1>/);
  const compare = mmb(['report', '--compare', 'chatbot-1', 'stopped-1'], root);
  assert.equal(compare.code, 0, compare.stderr);
  assert.match(readFileSync(join(root, 'results', 'compare-chatbot-1-vs-stopped-1.html'), 'utf8'), /stopped-1 \(stopped\)/);
});
