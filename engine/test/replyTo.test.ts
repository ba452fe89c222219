/**
 * `reply_to` is a process agent's help to a resumed run, never a way to stall one: a reply naming a
 * key the engine never made (an agent's own message ids, a number, garbage) counts as a reply like
 * any other, so the run ends as with an agent that gives no `reply_to` at all.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RunState } from '../src/state/runState';
import { ROOT, runOnStandIn, starter, tempDir } from './helpers';

const AGENT_SCRIPT = join(ROOT, 'examples', 'agents', 'my-agent.mjs');
const QUICK = { replyTimeoutMs: 8000 };

/** The example agent, with each reply's `reply_to` replaced by `expression` (JavaScript, `key` in scope). */
function agentReplyingTo(expression: string): string {
  const source = readFileSync(AGENT_SCRIPT, 'utf8');
  const edited = source.replace('reply_to: key }', `reply_to: ${expression} }`);
  assert.notEqual(edited, source, 'the example agent still sets reply_to as this test expects');
  const path = join(tempDir('mmb-reply-to-'), 'agent.mjs');
  writeFileSync(path, edited);
  return path;
}

const outcome = (state: RunState) => ({
  status: state.status,
  agentReplies: state.transcript.filter((entry) => entry.from === 'agent').length,
  unanswered: state.unanswered,
});

test(
  'replies naming keys the engine never made are counted, not held back for a send that will never come',
  { timeout: 60_000 },
  async () => {
    const reference = await runOnStandIn(starter(), {
      agent: 'process',
      options: { command: [process.execPath, AGENT_SCRIPT] },
      extra: QUICK,
    });
    assert.equal(reference.state.status, 'finished');
    assert.equal(reference.state.unanswered, 0);
    for (const expression of ['`msg-${Math.random()}`', '"7"', 'key + "x"', '"test-run/send-0"', '"other-run/send-999"']) {
      const command = [process.execPath, agentReplyingTo(expression)];
      const run = await runOnStandIn(starter(), { agent: 'process', options: { command }, extra: QUICK });
      assert.deepEqual(outcome(run.state), outcome(reference.state), expression);
    }
  },
);
