/**
 * A `process` agent's environment is an allow-list: through the built CLI, a program that writes
 * down its environment at each start gets the baseline, the variables its run lists (by name and
 * by prefix), those it sets, and the protocol's MMB_* variables; never the persona's key, the
 * agent model's own variable, or a canary nobody listed, in `mmb run` as in `mmb conformance`.
 * A hostile name is an error at its line, not a variable.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createAdapter } from '../src/adapters/registry';
import { Clock } from '../src/clock';
import { ConfigError } from '../src/errors';
import { startStandIn, type StandIn } from '../src/standin/server';
import { CLI, mmb, ROOT, tempDir, workspace } from './helpers';

const KEYS = {
  MMB_TEST_PERSONA_KEY: 'persona-key-5f0c1e9a7d',
  MMB_TEST_AGENT_KEY: 'agent-key-7b2d4e6f81',
  MMB_TEST_CANARY: 'canary-3a9e1c5b7f',
  MMB_TEST_LISTED: 'listed-value',
  MMB_TEST_PFX_ONE: 'one',
  MMB_TEST_PFX_TWO: 'two',
  MMB_TEST_PFXNOT: 'not-under-the-prefix',
};

/** Names a program may get without being listed: what processEnv.ts's baseline holds on Linux. */
const BASELINE = new Set(['PATH', 'HOME', 'LANG', 'LANGUAGE', 'TZ', 'TMPDIR', 'TERM']);

/** The example agent behind a line that writes down its environment, one JSON line per start. */
const ENV_AGENT = [
  "import { appendFileSync } from 'node:fs';",
  'appendFileSync(process.env.ENV_DUMP, `${JSON.stringify(process.env)}\\n`);',
  "await import('./my-agent.mjs');",
  '',
].join('\n');

/** The CLI without blocking: the stand-in the runs call lives in this process. */
function mmbAsync(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.on('close', (code) => resolve({ code, output }));
  });
}

function dumps(file: string): Record<string, string>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, string>);
}

function assertAllowListed(env: Record<string, string>, dump: string, what: string): void {
  for (const name of ['MMB_TEST_PERSONA_KEY', 'MMB_TEST_AGENT_KEY', 'MMB_TEST_CANARY', 'MMB_TEST_PFXNOT'])
    assert.equal(env[name], undefined, `${what}: ${name} is not handed over`);
  assert.equal(env.MMB_TEST_LISTED, 'listed-value', `${what}: a listed name`);
  assert.equal(env.MMB_TEST_PFX_ONE, 'one', `${what}: a prefix`);
  assert.equal(env.MMB_TEST_PFX_TWO, 'two', `${what}: a prefix`);
  assert.equal(env.MY_AGENT_MODE, 'quiet', `${what}: env_set`);
  assert.equal(env.ENV_DUMP, dump);
  assert.equal(env.MMB_MODEL_API_KEY, KEYS.MMB_TEST_AGENT_KEY, `${what}: the agent model's key under the protocol's name`);
  assert.equal(env.MMB_MODEL, 'agent-model');
  assert.equal(env.MMB_AGENT_PROTOCOL, '1');
  assert.ok(env.PATH, `${what}: PATH, to start an interpreter`);
  const expected = new Set([
    ...BASELINE,
    'MMB_TEST_LISTED',
    'MMB_TEST_PFX_ONE',
    'MMB_TEST_PFX_TWO',
    'MY_AGENT_MODE',
    'ENV_DUMP',
    'MMB_AGENT_HOME',
    'MMB_AGENT_PROTOCOL',
    'MMB_AGENT_GROUP',
    'MMB_MODEL_BASE_URL',
    'MMB_MODEL',
    'MMB_MODEL_API_KEY',
  ]);
  // Node itself may add a variable or two of its own; every other one must be on the allow-list.
  const extra = Object.keys(env).filter((name) => !expected.has(name) && !name.startsWith('LC_') && name !== 'NODE_CHANNEL_FD');
  assert.deepEqual(extra, [], `${what}: nothing else of the engine's environment (npm's, the shell's)`);
}

describe('a process agent gets an allow-listed environment', () => {
  let standIn: StandIn;
  before(async () => {
    standIn = await startStandIn();
  });
  after(async () => {
    await standIn.close();
  });

  function envWorkspace(dump: string): string {
    const model = (name: string, keyEnv: string) => ({ model: name, base_url: standIn.url, api_key_env: keyEnv });
    const dir = workspace({
      persona: model('persona-model', 'MMB_TEST_PERSONA_KEY'),
      runs: {
        envs: {
          benchmark: 'starter',
          agent: 'process',
          command: [process.execPath, 'agents/env-agent.mjs'],
          // A prefix that matches the persona's key hands over the rest, never it.
          env: ['MMB_TEST_LISTED', 'MMB_TEST_PFX_*', 'MMB_TEST_PERSONA*'],
          env_set: { ENV_DUMP: dump, MY_AGENT_MODE: 'quiet' },
          agent_model: model('agent-model', 'MMB_TEST_AGENT_KEY'),
          // The dump goes outside the agent's folder, which the sandbox keeps read-only; bwrap passes the environment as it is.
          agent_sandbox: false,
        },
      },
    });
    mkdirSync(join(dir, 'agents'));
    copyFileSync(join(ROOT, 'examples', 'agents', 'my-agent.mjs'), join(dir, 'agents', 'my-agent.mjs'));
    writeFileSync(join(dir, 'agents', 'env-agent.mjs'), ENV_AGENT);
    return dir;
  }

  test('mmb run: listed names and prefixes, env_set and MMB_*, nothing else', { timeout: 120_000 }, async () => {
    const dump = join(tempDir('mmb-env-'), 'env.jsonl');
    const dir = envWorkspace(dump);
    const r = await mmbAsync(['run', 'envs'], dir, KEYS);
    assert.equal(r.code, 0, r.output);
    const seen = dumps(dump);
    assert.ok(seen.length >= 1, 'the program started');
    for (const env of seen) assertAllowListed(env, dump, 'mmb run');
    assert.match(
      readFileSync(join(dir, 'results', 'envs', 'agent', 'state.json'), 'utf8'),
      /"replies":\[\{/,
      'the agent answered with its model',
    );
  });

  test('mmb conformance: the same allow-list at every start of the program', { timeout: 120_000 }, async () => {
    const dump = join(tempDir('mmb-env-'), 'env.jsonl');
    const r = await mmbAsync(['conformance', 'envs'], envWorkspace(dump), KEYS);
    assert.equal(r.code, 0, r.output);
    const seen = dumps(dump);
    assert.ok(seen.length >= 2, 'conformance restarts the program');
    for (const env of seen) assertAllowListed(env, dump, 'mmb conformance');
  });
});

test('hostile names and values in env and env_set: an error at their line in mmb check and mmb run, shown short', () => {
  const long = 'A'.repeat(10_240);
  const secret = 'sk-envset-9d8c7b6a5f';
  const text = [
    '{',
    '  "runs": {',
    '    "bad": {',
    '      "benchmark": "starter", "agent": "process", "command": ["node", "agent.mjs"],',
    '      "env": [',
    '        "GOOD_NAME",',
    '        "A=B",',
    '        "NUL\\u0000HERE",',
    `        "${long}",`,
    '        "*"',
    '      ],',
    '      "env_set": {',
    '        "BAD NAME": "x",',
    '        "HOLDS_NUL": "a\\u0000b",',
    `        "OPENAI_API_KEY": "${secret}"`,
    '      }',
    '    }',
    '  }',
    '}',
  ].join('\n');
  const dir = workspace({});
  writeFileSync(join(dir, 'config.jsonc'), text);
  const checked = mmb(['check', 'config.jsonc'], dir);
  assert.equal(checked.code, 1, checked.stdout + checked.stderr);
  const lines = checked.stdout.split('\n');
  const at = (line: number, pattern: RegExp) =>
    assert.ok(
      lines.some((l) => l.startsWith(`config.jsonc:${line}:`) && pattern.test(l)),
      `line ${line} ${pattern}: ${checked.stdout.slice(0, 3000)}`,
    );
  at(7, /`env`: "A=B": it is not a variable's name/);
  at(8, /`env`: "NUL\\u0000HERE": it is not a variable's name/);
  at(9, /`env`: "A{39}…" \(10240 characters\): it is not a variable's name: at most 128 characters/);
  at(10, /a lone `\*` would hand over the whole environment/);
  at(13, /`env_set`: "BAD NAME": it is not a variable's name/);
  at(14, /`env_set`: "HOLDS_NUL": its value holds a NUL character/);
  at(15, /`runs\.bad\.env_set\.OPENAI_API_KEY` would put a secret in a file: set it in the environment and list its name in `env`/);
  assert.ok(!lines.some((l) => l.startsWith('config.jsonc:6:')), 'a good name is no error');
  assert.ok(checked.stdout.length < 4000, 'the 10 KB name is not echoed');
  const ran = mmb(['run'], dir);
  assert.equal(ran.code, 2, ran.stdout + ran.stderr);
  assert.match(ran.stderr, /^mmb: config\.jsonc:7:\d+ invalid-config run `bad`: `env`: "A=B"/);
  assert.ok(ran.stderr.length < 4000, 'the 10 KB name is not echoed');
  for (const output of [checked.stdout, checked.stderr, ran.stdout, ran.stderr])
    assert.ok(!output.includes(secret), 'the secret is not quoted');
});

test("options that did not come through the parser are held to the same rules, and the persona's key is never listed", () => {
  const dir = tempDir('mmb-env-');
  const make = (options: Record<string, unknown>, personaKeyEnv?: string) => () =>
    createAdapter('process', {
      runDir: join(dir, 'results', 'r'),
      workspace: dir,
      clock: new Clock(),
      options: { command: ['node', 'agent.mjs'], ...options },
      models: {
        env: { MMB_TEST_PERSONA_KEY: KEYS.MMB_TEST_PERSONA_KEY },
        standInUrl: 'http://127.0.0.1:9/v1',
        ...(personaKeyEnv ? { personaKeyEnv } : {}),
      },
    });
  assert.throws(
    make({ env: ['A=B'] }),
    (e: Error) => e instanceof ConfigError && /the run key `env`: "A=B": it is not a variable's name/.test(e.message),
  );
  assert.throws(make({ env: ['*'] }), /a lone `\*`/);
  assert.throws(make({ env: ['X'.repeat(10_240)] }), (e: Error) => /\(10240 characters\)/.test(e.message) && e.message.length < 500);
  assert.throws(make({ env_set: { GITHUB_TOKEN: 'ghp_0123456789' } }), /`env_set`: "GITHUB_TOKEN": it is named like a credential/);
  assert.throws(make({ env_set: { MIRROR: 'https://me:pw@example.com/' } }), /a URL with a user name or password/);
  assert.throws(make({ env_set: { X: 'a\0b' } }), /NUL character/);
  // The credential rule of config.jsonc, for every option, before any message could quote a value.
  assert.throws(make({ env_set: { OPENAI_KEY: 'x' } }), /"OPENAI_KEY": it is named like a credential/);
  assert.throws(
    make({ env_set: { MODE: 'sk-proj-9fQ2xL7aR4tZ1mK8vB3nW6yH' } }),
    (e: Error) => /looks like a key or token/.test(e.message) && !e.message.includes('9fQ2'),
  );
  assert.throws(
    make({ process_timeout: 'sk-proj-9fQ2xL7aR4tZ1mK8vB3nW6yH' }),
    (e: Error) => /`process_timeout` holds a value shaped like a key/.test(e.message) && !e.message.includes('9fQ2'),
  );
  assert.throws(
    make({ agent_model: { model: 'm', base_url: 'http:\\\\u:sk-x@127.0.0.1:9/v1' } }),
    /`agent_model\.base_url` has a user name or password in its URL/,
  );
  assert.throws(make({ env_set: { X: 3 } }), /must be an object of at most 64 variables set to strings/);
  assert.throws(
    make({ env: ['MMB_TEST_PERSONA_KEY'] }, 'MMB_TEST_PERSONA_KEY'),
    /lists MMB_TEST_PERSONA_KEY, the persona's key, which no agent is handed/,
  );
  assert.doesNotThrow(make({ env: ['MMB_TEST_PERSONA_*', 'GOOD'], env_set: { MODE: 'quiet' } }, 'MMB_TEST_PERSONA_KEY'));
});
