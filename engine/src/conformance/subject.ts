/**
 * The conformance subject of a registered agent or a run of config.jsonc: its adapter made the
 * way a run makes it, with the entry's probe (what to tell, what to ask) and its virtual-time claim.
 */
import { agentEntry, createAdapter, type AdapterContext } from '../adapters/registry';
import { ProcessAdapter } from '../adapters/process';
import type { AgentAdapter } from '../protocol/agent';
import { Clock } from '../clock';
import type { ConformanceSubject } from './suite';
import { PROTOCOL_WORDS } from './words';

export interface SubjectInput {
  agent: string;
  options: Record<string, unknown>;
  models: AdapterContext['models'];
  workspace: string;
  /** Overrides the entry's claim: `--memory` of `mmb conformance`. */
  memory?: ConformanceSubject['memory'];
}

/** Whether an adapter claims the run's virtual time: by its entry's clock, or a program by its handshake. */
async function claimsVirtualTime(adapter: AgentAdapter, clock: 'virtual' | 'real'): Promise<boolean> {
  if (adapter instanceof ProcessAdapter) return adapter.supports('set_time');
  return clock === 'virtual';
}

export function conformanceSubject(input: SubjectInput): ConformanceSubject {
  const entry = agentEntry(input.agent);
  const clock = new Clock();
  const setup = entry.conformance;
  return {
    name: input.agent,
    memory: input.memory ?? setup.memory,
    tell: setup.tell,
    ask: setup.ask,
    expect: setup.expect,
    clock,
    make: (runDir) =>
      createAdapter(input.agent, { runDir, options: input.options, models: input.models, clock, workspace: input.workspace }),
    virtualTime: (adapter) => claimsVirtualTime(adapter, entry.clock),
    // A program is told what to change in the protocol's words; a module or a built-in in the interface's.
    ...(input.agent === 'process' ? { words: PROTOCOL_WORDS } : {}),
  };
}
