/** A chat request's body, each message encoded once: byte for byte what the SDK's own encoding sends. */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'node:test';
import { OpenAIChatModel, type ToolSpec } from '../src/models/chat';
import type { ChatMessage } from '../src/protocol/chat';
import { chatRequestBody } from '../src/models/requestBody';

const TOOLS: ToolSpec[] = [
  {
    type: 'function',
    function: {
      name: 'write_note',
      description: 'Writes "a" note\n',
      parameters: { type: 'object', properties: { path: { type: 'string' } } },
    },
  },
];

const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'You are the notebook. Quotes " and \\ backslashes, tabs\t, and U+2028\u2028.' },
  { role: 'user', content: 'Mein Umzug kostet £1,290 — Göreme ’24, 🪤 and a lone surrogate \ud800 and <|endoftext|>' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'write_note', arguments: '{"path":"notes.md"}' } }],
  },
  { role: 'tool', tool_call_id: 'call_1', content: 'Appended to notes.md.' },
  { role: 'assistant', content: '' },
];

test('the body is JSON.stringify of the same request, byte for byte, plain and streamed, with and without tools', () => {
  const cases = [
    { model: 'deepseek-chat', messages: MESSAGES, tools: TOOLS },
    { model: 'x"y', messages: MESSAGES.slice(0, 2) },
    { model: 'm', messages: [] },
  ];
  for (const c of cases) {
    assert.equal(chatRequestBody(c).toString('utf8'), JSON.stringify(c), c.model);
    const streamed = { ...c, stream: true, stream_options: { include_usage: true } };
    assert.equal(chatRequestBody({ ...c, stream: true }).toString('utf8'), JSON.stringify(streamed), `${c.model} streamed`);
  }
  assert.equal(
    chatRequestBody({ model: 'm', messages: MESSAGES, tools: [] }).toString('utf8'),
    JSON.stringify({ model: 'm', messages: MESSAGES }),
    'an empty tool list is left out',
  );
});

test('a message is encoded once however many requests send it, and a new message beside it is encoded anew', () => {
  const first = chatRequestBody({ model: 'm', messages: MESSAGES });
  const grown = [...MESSAGES, { role: 'user', content: 'And the deposit?' } as ChatMessage];
  const second = chatRequestBody({ model: 'm', messages: grown });
  assert.equal(second.toString('utf8'), JSON.stringify({ model: 'm', messages: grown }));
  assert.equal(
    second.subarray(0, first.length - 2).compare(first.subarray(0, first.length - 2)),
    0,
    'the second body begins with the first',
  );
  // An equal message in a new object is encoded from its own fields, not looked up by its text.
  const copy = MESSAGES.map((m) => ({ ...m }));
  copy[1] = { role: 'user', content: 'changed' };
  assert.equal(chatRequestBody({ model: 'm', messages: copy }).toString('utf8'), JSON.stringify({ model: 'm', messages: copy }));
});

test('through the SDK: the server gets the JSON body with its content type, length and key, plain and streamed', async () => {
  const seen: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (p: Buffer) => parts.push(p));
    req.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8');
      seen.push({ headers: req.headers, body });
      const message = { role: 'assistant', content: 'Noted.' };
      if ((JSON.parse(body) as { stream?: boolean }).stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const delta = JSON.stringify({ choices: [{ index: 0, delta: message }] });
        const usage = JSON.stringify({ choices: [], usage: { prompt_tokens: 7, completion_tokens: 2 } });
        res.end(`data: ${delta}\n\ndata: ${usage}\n\ndata: [DONE]\n\n`);
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ choices: [{ index: 0, message, finish_reason: 'stop' }], usage: { prompt_tokens: 7, completion_tokens: 2 } }),
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    for (const stream of [false, true]) {
      const model = new OpenAIChatModel({ model: 'deepseek-chat', baseURL, apiKey: 'sk-test-key-123456', secretKey: false, stream });
      const reply = await model.complete({ messages: MESSAGES, tools: TOOLS });
      assert.equal(reply.message.content, 'Noted.');
      assert.deepEqual(reply.usage, { promptTokens: 7, completionTokens: 2 });
      const { headers, body } = seen.at(-1)!;
      const expected = {
        model: 'deepseek-chat',
        messages: MESSAGES,
        tools: TOOLS,
        ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
      };
      assert.equal(body, JSON.stringify(expected), `stream ${stream}: the body`);
      assert.equal(headers['content-type'], 'application/json');
      assert.equal(Number(headers['content-length']), Buffer.byteLength(body));
      assert.equal(headers.authorization, 'Bearer sk-test-key-123456');
    }
  } finally {
    server.close();
  }
});
