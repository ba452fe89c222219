/**
 * Delivery keyed by the engine: a persona model that gives every tool call the same id, with and
 * without a small persona context, still gets every message to the agent exactly once, and the
 * run ends as one whose model never reuses an id.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadBenchmark } from '../../scenario/src';
import { ChatbotAdapter } from '../src/adapters/chatbot';
import { Clock } from '../src/clock';
import type { ChatModel, ChatRequest, ChatResponse } from '../src/models/chat';
import { runBenchmark } from '../src/run/runner';
import type { RunState } from '../src/state/runState';
import { MemoryRunStore } from '../src/run/store';
import { InProcessStandIn } from '../src/standin/inProcess';
import { readBenchmarkFolder } from '../src/workspace/folders';
import { average, ROOT, tempDir } from './helpers';

const MAX = loadBenchmark(readBenchmarkFolder(join(ROOT, 'benchmarks', 'max')));
const COMPACTION = { maxTokens: 8000, trimToTokens: 3000 };

/** The stand-in persona, but every tool call it makes carries the id `call_0`; it records the ids it is sent back. */
class ReusingIds implements ChatModel {
  readonly name = 'stand-in';
  readonly idsSeen = new Set<string>();
  private readonly inner = new InProcessStandIn();

  async complete(request: ChatRequest): Promise<ChatResponse> {
    for (const m of request.messages) if (m.role === 'tool') this.idsSeen.add(m.tool_call_id);
    const response = await this.inner.complete(request);
    const calls = response.message.tool_calls?.map((call) => ({ ...call, id: 'call_0' }));
    return { ...response, message: { ...response.message, ...(calls ? { tool_calls: calls } : {}) } };
  }
}

interface Played {
  state: RunState;
  /** What the agent received, in order. */
  received: string[];
  /** The text of every `send_message` call the persona made, in order. */
  sent: string[];
}

async function play(persona: ChatModel, compaction?: typeof COMPACTION): Promise<Played> {
  const dir = tempDir('mmb-delivery-');
  const store = new MemoryRunStore();
  const state = await runBenchmark({
    name: 'delivery',
    benchmark: MAX,
    agent: 'chatbot',
    persona,
    adapter: new ChatbotAdapter(join(dir, 'agent'), new InProcessStandIn()),
    store,
    clock: new Clock(),
    ignoreSessionBreak: true,
    ...(compaction ? { compaction } : {}),
  });
  const received = readFileSync(join(dir, 'agent', 'conversation.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { kind: string; text?: string })
    .filter((e) => e.kind === 'user')
    .map((e) => e.text ?? '');
  // Every call the persona ever made, from the journal: compaction drops old ones from the state.
  const sent = store.events
    .flatMap((e) => (e.type === 'persona' && e.message.role === 'assistant' ? (e.message.tool_calls ?? []) : []))
    .filter((call) => call.function.name === 'send_message')
    .map((call) => (JSON.parse(call.function.arguments) as { text: string }).text);
  return { state, received, sent };
}

test('a persona model reusing one tool-call id: every message reaches the agent exactly once, with and without compaction', async () => {
  const clean = await play(new InProcessStandIn());
  assert.equal(clean.state.status, 'finished', clean.state.error);
  assert.ok(clean.sent.length > 100, `the persona sent ${clean.sent.length} messages`);
  for (const compaction of [undefined, COMPACTION]) {
    const persona = new ReusingIds();
    const run = await play(persona, compaction);
    const label = compaction ? 'with compaction' : 'without compaction';
    assert.equal(run.state.status, 'finished', `${label}: ${run.state.error}`);
    if (compaction) assert.ok(run.state.compactions.length >= 5, `${label}: ${run.state.compactions.length} compactions`);
    assert.deepEqual(run.received, run.sent, `${label}: the agent received each send_message exactly once, in order`);
    assert.deepEqual(run.sent, clean.sent, `${label}: the same conversation as without id reuse`);
    // The stand-in persona grades with the sheets' history she can see, and a compaction cuts it:
    // the grades to compare are those of the same compaction without id reuse.
    const same = compaction ? await play(new InProcessStandIn(), compaction) : clean;
    assert.equal(average(run.state), average(same.state), `${label}: the same average`);
    assert.equal(Object.keys(run.state.sends).length, run.sent.length, `${label}: one journaled key per message`);
    assert.ok(
      [...persona.idsSeen].every((id) => /^t\d+-\d+$/.test(id)),
      `${label}: the model is sent back the engine's ids only`,
    );
  }
});
