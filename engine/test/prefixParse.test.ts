/** The stand-in's prefix-cached parse of chat bodies: always what JSON.parse gives, whatever the bodies. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PrefixParser } from '../src/standin/prefixParse';

/** A body as the OpenAI client writes it. */
function body(messages: unknown[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ model: 'stand-in', messages, tools: [{ type: 'function', function: { name: 'send_message' } }], ...extra });
}

/** The parser's reading of a text's UTF-8 bytes, held to JSON.parse's value and the text's length. */
function same(parser: PrefixParser, text: string, what: string): void {
  const parsed = parser.parse(Buffer.from(text));
  assert.deepEqual(parsed.body, JSON.parse(text), what);
  assert.equal(parsed.chars, text.length, `${what}: its length in characters`);
}

const tricky = [
  'plain',
  'a "quoted" word',
  'a back\\slash at the end\\',
  '{"json": [1, 2]} in text',
  'unicode — £ ❓ 🪤',
  '], {"role": "x"}',
  '',
];

test('conversations that grow, interleave, get cut and change: every body parses as JSON.parse does', () => {
  const parser = new PrefixParser();
  let seed = 7;
  const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const conversations: unknown[][] = [[{ role: 'system', content: 'persona' }], [{ role: 'system', content: 'agent' }]];
  let sent = 0;
  for (let i = 0; i < 400; i++) {
    const conversation = conversations[random(2)]!;
    const roll = random(10);
    if (roll < 6)
      conversation.push({
        role: random(2) ? 'user' : 'tool',
        content: `${tricky[random(tricky.length)]} ${i}`,
        ...(random(3) ? {} : { tool_call_id: `t${i}` }),
      });
    else if (roll < 7 && conversation.length > 3) conversation.splice(1, 2, { role: 'user', content: `compaction note ${i}` });
    else if (roll < 8)
      conversation.push({
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: `c${i}`,
            type: 'function',
            function: { name: 'send_message', arguments: JSON.stringify({ text: tricky[random(tricky.length)] }) },
          },
        ],
      });
    else if (roll < 9 && conversation.length > 1) conversation[conversation.length - 1] = { role: 'user', content: `changed ${i}` };
    const text = body(conversation, random(4) ? {} : { stream: true });
    sent += conversation.length;
    same(parser, text, `body ${i}`);
  }
  assert.ok(parser.reused > sent * 0.6, `most messages come from an earlier parse (${parser.reused} of ${sent})`);
});

test('bodies laid out otherwise, broken tails, a second messages key and an empty array: the same value or the same error', () => {
  const parser = new PrefixParser();
  const first = body([
    { role: 'system', content: 's' },
    { role: 'user', content: 'hello' },
  ]);
  same(parser, first, 'the first');
  const cases = [
    `${first.slice(0, -1)}, "model": "other"}`,
    `${first.slice(0, -1)}, "messages": []}`,
    first.replace(/\],"tools"/, ',  {"role":"user","content":"spaced"}\n],"tools"'),
    first.replace('"hello"}', '"hello"} , {"role":"user"}'),
    '{"model":"stand-in","messages":[],"tools":[]}',
    '{ "model": "stand-in", "messages": [{"role": "user"}] }',
    '[1, 2]',
  ];
  for (const text of cases) same(parser, text, text);
  for (const broken of [
    first.replace('"hello"}', '"hello"},,'),
    `${first.slice(0, -1)}`,
    first.replace('"hello"}', '"hello"} {"role":"user"}'),
  ]) {
    assert.throws(() => parser.parse(Buffer.from(broken)), SyntaxError, broken);
  }
  same(parser, first, 'a failed parse leaves nothing behind');
});
