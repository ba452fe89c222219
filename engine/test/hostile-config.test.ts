/**
 * Hostile input through the real CLI: credentials written into config.jsonc, over-long names, run
 * ids that are paths, model replies and crash messages that try to forge report entries, a key so
 * short it is a word. Each is refused in one line (exit 2) or made harmless, and nothing is written
 * outside results/.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { parseConfig } from '../../scenario/src';
import { addUsage } from '../src/models/usage';
import { priceOf } from '../src/report/cost';
import { CLI, STARTER, tempDir, joinedPattern } from './helpers';
import { startMeddlingProxy } from './meddlingProxy';

interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
}

function mmb(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, MMB_BACKOFF_BASE_MS: '5', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Every file below `root` but those under `results`, with its size and time: what the engine may not touch. */
function outside(root: string, results: string): string[] {
  const found: string[] = [];
  const pending = [root];
  while (pending.length) {
    const dir = pending.pop()!;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      // The test itself rewrites config.jsonc between cases.
      if (path === results || path === join(root, 'ws', 'config.jsonc')) continue;
      const info = statSync(path);
      if (info.isDirectory()) pending.push(path);
      else found.push(`${relative(root, path)} ${info.size} ${info.mtimeMs}`);
    }
  }
  return found.sort();
}

/** A workspace at `<parent>/ws`, so that `../../x` from its results/ is `<parent>/x`. */
function hostileWorkspace(): { parent: string; ws: string; results: string } {
  const parent = tempDir('mmb-hostile-');
  const ws = join(parent, 'ws');
  cpSync(STARTER, join(ws, 'benchmarks', 'starter'), { recursive: true });
  return { parent, ws, results: join(ws, 'results') };
}

function assertOneLine(r: Result, what: string): void {
  assert.equal(r.status, 2, `${what}: ${r.stdout}${r.stderr}`);
  assert.match(r.stderr, /^mmb: [^\n]+\n$/, `${what}: one line on stderr`);
}

const good = { benchmark: 'starter', agent: 'chatbot' };
const secret = 'sk-hostile-0c7d2e9f41';

test('credentials anywhere in config.jsonc and over-long names are refused by mmb check and mmb run, never echoed', async () => {
  const { parent, ws, results } = hostileWorkspace();
  const cases: [string, unknown, RegExp][] = [
    ['api_key at the top level', { api_key: secret, runs: { a: good } }, /`api_key` would put a secret in a file: .* `api_key_env`/],
    [
      'api_key inside agent_model',
      { runs: { a: { ...good, agent_model: { model: 'm', base_url: 'http://127.0.0.1:9/v1', api_key: secret } } } },
      /`runs\.a\.agent_model\.api_key` would put a secret/,
    ],
    // Nested inside the one run key that takes any object, since an unknown key such as `headers` is itself an error now.
    [
      'Authorization in a headers object',
      { runs: { a: { benchmark: 'starter', agent: 'openclaw', openclaw_compaction: { headers: { Authorization: `Bearer ${secret}` } } } } },
      /`runs\.a\.openclaw_compaction\.headers\.Authorization` would put a secret/,
    ],
    [
      'openclaw_token',
      { runs: { a: { benchmark: 'starter', agent: 'openclaw', openclaw_token: secret } } },
      /`runs\.a\.openclaw_token` would put a secret in a file: .* `openclaw_token_env`/,
    ],
    [
      'authorization in the persona',
      { persona: { model: 'stand-in', authorization: secret }, runs: { a: good } },
      /`persona\.authorization` would put a secret/,
    ],
    [
      'userinfo in a base_url',
      { runs: { a: { ...good, agent_model: { model: 'm', base_url: `https://me:${secret}@127.0.0.1:9/v1` } } } },
      /`runs\.a\.agent_model\.base_url` has a user name or password in its URL/,
    ],
    [
      'a 300-character run name',
      { runs: { ['r'.repeat(300)]: good } },
      /a run name becomes a folder under results\/, so it must be at most 100 characters long \(this one has 300\)/,
    ],
    [
      'a benchmark that is a path',
      { runs: { a: { benchmark: '../../elsewhere', agent: 'chatbot' } } },
      /`benchmark` names a folder under benchmarks\/, so it may hold only letters/,
    ],
  ];
  writeFileSync(join(ws, 'config.jsonc'), '{}');
  const before = outside(parent, results);
  for (const [what, config, message] of cases) {
    writeFileSync(join(ws, 'config.jsonc'), JSON.stringify(config, null, 2));
    const checked = await mmb(['check', 'config.jsonc'], ws);
    assert.equal(checked.status, 1, `${what}: ${checked.stdout}${checked.stderr}`);
    assert.match(checked.stdout, message, what);
    const ran = await mmb(['run'], ws);
    assertOneLine(ran, what);
    assert.match(ran.stderr, message, what);
    for (const text of [checked.stdout, checked.stderr, ran.stdout, ran.stderr])
      assert.ok(!text.includes(secret), `${what}: the secret is not quoted`);
    assert.ok(!existsSync(results), `${what}: nothing ran`);
    writeFileSync(join(ws, 'config.jsonc'), '{}');
    assert.deepEqual(outside(parent, results), before, `${what}: nothing written outside results/`);
  }
  writeFileSync(join(ws, 'config.jsonc'), JSON.stringify({ runs: { a: good } }));
  const long = await mmb(['run', 'r'.repeat(300)], ws);
  assertOneLine(long, 'a 300-character run id');
  assert.match(long.stderr, /cannot be a folder name: it must be at most 200 characters long \(this one has 300\)/);
  assert.doesNotMatch(long.stderr, /ENAMETOOLONG/);
});

test('run ids given to mmb report are confined to results/: no path reads a state or writes a report elsewhere', async () => {
  const { parent, ws, results } = hostileWorkspace();
  writeFileSync(join(ws, 'config.jsonc'), JSON.stringify({ runs: { s1: { ...good, agent_model: { model: 'stand-in' } } } }));
  assert.equal((await mmb(['run'], ws)).status, 0);
  assert.equal((await mmb(['run', 's1', '--from', 'chapter3.md:1', '--only'], ws)).status, 0);
  const saved = JSON.parse(readFileSync(join(results, 's1.phase-chapter3-1', 'run.json'), 'utf8')) as { options: Record<string, unknown> };
  assert.deepEqual(saved.options, { agent_model: { model: 'stand-in' } }, 'run.json keeps only the run keys a resume needs');
  // A real state outside results/: without the rule, each command below would read it and write beside it.
  cpSync(join(results, 's1'), join(parent, 'x'), { recursive: true });
  mkdirSync(join(parent, 'elsewhere'));
  const before = outside(parent, results);
  for (const args of [
    ['report', '../../x'],
    ['report', '../../x', '--html'],
    ['report', '--compare', '../../x', 's1'],
    ['report', '--trends', '../../x'],
    ['report', join(parent, 'x'), '--html'],
  ]) {
    const r = await mmb(args, ws);
    assertOneLine(r, args.join(' '));
    assert.match(r.stderr, /cannot be a folder name: .*\(no path\)\.$/m, args.join(' '));
    assert.deepEqual(outside(parent, results), before, `${args.join(' ')}: nothing written outside results/`);
  }
  assert.ok(!existsSync(join(parent, 'x', 'report.html')));
});

// A one-letter key through api_key_env is refused now (engine/test/endpoints.test.ts); that
// other short secrets are masked only as whole words is unit-tested in secrets.test.ts.
test('replies and crash messages with newlines cannot forge report entries', async () => {
  const forged = '\n## 2026-01-01 00:00 — forged: starter @ chatbot\n📊 Evaluations: 5, average 10.00/10\n```\n';
  const proxy = await startMeddlingProxy((request) => {
    if (request.path.startsWith('/crash') && request.count >= 2) return { status: 400, message: `boom${forged}` };
    if (request.path.startsWith('/forge')) return { rewrite: () => `I do not know.${forged}<!-- hide the rest` };
    return undefined;
  });
  try {
    const { parent, ws, results } = hostileWorkspace();
    const model = (prefix: string) => ({ model: 'hostile', base_url: proxy.url(prefix) });
    writeFileSync(
      join(ws, 'config.jsonc'),
      JSON.stringify({
        runs: {
          forge: { ...good, agent_model: model('/forge') },
          crash: { ...good, agent_model: model('/crash') },
        },
      }),
    );
    const before = outside(parent, results);
    const r = await mmb(['run'], ws);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.deepEqual(outside(parent, results), before, 'nothing written outside results/');
    assert.doesNotMatch(r.stdout, /^(## |📊 Evaluations)/m, 'no forged line on stdout');
    const report = readFileSync(join(results, 'report.md'), 'utf8');
    assert.deepEqual(
      report.match(/^## .*$/gm)?.map((line) => line.replace(/^## [\d-]+ [\d:]+ — /, '')),
      ['forge: starter @ chatbot', 'crash: starter @ chatbot (crashed)'],
      'exactly one entry per run',
    );
    assert.doesNotMatch(report, /^(- )?📊 Evaluations: \d+, average 10\.00\/10$/m);
    assert.doesNotMatch(report, /^```/m, 'no fence opened');
    assert.match(
      report,
      /^- 💥 Crashed: .*boom ## 2026-01-01 00:00 — forged: starter @ chatbot 📊 Evaluations: 5, average 10\.00\/10 \\`\\`\\`$/m,
      'the crash message is one escaped line',
    );
    assert.match(
      report,
      joinedPattern(
        [
          /^\| 0\/10, 2nd attempt \| 3\.1 \| .* \| I do not know\. /,
          /## 2026-01-01 00:00 — forged: .* \\`\\`\\` \\<!-- hide the rest \| missing [^|]* \|$/,
        ],
        'm',
      ),
      'the answer is whole, in its cell, escaped',
    );
  } finally {
    await proxy.close();
  }
});

test('model names and keys like __proto__ or constructor are data, never a prototype: usage tallies, prices and run options', () => {
  const tally = {};
  for (const model of ['__proto__', 'constructor', 'toString']) addUsage(tally, model, { promptTokens: 3, completionTokens: 2 });
  addUsage(tally, '__proto__', { promptTokens: 1, completionTokens: 1 });
  assert.deepEqual(Object.keys(tally), ['__proto__', 'constructor', 'toString']);
  assert.deepEqual(Object.getOwnPropertyDescriptor(tally, '__proto__')?.value, { requests: 2, promptTokens: 4, completionTokens: 3 });
  assert.equal(Object.getPrototypeOf(tally), Object.prototype, 'the tally keeps its prototype');
  assert.equal(({} as { requests?: number }).requests, undefined, 'Object.prototype is untouched');
  assert.equal(priceOf('constructor'), null, "an unknown model has no price, not Object's constructor");
  assert.equal(priceOf('toString', {}), null);
  const parsed = parseConfig(
    '{ "prices": { "__proto__": { "input": 1, "output": 2 } }, ' +
      '"runs": { "a": { "benchmark": "starter", "agent": "chatbot", "__proto__": { "x": 1 } } } }',
  );
  assert.deepEqual(Object.getOwnPropertyDescriptor(parsed.config.prices, '__proto__')?.value, { input: 1, output: 2 });
  assert.equal(Object.getPrototypeOf(parsed.config.prices), Object.prototype);
  const options = parsed.config.runs[0]?.options ?? {};
  assert.ok(Object.hasOwn(options, '__proto__'), 'the key is an own property');
  assert.equal(Object.getPrototypeOf(options), Object.prototype);
  assert.ok(
    parsed.diagnostics.some((d) => d.code === 'unknown-config-key' && d.message.includes('__proto__')),
    'and the strict config names it',
  );
});
