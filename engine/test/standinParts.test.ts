/** The stand-in's parts: one pure reply for both transports, faults from a seeded sequence, the wire format. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NOTEBOOK_TOOLS } from '../src/protocol/notebook';
import { OpenAIChatModel } from '../src/models/chat';
import type { ChatMessage } from '../src/protocol/chat';
import { phaseMessage } from '../src/persona/protocol';
import { TOOL_SPECS } from '../src/run/tools';
import { FaultInjector, faultyPersonaReply } from '../src/standin/faults';
import { InProcessStandIn } from '../src/standin/inProcess';
import { agentReply } from '../src/standin/notetaker';
import { standInReply } from '../src/standin/reply';
import { keywords } from '../src/standin/text';
import { startStandIn } from '../src/standin/server';
import { completionEvents, parseChatBody } from '../src/standin/wire';

const phase = phaseMessage({ chapter: 'chapter1.md', chapterIndex: 0, phase: 0 }, 1, 'Intro', 'Say that the keys come on the 14th.');
const persona = { messages: [{ role: 'user' as const, content: phase }], tools: TOOL_SPECS };
const agent = {
  messages: [
    { role: 'user' as const, content: 'My boat is called Wren.' },
    { role: 'assistant' as const, content: 'Noted.' },
    { role: 'user' as const, content: 'What is my boat called?' },
  ],
};

test('the HTTP server and the in-process model answer the persona and the agent with the same message', async () => {
  const server = await startStandIn();
  try {
    const overHttp = new OpenAIChatModel({ model: 'stand-in', baseURL: server.url, apiKey: 'x' });
    const inProcess = new InProcessStandIn();
    for (const request of [persona, agent]) {
      const [http, local] = [await overHttp.complete(request), await inProcess.complete(request)];
      assert.deepEqual(local.message, http.message);
      assert.deepEqual(local.usage, { promptTokens: 0, completionTokens: 0 }, 'the in-process path counts no usage, as before');
    }
    assert.deepEqual(
      standInReply({ messages: persona.messages, toolNames: ['send_message'] }).calls.map((c) => c.function.name),
      ['send_message'],
    );
    assert.match(standInReply({ messages: agent.messages, toolNames: [] }).content ?? '', /Wren/);
  } finally {
    await server.close();
  }
});

test('faults: the same seed draws the same faults, a rate of 0 none, and a stopped injector none', () => {
  const draws = (injector: FaultInjector) => Array.from({ length: 40 }, () => injector.draw() ?? '-').join(' ');
  const settings = { rate: 0.3, kinds: ['429' as const, '500' as const, 'malformed' as const], seed: 7 };
  const first = new FaultInjector(settings);
  assert.equal(draws(first), draws(new FaultInjector(settings)));
  assert.equal(
    first.count,
    draws(new FaultInjector(settings))
      .split(' ')
      .filter((d) => d !== '-').length,
  );
  assert.ok(first.count > 0 && first.count < 40, `faults: ${first.count}`);
  assert.equal(draws(new FaultInjector({ ...settings, rate: 0 })), Array(40).fill('-').join(' '));
  const stopped = new FaultInjector({ ...settings, rate: 1 });
  stopped.stop();
  assert.equal(stopped.draw(), undefined);
  assert.equal(faultyPersonaReply('429', persona.messages), undefined, 'a wire fault changes no words');
  assert.deepEqual(faultyPersonaReply('malformed', persona.messages)?.calls[0]?.function, {
    name: 'send_mesage',
    arguments: '{"text": "a tool that does not exist"}',
  });
});

test('the wire: mistyped fields read as empty, a body that is no object is refused with 400, tool calls stream in halves', async () => {
  assert.deepEqual(parseChatBody('{"messages": "no", "tools": [1, {"function": {"name": 3}}, {"function": {"name": "read"}}]}'), {
    model: undefined,
    messages: [],
    toolNames: ['', '', 'read'],
    stream: false,
    includeUsage: false,
  });
  assert.equal(parseChatBody('null'), undefined);
  assert.equal(parseChatBody('[1]'), undefined);
  const call = { id: 'call_1', type: 'function' as const, function: { name: 'send_message', arguments: '{"text":"hello"}' } };
  const events = completionEvents({ id: 'c1', model: 'm', promptChars: 2 }, { content: null, calls: [call] }, false);
  const deltas = events
    .slice(0, -1)
    .map(
      (e) =>
        (JSON.parse(e.slice('data: '.length)) as { choices: { delta: { tool_calls?: { function: { arguments: string } }[] } }[] })
          .choices[0]?.delta,
    );
  assert.deepEqual(
    deltas.map((d) => d?.tool_calls?.[0]?.function.arguments).filter((a) => a !== undefined),
    ['{"text":', '"hello"}'],
  );
  assert.equal(events.at(-1), 'data: [DONE]\n\n');
  assert.ok(
    completionEvents({ id: 'c1', model: 'm', promptChars: 2 }, { content: 'hi', calls: [] }, true).some((e) => e.includes('"usage"')),
  );
  const server = await startStandIn();
  try {
    const response = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: 'null' });
    assert.equal(response.status, 400);
    assert.equal(server.requests, 1);
  } finally {
    await server.close();
  }
});

test('the note-taker answers from the search hits that hold the answer, and reads the note when they do not', () => {
  const tools = Object.values(NOTEBOOK_TOOLS);
  const asked = (question: string, hits: string): ChatMessage[] => [
    { role: 'system', content: 'You are the notebook.' },
    { role: 'user', content: question },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: NOTEBOOK_TOOLS.search, arguments: '{"query":"boat moor"}' } }],
    },
    { role: 'tool', tool_call_id: 'c1', content: hits },
  ];
  const found = agentReply(
    asked(
      'Where is my boat moored?',
      [
        'notes.md:7: - (Sunday 1 March 2026, 20:30) My boat is moored in Bristol.',
        'notes.md:2: - (Sunday 1 March 2026, 20:00) My boat is called Wren.',
      ].join('\n'),
    ),
    tools,
  );
  assert.deepEqual(found.calls, [], 'no note read');
  assert.match(found.content ?? '', /^From what you told me: .*moored in Bristol/);
  const partial = agentReply(
    asked('Where is my boat moored?', 'notes.md:2: - (Sunday 1 March 2026, 20:00) My boat is called Wren.'),
    tools,
  );
  assert.equal(partial.content, null);
  assert.deepEqual(
    partial.calls.map((c) => [c.function.name, c.function.arguments]),
    [[NOTEBOOK_TOOLS.read, '{"path":"notes.md"}']],
    'the lines found do not answer: the note is read',
  );
});

test("the stand-in's keywords: shared function words and its request words left out, hyphens and contractions whole, stemmed", () => {
  assert.deepEqual(keywords("Please search your notes: ours, she said the follow-up was Zoë’s, don’t forget Pepper's quotes"), [
    'follow-up',
    'don’t',
    'forget',
    'pepper',
    'quot',
  ]);
});
