/**
 * The real-model server's translation of OpenAI messages and tools into node-llama-cpp's chat
 * history (scripts/real-model/history.ts): a wrong mapping would show the model a conversation
 * it never had, or tools it cannot call.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { autoThreads, contextOptions, functionsOf, historyOf, schemaSubset, toolCallsInText } from '../../scripts/real-model/history';

test('an assistant turn, its tool calls and their results become one model item', () => {
  const history = historyOf([
    { role: 'system', content: 'You are Sam.' },
    { role: 'user', content: 'Begin.' },
    {
      role: 'assistant',
      content: 'Let me say hello.',
      tool_calls: [{ id: 'a', type: 'function', function: { name: 'send_message', arguments: '{"text":"Hi"}' } }],
    },
    { role: 'tool', tool_call_id: 'a', content: 'delivered' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'b', type: 'function', function: { name: 'next_phase', arguments: 'not json' } }],
    },
    { role: 'tool', tool_call_id: 'b', content: 'ok' },
    { role: 'user', content: 'The assistant replied.' },
  ]);
  assert.deepEqual(history, [
    { type: 'system', text: 'You are Sam.' },
    { type: 'user', text: 'Begin.' },
    {
      type: 'model',
      response: [
        'Let me say hello.',
        { type: 'functionCall', name: 'send_message', params: { text: 'Hi' }, result: 'delivered' },
        { type: 'functionCall', name: 'next_phase', params: 'not json', result: 'ok' },
      ],
    },
    { type: 'user', text: 'The assistant replied.' },
  ]);
});

test('content given as parts is joined, and a second system message joins the first', () => {
  const history = historyOf([
    { role: 'system', content: 'One.' },
    { role: 'developer', content: [{ type: 'text', text: 'Two.' }] },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ],
    },
  ]);
  assert.deepEqual(history, [
    { type: 'system', text: 'One.\n\nTwo.' },
    { type: 'user', text: 'ab' },
  ]);
});

test('tool schemas keep what the grammar builder reads and drop the rest', () => {
  const functions = functionsOf([
    {
      type: 'function',
      function: {
        name: 'log_evaluation',
        description: 'Grade a check.',
        parameters: {
          type: 'object',
          properties: {
            score: { type: 'integer', minimum: 0, maximum: 10 },
            tags: { type: 'array', items: { type: 'string', pattern: 'x' } },
          },
          required: ['score', 7],
          additionalProperties: false,
          $schema: 'x',
        },
      },
    },
  ]);
  assert.deepEqual(functions, {
    log_evaluation: {
      description: 'Grade a check.',
      params: {
        type: 'object',
        properties: { score: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
        required: ['score'],
        additionalProperties: false,
      },
    },
  });
  assert.equal(functionsOf([]), undefined);
  const odd = functionsOf([
    { type: 'function', function: { name: '__proto__', parameters: { type: 'object' } } },
    { type: 'function', function: { name: 'rm -rf /' } },
    { type: 'function', function: { name: 'ok' } },
  ])!;
  assert.deepEqual(Object.keys(odd), ['__proto__', 'ok'], "a name outside OpenAI's rule is dropped; __proto__ is a tool");
  assert.equal(Object.getPrototypeOf(odd), Object.prototype, "the record's prototype is untouched");
});

test('a schema nested past its depth bound is cut, not followed', () => {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let depth = 0; depth < 50; depth++) schema = { type: 'array', items: schema };
  let cut = schemaSubset(schema) as { items?: unknown };
  let depth = 0;
  while (cut.items) {
    cut = cut.items as { items?: unknown };
    depth++;
  }
  assert.ok(depth <= 9, `kept ${depth} levels`);
});

test('a tool call written as fenced or bare JSON is read as a call, only for an offered tool', () => {
  const offered = { send_message: { description: 'Send.' } };
  const fenced = '```json\n{"name": "send_message", "arguments": {"text": "Hi there!"}}\n```';
  assert.deepEqual(toolCallsInText(fenced, offered), [{ name: 'send_message', params: { text: 'Hi there!' } }]);
  assert.deepEqual(toolCallsInText('{"name": "send_message", "parameters": {"text": "x"}}', offered), [
    { name: 'send_message', params: { text: 'x' } },
  ]);
  assert.equal(toolCallsInText('{"name": "rm_rf", "arguments": {}}', offered), undefined, 'a tool not offered stays text');
  assert.equal(toolCallsInText('{"name": "__proto__", "arguments": {}}', offered), undefined);
  assert.equal(toolCallsInText('Hello! {"name": "send_message"}', offered), undefined, 'prose around it stays text');
  assert.equal(toolCallsInText('{"name": "send_message", "arguments": "text"}', offered), undefined);
  assert.equal(toolCallsInText('{not json', offered), undefined);
  assert.equal(toolCallsInText(fenced, undefined), undefined, 'no tools offered, no call');
});

test('calls written one after another, bare or in tags, are each read; one bad object keeps it all text', () => {
  const offered = { send_message: {}, next_phase: {} };
  // As the 0.5B model wrote two calls: one JSON object a line.
  const lines = '{"name": "send_message", "arguments": {"text": "I move in May. {Really}"}}\n{"name": "next_phase", "arguments": {}}\n';
  assert.deepEqual(toolCallsInText(lines, offered), [
    { name: 'send_message', params: { text: 'I move in May. {Really}' } },
    { name: 'next_phase', params: {} },
  ]);
  const tagged = '<tool_call>\n{"name": "next_phase", "arguments": {"note": "a \\"quoted\\" brace }"}}\n</tool_call>';
  assert.deepEqual(toolCallsInText(tagged, offered), [{ name: 'next_phase', params: { note: 'a "quoted" brace }' } }]);
  assert.equal(toolCallsInText(`${lines}{"name": "rm_rf", "arguments": {}}`, offered), undefined, 'an unknown tool among them');
  assert.equal(toolCallsInText(`${lines} and then I said hello`, offered), undefined, 'prose after them');
  assert.equal(toolCallsInText('{"name": "next_phase", "arguments": [1]}', offered), undefined, 'arguments that are not an object');
  assert.equal(toolCallsInText('{"name": "next_phase"', offered), undefined, 'an object that never closes');
  assert.equal(toolCallsInText('  \n ', offered), undefined);
  assert.equal(toolCallsInText('{"name": "next_phase"}'.repeat(17), offered), undefined, 'past the bound on calls in one reply');
  assert.equal(
    toolCallsInText(`{"name": "next_phase", "arguments": {"x": "${'a'.repeat(200_001)}"}}`, offered),
    undefined,
    'past the bound on text',
  );
});

test('threads: every core on an idle machine, one on a busy one; a bad value is refused by name', () => {
  const idle = { cores: 2, loadAverage: 0.4 };
  const defaults = { context: '8192', threads: 'auto', batch: '512' };
  assert.deepEqual(contextOptions(defaults, idle), { contextSize: 8192, sequences: 2, threads: 2, batchSize: 512, flashAttention: true });
  assert.equal(contextOptions(defaults, { cores: 2, loadAverage: 2 }).threads, 1, 'two cores already busy');
  assert.equal(contextOptions({ ...defaults, threads: '3' }, { cores: 2, loadAverage: 9 }).threads, 3, 'a number given is used as given');
  assert.equal(autoThreads(0, 0), 1);
  for (const [name, text] of [
    ['threads', '0'],
    ['threads', '2.5'],
    ['threads', ' 2'],
    ['context', '1e9'],
    ['batch', ''],
    ['context', '999999999'],
  ] as const) {
    assert.throws(
      () => contextOptions({ ...defaults, [name]: text }, idle),
      new RegExp(`--${name} must be a whole number`),
      `${name} "${text}"`,
    );
  }
});

test('a slow answer: headers at once, then keep-alive bytes that a JSON or SSE client reads past', async () => {
  const { keepAlive } = await import('../../scripts/real-model/server');
  let answered = false;
  const server = createServer((request, response) => {
    const streamed = request.url === '/sse';
    answered = false;
    const stop = keepAlive(response, streamed, 20);
    setTimeout(() => {
      stop();
      answered = true;
      response.end(streamed ? 'data: {"ok":true}\n\n' : '{"ok":true}');
    }, 300);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const response = await fetch(`${base}/json`);
    assert.equal(answered, false, 'the headers came before the answer');
    const text = await response.text();
    assert.match(text, /^ {3,}\{"ok":true\}$/, 'spaces while waiting, then the body');
    assert.deepEqual(JSON.parse(text), { ok: true }, 'and it is still JSON');
    const events = await (await fetch(`${base}/sse`)).text();
    assert.match(events, /^(: waiting\n\n){3,}data: \{"ok":true\}\n\n$/, 'SSE comments, which a client skips');
  } finally {
    server.close();
  }
});
