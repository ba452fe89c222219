/**
 * docs/agents.md's table of the ways to bring one's own agent ("way | run | for") is written by
 * hand, so it is held to the registry here: a row for each entry of `OWN_AGENTS` and one for a
 * module, in that order, each run a valid run of its agent, each way a section of the page.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { MODULE_AGENT_PATTERN } from '../../scenario/src';
import { OWN_AGENTS } from '../src/adapters/ownAgents';
import { AGENTS, MODULE_AGENT } from '../src/adapters/registry';
import { ROOT } from './helpers';

const TABLE_HEADER = '| way | run | for |';
const COUNT_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six'];

interface WayRow {
  way: string;
  run: Record<string, unknown>;
}

/** The rows of the table after its header: each run cell is the inside of a run object of config.jsonc. */
function waysTable(markdown: string): WayRow[] {
  const lines = markdown.split('\n');
  const start = lines.indexOf(TABLE_HEADER);
  assert.ok(start >= 0, `docs/agents.md keeps its table headed ${TABLE_HEADER}`);
  const rows = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const [way = '', run = ''] = line.split(' | ').map((cell) => cell.replace(/^\| /, ''));
    rows.push({ way, run: JSON.parse(`{${run.replace(/^`|`$/g, '')}}`) as Record<string, unknown> });
  }
  return rows;
}

/** Each row's agent: its `agent`, or `module` for a module's path. */
function agentOf(row: WayRow): string {
  const agent = String(row.run.agent);
  return MODULE_AGENT_PATTERN.test(agent) ? 'module' : agent;
}

test("docs/agents.md's table of ways in has a row for each own agent of the registry and a module, each run valid", () => {
  const page = readFileSync(join(ROOT, 'docs', 'agents.md'), 'utf8');
  const rows = waysTable(page);
  assert.deepEqual(rows.map(agentOf), [...Object.keys(OWN_AGENTS), 'module']);
  assert.ok(page.includes(`${COUNT_WORDS[rows.length]} ways in`), `the page says there are ${rows.length} ways in`);
  for (const row of rows) {
    const agent = agentOf(row);
    const entry = agent === 'module' ? MODULE_AGENT : AGENTS[agent]!;
    const unknown = Object.keys(row.run).filter((key) => key !== 'agent' && !(key in entry.runKeys));
    assert.deepEqual(unknown, [], `${row.way}: run keys that ${agent} does not read`);
    const heading = row.way.charAt(0).toUpperCase() + row.way.slice(1);
    assert.ok(page.includes(`\n## ${heading}: `), `${row.way} has its section, "## ${heading}: …"`);
  }
});

test('the check of the ways table catches a missing way and a run key the agent does not read', () => {
  const rows = (cells: string[]) => [TABLE_HEADER, '|---|---|---|', ...cells].join('\n');
  const processRow = '| a program | `"agent": "process", "command": ["x"]` | any |';
  assert.deepEqual(waysTable(rows([processRow])).map(agentOf), ['process']);
  assert.notDeepEqual(waysTable(rows([processRow])).map(agentOf), [...Object.keys(OWN_AGENTS), 'module']);
  const [wrong] = waysTable(rows(['| a program | `"agent": "process", "comand": ["x"]` | any |']));
  assert.ok(!('comand' in OWN_AGENTS.process!.runKeys) && 'comand' in wrong!.run);
});
