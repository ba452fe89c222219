/** The persona's side: context compaction on a phase boundary, and the two model hooks. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { phaseBoundaries, planCompaction } from '../src/persona/compaction';
import { phaseMessage } from '../src/persona/protocol';
import type { ChatMessage } from '../src/protocol/chat';
import { reportEntry } from '../src/report/markdown';
import { summarize } from '../src/report/summary';
import { grades, runOnStandIn, starter } from './helpers';

const NOTES = { atBoundary: 'note', insidePhase: 'note' };
const phase = (n: number) => phaseMessage({ chapter: 'c.md', chapterIndex: 0, phase: n }, 3, `P${n}`, `Say thing ${n}.`);
const history: ChatMessage[] = [
  { role: 'user', content: phase(0) },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'a', type: 'function', function: { name: 'send_message', arguments: '{"text":"' + 'word '.repeat(300) + '"}' } }],
  },
  { role: 'tool', tool_call_id: 'a', content: 'The assistant replied:\n\nok' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'b', type: 'function', function: { name: 'next_phase', arguments: '{}' } }] },
  { role: 'tool', tool_call_id: 'b', content: phase(1) },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'c', type: 'function', function: { name: 'send_message', arguments: '{"text":"' + 'word '.repeat(100) + '"}' } }],
  },
  { role: 'tool', tool_call_id: 'c', content: 'The assistant replied:\n\nok' },
];

test('compaction cuts at the newest phase boundary that fits, keeping the next_phase call with its result', () => {
  assert.deepEqual(phaseBoundaries(history), [0, 3]);
  assert.equal(planCompaction('system', history, 100_000, 500, NOTES), undefined, 'under max_tokens nothing happens');
  const plan = planCompaction('system', history, 300, 200, NOTES);
  assert.equal(plan?.keepFrom, 3);
  assert.ok(plan && plan.tokensAfter < plan.tokensBefore && plan.tokensBefore > 300);
});

test('a run with a small persona context compacts on phase boundaries, re-injects the profile, and still finishes', async () => {
  const { state } = await runOnStandIn(starter(), {
    ignoreSessionBreak: true,
    extra: { compaction: { maxTokens: 2500, trimToTokens: 800 } },
  });
  assert.equal(state.status, 'finished', state.error);
  assert.ok(state.compactions.length >= 1, 'compacted at least once');
  const first = state.persona[0];
  assert.equal(first?.role, 'user');
  assert.match(
    first?.content ?? '',
    /^\[The earlier conversation was cut to save context\. Go on with the current phase\.\]\n\nYour profile:\n\n# Sam/,
  );
  assert.match(first?.content ?? '', /Sheets you have loaded: `move`, `profile`/);
  assert.equal(state.persona[1]?.role, 'assistant', 'the kept tail starts with the next_phase call, so every tool result has its call');
  assert.deepEqual(Object.keys(state.grades).sort(), ['3.1', '3.2', '3.3', '3.4', '3.5']);
  const entry = reportEntry(summarize(state, starter()), new Date(2026, 10, 29, 12, 0));
  assert.match(entry, /^- 📊 Persona compactions: chapter\d\.md phase \d \(\d+ → \d+ tokens\)/m);
});

test('each hook fires on turns crafted to misbehave, is counted and logged, and the grades do not change', async () => {
  const clean = await runOnStandIn(starter(), { ignoreSessionBreak: true });
  const { state } = await runOnStandIn(starter(), {
    ignoreSessionBreak: true,
    standIn: { faults: { rate: 0.15, kinds: ['plain-text', 'echo'], seed: 11 } },
  });
  assert.equal(state.status, 'finished', state.error);
  assert.ok((state.hooks.require_send_message ?? 0) >= 1, JSON.stringify(state.hooks));
  assert.ok((state.hooks.drop_echoed_user_messages ?? 0) >= 1, JSON.stringify(state.hooks));
  assert.ok(state.log.some((l) => l.text.startsWith('hook drop_echoed_user_messages: The assistant replied: Noted')));
  assert.ok(!state.transcript.some((e) => e.text.includes('Noted, I have saved that')), 'the echo never reached the agent');
  assert.deepEqual(grades(state), grades(clean.state));
  assert.match(
    reportEntry(summarize(state, starter()), new Date()),
    /^- 📊 Hooks fired: require_send_message \d+, drop_echoed_user_messages \d+$/m,
  );
});

test('with require_send_message off, plain text goes to the agent and its reply comes back', async () => {
  const { state } = await runOnStandIn(starter(), {
    ignoreSessionBreak: true,
    standIn: { faults: { rate: 0.15, kinds: ['plain-text'], seed: 5 } },
    extra: { hooks: { requireSendMessage: false, dropEchoedUserMessages: true } },
  });
  assert.equal(state.status, 'finished', state.error);
  assert.equal(state.hooks.require_send_message ?? 0, 0);
  assert.ok(state.transcript.some((e) => e.from === 'persona' && e.text === 'Let me think about what to tell the assistant next.'));
});
