/**
 * The conformance suite (engine/src/conformance/suite.ts, also `mmb conformance`) as a node:test
 * case: every requirement must pass or, where it does not apply, be skipped with a reason.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ConformanceSetup } from '../src/adapters/registry';
import type { AgentAdapter } from '../src/protocol/agent';
import type { Clock } from '../src/clock';
import { runConformance, type ConformanceSubject } from '../src/conformance/suite';

/** An agent as the suite plays it: its name, its registry entry's conformance setup, its clock. */
export type AgentSpec = { name: string } & Pick<ConformanceSetup, 'memory' | 'tell' | 'ask' | 'expect'> & {
    virtualTime?: ConformanceSubject['virtualTime'];
    clock?: Clock;
    label?: string;
  };

/** The suite for one adapter; `make` builds it on a run folder. */
export function conformance(agent: AgentSpec, make: (name: string, runDir: string) => AgentAdapter, timeout = 30_000): void {
  describe(`adapter ${agent.label ?? agent.name}`, { timeout }, () => {
    test('passes every requirement of the conformance suite', async () => {
      const results = await runConformance({
        ...agent,
        virtualTime: agent.virtualTime ?? false,
        make: (runDir) => make(agent.name, runDir),
      });
      const failed = results.filter((r) => r.outcome === 'fail').map((r) => `${r.requirement}: ${r.detail}`);
      assert.deepEqual(failed, []);
      const names = results.map((r) => r.requirement);
      for (const name of [
        'replies arrive',
        'the cursor holds',
        'nothing is sent twice',
        'the saved state survives a restart of the engine',
        'a full reset forgets everything',
        'virtual time',
      ])
        assert.ok(names.includes(name), `${name} was checked`);
    });
  });
}
