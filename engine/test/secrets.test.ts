/** An API key in the environment appears nowhere under results/, even when the provider echoes it. */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { SecretMasker } from '../src/secrets';
import { startStandIn } from '../src/standin/server';
import { CLI, workspace, joinedPattern } from './helpers';
import { startMeddlingProxy } from './meddlingProxy';

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env });
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

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

test('a canary key reaches the provider but no file of the run', async () => {
  const canary = 'sk-canary-7f3e9a1c55d04b2e';
  const provider = await startStandIn({ faults: { rate: 0.2, kinds: ['500'], seed: 3 }, echoAuthorization: true });
  try {
    const dir = workspace({
      persona: { model: 'canary-model', base_url: provider.url, api_key_env: 'MMB_TEST_CANARY_KEY' },
      runs: {
        s1: {
          benchmark: 'starter',
          agent: 'chatbot',
          agent_model: { model: 'canary-model', base_url: provider.url, api_key_env: 'MMB_TEST_CANARY_KEY' },
        },
      },
    });
    // The provider lives in this process, so the CLI must run beside it, not block it.
    const r = await run(['run', 's1'], dir, { ...process.env, MMB_TEST_CANARY_KEY: canary });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.ok(provider.faults > 0, 'the provider did echo the key in some errors');
    assert.ok(!r.stdout.includes(canary) && !r.stderr.includes(canary));
    const files = filesUnder(join(dir, 'results'));
    assert.ok(files.some((f) => f.endsWith('state.json')) && files.some((f) => f.endsWith('report.md')));
    for (const f of [...files, join(dir, 'config.jsonc')]) assert.ok(!readFileSync(f, 'utf8').includes(canary), `${f} holds the key`);
    assert.ok(
      files.some((f) => readFileSync(f, 'utf8').includes('Internal error for Bearer ***')),
      'the echoed key was blanked out',
    );
  } finally {
    await provider.close();
  }
});

test('the notebook agent keeps the key out of its notes, their git history, its journal and its transcripts', async () => {
  const canary = 'sk-canary-notebook-40c2d9e1';
  const provider = await startStandIn({ faults: { rate: 0.2, kinds: ['500'], seed: 5 }, echoAuthorization: true });
  try {
    const model = { model: 'canary-model', base_url: provider.url, api_key_env: 'MMB_TEST_CANARY_KEY' };
    const dir = workspace({
      persona: { model: 'stand-in' },
      runs: { n1: { benchmark: 'starter', agent: 'notebook', agent_model: model } },
    });
    const r = await run(['run', 'n1'], dir, { ...process.env, MMB_TEST_CANARY_KEY: canary, MMB_BACKOFF_BASE_MS: '5' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.ok(provider.faults > 0);
    const agent = join(dir, 'results', 'n1', 'agent');
    assert.match(readFileSync(join(agent, 'memory', 'notes.md'), 'utf8'), /Leeds Lift/, 'the notebook did work through the provider');
    for (const f of filesUnder(join(dir, 'results'))) assert.ok(!readFileSync(f, 'utf8').includes(canary), `${f} holds the key`);
    // Git compresses its objects: read the history as text.
    const history = execFileSync('git', ['--git-dir', join(agent, 'memory.git'), 'log', '-p', '--all'], { encoding: 'utf8' });
    assert.match(history, /Leeds Lift/);
    assert.ok(!history.includes(canary));
  } finally {
    await provider.close();
  }
});

/** Every form of a key the test's server echoes, as the attacker-free but careless provider would. */
function echoForms(key: string): Record<string, string> {
  const bytes = Buffer.from(key);
  return {
    whole: key,
    base64: bytes.toString('base64'),
    base64url: bytes.toString('base64url'),
    hex: bytes.toString('hex'),
    urlEncoded: encodeURIComponent(key),
    substring: key.slice(6, 18),
    split: `${key.slice(0, 14)}\n${key.slice(14)}`,
    basicAuth: Buffer.from(`user:${key}`).toString('base64'),
  };
}

function echoText(authorization: string): string {
  return Object.entries(echoForms(authorization.replace(/^Bearer /, '')))
    .map(([name, form]) => `${name} ${form}`)
    .join(' | ');
}

test('a key echoed whole, in base64, base64url, hex, URL-encoded, cut short or split across lines reaches no file, no output', async () => {
  const canary = 'sk-canary/7f3e+9a1c=55d04b2e';
  const proxy = await startMeddlingProxy((request) => {
    // The crash run's agent model refuses its second request with the key in the message.
    if (request.path.startsWith('/crash') && request.count >= 2)
      return { status: 400, message: `Bad request for ${echoText(request.authorization)}` };
    if (request.persona && request.count % 5 === 2)
      return { status: 500, message: `Internal error for ${request.authorization} (${echoText(request.authorization)})` };
    if (!request.persona) return { rewrite: (content) => `${content} (echo: ${echoText(request.authorization)})` };
    return undefined;
  });
  try {
    const model = (url: string) => ({ model: 'canary-model', base_url: url, api_key_env: 'MMB_TEST_CANARY_KEY' });
    const dir = workspace({
      persona: model(proxy.url()),
      runs: {
        s1: { benchmark: 'starter', agent: 'chatbot', agent_model: model(proxy.url()) },
        c1: { benchmark: 'starter', agent: 'chatbot', agent_model: model(proxy.url('/crash')) },
      },
    });
    const env = { ...process.env, MMB_TEST_CANARY_KEY: canary, MMB_BACKOFF_BASE_MS: '5' };
    const outputs: string[] = [];
    const cli = async (args: string[], expected: number) => {
      const r = await run(args, dir, env);
      assert.equal(r.status, expected, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      outputs.push(r.stdout, r.stderr);
      return r;
    };
    const ran = await cli(['run'], 1);
    assert.match(ran.stdout, /^c1 +crashed /m, 'the crash is shown');
    assert.match(ran.stderr, /^mmb: run "c1" crashed: .*Bad request for/m, 'and its message, on stderr');
    await cli(['run', 's1', '--from', 'chapter2.md:1', '--only'], 0);
    await cli(['report', 'c1'], 0);
    await cli(['report', 's1', '--html'], 0);
    await cli(['report', '--compare', 's1', 'c1'], 0);
    assert.ok(proxy.meddled > 5, 'the server did echo the key, in errors and in replies');
    const files = filesUnder(dir);
    for (const name of ['state.json', 'summary.json', 'report.md', 'report.html', 'run.json'])
      assert.ok(
        files.some((f) => f.endsWith(name)),
        `${name} was written`,
      );
    const forms = Object.values(echoForms(canary)).flatMap((form) => form.split('\n'));
    const windows = Array.from({ length: canary.length - 7 }, (_, i) => canary.slice(i, i + 8));
    const leaks = (text: string) => [...forms, ...windows].filter((piece) => text.includes(piece));
    for (const f of files) assert.deepEqual(leaks(readFileSync(f, 'utf8')), [], `${f} holds the key`);
    outputs.forEach((text) => assert.deepEqual(leaks(text), [], `the CLI printed the key: ${text}`));
    const crashed = JSON.parse(readFileSync(join(dir, 'results', 'c1', 'summary.json'), 'utf8')) as { status: string; error: string };
    assert.equal(crashed.status, 'crashed');
    // The error is an excerpt of the server's body, its whitespace runs collapsed: the split key's newline is a space.
    assert.match(
      crashed.error,
      joinedPattern([
        /400 from http:\/\/127\.0\.0\.1:\d+\/crash\/v1\/chat\/completions: /,
        /Bad request for whole \*\*\* \| base64 \*\*\* \| base64url \*\*\* \| hex \*\*\* \| urlEncoded \*\*\* \| /,
        /substring \*\*\* \| split \*\*\* \*\*\* \| basicAuth \*\*\*/,
      ]),
      'every form was blanked out, and nothing else',
    );
  } finally {
    await proxy.close();
  }
});

test('the masker blanks every form and every 8-character window of a key, and nothing else', () => {
  const key = 'sk-canary/7f3e+9a1c=55d04b2e';
  const masker = new SecretMasker([key]);
  for (const [name, form] of Object.entries(echoForms(key))) {
    const masked = masker.mask(`before ${form} after`);
    // Basic auth keeps its user's part ("user:" is dXNlcjpz); everything from the key on goes.
    assert.match(masked, /^before (?:dXNlcjpz)?\*\*\*(?:\n\*\*\*)? after$/, name);
    for (let i = 0; i + 8 <= key.length; i++) assert.ok(!masked.includes(key.slice(i, i + 8)), `${name}: window ${i}`);
  }
  assert.equal(masker.mask(`${key}${key}`), '***', 'adjacent copies join into one run');
  assert.equal(masker.mask(`(token=x-${key.slice(2, -3)}TAIL).`), '(***).', 'the whole token goes, the cut-off and glued characters too');
  assert.equal(masker.mask('sk-canary is a prefix of 9 characters'), '*** is a prefix of 9 characters');
  assert.equal(masker.mask('sk-cana and 7f3e+9a1 are 7 and 8'), 'sk-cana and *** are 7 and 8', 'fewer than 8 characters are no secret');
  assert.deepEqual(masker.maskDeep({ error: `for ${key}`, n: 1, list: [key] }), { error: 'for ***', n: 1, list: ['***'] });
  const plain = { error: 'no key here' };
  assert.equal(masker.maskDeep(plain), plain, 'a value with no key is not copied');
  const short = new SecretMasker(['x']);
  assert.equal(
    short.mask('an explanation: x marks (x), x-ray, ax, room 78'),
    'an explanation: *** marks (***), x-ray, ax, room 78',
    'a short key only as a whole word, and not its hex',
  );
  assert.equal(new SecretMasker().mask(key), key);
});
