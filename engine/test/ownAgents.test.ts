/**
 * The three ways to bring one's own agent: a program over the agent protocol that misbehaves
 * gives one clear error and never a hang; openai-http names conversations in each style; a module
 * path is confined to the workspace; the scaffold of `mmb new agent` passes `mmb conformance` as
 * generated, and a broken agent fails it with what to fix.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { isModuleAgent, parseConfig } from '../../scenario/src';
import { createAdapter } from '../src/adapters/registry';
import { modulePath } from '../src/adapters/moduleAgent';
import type { AgentAdapter } from '../src/protocol/agent';
import { Clock } from '../src/clock';
import { CLI, STARTER, tempDir, joinedPattern } from './helpers';
import { startFakeHttpAgent, type FakeHttpAgent } from './openaiHttpServer';

/** A program of a few lines, written to a workspace, as the process agent. */
function programAgent(source: string, timeout = 2): AgentAdapter {
  const dir = tempDir('mmb-proc-');
  writeFileSync(join(dir, 'agent.mjs'), source);
  return createAdapter('process', {
    runDir: join(dir, 'results', 'r'),
    options: { command: [process.execPath, 'agent.mjs'], process_timeout: timeout },
    models: { env: {}, standInUrl: 'http://127.0.0.1:9/v1' },
    clock: new Clock(),
    workspace: dir,
  });
}

const READ = "import { createInterface } from 'node:readline'; const out = (o) => process.stdout.write(JSON.stringify(o) + '\\n');\n";
const HELLO = "if (r.method === 'initialize') { out({ id: r.id, result: { protocol: 1, methods: [] } }); continue; }\n";
/** A program that runs `body` for each request line: `r` is the request, `out` writes a reply. */
const answering = (body: string) =>
  `${READ}for await (const line of createInterface({ input: process.stdin })) { const r = JSON.parse(line); ${body} }`;

describe('the process adapter against a misbehaving program', () => {
  test('a program that prints garbage: one error naming the line, at once', async () => {
    const agent = programAgent(
      `${READ}for await (const line of createInterface({ input: process.stdin })) { console.log('hello there'); }`,
    );
    const started = Date.now();
    await assert.rejects(agent.createSession('x'), /printed a line that is not JSON: "hello there" \(logs go to stderr/);
    assert.ok(Date.now() - started < 1500);
  });

  test('a program that dies: the exit and its last stderr line', async () => {
    const agent = programAgent("console.error('missing OPENAI_API_KEY'); process.exit(3);");
    await assert.rejects(
      agent.createSession('x'),
      /the agent did not start: the agent's program exited \(code 3\); its last lines on stderr: missing OPENAI_API_KEY$/,
    );
  });

  test('a program that never answers: a timeout naming the method, not a hang', async () => {
    const agent = programAgent(answering(HELLO), 1);
    await assert.rejects(agent.sendMessage('hi', { idempotencyKey: 'k' }), /did not answer `send` within 1 s/);
    await agent.close?.();
  });

  test('an endless line is cut off at the bound; an error reply is data; another protocol is refused', async () => {
    const endless = programAgent("process.stdout.write('x'.repeat(1_100_000));setInterval(() => {}, 1000);");
    await assert.rejects(endless.createSession('x'), /printed a line longer than 1048576 characters/);
    const refusing = programAgent(answering(`${HELLO} out({ id: r.id, error: { code: 'no_model', message: 'set MY_KEY' } });`));
    await assert.rejects(refusing.createSession('x'), /the agent refused `create`: no_model: set MY_KEY/);
    await refusing.close?.();
    const other = programAgent(answering('out({ id: r.id, result: { protocol: 2 } });'));
    await assert.rejects(other.createSession('x'), /speaks protocol 2; this engine speaks 1/);
  });

  test('a command that does not exist: said so, and the run key is checked', async () => {
    const dir = tempDir();
    const agent = createAdapter('process', {
      runDir: join(dir, 'r'),
      options: { command: ['no-such-agent-program'] },
      models: { env: { PATH: '/nonexistent' } },
      clock: new Clock(),
      workspace: dir,
    });
    await assert.rejects(agent.createSession('x'), /could not start: spawn no-such-agent-program ENOENT/);
    assert.throws(
      () => createAdapter('process', { runDir: dir, options: { command: 'python3 a.py' }, models: { env: {} }, clock: new Clock() }),
      /must be a list of strings/,
    );
  });
});

describe('openai-http names the conversation in each style; a new conversation is a new name', () => {
  let server: FakeHttpAgent;
  before(async () => {
    server = await startFakeHttpAgent('http-agent-key-456');
  });
  after(async () => {
    await server.close();
  });

  for (const style of ['header', 'body', 'conversation', 'previous_response_id'] as const) {
    test(style, async () => {
      const dir = tempDir();
      const agent = createAdapter('openai-http', {
        runDir: dir,
        options: { http_base_url: server.url, http_api_key_env: 'K', http_conversation: style },
        models: { env: { K: 'http-agent-key-456' } },
        clock: new Clock(),
      });
      const reply = async (text: string, key: string, after: number) => {
        await agent.sendMessage(text, { idempotencyKey: key });
        for (;;) {
          const got = await agent.getResponses(after);
          if (got.length) return got.at(-1)!;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      };
      await agent.createSession('s');
      await reply('My boat is moored in Bristol.', 'a', 0);
      assert.match((await reply('Where is my boat moored?', 'b', 1)).text, /Bristol/);
      await agent.startNewConversation!();
      assert.doesNotMatch((await reply('Where is my boat moored?', 'c', 2)).text, /Bristol/);
    });
  }

  test('an unknown style and a missing key are config errors', () => {
    const make =
      (options: Record<string, unknown>, env: Record<string, string> = {}) =>
      () =>
        createAdapter('openai-http', {
          runDir: tempDir(),
          options: { http_base_url: server.url, ...options },
          models: { env },
          clock: new Clock(),
        });
    assert.throws(make({ http_conversation: 'cookie' }), /`http_conversation` is one of body, header, conversation, previous_response_id/);
    assert.throws(make({ http_api_key_env: 'NOPE' }), /set the environment variable NOPE/);
  });
});

test('a module agent is a path inside the workspace, never out of it', () => {
  for (const good of ['./agents/a.mjs', './a.ts', './x/y-z_1.js']) assert.ok(isModuleAgent(good), good);
  for (const bad of ['agents/a.mjs', './../a.mjs', './x/../../a.mjs', '/etc/a.mjs', './a.py', './a b.mjs'])
    assert.ok(!isModuleAgent(bad), bad);
  const outside = tempDir('mmb-outside-');
  writeFileSync(join(outside, 'evil.mjs'), 'export default () => ({})');
  const workspace = tempDir('mmb-ws-');
  mkdirSync(join(workspace, 'agents'));
  symlinkSync(join(outside, 'evil.mjs'), join(workspace, 'agents', 'evil.mjs'));
  assert.throws(() => modulePath('./agents/evil.mjs', workspace), /leads outside the workspace/);
  assert.throws(() => modulePath('./agents/none.mjs', workspace), /does not exist/);
  const config = parseConfig(
    JSON.stringify({ runs: { m: { benchmark: 'starter', agent: './agents/a.mjs', module_options: { x: 1 }, command: ['x'] } } }),
  );
  assert.deepEqual(
    config.diagnostics.map((d) => d.message.replace(/;.*/, '')),
    ['run `m` (agent ./agents/a.mjs) has no key `command`: it is a run key of process'],
  );
});

describe('mmb new agent, then mmb conformance, through the built CLI', () => {
  for (const kind of ['process', 'module'] as const) {
    test(`--kind ${kind} passes as generated`, () => {
      const dir = tempDir('mmb-newagent-');
      execFileSync('cp', ['-r', STARTER, join(dir, 'starter')]);
      mkdirSync(join(dir, 'benchmarks'));
      execFileSync('mv', [join(dir, 'starter'), join(dir, 'benchmarks', 'starter')]);
      execFileSync(process.execPath, [CLI, 'new', 'agent', 'my-bot', '--kind', kind], { cwd: dir });
      const result = spawnSync(process.execPath, [CLI, 'conformance', 'my-bot'], { cwd: dir, encoding: 'utf8' });
      assert.equal(result.status, 0, result.stdout + result.stderr);
      for (const requirement of [
        'replies arrive',
        'the cursor holds',
        'nothing is sent twice',
        'the memory folder is snapshotted',
        'a new conversation forgets the context and keeps long-term memory',
        'a full reset forgets everything',
      ]) {
        assert.match(result.stdout, new RegExp(`^  pass  ${requirement}$`, 'm'));
      }
      assert.match(result.stdout, kind === 'module' ? /^ {2}pass {2}virtual time$/m : /^ {2}skip {2}virtual time: /m);
    });
  }

  test('an agent that forgets its keys fails "nothing is sent twice" with what to fix; exit 1', () => {
    const dir = tempDir('mmb-badagent-');
    writeFileSync(
      join(dir, 'agent.mjs'),
      `${READ}let n = 0; const replies = [];
for await (const line of createInterface({ input: process.stdin })) { const r = JSON.parse(line);
  if (r.method === 'initialize') out({ id: r.id, result: { protocol: 1, methods: ['status', 'new_conversation'] } });
  else if (r.method === 'send') { replies.push({ seq: ++n, text: 'ok ' + n }); out({ id: r.id, result: null }); }
  else if (r.method === 'responses') out({ id: r.id, result: { messages: replies.filter((m) => m.seq > r.params.after) } });
  else if (r.method === 'status') out({ id: r.id, result: { state: 'idle' } });
  else out({ id: r.id, result: null }); }`,
    );
    writeFileSync(
      join(dir, 'config.jsonc'),
      JSON.stringify({ runs: { bad: { benchmark: 'starter', agent: 'process', command: [process.execPath, 'agent.mjs'] } } }),
    );
    const result = spawnSync(process.execPath, [CLI, 'conformance', 'bad', '--memory', 'context-only'], { cwd: dir, encoding: 'utf8' });
    assert.equal(result.status, 1, result.stdout + result.stderr);
    assert.match(
      result.stdout,
      /^ {2}pass {2}nothing is sent twice$/m,
      "the adapter's own key journal keeps a forgetful program from answering twice",
    );
    assert.match(
      result.stdout,
      joinedPattern(
        [
          /^ {2}FAIL {2}the saved state survives a restart of the engine: /,
          /after `shutdown` and a new start of the program on the same MMB_AGENT_HOME, /,
          /`responses` with `after: 0` must return the same messages/,
        ],
        'm',
      ),
    );
    assert.match(result.stdout, /requirement failed: fix them/);
  });
});
