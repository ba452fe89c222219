/** The persona's tools: validated arguments, errors a model can act on, never a throw. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  factsAdd,
  factsEdit,
  factsGetUntold,
  factsMarkTold,
  factsRead,
  logEvaluation,
  parseArgs,
  parseUntil,
  PERSONA_TOOLS,
  TOOL_SPECS,
} from '../src/run/tools';
import { withEngineIds } from '../src/run/personaTurn';
import { applyEvent, emptyState, type Position, type RunState } from '../src/state/runState';
import { universalPrompt, withoutCommentLines } from '../src/persona/prompt';
import { markdownTableCell } from '../src/generatedBlock';
import { PERSONA_TOOLS_TABLE_START, personaToolsTable, withPersonaToolsTable } from '../src/run/tools/referenceTable';
import { PROMPT_TOOLS_START, promptToolsList, SYSTEM_PROMPT_PATH, withPromptToolsList } from '../src/run/tools/promptSection';
import { findPersonaTools, TOOLS_MODULE_PATH, toolsByName, toolsModuleText } from '../src/run/tools/toolsModule';
import { ROOT } from './helpers';

function state(position: Position = { chapter: 'chapter2.md', chapterIndex: 1, phase: 0 }): RunState {
  const s = emptyState();
  applyEvent(s, {
    type: 'start',
    at: '2026-01-01T00:00:00Z',
    run: 'r',
    benchmark: 'b',
    agent: 'a',
    startTime: '2026-01-01 00:00',
    position,
    templates: {},
    sheets: {
      family: {
        name: 'family',
        title: 'Family',
        categories: [{ number: 1, title: 'Lena' }],
        facts: [
          { id: '1.1', category: 1, text: 'Lena is 31', told: false },
          { id: '1.2', category: 1, text: 'Birthday March 14', told: false },
        ],
      },
    },
  });
  return s;
}

const apply = (s: RunState, effects: ReturnType<typeof factsMarkTold>['effects']) =>
  applyEvent(s, { type: 'tool-done', at: '2026-01-01T00:01:00Z', callId: 'c', name: 't', content: '', effects });

test('arguments: unknown tools, bad JSON, non-objects and missing keys are errors with an example', () => {
  const bad = [
    parseArgs('send_mesage', '{}'),
    parseArgs('send_message', '{"text": '),
    parseArgs('send_message', '[1]'),
    parseArgs('facts_edit', '{"sheet": "family"}'),
  ];
  assert.deepEqual(
    bad.map((r) => r.ok),
    [false, false, false, false],
  );
  const messages = bad.map((r) => (r.ok ? '' : r.outcome.content));
  assert.match(messages[0]!, /^Error: there is no tool `send_mesage`\. The tools are send_message, next_phase/);
  assert.match(messages[1]!, /not valid JSON.*\{"text": "Hi!/);
  assert.match(messages[3]!, /facts_edit needs `id`, `text`/);
  assert.deepEqual(parseArgs('next_phase', ''), { ok: true, args: {} });
});

test('facts: read, untold, mark told, edit, delete and add', () => {
  const s = state();
  assert.match(factsGetUntold(s, { sheet: 'family' }).content, /1\.1 Lena is 31\n1\.2 Birthday March 14/);
  assert.match(factsGetUntold(s, { sheet: 'famly' }).content, /^Error: there is no sheet `famly`\. The sheets are `family`\./);
  assert.match(factsMarkTold(s, { sheet: 'family', ids: ['1.9'] }).content, /^Error: `family` has no fact 1\.9/);
  apply(s, factsMarkTold(s, { sheet: 'family', ids: ['1.1'] }).effects);
  assert.match(factsRead(s, { sheet: 'family' }).content, /1\.1 Lena is 31 \(told\)\n1\.2 Birthday March 14$/);
  apply(s, factsEdit(s, { sheet: 'family', id: '1.1', text: 'Lena is 32' }).effects);
  const added = factsAdd(s, { sheet: 'family', category: 1, text: 'Anna visits in August' });
  assert.match(added.content, /^Added family#1\.3/);
  apply(s, added.effects);
  apply(s, factsEdit(s, { sheet: 'family', id: '1.2', text: '—' }).effects);
  assert.deepEqual(
    s.sheets.family?.facts.map((f) => `${f.id} ${f.text} ${f.told}`),
    ['1.1 Lena is 32 true', '1.3 Anna visits in August false'],
  );
  assert.match(factsAdd(s, { sheet: 'family', category: 0, text: 'x' }).content, /^Error: `category` must be/);
});

test('log_evaluation: checks of this phase or earlier only; score 0–10; the second attempt counts half; the last grade stands', () => {
  const s = state();
  const at = (id: string): Position | undefined =>
    (
      ({
        '1.1': { chapter: 'chapter1.md', chapterIndex: 0, phase: 0 },
        '2.1': s.position,
        '3.1': { chapter: 'chapter3.md', chapterIndex: 2, phase: 0 },
      }) as Record<string, Position>
    )[id];
  assert.match(logEvaluation(s, { check_id: '3.1', score: 10 }, at, 'now').content, /later phase/);
  assert.match(logEvaluation(s, { check_id: '9.9', score: 10 }, at, 'now').content, /^Error: there is no check 9\.9/);
  assert.match(logEvaluation(s, { check_id: '2.1', score: 11 }, at, 'now').content, /from 0 to 10/);
  assert.match(logEvaluation(s, { check_id: '2.1', score: 5, attempt: 3 }, at, 'now').content, /`attempt` must be 1, or 2/);
  apply(s, logEvaluation(s, { check_id: '1.1', score: 4, answer: 'a', comment: 'c' }, at, 'now').effects);
  const second = logEvaluation(s, { check_id: '1.1', score: 10, answer: 'b', comment: 'found it', attempt: 2 }, at, 'now');
  assert.match(second.content, /Recorded 1\.1: 5\/10 \(second attempt counts ×0\.5\) \(this grade replaces the earlier one\)/);
  apply(s, second.effects);
  assert.deepEqual(
    s.grades['1.1']?.map((g) => [g.score, g.effective, g.attempt]),
    [
      [4, 4, 1],
      [10, 5, 2],
    ],
  );
});

test("the schemas sent to the model are derived from the tools record, every argument bounded, the engine's error texts left out", () => {
  assert.deepEqual(
    TOOL_SPECS.map((t) => t.function.name),
    Object.keys(PERSONA_TOOLS),
  );
  assert.equal(TOOL_SPECS[0]?.function.name, 'send_message', 'the one way to talk comes first');
  for (const spec of TOOL_SPECS) {
    const properties = spec.function.parameters.properties as Record<string, Record<string, unknown>>;
    for (const [key, schema] of Object.entries(properties)) {
      assert.ok('maxLength' in schema || 'maxItems' in schema || 'maximum' in schema, `${spec.function.name}.${key} is bounded`);
      assert.ok(!('invalid' in schema), `${spec.function.name}.${key} is plain JSON schema`);
    }
  }
  assert.deepEqual(TOOL_SPECS.find((t) => t.function.name === 'send_message')?.function.parameters, {
    type: 'object',
    properties: { text: { type: 'string', description: 'What you say, in your own voice.', maxLength: 20000 } },
    required: ['text'],
    additionalProperties: false,
  });
});

test('arguments: types checked against the schema, a bare id taken as a list, undeclared keys dropped', () => {
  const told = parseArgs('facts_mark_told', '{"sheet": "family", "ids": "1.1", "extra": 1}');
  assert.deepEqual(told, { ok: true, args: { sheet: 'family', ids: ['1.1'] } });
  const error = (name: string, raw: string) => {
    const r = parseArgs(name, raw);
    return r.ok ? 'ok' : r.outcome.content;
  };
  assert.equal(
    error('facts_add', '{"sheet": "family", "category": 2.5, "text": "x"}'),
    'Error: `category` must be a whole number, e.g. {"sheet": "family", "category": 2, "text": "Anna visits on 19 August"}.',
  );
  assert.equal(
    error('log_evaluation', '{"check_id": "1.1", "score": "10", "answer": "a", "comment": "c"}'),
    'Error: `score` must be a number from 0 to 10.',
  );
  assert.equal(error('facts_read', '{"toString": "family"}'), 'Error: facts_read needs `sheet`, e.g. {"sheet": "family"}.');
  assert.match(
    error('facts_read', `{"sheet": "${'x'.repeat(70_000)}"}`),
    /^Error: the arguments of facts_read are longer than 65536 characters/,
  );
});

test('wait: a time is its next occurrence, a moment is taken as written, an impossible one is refused', () => {
  const now = new Date('2026-03-01T20:00:00Z');
  assert.equal((parseUntil('07:30', now) as Date).toISOString(), '2026-03-02T07:30:00.000Z');
  assert.equal((parseUntil('21:05', now) as Date).toISOString(), '2026-03-01T21:05:00.000Z');
  assert.equal((parseUntil('2026-02-28 23:59', now) as Date).toISOString(), '2026-02-28T23:59:00.000Z');
  for (const text of ['2026-13-45 25:99', '2026-02-29 10:00', '2026-04-31 10:00', '2026-03-02 24:00', '24:00', '99:99', '12:60'])
    assert.equal(parseUntil(text, now), 'impossible', text);
  for (const text of ['', 'noon', '7', '2026-03-02']) assert.equal(parseUntil(text, now), 'malformed', text);
});

test("tool calls get the engine's ids, unique by the event that journals them, whatever ids the model gave", () => {
  const call = { id: 'call_0', type: 'function' as const, function: { name: 'send_message', arguments: '{"text": "hi"}' } };
  assert.deepEqual(
    withEngineIds([call, call], 17).map((c) => c.id),
    ['t17-0', 't17-1'],
  );
  assert.deepEqual(withEngineIds([call], 18)[0], { id: 't18-0', type: 'function', function: call.function });
  assert.equal(
    withEngineIds([{ ...call, function: { name: 'x', arguments: 'y'.repeat(1 << 20) } }], 1)[0]?.function.arguments.length,
    65537,
    'oversized arguments are kept just long enough to be refused',
  );
  assert.equal(
    withEngineIds(
      Array.from({ length: 1000 }, () => call),
      2,
    ).length,
    32,
    'a turn keeps at most 32 calls',
  );
});

/**
 * The tools the prompt names: every word in backticks that could be a tool's name (lowercase, digits
 * and `_`), except a sheet named in an example ("tell the `family` sheet").
 */
function toolsNamedIn(prompt: string): Set<string> {
  return new Set([...prompt.matchAll(/`([a-z][a-z0-9_]*)`(?! sheet)/g)].map((match) => match[1]!));
}

test('the system prompt names every tool of PERSONA_TOOLS and no tool that does not exist', () => {
  const named = toolsNamedIn(universalPrompt());
  const tools = Object.keys(PERSONA_TOOLS);
  assert.deepEqual(
    tools.filter((name) => !named.has(name)),
    [],
    'engine/src/persona/system-prompt.md says when to use each of these',
  );
  assert.deepEqual(
    [...named].filter((name) => !tools.includes(name)),
    [],
    'engine/src/persona/system-prompt.md names these as tools',
  );
});

test('the prompt check catches a tool left out and a tool made up', () => {
  const prompt = universalPrompt();
  assert.ok(!toolsNamedIn(prompt.replaceAll('`facts_add`', 'facts_add')).has('facts_add'));
  assert.ok(toolsNamedIn(`${prompt}\nCall \`facts_forget\` to forget.`).has('facts_forget'));
  assert.ok(!toolsNamedIn('tell the `family` sheet').has('family'));
});

test('docs/format.md has the table of persona tools generated from PERSONA_TOOLS (run `npm run schemas`)', () => {
  const reference = readFileSync(join(ROOT, 'docs', 'format.md'), 'utf8');
  assert.ok(reference.includes(PERSONA_TOOLS_TABLE_START), 'docs/format.md keeps the persona-tools markers');
  assert.equal(reference, withPersonaToolsTable(reference), 'docs/format.md is out of date: run `npm run schemas`');
  const table = personaToolsTable();
  for (const [name, tool] of Object.entries(PERSONA_TOOLS)) {
    assert.ok(table.includes(`| ${markdownTableCell(tool.description)} |`), `${name}'s row has its description word for word`);
  }
  assert.equal(withPersonaToolsTable('no markers here'), undefined);
  assert.equal(markdownTableCell('a | b\n  c'), 'a \\| b c', 'a pipe or a line break cannot break the table');
});

test("PERSONA_TOOLS is the module generated from the tools' files, in the order of their position (run `npm run schemas`)", () => {
  const found = findPersonaTools(ROOT);
  assert.equal(readFileSync(join(ROOT, TOOLS_MODULE_PATH), 'utf8'), toolsModuleText(found), `${TOOLS_MODULE_PATH} is out of date`);
  assert.deepEqual(Object.keys(PERSONA_TOOLS), Object.keys(toolsByName(found)));
  for (const [name, tool] of Object.entries(PERSONA_TOOLS)) assert.equal(tool.name, name, `${name} is listed by its own name`);
  const positions = found.map((entry) => entry.tool.position);
  assert.deepEqual(
    positions,
    [...positions].sort((first, second) => first - second),
    'listed by position',
  );
  const moved = found.map((entry) => (entry.tool.name === 'wait' ? { ...entry, tool: { ...entry.tool, position: 0 } } : entry));
  assert.notEqual(toolsModuleText(moved), toolsModuleText(found), 'the module follows what the files say');
});

test("the system prompt's list of tools is generated from each tool's whenToUse, and the model never reads its markers", () => {
  const prompt = readFileSync(join(ROOT, SYSTEM_PROMPT_PATH), 'utf8');
  assert.ok(prompt.includes(PROMPT_TOOLS_START), `${SYSTEM_PROMPT_PATH} keeps its generated:persona-tools markers`);
  assert.equal(prompt, withPromptToolsList(prompt), `${SYSTEM_PROMPT_PATH} is out of date: run \`npm run schemas\``);
  for (const tool of Object.values(PERSONA_TOOLS))
    assert.ok(universalPrompt().includes(`- \`${tool.name}\`: ${tool.whenToUse}`), tool.name);
  assert.ok(!universalPrompt().includes('<!--'), 'no marker reaches the model');
  const withoutWait = Object.fromEntries(Object.entries(PERSONA_TOOLS).filter(([name]) => name !== 'wait'));
  assert.notEqual(promptToolsList(withoutWait), promptToolsList(), 'a tool missing from the list is a difference');
  assert.equal(withoutCommentLines('a\n<!-- x -->\nb'), 'a\nb');
});
