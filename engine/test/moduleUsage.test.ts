/**
 * A module agent's reported usage of its own model reaches the run's state, where the report
 * prices it as the agent's, as the chatbot's and the notebook's does; what the module reports is
 * untrusted: only non-negative whole counts under bounded names, a bounded number of models; its
 * compactions dated, their counts whole, a bounded number of them.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseCompactions, parseStatus } from '../src/adapters/processProtocol';
import { reportedUsage } from '../src/models/usage';
import { benchmarkFrom, runOnStandIn, tempDir } from './helpers';

/** An agent that echoes, and reports one request of its model per reply, among hostile entries. */
const USAGE_AGENT = `
export default function createAgent(context) {
  const replies = [];
  const hostile = {
    negative: { requests: -1, promptTokens: 1, completionTokens: 1 },
    fraction: { requests: 1.5, promptTokens: 1, completionTokens: 1 },
    text: { requests: '3', promptTokens: 1, completionTokens: 1 },
    huge: { requests: 1, promptTokens: 1e300, completionTokens: 1 },
    ['x'.repeat(10000)]: { requests: 1, promptTokens: 1, completionTokens: 1 },
  };
  return {
    quietPeriodMs: 100, pollIntervalMs: 10,
    async createSession() {},
    async sendMessage(text) {
      const toolCalls = [{ name: 'remember', arguments: { note: 'x'.repeat(5000) }, result: 'saved' }];
      replies.push({ seq: replies.length + 1, text: 'noted: ' + text, at: context.now().toISOString(), toolCalls });
    },
    settled: 0,
    async whenSettled() { this.settled++; },
    async getResponses(after) { return replies.filter((r) => r.seq > after); },
    async getStatus() {
      const ownModel = { requests: replies.length, promptTokens: 10 * replies.length, completionTokens: 5 * replies.length };
      const usage = { ...hostile, 'own-model': ownModel };
      const compactions = [
        { at: '2026-03-01T10:00:00+01:00', tokensBefore: 100_000, tokensAfter: 41_000.4 },
        { at: 12 }, { at: 'not a date' }, null, 'text', { at: 'x'.repeat(100_000) },
        { at: '2026-03-01T11:00:00Z', tokensBefore: Infinity, tokensAfter: -5 },
        ...Array.from({ length: 20_000 }, () => ({ at: '2026-03-01T12:00:00Z' })),
      ];
      return { state: 'idle', compactions, contextTokens: this.settled, usage };
    },
    async destroySession() { replies.length = 0; },
  };
}
`;

test("a module agent's reported usage and its replies' tool calls reach the run's state, the hostile entries left out", async () => {
  const ws = tempDir('mmb-usage-');
  mkdirSync(join(ws, 'agents'));
  writeFileSync(join(ws, 'agents', 'usage.mjs'), USAGE_AGENT);
  const benchmark = benchmarkFrom({
    'benchmark.json': '{ "chapters": ["one.md"] }',
    'one.md': '## Phase 1\nTell the assistant your boat is called Wren.\n\n❓ 1.1 What is the boat called? → Wren\n',
  });
  const { state } = await runOnStandIn(benchmark, { agent: './agents/usage.mjs', dir: join(ws, 'results', 'r') });
  // Its replies' tool calls, bounded as any agent's.
  const calls = state.transcript.filter((entry) => entry.from === 'agent').map((entry) => entry.toolCalls);
  assert.ok(
    calls.length > 0 && calls.every((c) => c?.length === 1 && c[0]!.name === 'remember' && c[0]!.result === 'saved'),
    'each reply keeps its tool call',
  );
  const args = calls[0]![0]!.arguments;
  assert.ok(
    args.startsWith('{"note":"xxx') && args.endsWith(' more characters]') && args.length < 2100,
    'the arguments written out and cut',
  );
  assert.ok(
    (state.agentStatus?.contextTokens ?? 0) > 0,
    "the engine awaited the module's whenSettled (it counts its calls in contextTokens)",
  );
  const usage = state.agentStatus?.usage;
  assert.ok(usage, "the usage reached the run's state");
  assert.deepEqual(Object.keys(usage), ['own-model'], 'only the well-formed entry is kept');
  const turns = state.transcript.filter((entry) => entry.from === 'agent').length;
  assert.ok(turns >= 1);
  assert.deepEqual(usage['own-model'], { requests: turns, promptTokens: 10 * turns, completionTokens: 5 * turns });
  // Its compactions too: dated ones only, counts whole and not negative, a bounded number.
  const compactions = state.agentStatus?.compactions ?? [];
  assert.deepEqual(compactions.slice(0, 2), [
    { at: '2026-03-01T09:00:00.000Z', tokensBefore: 100_000, tokensAfter: 41_000 },
    { at: '2026-03-01T11:00:00.000Z', tokensAfter: 0 },
  ]);
  assert.ok(compactions.length > 900 && compactions.length <= 1000, `bounded at 1,000 (${compactions.length})`);
});

test('reportedUsage: non-negative whole counts only, names bounded, models bounded, __proto__ a model like any other', () => {
  const ok = { requests: 2, promptTokens: 30, completionTokens: 4 };
  assert.equal(reportedUsage(undefined), undefined);
  assert.equal(reportedUsage([ok]), undefined);
  assert.equal(reportedUsage({ m: { ...ok, requests: -1 } }), undefined);
  assert.equal(reportedUsage({ m: { ...ok, completionTokens: Number.NaN } }), undefined);
  assert.equal(reportedUsage({ m: { ...ok, promptTokens: 2 ** 60 } }), undefined, 'beyond a safe integer');
  assert.equal(reportedUsage({ '': ok, ['m'.repeat(201)]: ok, n: null }), undefined);
  const proto = reportedUsage(JSON.parse('{"__proto__": {"requests": 1, "promptTokens": 2, "completionTokens": 3}}'));
  assert.ok(proto && Object.hasOwn(proto, '__proto__'), 'an own entry, not the prototype');
  assert.equal(Object.getPrototypeOf(proto), Object.prototype);
  const many = reportedUsage(Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`m${i}`, ok])));
  assert.equal(Object.keys(many ?? {}).length, 100);
  assert.deepEqual(reportedUsage({ m: { ...ok, extra: 'ignored' } }), { m: ok }, 'only the three counts are copied');
});

test("a process agent's status: its compactions and context size checked the same way", () => {
  const status = parseStatus({
    state: 'thinking',
    context_tokens: 1234.6,
    compactions: [{ at: '2026-03-01T10:00:00Z', tokens_before: 9e3, tokens_after: Number.NaN }, { at: '' }, { tokens_before: 1 }],
  });
  assert.deepEqual(status, {
    state: 'thinking',
    contextTokens: 1235,
    compactions: [{ at: '2026-03-01T10:00:00.000Z', tokensBefore: 9000 }],
  });
  assert.deepEqual(parseStatus({ state: 'asleep', context_tokens: -3, compactions: 'many' }), {
    state: 'unknown',
    contextTokens: 0,
    compactions: null,
  });
  assert.equal(
    parseCompactions(
      Array.from({ length: 5000 }, () => ({ at: '2026-03-01T10:00:00Z' })),
      { before: 'b', after: 'a' },
    )?.length,
    1000,
  );
});

test("a process agent's status may carry its model's usage, in the protocol's snake case, checked as a module's", () => {
  const status = parseStatus(
    JSON.parse(`{"state": "idle", "usage": {
    "gpt-x": {"requests": 3, "prompt_tokens": 300, "completion_tokens": 20},
    "bad": {"requests": -1, "prompt_tokens": 1, "completion_tokens": 1},
    "camel": {"requests": 1, "promptTokens": 1, "completionTokens": 1},
    "__proto__": {"requests": 1, "prompt_tokens": 2, "completion_tokens": 3}}}`),
  );
  assert.deepEqual(Object.keys(status.usage ?? {}), ['gpt-x', '__proto__']);
  assert.deepEqual(status.usage?.['gpt-x'], { requests: 3, promptTokens: 300, completionTokens: 20 });
  assert.equal(Object.getPrototypeOf(status.usage), Object.prototype, "no prototype set from the agent's JSON");
  assert.equal(parseStatus({ state: 'idle', usage: [1, 2] }).usage, undefined);
  assert.equal('usage' in parseStatus({ state: 'idle' }), false, 'no usage: no field');
});
