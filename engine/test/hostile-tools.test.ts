/**
 * Hostile tool calls through the real runner: Object member names for sheets and checks, values
 * of the wrong type, arguments that are not an object or far too long, impossible moments to
 * wait for, a runaway agent reply. Each comes back to the model as an error it can act on; the
 * run goes on, survives a stop and resume in the middle, and ends as a clean run does.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ChatbotAdapter } from '../src/adapters/chatbot';
import { Clock } from '../src/clock';
import type { ChatModel, ChatRequest, ChatResponse } from '../src/models/chat';
import { countTextTokens } from '../src/models/tokens';
import { runBenchmark, type RunOptions } from '../src/run/runner';
import { RunStopped } from '../src/errors';
import type { RunState } from '../src/state/runState';
import type { ChatMessage } from '../src/protocol/chat';
import { MemoryRunStore } from '../src/run/store';
import { InProcessStandIn } from '../src/standin/inProcess';
import { grades, starter, tempDir } from './helpers';

interface Hostile {
  name: string;
  args: string;
  expect: RegExp;
}

const json = (value: unknown) => JSON.stringify(value);
const HOSTILE: Hostile[] = [
  ...['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'].map((sheet) => ({
    name: 'facts_read',
    args: json({ sheet }),
    expect: new RegExp(`^Error: there is no sheet \`${sheet}\`\\. The sheets are \`move\``),
  })),
  { name: 'facts_get_untold', args: json({ sheet: '__proto__' }), expect: /^Error: there is no sheet `__proto__`/ },
  { name: 'facts_mark_told', args: json({ sheet: 'constructor', ids: ['1.1'] }), expect: /^Error: there is no sheet `constructor`/ },
  { name: 'facts_edit', args: json({ sheet: 'valueOf', id: '1.1', text: 'x' }), expect: /^Error: there is no sheet `valueOf`/ },
  { name: 'facts_add', args: json({ sheet: 'toString', category: 1, text: 'x' }), expect: /^Error: there is no sheet `toString`/ },
  { name: 'facts_read', args: json({ sheet: { toString: 1 } }), expect: /^Error: `sheet` must be a sheet name such as "family"\.$/ },
  { name: 'send_message', args: json({ text: { toString: 1 } }), expect: /^Error: `text` must be a string, e\.g\. \{"text": / },
  {
    name: 'send_message',
    args: json({ text: 'Hello there. '.repeat(2000) }),
    expect: /^Error: `text` must be at most 20000 characters long \(it is 26000\)/,
  },
  { name: 'facts_mark_told', args: json({ sheet: 'move', ids: [1, 2] }), expect: /^Error: `ids` must be a list of at most 500 fact ids/ },
  {
    name: 'facts_mark_told',
    args: json({ sheet: 'move', ids: Array.from({ length: 5000 }, (_, i) => `1.${i}`) }),
    expect: /^Error: `ids` must be a list of at most 500 fact ids/,
  },
  {
    name: 'facts_edit',
    args: json({ sheet: 'move', id: { toString: 1 }, text: 'x' }),
    expect: /^Error: `id` must be a fact id such as "4\.2"\.$/,
  },
  {
    name: 'facts_add',
    args: json({ sheet: 'move', category: '2', text: 'x' }),
    expect: /^Error: `category` must be a whole number, e\.g\. /,
  },
  {
    name: 'log_evaluation',
    args: '{"check_id": "3.1", "score": NaN, "answer": "a", "comment": "c"}',
    expect: /^Error: the arguments of log_evaluation are not valid JSON/,
  },
  ...['"10"', '11', '-1', 'null'].map((score) => ({
    name: 'log_evaluation',
    args: `{"check_id": "3.1", "score": ${score}, "answer": "a", "comment": "c"}`,
    expect: /^Error: `score` must be a number from 0 to 10\.$/,
  })),
  {
    name: 'log_evaluation',
    args: json({ check_id: '3.1', score: 5, answer: 'a', comment: 'c', attempt: 3 }),
    expect: /^Error: `attempt` must be 1, or 2/,
  },
  {
    name: 'log_evaluation',
    args: json({ check_id: '__proto__', score: 5, answer: 'a', comment: 'c' }),
    expect: /^Error: there is no check __proto__\./,
  },
  {
    name: 'log_evaluation',
    args: json({ check_id: 7, score: 5, answer: 'a', comment: 'c' }),
    expect: /^Error: `check_id` must be a check id/,
  },
  {
    name: 'facts_read',
    args: '{"sheet": "move"',
    expect: /^Error: the arguments of facts_read are not valid JSON\. Call it again with a JSON object, e\.g\. \{"sheet": "family"\}/,
  },
  { name: 'facts_read', args: '["move"]', expect: /^Error: the arguments of facts_read must be a JSON object/ },
  { name: 'facts_read', args: '"move"', expect: /^Error: the arguments of facts_read must be a JSON object/ },
  { name: 'facts_read', args: `{"sheet": ${'['.repeat(30_000)}${']'.repeat(30_000)}}`, expect: /^Error: `sheet` must be a sheet name/ },
  {
    name: 'send_message',
    args: json({ text: 'a'.repeat(1 << 20) }),
    expect: /^Error: the arguments of send_message are longer than 65536 characters/,
  },
  { name: 'rm_rf', args: '{}', expect: /^Error: there is no tool `rm_rf`\. The tools are send_message, next_phase/ },
  { name: '__proto__', args: '{}', expect: /^Error: there is no tool `__proto__`/ },
  { name: 'toString', args: '{}', expect: /^Error: there is no tool `toString`/ },
  ...['2026-13-45 25:99', '2026-02-30 10:00', '24:00', '99:99', '07:60'].map((until) => ({
    name: 'wait',
    args: json({ until }),
    expect: new RegExp(`^Error: \`until\` ${until} is no real moment`),
  })),
  { name: 'wait', args: json({ until: '' }), expect: /^Error: `until` must be a time, "HH:MM", or a moment, "YYYY-MM-DD HH:MM"\.$/ },
  { name: 'wait', args: json({ until: 'tomorrow' }), expect: /^Error: `until` must be a time/ },
  { name: 'wait', args: json({ until: 7 }), expect: /^Error: `until` must be a time/ },
  { name: 'wait', args: json({ until: '2099-01-01 00:00' }), expect: /^Error: you can wait at most 36 hours at once\.$/ },
];

const USAGE = { promptTokens: 0, completionTokens: 0 };
const isHostile = (call: { function: { name: string; arguments: string } }) =>
  HOSTILE.some((h) => h.name.startsWith(call.function.name) && h.args.startsWith(call.function.arguments));

/**
 * The stand-in persona, after it has made every hostile call, one a turn. The stand-in replays its
 * script from the conversation, so it is shown the conversation without them.
 */
class HostilePersona implements ChatModel {
  readonly name = 'stand-in';
  private readonly inner = new InProcessStandIn();
  constructor(
    private next: number,
    private readonly onLast?: () => void,
  ) {}

  async complete(request: ChatRequest): Promise<ChatResponse> {
    const hostile = HOSTILE[this.next];
    if (!hostile) return this.inner.complete({ ...request, messages: withoutHostile(request.messages) });
    if (++this.next === HOSTILE.length) this.onLast?.();
    return {
      message: {
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: hostile.name, arguments: hostile.args } }],
      },
      usage: USAGE,
    };
  }
}

function withoutHostile(messages: readonly ChatMessage[]): ChatMessage[] {
  const dropped = new Set<string>();
  return messages.filter((m) => {
    if (m.role === 'assistant' && m.tool_calls?.length && m.tool_calls.every(isHostile)) {
      for (const call of m.tool_calls) dropped.add(call.id);
      return false;
    }
    return !(m.role === 'tool' && dropped.has(m.tool_call_id));
  });
}

/** The starter benchmark on virtual time, so that the persona is offered `wait` and its hostile calls reach its handler. */
function timedStarter(): ReturnType<typeof starter> {
  const benchmark = starter();
  benchmark.manifest = { ...benchmark.manifest!, time_master: true };
  return benchmark;
}

function options(persona: ChatModel, store: MemoryRunStore, dir: string, agentModel: ChatModel = new InProcessStandIn()): RunOptions {
  return {
    name: 'hostile',
    benchmark: timedStarter(),
    agent: 'chatbot',
    persona,
    adapter: new ChatbotAdapter(join(dir, 'agent'), agentModel),
    store,
    clock: new Clock(),
    ignoreSessionBreak: true,
    maxTurnsPerPhase: 200,
  };
}

const received = (dir: string) =>
  readFileSync(join(dir, 'agent', 'conversation.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { kind: string; text?: string })
    .filter((e) => e.kind === 'user')
    .map((e) => e.text);

test(`${HOSTILE.length} hostile tool calls: errors the model can act on; a run stopped and resumed among them ends clean`, async () => {
  assert.ok(HOSTILE.length >= 14);
  const cleanDir = tempDir('mmb-clean-');
  const clean = await runBenchmark(options(new InProcessStandIn(), new MemoryRunStore(), cleanDir));
  assert.equal(clean.status, 'finished', clean.error);

  const dir = tempDir('mmb-hostile-');
  const store = new MemoryRunStore();
  const stop = new AbortController();
  // Stopped right after the model made the last hostile call: the resumed run carries it out.
  await assert.rejects(
    runBenchmark({ ...options(new HostilePersona(0, () => stop.abort()), store, dir), signal: stop.signal }),
    RunStopped,
  );
  const stopped = store.load()!;
  assert.equal(stopped.status, 'running');
  const state: RunState = await runBenchmark(options(new HostilePersona(HOSTILE.length), store, dir));
  assert.equal(state.status, 'finished', state.error);

  const results = new Map(store.events.flatMap((e) => (e.type === 'tool-done' ? [[e.callId, e.content] as const] : [])));
  const hostileCalls = store.events
    .flatMap((e) => (e.type === 'persona' && e.message.role === 'assistant' ? (e.message.tool_calls ?? []) : []))
    .slice(0, HOSTILE.length);
  HOSTILE.forEach((hostile, i) => {
    const result = results.get(hostileCalls[i]?.id ?? '') ?? '(no result)';
    assert.match(result.slice(0, 300), hostile.expect, `${hostile.name} ${hostile.args.slice(0, 80)}`);
  });
  assert.deepEqual(grades(state), grades(clean), 'the same grades as a clean run');
  assert.deepEqual(received(dir), received(cleanDir), 'the agent heard the same conversation');
});

test('a 1 MiB agent reply without spaces: the run goes on and finishes quickly, the reply cut in the journal', async () => {
  let first = true;
  const inner = new InProcessStandIn();
  const runaway: ChatModel = {
    name: 'stand-in',
    complete: (request) => {
      if (!first) return inner.complete(request);
      first = false;
      return Promise.resolve({ message: { content: 'x'.repeat(1 << 20) }, usage: USAGE });
    },
  };
  const started = performance.now();
  const dir = tempDir('mmb-runaway-');
  const state = await runBenchmark({
    ...options(new InProcessStandIn(), new MemoryRunStore(), dir, runaway),
    compaction: { maxTokens: 8000, trimToTokens: 3000 },
  });
  assert.equal(state.status, 'finished', state.error);
  assert.ok(performance.now() - started < 30_000, `took ${performance.now() - started} ms`);
  const reply = state.transcript.find((e) => e.from === 'agent')?.text ?? '';
  assert.equal(reply.length, 50_000 + ' […998576 more characters cut]'.length);
  assert.ok(reply.endsWith('[…998576 more characters cut]'));
});

test('counting the tokens of 1 MiB without spaces takes linear time, and ordinary text counts as the tokenizer does', () => {
  const started = performance.now();
  const tokens = countTextTokens('a'.repeat(1 << 20));
  const elapsed = performance.now() - started;
  assert.ok(elapsed < 2000, `took ${elapsed.toFixed(0)} ms`);
  assert.equal(tokens, 131_072, '256 characters of one letter are 64 tokens');
  assert.equal(countTextTokens('The movers are booked for the 14th at 11:00, £340 for the day. '.repeat(50)), 1051);
});
