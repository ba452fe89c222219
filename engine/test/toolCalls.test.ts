/**
 * The agent's tool calls, from each source to the journal: the notebook's journal steps, what the
 * real Hermes recorded (its stream and its session rows, through the protocol server), the process
 * protocol's optional field, each bounded, then journaled with the reply and masked like any text.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { hermesOptions } from '../src/adapters/hermes/options';
import { Journal } from '../src/adapters/notebook/journal';
import { parseMessages } from '../src/adapters/processProtocol';
import {
  boundedToolCalls,
  leftOutCount,
  leftOutToolCalls,
  MAX_ARGUMENT_CHARS,
  MAX_COUNTED_TOOL_CALLS,
  MAX_TOOL_CALLS,
  toolCallsFromChat,
} from '../src/adapters/toolCalls';
import type { AgentAdapter, AgentMessage } from '../src/protocol/agent';
import { agentTurn } from '../src/run/agentTurn';
import { FileRunStore } from '../src/run/store';
import { runSecrets } from '../src/secrets';
import { emptyState } from '../src/state/runState';
import { afterLostReply, HERMES_FIXTURES, recordedEvents, settled, startFakeHermes } from './hermesServer';
import { tempDir } from './helpers';

const KEY = 'hermes-key-abcdef123456';
const attached = (url: string) => hermesOptions({ hermes_url: url }, { HERMES_API_KEY: KEY }, { model: 'stand-in' }, undefined);
const BOAT = '{"action":"add","target":"memory","content":"My boat is called Wren and it is moored in Bristol."}';

test('chat messages give each call with its result, by id or else in order; every part bounded', () => {
  const completed = recordedEvents('chat-stream-memory.sse').find((e) => e.event === 'run.completed')!.data.messages as unknown[];
  assert.deepEqual(
    toolCallsFromChat(completed).map((c) => [c.name, c.arguments, c.result?.slice(0, 32)]),
    [['memory', BOAT, '{"success": true, "done": true, ']],
  );
  const rows = (JSON.parse(readFileSync(join(HERMES_FIXTURES, 'messages.json'), 'utf8')) as { data: unknown[] }).data;
  assert.equal(toolCallsFromChat(rows)[0]?.arguments, BOAT, 'the session rows of GET …/messages read the same');
  const unpaired = toolCallsFromChat([
    {
      role: 'assistant',
      tool_calls: [
        { id: 'a', function: { name: 'first', arguments: '{}' } },
        { id: 'b', function: { name: 'second', arguments: { x: 1 } } },
      ],
    },
    { role: 'tool', tool_call_id: 'b', content: 'to b' },
    { role: 'tool', content: 'no id' },
  ]);
  assert.deepEqual(unpaired, [
    { name: 'first', arguments: '{}', result: 'no id' },
    { name: 'second', arguments: '{"x":1}', result: 'to b' },
  ]);
  const many = boundedToolCalls(
    Array.from({ length: 500 }, (_, i) => ({ name: `tool-${i}`, arguments: 'a'.repeat(10_000), result: 'r'.repeat(10_000) })),
  )!;
  assert.equal(many.length, MAX_TOOL_CALLS);
  assert.ok(
    many[0]!.arguments.startsWith('a'.repeat(MAX_ARGUMENT_CHARS)) && many[0]!.arguments.length < MAX_ARGUMENT_CHARS + 40,
    'arguments cut near 2 KiB',
  );
  assert.match(many[0]!.arguments, /\[…7952 more characters\]$/);
  assert.ok(many[0]!.result!.length < 1100, 'a result is an excerpt');
  assert.equal(boundedToolCalls([{ arguments: 'no name' }, 'text', null]), undefined, 'nothing without a name');
});

test('the notebook gives each reply the calls of its own turn, and none to a turn without', () => {
  const journal = new Journal(join(tempDir(), 'journal.jsonl'));
  journal.append({ kind: 'user', key: 'k1', text: 'My boat is in Bristol.', at: '2026-01-01T00:00:00.000Z' });
  journal.append({
    kind: 'step',
    message: {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'write_note', arguments: '{"path":"boat.md"}' } }],
    },
  });
  journal.append({ kind: 'step', message: { role: 'tool', tool_call_id: 'c1', content: 'Wrote boat.md.' } });
  journal.append({ kind: 'reply', seq: 1, text: 'Noted.', at: '2026-01-01T00:00:01.000Z' });
  journal.append({ kind: 'user', key: 'k2', text: 'Hello.', at: '2026-01-01T00:00:02.000Z' });
  journal.append({ kind: 'reply', seq: 2, text: 'Hi.', at: '2026-01-01T00:00:03.000Z' });
  const replies = journal.replies(0);
  assert.deepEqual(replies[0]?.toolCalls, [{ name: 'write_note', arguments: '{"path":"boat.md"}', result: 'Wrote boat.md.' }]);
  assert.equal(replies[1]?.toolCalls, undefined);
  assert.deepEqual(
    journal.replies(1).map((r) => r.seq),
    [2],
    'after the cursor only',
  );
});

test('Hermes: a turn streamed, and a turn found again in the session after a lost reply, both carry the memory call', async () => {
  const fake = await startFakeHermes(KEY, tempDir(), { cutNextStream: true });
  try {
    const second = await afterLostReply(tempDir(), attached(fake.url), 'My boat is moored in Bristol.');
    const recovered = (await second.getResponses(0))[0];
    assert.deepEqual(
      recovered?.toolCalls?.map((c) => [c.name, JSON.parse(c.arguments).content, c.result]),
      [['memory', 'My boat is moored in Bristol.', '{"success": true, "done": true, "target": "memory"}']],
      'from the session rows',
    );
    await second.sendMessage('My sister lives in Leeds.', { idempotencyKey: 'k2' });
    await settled(second);
    const streamed = (await second.getResponses(1))[0];
    assert.deepEqual(
      streamed?.toolCalls?.map((c) => JSON.parse(c.arguments).content),
      ['My sister lives in Leeds.'],
      "from run.completed: this turn's call only",
    );
    await second.sendMessage('Where is my boat?', { idempotencyKey: 'k3' });
    await settled(second);
    assert.equal((await second.getResponses(2))[0]?.toolCalls, undefined, 'a question answered from memory calls nothing');
  } finally {
    await fake.close();
  }
});

test('the process protocol: tool_calls optional, checked and bounded', () => {
  const [message] = parseMessages(
    { messages: [{ seq: 1, text: 'ok', tool_calls: [{ name: 'search', arguments: { q: '<script>' }, result: 'x'.repeat(5000) }] }] },
    0,
  );
  assert.deepEqual(
    message?.toolCalls?.map((c) => [c.name, c.arguments, c.result?.length]),
    [['search', '{"q":"<script>"}', 1024 + ' […3976 more characters]'.length]],
  );
  assert.equal(parseMessages({ messages: [{ seq: 1, text: 'ok' }] }, 0)[0]?.toolCalls, undefined);
  assert.throws(
    () => parseMessages({ messages: [{ seq: 1, text: 'ok', tool_calls: 'search' }] }, 0),
    /`tool_calls` that are not \[\{"name"/,
  );
  assert.throws(() => parseMessages({ messages: [{ seq: 1, text: 'ok', tool_calls: [{ arguments: '{}' }] }] }, 0), /tool_calls/);
  assert.throws(() => parseMessages({ messages: [{ seq: 1, text: 'ok', tool_calls: [{ name: 'x', result: 3 }] }] }, 0), /tool_calls/);
});

/** An agent of this process that answers every message at once with the given message fields. */
function answering(reply: Omit<AgentMessage, 'seq' | 'at'>): AgentAdapter {
  const replies: AgentMessage[] = [];
  return {
    quietPeriodMs: 0,
    pollIntervalMs: 1,
    createSession: async () => undefined,
    destroySession: async () => undefined,
    sendMessage: async () => {
      replies.push({ seq: replies.length + 1, at: new Date().toISOString(), ...reply });
    },
    getResponses: async (after) => replies.filter((m) => m.seq > after),
    getStatus: async () => ({ state: 'idle', compactions: null, contextTokens: null }),
  };
}

test('a reply is journaled with its calls bounded and its keys masked, and the state keeps them on the transcript', async () => {
  const secret = 'sk-canary-tool-call-0123456789';
  runSecrets.add(secret);
  const dir = tempDir();
  const store = new FileRunStore(dir);
  const state = emptyState();
  state.run = 'r';
  const adapter = answering({
    text: 'Saved.',
    toolCalls: [{ name: 'remember', arguments: `{"key":"${secret}","pad":"${'p'.repeat(9000)}"}`, result: 'ok' }],
  });
  await agentTurn(state, adapter, 't1-0', 'Remember my key.', {
    replyTimeoutMs: 2000,
    now: () => new Date().toISOString(),
    record: (event) => store.append(state, event),
  });
  const journal = readFileSync(join(dir, 'journal.jsonl'), 'utf8');
  assert.ok(!journal.includes(secret), 'the key is masked in the journal');
  const entry = state.transcript.find((e) => e.from === 'agent')!;
  assert.equal(entry.toolCalls?.[0]?.name, 'remember');
  assert.ok(entry.toolCalls![0]!.arguments.length < MAX_ARGUMENT_CHARS + 40, 'bounded before it was journaled');
  assert.ok(!entry.toolCalls![0]!.arguments.includes(secret));
  const plain = emptyState();
  await agentTurn(plain, answering({ text: 'Hi.' }), 't1-0', 'Hello.', {
    replyTimeoutMs: 2000,
    now: () => new Date().toISOString(),
    record: (event) => store.append(plain, event),
  });
  assert.equal('toolCalls' in plain.transcript.find((e) => e.from === 'agent')!, false, 'a reply without calls carries no field');
});

test('a reply of more calls than are kept: 50 journaled, the rest counted; the notebook and Hermes give every call, bounded', async () => {
  const state = emptyState();
  state.run = 'r';
  const store = new FileRunStore(tempDir());
  const calls = Array.from({ length: 73 }, (_, i) => ({ name: `tool-${i}`, arguments: '{}' }));
  await agentTurn(
    state,
    answering({ text: 'Done.', toolCalls: [...calls, { arguments: 'no name' }] as AgentMessage['toolCalls'] }),
    't1-0',
    'Go.',
    { replyTimeoutMs: 2000, now: () => new Date().toISOString(), record: (event) => store.append(state, event) },
  );
  const entry = state.transcript.find((e) => e.from === 'agent')!;
  assert.equal(entry.toolCalls?.length, MAX_TOOL_CALLS);
  assert.equal(entry.toolCallsLeftOut, 23, 'the calls past the 50 kept are counted, a call without a name is not');
  const chat = Array.from({ length: 3 }, (_, m) => [
    {
      role: 'assistant',
      content: null,
      tool_calls: Array.from({ length: 40 }, (_, i) => ({
        id: `c${m}-${i}`,
        type: 'function',
        function: { name: 'search_notes', arguments: `{"q":"${m}-${i}"}` },
      })),
    },
    ...Array.from({ length: 40 }, (_, i) => ({
      role: 'tool',
      tool_call_id: `c${m}-${39 - i}`,
      content: `result ${m}-${39 - i} ${'r'.repeat(3000)}`,
    })),
  ]).flat();
  const read = toolCallsFromChat(chat);
  assert.equal(read.length, 120, 'every call of the turn, for the engine to count');
  const [processReply] = parseMessages(
    { messages: [{ seq: 1, text: 'ok', tool_calls: Array.from({ length: 60 }, (_, i) => ({ name: `t${i}`, arguments: { i } })) }] },
    0,
  );
  assert.deepEqual([processReply?.toolCalls?.length, leftOutToolCalls(processReply?.toolCalls)], [60, 10], "a process agent's calls too");
  assert.ok(
    read.every((c) => c.result?.startsWith(`result ${JSON.parse(c.arguments).q} `) && c.result.length < 1100),
    'each with its own result, cut',
  );
  assert.equal(leftOutToolCalls(read), 70);
  assert.equal(
    leftOutToolCalls(Array.from({ length: 20_000 }, () => ({ name: 'x' }))),
    MAX_COUNTED_TOOL_CALLS - MAX_TOOL_CALLS,
    'counted up to a bound',
  );
  assert.deepEqual(
    [leftOutCount(-5), leftOutCount(1e12), leftOutCount('7'), leftOutCount(2.5), leftOutCount(7)],
    [0, MAX_COUNTED_TOOL_CALLS, 0, 0, 7],
    'a count read from disk is bounded',
  );
});
