/**
 * `mmb conformance` of a broken program: every requirement is listed, whatever fails before it
 * (it runs, or it is "not run" saying why), and each FAIL says what to change in the protocol's
 * own words (`responses` with `after: 0`, MMB_AGENT_HOME), never the engine's (`getResponses(0)`).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { conformanceSubject } from '../src/conformance/subject';
import { requirementNames, runConformance, type RequirementResult } from '../src/conformance/suite';
import { tempDir } from './helpers';

const AGENT = join(__dirname, 'fixtures', 'agents', 'broken-agent.mjs');

async function conformanceOf(command: string[], mode: string): Promise<RequirementResult[]> {
  const subject = conformanceSubject({
    agent: 'process',
    options: { command, env_set: { BROKEN_AGENT: mode }, agent_sandbox: false },
    models: { env: { PATH: process.env.PATH ?? '' } },
    workspace: tempDir('mmb-conformance-ws-'),
    memory: 'context-only',
  });
  return runConformance({ ...subject, replyTimeoutMs: 400 });
}

const outcomes = (results: readonly RequirementResult[]) => results.map((r) => `${r.outcome} ${r.requirement}`);

test('an agent that forgets its replies at a restart: the FAIL in the protocol words, every requirement after it still runs', async () => {
  const results = await conformanceOf([process.execPath, AGENT], 'forgetful');
  assert.deepEqual(outcomes(results), [
    'pass the agent starts',
    'pass replies arrive',
    'pass the cursor holds',
    'pass nothing is sent twice',
    'pass status has its shape',
    'fail the saved state survives a restart of the engine',
    'pass the memory folder is snapshotted',
    'pass a new conversation forgets the context',
    'pass a full reset forgets everything',
    'skip virtual time',
  ]);
  assert.equal(
    results[5]?.detail,
    'after `shutdown` and a new start of the program on the same MMB_AGENT_HOME, `responses` with `after: 0` must return the same ' +
      "messages (it returned 0, 1 before): keep them with the agent's state in MMB_AGENT_HOME; a resumed run stops at once without them",
  );
  assert.ok(results.every((r) => !r.detail?.includes('getResponses')));
});

test('a program without `status` is told in its line what that costs: a second at every turn', async () => {
  const results = await conformanceOf([process.execPath, AGENT], 'statusless');
  assert.deepEqual(results[4], {
    requirement: 'status has its shape',
    outcome: 'skip',
    detail:
      'no `status` in the `methods` of the `initialize` answer (or no `state` in its answer): ' +
      'every turn then ends only 1000 ms after the last message (the starter: 15.4 s, not 1.1 s)',
  });
});

test('an agent that never replies: what depends on a reply is listed as not run, with why; the FAIL names `responses`', async () => {
  const results = await conformanceOf([process.execPath, AGENT], 'silent');
  assert.deepEqual(outcomes(results), [
    'pass the agent starts',
    'fail replies arrive',
    'not-run the cursor holds',
    'not-run nothing is sent twice',
    'pass status has its shape',
    'not-run the saved state survives a restart of the engine',
    'not-run the memory folder is snapshotted',
    'not-run a new conversation forgets the context',
    'not-run a full reset forgets everything',
    'skip virtual time',
  ]);
  assert.equal(
    results[1]?.detail,
    'no reply to "My boat is called Wren and it is moored " within 0 s: `responses` with `after: 0` must return the reply, ' +
      'and `status` answer {"state": "idle"} once it has said all',
  );
  assert.equal(results[2]?.detail, 'it needs a reply (replies arrive failed)');
  assert.match(results[5]?.detail ?? '', /^the first message got no reply: no reply to /);
});

test('an agent that does not start: one FAIL, and every other requirement listed as not run', async () => {
  const results = await conformanceOf(['mmb-no-such-program-5e2a'], 'silent');
  assert.equal(results.length, requirementNames({ memory: 'context-only' }).length);
  assert.equal(results[0]?.outcome, 'fail');
  assert.match(results[0]?.detail ?? '', /could not start: spawn mmb-no-such-program-5e2a ENOENT/);
  assert.deepEqual(
    results.slice(1).map((r) => `${r.outcome}: ${r.detail}`),
    Array(9).fill('not-run: the agent did not start (above)'),
  );
});
