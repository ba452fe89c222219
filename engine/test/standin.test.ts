/** The stand-in model speaks the OpenAI protocol: tool calls and text, streamed or not, through the real client. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OpenAIChatModel } from '../src/models/chat';
import { phaseMessage } from '../src/persona/protocol';
import { TOOL_SPECS } from '../src/run/tools';
import { gradeByRule } from '../src/standin/grading';
import { startStandIn } from '../src/standin/server';

const phase = phaseMessage(
  { chapter: 'chapter1.md', chapterIndex: 0, phase: 0 },
  1,
  'Intro',
  'Say that the keys come on the 14th. Tell the `move` sheet.\n\n❓ 1.1 [RECALL] When do the keys come?\n     Correct answer: the 14th.',
);

test('the persona script: streamed and plain answers carry the same tool call', async () => {
  const s = await startStandIn();
  try {
    const request = { messages: [{ role: 'user' as const, content: phase }], tools: TOOL_SPECS };
    const plain = await new OpenAIChatModel({ model: 'stand-in', baseURL: s.url, apiKey: 'x' }).complete(request);
    const streamed = await new OpenAIChatModel({ model: 'stand-in', baseURL: s.url, apiKey: 'x', stream: true }).complete(request);
    assert.deepEqual(plain.message.tool_calls, [
      { id: 'call_1', type: 'function', function: { name: 'send_message', arguments: '{"text":"The keys come on the 14th."}' } },
    ]);
    assert.deepEqual(streamed.message, plain.message);
    assert.ok(
      plain.usage.promptTokens > 100 && Math.abs(streamed.usage.promptTokens - plain.usage.promptTokens) < 20,
      'usage comes with both',
    );
  } finally {
    await s.close();
  }
});

test('the persona script goes on from the tool results it has: in her words, tell the sheet, ask the check, grade, move on', async () => {
  const s = await startStandIn();
  const model = new OpenAIChatModel({ model: 'stand-in', baseURL: s.url, apiKey: 'x' });
  const results: Record<string, string> = {
    send_message: 'The assistant replied:\n\nNoted.',
    facts_get_untold: 'Untold facts of `move`:\n1.1 Keys on the 14th\n1.2 Rent £950',
    facts_read: '# The move\n\n## 1. The new flat\n1.1 Keys on the 14th\n1.2 Rent £950',
    facts_mark_told: 'Marked.',
    log_evaluation: 'Recorded.',
  };
  try {
    const messages: Parameters<typeof model.complete>[0]['messages'] = [{ role: 'user', content: phase }];
    const steps: string[] = [];
    for (let i = 0; i < 9; i++) {
      const r = await model.complete({ messages, tools: TOOL_SPECS });
      const call = r.message.tool_calls?.[0];
      assert.ok(call);
      steps.push(`${call.function.name} ${call.function.arguments}`);
      messages.push({ role: 'assistant', content: null, tool_calls: [call] });
      const isCheck = call.function.arguments.includes('When do the keys come?');
      messages.push({
        role: 'tool',
        tool_call_id: call.id,
        content: isCheck ? 'The assistant replied:\n\nOn the 14th.' : (results[call.function.name] ?? ''),
      });
      if (call.function.name === 'next_phase') break;
    }
    assert.deepEqual(steps, [
      'send_message {"text":"The keys come on the 14th."}',
      'facts_get_untold {"sheet":"move"}',
      'facts_read {"sheet":"move"}',
      'send_message {"text":"For the new flat: Keys on the 14th. Rent £950."}',
      'facts_mark_told {"sheet":"move","ids":["1.1","1.2"]}',
      'send_message {"text":"When do the keys come?"}',
      'log_evaluation {"check_id":"1.1","score":10,"answer":"On the 14th.","comment":"all numbers right","attempt":1}',
      'next_phase {}',
    ]);
  } finally {
    await s.close();
  }
});

test('grading by rule: numbers all or nothing each, key words in proportion, VOID on "never told"', () => {
  assert.deepEqual(gradeByRule('RECALL', '£1,290 (£950 rent + £340 movers).', 'It is 1290 in all: 950 and 340.'), {
    score: 10,
    comment: 'all numbers right',
  });
  assert.deepEqual(gradeByRule('AGG', '£1,290 (£950 rent + £340 movers).', 'Rent 950.'), { score: 5, comment: 'missing 340' });
  assert.deepEqual(gradeByRule('RECALL', 'Leeds Lift', 'You booked Leeds Lift.'), { score: 10, comment: 'all key words present' });
  assert.equal(gradeByRule('RECALL', 'around Ashton Court', 'Somewhere by the harbour.').score, 0);
  assert.equal(gradeByRule('VOID', 'you never told me', "I don't know, you never told me.").score, 10);
  assert.equal(gradeByRule('VOID', 'you never told me', 'It is $2,000.').score, 0);
});

test('content sent as parts (as OpenClaw sends it) is read as text: the agent recalls, no server error', async () => {
  const s = await startStandIn();
  try {
    const parts = (text: string) => [{ type: 'text', text }];
    for (const tools of [[], [{ type: 'function', function: { name: 'read', parameters: { type: 'object' } } }]]) {
      const r = await fetch(`${s.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'x',
          tools: tools.length ? tools : undefined,
          messages: [
            { role: 'user', content: parts('My boat is called Wren and it is moored in Bristol.') },
            { role: 'assistant', content: 'Noted.' },
            { role: 'user', content: parts('What is my boat called?') },
          ],
        }),
      });
      assert.equal(r.status, 200, await r.clone().text());
      const body = (await r.json()) as { choices: { message: { content: string } }[] };
      assert.match(body.choices[0]!.message.content, /Wren/);
    }
  } finally {
    await s.close();
  }
});
