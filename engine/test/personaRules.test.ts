/** Issue #18, item 1: the persona's prompt, profile, tools, compaction and echo hook, ready for real models. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadBenchmark } from '../../scenario/src';
import { ChatbotAdapter } from '../src/adapters/chatbot';
import { Clock } from '../src/clock';
import type { ChatModel, ChatRequest, ChatResponse } from '../src/models/chat';
import { countTextTokens } from '../src/models/tokens';
import { contentTokens, echoKind, jaccard } from '../src/persona/echo';
import { universalPrompt } from '../src/persona/prompt';
import { runBenchmark } from '../src/run/runner';
import { MemoryRunStore } from '../src/run/store';
import { InProcessStandIn } from '../src/standin/inProcess';
import { readBenchmarkFolder } from '../src/workspace/folders';
import { benchmarkFrom, ROOT, starter, tempDir } from './helpers';

/** A persona that makes the given calls in order and keeps every request it was sent. */
class RecordingPersona implements ChatModel {
  readonly name = 'recording';
  readonly requests: ChatRequest[] = [];
  constructor(private readonly calls: { name: string; args: Record<string, unknown> }[]) {}
  async complete(request: ChatRequest): Promise<ChatResponse> {
    this.requests.push(structuredClone(request));
    const next = this.calls.shift() ?? { name: 'next_phase', args: {} };
    return {
      message: {
        content: null,
        tool_calls: [{ id: 'same-id', type: 'function', function: { name: next.name, arguments: JSON.stringify(next.args) } }],
      },
      usage: { promptTokens: 0, completionTokens: 0 },
    };
  }
}

function play(benchmark: ReturnType<typeof starter>, persona: ChatModel, extra: Partial<Parameters<typeof runBenchmark>[0]> = {}) {
  const dir = tempDir('mmb-rules-');
  return runBenchmark({
    name: 'rules',
    benchmark,
    agent: 'chatbot',
    persona,
    adapter: new ChatbotAdapter(join(dir, 'agent'), new InProcessStandIn()),
    store: new MemoryRunStore(),
    clock: new Clock(),
    ignoreSessionBreak: true,
    ...extra,
  });
}

const systemOf = (request: ChatRequest | undefined): string => String(request?.messages[0]?.content ?? '');

test('a profile edit reaches the system prompt of the next request and the note of the next compaction', async () => {
  const persona = new RecordingPersona([
    { name: 'facts_edit', args: { sheet: 'profile', id: '1.1', text: 'Sam Okafor, 29, now teaches chemistry at Globex Academy' } },
    { name: 'send_message', args: { text: 'word '.repeat(400) } },
    { name: 'send_message', args: { text: 'more '.repeat(400) } },
  ]);
  // The limit counts the universal prompt: the same room above it, whatever the prompt's length.
  const compaction = { maxTokens: countTextTokens(universalPrompt()) + 858, trimToTokens: 900 };
  const state = await play(starter(), persona, { compaction, phases: { from: 0, to: 0 } });
  assert.equal(state.status, 'finished', state.error);
  assert.match(systemOf(persona.requests[0]), /1\.1 Sam Okafor, 29, teaches chemistry at a secondary school in Leeds/);
  assert.match(systemOf(persona.requests[1]), /# Your profile[\s\S]*1\.1 Sam Okafor, 29, now teaches chemistry at Globex Academy/);
  assert.doesNotMatch(systemOf(persona.requests[1]), /secondary school in Leeds/, 'the old value is gone from the prompt');
  assert.ok(state.compactions.length >= 1, 'compacted');
  const note = persona.requests
    .map((r) => r.messages[1])
    .find((m) => m?.role === 'user' && String(m.content).startsWith('[The earlier conversation was cut'));
  assert.match(String(note?.content), /Globex Academy/);
  assert.doesNotMatch(String(note?.content), /secondary school in Leeds/);
});

test('wait is offered only on a benchmark with dated times, and a wait call in a single-day one is refused by name', async () => {
  const persona = new RecordingPersona([{ name: 'wait', args: { until: '23:59' } }]);
  const state = await play(starter(), persona);
  const offered = persona.requests[0]?.tools?.map((t) => t.function.name) ?? [];
  assert.ok(offered.includes('send_message') && !offered.includes('wait'), offered.join(','));
  const result = state.persona.find((m) => m.role === 'tool');
  assert.match(
    result?.role === 'tool' ? result.content : '',
    /^Error: there is no tool `wait`\. The tools are send_message, next_phase, .*log_evaluation\.$/,
  );
  const multiday = loadBenchmark(readBenchmarkFolder(join(ROOT, 'benchmarks', 'multiday')));
  const timed = new RecordingPersona([]);
  await play(multiday, timed, { phases: { from: 0, to: 0 }, maxTurnsPerPhase: 3 });
  assert.ok(timed.requests[0]?.tools?.some((t) => t.function.name === 'wait'));
});

test('a long phase compacts once per real overflow, between its turns, and keeps its instructions and its grades', async () => {
  const facts = Array.from(
    { length: 45 },
    (_, i) => `1.${i + 1} Item number ${i + 1} of the long list is a ${['red', 'green', 'blue'][i % 3]} box with ${i * 7} marbles`,
  ).join('\n');
  const b = benchmarkFrom({
    'benchmark.json': '{"chapters": ["chapter1.md"]}',
    'chapter1.md':
      '# One\n\n## Everything\nTell the `boxes` sheet.\n\n❓ 1.1 [RECALL] How many marbles are in box 3? Correct answer: 14.\n',
    'boxes.md': `# Boxes\n\n## 1. The list\n${facts}\n`,
  });
  const persona = new InProcessStandIn();
  // The limit counts the universal prompt (the same room above it, whatever its length); the trim counts the messages kept.
  const prompt = countTextTokens(universalPrompt());
  const budget = { maxTokens: prompt + 1860, trimToTokens: 900 };
  const state = await play(b, persona, { compaction: budget });
  assert.equal(state.status, 'finished', state.error);
  assert.ok(
    state.sheets.boxes?.facts.every((f) => f.told),
    'every fact told despite the cuts',
  );
  const turns = state.usage['stand-in']?.requests ?? 0;
  assert.ok(
    state.compactions.length >= 2 && state.compactions.length * 4 < turns,
    `compactions: ${state.compactions.length} in ${turns} turns`,
  );
  assert.ok(
    state.compactions.every((c) => c.tokensAfter < c.tokensBefore && c.tokensAfter <= budget.maxTokens),
    JSON.stringify(state.compactions),
  );
  // One report entry per compaction, and never two in a row: each one got the context under the limit.
  assert.equal(state.log.filter((l) => l.text.startsWith('persona context compacted')).length, state.compactions.length);
  const first = state.persona[0];
  assert.match(
    String(first?.content),
    /You are in the middle of this phase; its instructions again:\n\n\[Phase 1\/1 of chapter1\.md — Everything\]/,
  );
  assert.deepEqual(Object.keys(state.grades), ['1.1']);
});

test("the echo hook: imitation, a paraphrase of the agent's reply, her own message again; not a reaction, new question or search", () => {
  const agentReply = 'Noted: the movers are Leeds Lift, booked for the 14th at 11:00, £340 for the day.';
  const ownLast = 'Which movers did we book for the move on the 14th, and how much do they cost us?';
  const context = { agentReply, ownLast };
  assert.equal(echoKind('The assistant replied: noted.', context), 'imitation');
  assert.equal(echoKind('So the movers are Leeds Lift, booked on the 14th at 11:00 for £340 the day.', context), 'agent');
  assert.equal(echoKind('Which movers did we book for the move on the 14th, and how much do they cost?', context), 'self');
  assert.equal(echoKind('Great, thanks!', context), undefined, 'too short to judge');
  assert.equal(echoKind('Lovely. Pepper has started chewing the cardboard boxes again, any tips before the move?', context), undefined);
  assert.equal(
    echoKind(`Could you search your memory and notes? ${ownLast}`, context),
    undefined,
    'asking to search repeats the question, legitimately',
  );
  assert.equal(echoKind('Which movers did we book?', { agentReply: undefined, ownLast: undefined }), undefined);
  assert.ok(jaccard(contentTokens('a b c'), contentTokens('')) === 0);
});

test('echo content words: the shared function words plus chat manners, numbers kept, apostrophes split', () => {
  const tokens = contentTokens('Thanks! She booked these movers through Leeds Lift for 11:00 — don’t forget, ＰＥＰＰＥＲ ate 2 boxes.');
  assert.deepEqual([...tokens], ['booked', 'movers', 'leeds', 'lift', '11:00', 'don', 'forget', 'pepper', 'ate', '2', 'boxes']);
});

test('the prompt states each grading rule, and docs/engine.md gives each rule its reason', () => {
  const prompt = universalPrompt();
  const rules: [string, RegExp][] = [
    ['VOID is never asked to search', /Never do this for a\s+`VOID` check/],
    ['no invented facts', /Never invent a fact/],
    ['the single-number rule is about the correct answer', /When the correct answer is a single number/],
    ['AGG partial lists', /lists the right parts but gives no\s+total/],
    ['no hinting', /Never hint at the answer/],
    ['the [TYPE] tags', /`RECALL` one fact; `AGG`/],
    ['no reply', /"\(The assistant did not reply"/],
    ['no next_phase before grading', /Do not\s+call `next_phase` before every check of the phase is graded/],
    ['mark only what was told', /Mark\s+only the facts that message really told/],
    ['no wait without times', /there\s+is no `wait`/],
  ];
  for (const [name, pattern] of rules) assert.match(prompt, pattern, name);
  assert.doesNotMatch(prompt, /Sam|Nora|Max|Leeds|Bristol/, 'the prompt stays universal');
  const docs = readFileSync(join(ROOT, 'docs', 'engine.md'), 'utf8');
  const section = docs.slice(docs.indexOf("## The persona's prompt"));
  for (const word of ['VOID', 'invent', 'single number', 'AGG', 'hint', '[TYPE]', 'did not reply', 'next_phase', 'facts_mark_told', 'wait'])
    assert.ok(section.includes(word), word);
});
