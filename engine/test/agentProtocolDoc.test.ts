/**
 * docs/agent-protocol.md cannot drift: its whole exchange is replayed against the engine's process
 * adapter, driven by the engine's own turn (`agentTurn`) and session switch, through a program that
 * answers each request with the doc's answer only if the request is the doc's, word for word; its
 * run entry is a config.jsonc that checks clean.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseConfig } from '../../scenario/src';
import { ProcessAdapter } from '../src/adapters/process';
import { agentAheadOfJournal, agentTurn, type TurnOptions } from '../src/run/agentTurn';
import { applyEvent, emptyState, type RunState } from '../src/state/runState';
import { ROOT, tempDir } from './helpers';

const DOC = readFileSync(join(ROOT, 'docs', 'agent-protocol.md'), 'utf8');

/** The fenced block after a heading, by its language. */
function blockUnder(heading: string, language: string): string {
  const section = DOC.slice(DOC.indexOf(`\n## ${heading}\n`));
  const start = section.indexOf(`\`\`\`${language}\n`) + language.length + 4;
  return section.slice(start, section.indexOf('```', start));
}

interface Line {
  id: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
}

const exchange = blockUnder('A whole exchange', 'text')
  .trim()
  .split('\n')
  .map((line) => ({ sent: line.startsWith('→ '), line: JSON.parse(line.slice(2)) as Line }));
const requests = exchange.filter((e) => e.sent).map((e) => e.line);
const answers = exchange.filter((e) => !e.sent).map((e) => e.line);

/** Answers the n-th request with the doc's n-th answer if it is the doc's n-th request (the home aside); else an error naming both. */
const SCRIPT = `
import { createInterface } from 'node:readline';
const requests = JSON.parse(process.env.DOC_REQUESTS);
const answers = JSON.parse(process.env.DOC_ANSWERS);
const plain = (request) => JSON.stringify({ ...request, params: { ...request.params, home: undefined } });
let n = 0;
for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line);
  const expected = requests[n];
  const answer = answers[n++];
  const message = 'the doc says ' + JSON.stringify(expected) + ', the engine sent ' + line;
  const drift = !expected || plain(expected) !== plain(request);
  process.stdout.write(JSON.stringify(drift ? { id: request.id, error: { code: 'drift', message } } : answer) + '\\n');
  if (request.method === 'shutdown') process.exit(0);
}
`;

test('the doc has a whole exchange: as many answers as requests, ids in order, every method of the protocol but set_time', () => {
  assert.equal(requests.length, answers.length);
  assert.deepEqual(
    requests.map((r) => r.id),
    answers.map((a) => a.id),
  );
  assert.deepEqual([...new Set(requests.map((r) => r.method))].sort(), [
    'create',
    'destroy',
    'initialize',
    'new_conversation',
    'responses',
    'send',
    'shutdown',
    'status',
  ]);
});

test("the doc's exchange is what the engine sends and accepts: a run's start, two turns, a session switch, the end", async () => {
  const dir = tempDir('mmb-protocol-doc-');
  const script = join(dir, 'doc-agent.mjs');
  writeFileSync(script, SCRIPT);
  const env = { PATH: process.env.PATH ?? '', DOC_REQUESTS: JSON.stringify(requests), DOC_ANSWERS: JSON.stringify(answers) };
  const adapter = new ProcessAdapter(join(dir, 'home'), dir, {
    command: [process.execPath, script],
    cwd: dir,
    env,
    timeoutMs: 10_000,
    sandbox: 'none',
  });
  const state: RunState = { ...emptyState(), run: 'my-agent' };
  const options: TurnOptions = { replyTimeoutMs: 10_000, record: (event) => applyEvent(state, event), now: () => new Date().toISOString() };
  const said = (text: string) => requests.find((r) => r.method === 'send' && r.params?.text === text)?.params?.text as string;
  try {
    // A fresh run: the full reset, then the session by the run's name.
    await adapter.destroySession();
    await adapter.createSession('my-agent');
    assert.deepEqual(await agentTurn(state, adapter, 't1-0', said('Hi! My boat is called Wren.'), options), ['Noted: your boat is Wren.']);
    // The session switch, as phaseEntry makes it.
    assert.equal(await agentAheadOfJournal(state, adapter), false);
    await adapter.startNewConversation();
    assert.deepEqual(await agentTurn(state, adapter, 't2-0', said('What is my boat called?'), options), ['Your boat is called Wren.']);
    assert.deepEqual(state.agentStatus?.usage, { 'gpt-4o-mini': { requests: 2, promptTokens: 1200, completionTokens: 40 } });
  } finally {
    await adapter.close();
  }
  assert.equal(state.agentCursor, 2);
});

test("the doc's run entry is a config.jsonc that checks clean, a process run with every key a program's run takes", () => {
  const { config, diagnostics } = parseConfig(blockUnder('A run entry', 'jsonc'));
  assert.deepEqual(diagnostics, []);
  const run = config.runs.find((r) => r.name === 'my-agent');
  assert.equal(run?.agent, 'process');
  assert.deepEqual(Object.keys(run?.options ?? {}).sort(), [
    'agent_model',
    'agent_sandbox',
    'command',
    'env',
    'env_set',
    'process_timeout',
  ]);
});
