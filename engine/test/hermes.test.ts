/**
 * The hermes adapter's own duties, against what the real hermes-agent 0.19.0 sent when recorded
 * (fixtures/hermes/) and against the protocol server that replays those shapes: the stream and
 * the log read as Hermes writes them, compression keys merged, a lost reply taken from the
 * session instead of the turn being played twice, timeouts, keys kept out of errors.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { HermesAdapter } from '../src/adapters/hermes/adapter';
import { HermesApi } from '../src/adapters/hermes/api';
import { AgentLog, readAgentLog } from '../src/adapters/hermes/agentLog';
import { managedConfig, mergeCompression } from '../src/adapters/hermes/home';
import { hermesOptions } from '../src/adapters/hermes/options';
import { ConfigError } from '../src/errors';
import { hermesMemoryEntries, hermesReply } from '../src/standin/hermesMemory';
import { startStandIn } from '../src/standin/server';
import { afterLostReply, HERMES_FIXTURES, recordedEvents, startFakeHermes } from './hermesServer';
import { tempDir } from './helpers';

const KEY = 'hermes-key-abcdef123456';
const STAND_IN = { model: 'stand-in' };
const attached = (url: string, extra: Record<string, unknown> = {}) =>
  hermesOptions({ hermes_url: url, ...extra }, { HERMES_API_KEY: KEY }, STAND_IN, undefined);

async function say(adapter: HermesAdapter, text: string, key: string): Promise<void> {
  await adapter.sendMessage(text, { idempotencyKey: key });
  while ((await adapter.getStatus()).state === 'thinking') await new Promise((resolve) => setTimeout(resolve, 5));
}

/** A server that answers every request with these bytes, as recorded. */
async function replay(body: string, status = 200): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_request, response) => {
    response.writeHead(status, { 'content-type': 'text/event-stream' });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

test('a recorded stream of the real Hermes reads as its reply, its session and its usage; a recorded error body is reported', async () => {
  const server = await replay(readFileSync(join(HERMES_FIXTURES, 'chat-stream-compressed.sse'), 'utf8'));
  try {
    const turn = await new HermesApi(server.url, KEY).chat('api_x', 'The shed key is under the blue pot.', { idleMs: 5000, turnMs: 5000 });
    // After the compression, run.completed gives the earlier turns' calls too: only this turn's own is its.
    const saved =
      '{"success": true, "done": true, "target": "memory", "usage": "5% — 117/2,200 chars", "entry_count": 3, ' +
      '"message": "Entry added.", "note": "Write saved. This update is complete — do not repeat it."}';
    const toolCalls = [
      { name: 'memory', arguments: '{"action":"add","target":"memory","content":"The shed key is under the blue pot."}', result: saved },
    ];
    assert.deepEqual(turn, {
      sessionId: 'api_1796124796_e5f6db31',
      content: 'Noted, and saved to memory.',
      usage: { input_tokens: 140000, output_tokens: 28, total_tokens: 140028 },
      toolCalls,
    });
  } finally {
    await server.close();
  }
});

test('the recorded agent.log gives the compression with its sizes before and after, and the last prompt of the session', () => {
  const home = tempDir('mmb-hermes-log-');
  mkdirSync(join(home, 'logs'));
  writeFileSync(join(home, 'logs', 'agent.log'), readFileSync(join(HERMES_FIXTURES, 'agent.log')));
  const log = readAgentLog(join(home, 'logs', 'agent.log'));
  assert.deepEqual(
    log?.compactions.map((c) => [c.tokensBefore, c.tokensAfter]),
    [[70000, 4590]],
  );
  assert.equal(
    log?.compactions[0]?.at,
    new Date('2026-12-01T11:33:31.505').toISOString(),
    'the start of the compression, in local time as Hermes logs it',
  );
  assert.equal(log?.lastPromptTokens.get('api_1796124796_e5f6db31'), 70000);
});

test('agent.log is read as it grows: a line written in two parts, a rotation to a new file, what was read before kept', () => {
  const path = join(tempDir(), 'agent.log');
  const recorded = readFileSync(join(HERMES_FIXTURES, 'agent.log'), 'utf8').split('\n');
  const started = recorded.find((line) => line.includes('compression started')) ?? '';
  const done = recorded.find((line) => line.includes('compression done')) ?? '';
  writeFileSync(path, `${started}\n${done.slice(0, 40)}`);
  const log = new AgentLog(path);
  assert.equal(log.update(), true);
  assert.equal(log.compactions.length, 0);
  appendFileSync(path, `${done.slice(40)}\n`);
  log.update();
  assert.deepEqual(
    log.compactions.map((c) => [c.tokensBefore, c.tokensAfter]),
    [[70000, 4590]],
  );
  renameSync(path, `${path}.1`);
  writeFileSync(path, `${started.replace('11:33:31', '11:40:00').replace('~70,000', '~80,000')}\n${done}\n`);
  log.update();
  assert.deepEqual(
    log.compactions.map((c) => [c.tokensBefore, c.tokensAfter]),
    [
      [70000, 4590],
      [80000, 4590],
    ],
    'Hermes rotated its log: the new file is read from its start',
  );
});

test('the protocol server answers with the keys the real Hermes answered with', async () => {
  const fake = await startFakeHermes(KEY, tempDir());
  const keys = (value: unknown): string[] => Object.keys(value as object).sort();
  const call = async (path: string, init: RequestInit = {}) =>
    (
      await fetch(`${fake.url}${path}`, { ...init, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } })
    ).json() as Promise<Record<string, unknown>>;
  try {
    const recorded = (name: string) => JSON.parse(readFileSync(join(HERMES_FIXTURES, name), 'utf8')) as Record<string, unknown>;
    const created = await call('/api/sessions', { method: 'POST', body: '{"title":"t"}' });
    assert.deepEqual(keys(created.session), keys(recorded('create-session.json').session));
    const id = (created.session as { id: string }).id;
    const stream = await (
      await fetch(`${fake.url}/api/sessions/${id}/chat/stream`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}` },
        body: '{"message":"My boat is called Wren."}',
      })
    ).text();
    const events = stream.split('\n\n').flatMap((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      return event ? [{ event, data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? '{}') as unknown }] : [];
    });
    const real = new Map(recordedEvents('chat-stream-memory.sse').map((e) => [e.event, keys(e.data)]));
    assert.deepEqual(
      [...new Set(events.map((e) => e.event))],
      ['run.started', 'message.started', 'assistant.delta', 'assistant.completed', 'run.completed', 'done'],
    );
    for (const e of events) assert.deepEqual(keys(e.data), real.get(e.event), e.event);
    const messages = await call(`/api/sessions/${id}/messages`);
    assert.deepEqual(keys(messages), keys(recorded('messages.json')));
    assert.deepEqual(await call('/api/sessions/nope/messages'), recorded('missing-session.json'));
  } finally {
    await fake.close();
  }
});

test("attached: memory from its memory tool, its sessions' compactions, the session Hermes moves to, compression keys merged", async () => {
  const home = tempDir('mmb-hermes-');
  writeFileSync(
    join(home, 'config.yaml'),
    'model:\n  default: deepseek-v4-flash\ncompression:\n  enabled: true\n  threshold: 0.5\n  protect_last_n: 20\ndisplay:\n  skin: mono\n',
  );
  const fake = await startFakeHermes(KEY, home, { compressEvery: 2, rotate: true });
  try {
    const dir = tempDir();
    const adapter = new HermesAdapter(
      dir,
      attached(fake.url, { hermes_home: home, hermes_compression_threshold: 0.8, hermes_compression_target_ratio: 0.12 }),
    );
    const started = Date.now();
    await adapter.createSession('run');
    assert.equal(
      readFileSync(join(home, 'config.yaml'), 'utf8'),
      [
        'model:',
        '  default: deepseek-v4-flash',
        'compression:',
        '  enabled: true',
        '  protect_last_n: 20',
        '  threshold: 0.8',
        '  target_ratio: 0.12',
        'display:',
        '  skin: mono',
        '',
      ].join('\n'),
    );
    await say(adapter, 'The boat is called Wren.', 'k1');
    await say(adapter, 'It is moored in Bristol.', 'k2');
    await adapter.startNewConversation();
    await say(adapter, 'Where is it moored?', 'k3');
    assert.match((await adapter.getResponses(2))[0]?.text ?? '', /Bristol/, 'a new session answers from MEMORY.md');
    assert.equal(readFileSync(join(home, 'memories', 'MEMORY.md'), 'utf8'), 'The boat is called Wren.\n§\nIt is moored in Bristol.');
    const status = await adapter.getStatus();
    assert.deepEqual(
      status.compactions?.map((c) => [c.tokensBefore, c.tokensAfter]),
      [[70000, 4590]],
    );
    const at = Date.parse(status.compactions?.[0]?.at ?? '');
    assert.ok(at >= started - 1000 && at <= Date.now(), "the log's local time read as the real moment, as the journal stamps its events");
    assert.equal(status.contextTokens, 3540, 'the last model call of the current session, from its log');
    assert.equal(adapter.memoryDir(), join(home, 'memories'));
  } finally {
    await fake.close();
  }
});

test('a lost reply is read from the session after a restart, its turn never played twice; a turn that never arrived is sent', async () => {
  const fake = await startFakeHermes(KEY, tempDir(), { cutNextStream: true });
  try {
    const dir = tempDir();
    const second = await afterLostReply(dir, attached(fake.url), 'My boat is moored in Bristol.');
    assert.deepEqual(
      (await second.getResponses(0)).map((m) => m.text),
      ['Noted, and saved to memory.'],
    );
    assert.equal(fake.chats, 1, 'Hermes played the turn once');
    const saved = JSON.parse(readFileSync(join(dir, 'hermes.json'), 'utf8')) as { turns: { key: string; afterId: number }[] };
    saved.turns.push({ key: 'k2', text: 'Where is my boat?', afterId: 99, answered: false } as never);
    writeFileSync(join(dir, 'hermes.json'), JSON.stringify(saved));
    const third = new HermesAdapter(dir, attached(fake.url));
    await third.createSession('run');
    while ((await third.getStatus()).state === 'thinking') await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(fake.chats, 2);
    assert.match((await third.getResponses(1))[0]?.text ?? '', /Bristol/);
  } finally {
    await fake.close();
  }
});

test('a stream that goes quiet is given up at the idle timeout; a wrong key fails with the key blanked out', async () => {
  const silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  await assert.rejects(new HermesApi(url, KEY).chat('s', 'hi', { idleMs: 200, turnMs: 5000 }), /nothing streamed for 0.2 s/);
  silent.closeAllConnections();
  silent.close();
  const fake = await startFakeHermes(KEY, tempDir());
  try {
    const adapter = new HermesAdapter(
      tempDir(),
      hermesOptions({ hermes_url: fake.url }, { HERMES_API_KEY: 'wrong-key-0987654321' }, STAND_IN, undefined),
    );
    await assert.rejects(
      adapter.createSession('run'),
      (e: Error) => /POST \/api\/sessions: 401 .*Invalid API key/.test(e.message) && !e.message.includes('wrong-key-0987654321'),
    );
  } finally {
    await fake.close();
  }
});

test('options: the key is required when attached; its own gateway takes agent_model, refuses attached-only keys and a small window', () => {
  assert.throws(
    () => hermesOptions({ hermes_url: 'http://h' }, {}, STAND_IN, undefined),
    (e: unknown) => e instanceof ConfigError && /set the environment variable HERMES_API_KEY/.test(e.message),
  );
  const managed = hermesOptions({ hermes_bin: '/opt/hermes/bin/hermes' }, {}, STAND_IN, 'http://127.0.0.1:5/v1').managed;
  assert.deepEqual(managed?.model, { baseUrl: 'http://127.0.0.1:5/v1', apiKey: 'none', name: 'stand-in', contextLength: 65536 });
  assert.throws(() => hermesOptions({ hermes_home: '/h' }, {}, STAND_IN, 'http://s'), /is for a gateway you run/);
  assert.throws(() => hermesOptions({ hermes_context_length: 32000 }, {}, STAND_IN, 'http://s'), /refuses a context window under 64000/);
  const config = managedConfig(
    { bin: 'hermes', apiKey: 'k', model: { baseUrl: 'http://m/v1', apiKey: 'sk-secret-model-key', name: 'gpt-x', contextLength: 65536 } },
    { threshold: 0.8 },
  );
  assert.ok(
    !config.includes('sk-secret-model-key') && config.includes('api_key: ${MMB_HERMES_MODEL_KEY}'),
    'the model key stays in the environment',
  );
  assert.match(config, /platform_toolsets:\n {2}api_server: \[memory, session_search\]\ncompression:\n {2}threshold: 0\.8\n$/);
});

test('compression keys: added as a block when absent, merged into a block, refused on one line', () => {
  assert.equal(mergeCompression('model:\n  default: x\n', { threshold: 0.8 }), 'model:\n  default: x\ncompression:\n  threshold: 0.8\n');
  assert.equal(
    mergeCompression('compression:\n  threshold: 0.5\n\n  in_place: true\nx: 1\n', { threshold: 0.9, in_place: false }),
    'compression:\n  threshold: 0.9\n  in_place: false\nx: 1\n',
  );
  assert.equal(mergeCompression('a: 1\n', {}), 'a: 1\n');
  assert.throws(() => mergeCompression('compression: {threshold: 0.5}\n', { threshold: 0.8 }), /write it as a block/);
});

test("Hermes on the stand-in: statements are memory tool calls, questions answered from the system prompt's memory block", async () => {
  const said = hermesReply([
    { role: 'system', content: 'You are Hermes.' },
    { role: 'user', content: 'My boat is moored in  Bristol.' },
  ]);
  assert.deepEqual(
    said.calls.map((c) => [c.function.name, JSON.parse(c.function.arguments)]),
    [['memory', { action: 'add', target: 'memory', content: 'My boat is moored in Bristol.' }]],
  );
  const rule = '═'.repeat(46);
  const system = [
    'Intro.',
    '',
    rule,
    'MEMORY (your personal notes) [3% — 79/2,200 chars]',
    rule,
    readFileSync(join(HERMES_FIXTURES, 'MEMORY.md'), 'utf8'),
    '',
    'More rules.',
  ].join('\n');
  assert.deepEqual(hermesMemoryEntries(system), [
    'My boat is called Wren and it is moored in Bristol.',
    'My sister lives in Leeds.',
    'The shed key is under the blue pot.',
  ]);
  assert.equal(
    hermesReply([
      { role: 'system', content: system },
      { role: 'user', content: 'Where does my sister live?' },
    ]).content,
    'From what you told me: My sister lives in Leeds.',
  );
  const standIn = await startStandIn({ promptTokens: { fromMessages: 3, atLeast: 70000 } });
  try {
    const usage = async (count: number) =>
      (
        (await (
          await fetch(`${standIn.url}/chat/completions`, {
            method: 'POST',
            body: JSON.stringify({ messages: Array.from({ length: count }, () => ({ role: 'user', content: 'hi' })) }),
          })
        ).json()) as { usage: { prompt_tokens: number } }
      ).usage.prompt_tokens;
    assert.ok((await usage(2)) < 100);
    assert.equal(await usage(3), 70000, "a long enough conversation reports a prompt over Hermes's trigger");
  } finally {
    await standIn.close();
  }
});

test('its own gateway: a missing hermes command and one that exits at once are reported, with where its log is', async () => {
  const dir = tempDir();
  const options = (bin: string) => hermesOptions({ hermes_bin: bin }, {}, STAND_IN, 'http://127.0.0.1:9/v1');
  await assert.rejects(
    new HermesAdapter(dir, options(join(dir, 'no-such-hermes'))).createSession('run'),
    /could not start `.*no-such-hermes gateway run`: spawn .* ENOENT/,
  );
  const failing = join(dir, 'hermes');
  writeFileSync(failing, '#!/bin/sh\necho "HERMES_HOME=$HERMES_HOME port=$API_SERVER_PORT" >&2\nexit 3\n', { mode: 0o755 });
  await assert.rejects(new HermesAdapter(join(dir, 'run'), options(failing)).createSession('run'), (e: Error) =>
    /exited \(code 3\) before its API server answered: see .*gateway\.log/.test(e.message),
  );
  assert.match(
    readFileSync(join(dir, 'run', 'gateway.log'), 'utf8'),
    /HERMES_HOME=.*run\/home port=\d+/,
    "started with the run's own home, on a port of its own",
  );
});
