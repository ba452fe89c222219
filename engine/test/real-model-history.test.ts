/**
 * The real-model server's translation of OpenAI messages and tools into node-llama-cpp's chat
 * history (scripts/real-model/history.ts): a wrong mapping would show the model a conversation
 * it never had, or tools it cannot call.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { functionsOf, historyOf, schemaSubset, toolCallInText } from '../../scripts/real-model/history';

test('an assistant turn, its tool calls and their results become one model item', () => {
  const history = historyOf([
    { role: 'system', content: 'You are Sam.' },
    { role: 'user', content: 'Begin.' },
    { role: 'assistant', content: 'Let me say hello.', tool_calls: [{ id: 'a', type: 'function', function: { name: 'send_message', arguments: '{"text":"Hi"}' } }] },
    { role: 'tool', tool_call_id: 'a', content: 'delivered' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'b', type: 'function', function: { name: 'next_phase', arguments: 'not json' } }] },
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
    { role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
  ]);
  assert.deepEqual(history, [{ type: 'system', text: 'One.\n\nTwo.' }, { type: 'user', text: 'ab' }]);
});

test('tool schemas keep what the grammar builder reads and drop the rest', () => {
  const functions = functionsOf([
    { type: 'function', function: { name: 'log_evaluation', description: 'Grade a check.', parameters: { type: 'object', properties: { score: { type: 'integer', minimum: 0, maximum: 10 }, tags: { type: 'array', items: { type: 'string', pattern: 'x' } } }, required: ['score', 7], additionalProperties: false, $schema: 'x' } } },
  ]);
  assert.deepEqual(functions, {
    log_evaluation: { description: 'Grade a check.', params: { type: 'object', properties: { score: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } }, required: ['score'], additionalProperties: false } },
  });
  assert.equal(functionsOf([]), undefined);
  const odd = functionsOf([
    { type: 'function', function: { name: '__proto__', parameters: { type: 'object' } } },
    { type: 'function', function: { name: 'rm -rf /' } },
    { type: 'function', function: { name: 'ok' } },
  ])!;
  assert.deepEqual(Object.keys(odd), ['__proto__', 'ok'], 'a name outside OpenAI\'s rule is dropped; __proto__ is a tool');
  assert.equal(Object.getPrototypeOf(odd), Object.prototype, 'the record\'s prototype is untouched');
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
  assert.deepEqual(toolCallInText(fenced, offered), { name: 'send_message', params: { text: 'Hi there!' } });
  assert.deepEqual(toolCallInText('{"name": "send_message", "parameters": {"text": "x"}}', offered), { name: 'send_message', params: { text: 'x' } });
  assert.equal(toolCallInText('{"name": "rm_rf", "arguments": {}}', offered), undefined, 'a tool not offered stays text');
  assert.equal(toolCallInText('{"name": "__proto__", "arguments": {}}', offered), undefined);
  assert.equal(toolCallInText('Hello! {"name": "send_message"}', offered), undefined, 'prose around it stays text');
  assert.equal(toolCallInText('{"name": "send_message", "arguments": "text"}', offered), undefined);
  assert.equal(toolCallInText('{not json', offered), undefined);
  assert.equal(toolCallInText(fenced, undefined), undefined, 'no tools offered, no call');
});
