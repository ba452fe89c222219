/**
 * docs/agents.md's two tables of agents (the ones users bring, the ones built in), built from the
 * registry's entries: name, summary, details, clock and run keys. `scripts/schemas.ts` writes them
 * between their markers; a test fails while the committed page differs.
 */
import { AGENTS, MODULE_AGENT, type AgentEntry } from './registry';
import { OWN_AGENTS } from './ownAgents';
import type { RunKey } from './runKeys';
import { markdownTableCell, withGeneratedBlock } from '../generatedBlock';

/** How the tables name every module agent: its `agent` is the module's path. */
const MODULE_AGENT_EXAMPLE = './agents/my-agent.mjs';

/** The generated blocks of docs/agents.md, by the name in their markers. */
export type AgentsTableName = 'agents-own' | 'agents-built-in';

export const startMarker = (name: AgentsTableName) =>
  `<!-- generated:${name} by scripts/schemas.ts from engine/src/adapters/registry.ts -->`;
export const endMarker = (name: AgentsTableName) => `<!-- /generated:${name} -->`;

function runKeyMention(name: string, key: RunKey): string {
  return key.default === undefined ? `\`${name}\`` : `\`${name}\` (default \`${String(key.default)}\`)`;
}

/** A row: the name, then summary, details, the clock and the run keys, as the entry declares them. */
export function agentRow(name: string, entry: AgentEntry): string {
  const keys = Object.entries(entry.runKeys).map(([key, runKey]) => runKeyMention(key, runKey));
  const clock = entry.clock === 'virtual' ? 'Virtual time.' : 'On the wall clock (no virtual time).';
  const runKeys = keys.length ? `Run keys: ${keys.join(', ')}.` : 'No run keys.';
  return `| \`${markdownTableCell(name)}\` | ${markdownTableCell([entry.summary, entry.details, clock, runKeys].join(' '))} |`;
}

/** The table's rows in registry order: the named ways in and a module agent, or every other registered agent. */
export function agentsTable(name: AgentsTableName): string {
  const own = Object.keys(OWN_AGENTS);
  const rows =
    name === 'agents-own'
      ? [...own.map((agent) => agentRow(agent, AGENTS[agent]!)), agentRow(MODULE_AGENT_EXAMPLE, MODULE_AGENT)]
      : Object.entries(AGENTS)
          .filter(([agent]) => !own.includes(agent))
          .map(([agent, entry]) => agentRow(agent, entry));
  return [startMarker(name), '| agent | what it is |', '|---|---|', ...rows, endMarker(name)].join('\n');
}

/** A page (docs/agents.md) with both agents tables replaced by the generated ones; undefined when a pair of markers is missing. */
export function withAgentsTables(text: string): string | undefined {
  let out = text;
  for (const name of ['agents-own', 'agents-built-in'] as const) {
    const replaced = withGeneratedBlock(out, startMarker(name), endMarker(name), agentsTable(name));
    if (replaced === undefined) return undefined;
    out = replaced;
  }
  return out;
}
