/** A model that misbehaves: rate limits, server errors, hangs and malformed tool calls. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { grades, runOnStandIn, starter, joinedPattern } from './helpers';

test('with a quarter of model calls failing in every way, the run ends with the same grades', async () => {
  const clean = await runOnStandIn(starter(), { ignoreSessionBreak: true });
  const faulty = await runOnStandIn(starter(), {
    ignoreSessionBreak: true,
    standIn: { faults: { rate: 0.25, kinds: ['429', '500', 'hang', 'malformed'], seed: 7 }, hangMs: 1500 },
  });
  assert.equal(faulty.state.status, 'finished', faulty.state.error);
  assert.deepEqual(grades(faulty.state), grades(clean.state));
  assert.ok(faulty.state.retries >= 3, `retries: ${faulty.state.retries}`);
  const malformed = faulty.state.persona.filter(
    (m) => m.role === 'tool' && /^Error: (there is no tool `send_mesage`|the arguments of send_message are not valid JSON)/.test(m.content),
  );
  assert.ok(malformed.length >= 1, 'malformed tool calls came back as errors the model can act on');
  const sent = (s: typeof clean.state) => s.transcript.filter((e) => e.from === 'persona').map((e) => e.text);
  assert.deepEqual(sent(faulty.state), sent(clean.state), 'the agent heard exactly the same conversation');
});

test('a model that keeps failing crashes the run with a clear error, and the run is resumable', async () => {
  const { state } = await runOnStandIn(starter(), { standIn: { faults: { rate: 1, kinds: ['500'] } } });
  assert.equal(state.status, 'crashed');
  assert.match(
    state.error ?? '',
    joinedPattern([
      /^model stand-in: 500 from http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: /,
      /Internal error \(stand-in fault\) \(gave up after 8 attempts\)$/,
    ]),
  );
  assert.equal(state.retries, 7);
});
