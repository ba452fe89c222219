/**
 * OpenClaw's tool calls, read from what the real OpenClaw (2026.9.6, on the stand-in) recorded in
 * fixtures/openclaw/: the `chat.history` rows of a turn in which it wrote a memory note, the
 * `chat` and `agent` events of that turn, and the model request OpenClaw sent after the tool ran.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openclawToolCalls, rowsOfTurn } from '../src/adapters/openclawToolCalls';
import { MAX_ARGUMENT_CHARS, MAX_RESULT_CHARS, MAX_TOOL_CALLS } from '../src/adapters/toolCalls';
import type { ChatMessage } from '../src/protocol/chat';
import { isOpenClawRequest, openclawReply } from '../src/standin/openclawMemory';

const FIXTURES = join(__dirname, 'fixtures', 'openclaw');
const fixture = <T>(name: string): T => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as T;
const history = (name: string) => fixture<{ messages: unknown[] }>(name).messages;
const WRITE_ARGUMENTS = '{"path":"memory/mmb-note-1.md","content":"- My sister Ana lives in Porto.\\n"}';

test('the recorded turn gives its write call, arguments as JSON, paired with its result by id', () => {
  assert.deepEqual(openclawToolCalls(history('chat-history-tool-turn.json'), 'key-0'), [
    { name: 'write', arguments: WRITE_ARGUMENTS, result: 'Successfully wrote 32 bytes to memory/mmb-note-1.md' },
  ]);
});

test('only the calls of the turn the reply answers: the next turn, which called none, gives none', () => {
  const rows = history('chat-history-tool-turn.json');
  assert.equal(openclawToolCalls(rows, 'key-1'), undefined);
  assert.deepEqual(
    rowsOfTurn(rows, 'key-0').map((row) => row.role),
    ['assistant', 'toolResult', 'assistant'],
  );
  assert.equal(openclawToolCalls(rows, 'key-unknown'), undefined, 'a key the history does not hold gives none');
  // A history cut before the turn's user row still finds the turn by the run id OpenClaw files rows under.
  assert.equal(openclawToolCalls(rows.slice(1), 'key-0')?.[0]?.name, 'write');
});

test('an old history, recorded before the stand-in called tools, gives none', () => {
  const rows = history('chat-history-no-tools.json');
  assert.ok(rows.length >= 4);
  assert.equal(openclawToolCalls(rows, 'key-0'), undefined);
  assert.equal(openclawToolCalls(rows, 'key-1'), undefined);
});

test('the events of the turn carry no arguments: the history is where the calls are', () => {
  const events =
    fixture<{ event: string; payload: { state?: string; stream?: string; data?: Record<string, unknown> } }[]>('events-tool-turn.json');
  const items = events.filter((e) => e.payload.stream === 'item');
  assert.ok(items.length >= 1 && items.every((e) => e.payload.data?.name === 'write' && !('arguments' in (e.payload.data ?? {}))));
  const final = events.find((e) => e.event === 'chat' && e.payload.state === 'final');
  assert.ok(final, 'the turn ends with a chat final event');
});

test('calls are bounded: count, arguments and result excerpt; an error result is marked; hostile rows are skipped', () => {
  const user = { role: 'user', content: 'x', idempotencyKey: 'k:user' };
  const blocks = Array.from({ length: 300 }, (_, i) => ({
    type: 'toolCall',
    id: `c${i}`,
    name: 'exec',
    arguments: { command: 'a'.repeat(10_000) },
  }));
  const rows: unknown[] = [
    user,
    null,
    'row',
    { role: 'assistant', content: blocks },
    { role: 'toolResult', toolCallId: 'c0', content: [{ type: 'text', text: 'r'.repeat(10_000) }] },
    { role: 'toolResult', toolCallId: 'c1', isError: true, content: [{ type: 'text', text: 'denied' }] },
    { role: 'toolResult', toolCallId: 'c0', content: 'a second result for c0' },
  ];
  const calls = openclawToolCalls(rows, 'k')!;
  assert.equal(calls.length, MAX_TOOL_CALLS);
  assert.ok(calls[0]!.arguments.length < MAX_ARGUMENT_CHARS + 40 && calls[0]!.arguments.startsWith('{"command":"aaa'));
  assert.ok(calls[0]!.result!.length < MAX_RESULT_CHARS + 40 && calls[0]!.result!.startsWith('rrr'), 'the first result kept, cut');
  assert.equal(calls[1]!.result, 'error: denied');
  assert.equal(calls[2]!.result, undefined, 'a call without a result has none');
  assert.equal(
    openclawToolCalls([user, { role: 'assistant', content: [{ type: 'toolCall', id: 'x', arguments: {} }] }], 'k'),
    undefined,
    'a call without a name is dropped',
  );
});

test("the stand-in writes a statement with OpenClaw's write tool, then says so, and answers a question without OpenClaw's context", () => {
  const request = fixture<{ tools: string[]; messages: ChatMessage[] }>('model-request-after-tool.json');
  assert.ok(isOpenClawRequest(request.tools) && !isOpenClawRequest(['write_note', 'search_notes']));
  const [statement, , , internal] = request.messages;
  const first = openclawReply([statement!, internal!]);
  assert.equal(first.calls[0]?.function.name, 'write');
  assert.deepEqual(
    JSON.parse(first.calls[0]!.function.arguments),
    { path: 'memory/mmb-note-0.md', content: '- My sister Ana lives in Porto.\n' },
    "the time stamp and the Runtime line are not the user's",
  );
  assert.deepEqual(openclawReply(request.messages), { content: 'Noted, and written to my memory notes.', calls: [] });
  const question: ChatMessage = { role: 'user', content: '[Tue 2026-12-01 16:07 UTC] Where does my sister live?' };
  assert.deepEqual(openclawReply([...request.messages, question, internal!]), {
    content: 'From what you told me: My sister Ana lives in Porto.',
    calls: [],
  });
});
