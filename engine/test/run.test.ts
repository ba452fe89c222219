/** Whole runs on the stand-in model over real HTTP, through the real engine. */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { average, benchmarkFrom, grades, runOnStandIn, starter } from './helpers';

test('a whole run of the starter benchmark: every check graded, every phase played, state on disk', async () => {
  const { state, dir } = await runOnStandIn(starter(), { ignoreSessionBreak: true });
  assert.equal(state.status, 'finished', state.error);
  assert.deepEqual(Object.keys(state.grades).sort(), ['3.1', '3.2', '3.3', '3.4', '3.5']);
  assert.deepEqual(state.position, { chapter: 'chapter3.md', chapterIndex: 2, phase: 0 });
  assert.ok(
    state.sheets.move?.facts.every((f) => f.told),
    'every fact of the move sheet is told',
  );
  assert.ok(state.sheets.profile?.facts.every((f) => f.told));
  assert.equal(state.vars.require_all_facts, 'move');
  assert.ok(existsSync(join(dir, 'state.json')));
  assert.ok(state.usage['stand-in']!.requests > 10);
  assert.ok(state.usage['stand-in']!.promptTokens > 0);
  const told = state.transcript
    .filter((e) => e.from === 'persona')
    .map((e) => e.text)
    .join('\n');
  assert.match(told, /Harehills Lane/);
  assert.match(told, /When and where do I pick up the keys/);
});

test('the persona never sees trap lines or JS, and gets templates expanded from the start time', async () => {
  const b = benchmarkFrom({
    'benchmark.json': '{ "chapters": ["chapter1.md", "chapter2.md"], "start_time": "2026-07-29 16:10" }',
    'chapter1.md': [
      '## Plans',
      '```js',
      'bench.log("plans start");',
      '```',
      'Say that Anna arrives {{FUTURE:3:weeks}}.',
      '🪤 LATE-ADD → 2.1 — secret authoring note',
      '',
    ].join('\n'),
    'chapter2.md': '## Exam\n❓ 2.1 When does Anna arrive? Correct answer: 19 August 2026.\n',
  });
  const { state } = await runOnStandIn(b, { ignoreSessionBreak: true });
  assert.equal(state.status, 'finished', state.error);
  assert.equal(state.templates['{{FUTURE:3:weeks}}'], '19 August 2026');
  const persona = state.persona.map((m) => m.content ?? '').join('\n');
  assert.ok(!persona.includes('🪤') && !persona.includes('secret authoring note'));
  assert.ok(!persona.includes('bench.log'));
  assert.match(persona, /Say that Anna arrives 19 August 2026\./);
  assert.deepEqual(
    state.log.map((l) => l.text),
    ['plans start'],
  );
  assert.equal(grades(state)['2.1'], 10);
});

test('memory is what is measured: with the conversation in context the agent scores far above itself after a session switch', async () => {
  const inContext = await runOnStandIn(starter(), { ignoreSessionBreak: true });
  const afterSwitch = await runOnStandIn(starter(), { ignoreSessionBreak: false });
  assert.equal(afterSwitch.state.sessionSwitches.filter((s) => !s.ignored).length, 1);
  assert.equal(inContext.state.sessionSwitches.filter((s) => s.ignored).length, 1);
  assert.ok(average(inContext.state) >= average(afterSwitch.state) + 3, `${average(inContext.state)} vs ${average(afterSwitch.state)}`);
  assert.equal(grades(afterSwitch.state)['3.2'], 0);
  assert.equal(grades(inContext.state)['3.2'], 10);
  // Without memory the agent says it was never told, so the persona asks it to search: a second attempt.
  assert.equal(afterSwitch.state.grades['3.1']?.at(-1)?.attempt, 2);
  assert.equal(grades(afterSwitch.state)['3.5'], 10, 'a VOID check passes on "you never told me"');
});

test('a JS block that fails crashes the run with its file and line, and the run resumes once it is fixed', async () => {
  const files = {
    'benchmark.json': '{ "chapters": ["chapter1.md", "chapter2.md"] }',
    'chapter1.md': '## Hello\nSay hello.\n',
    'chapter2.md': '## Broken\n```js\nvars.x = 1;\nundefinedThing.y = 2;\n```\nSay bye.\n',
  };
  const first = await runOnStandIn(benchmarkFrom(files));
  assert.equal(first.state.status, 'crashed');
  assert.match(first.state.error ?? '', /chapter2\.md line 4: the JS block failed: ReferenceError: undefinedThing is not defined/);
  const fixed = benchmarkFrom({ ...files, 'chapter2.md': '## Broken\n```js\nvars.x = 1;\n```\nSay bye.\n' });
  const second = await runOnStandIn(fixed, { dir: first.dir });
  assert.equal(second.state.status, 'finished', second.state.error);
  assert.equal(second.state.vars.x, 1);
  const hello = second.state.transcript.filter((e) => e.from === 'persona' && e.text === 'Hello.');
  assert.equal(hello.length, 1, 'the first phase was not played again');
});

test('a finished run continues when a chapter is appended; deleting its folder restarts it', async () => {
  const base = {
    'benchmark.json': '{ "chapters": ["chapter1.md"] }',
    'chapter1.md': '## One\nSay that the boat is called Wren.\n',
  };
  const first = await runOnStandIn(benchmarkFrom(base));
  assert.equal(first.state.status, 'finished');
  const again = await runOnStandIn(benchmarkFrom(base), { dir: first.dir });
  assert.equal(again.state.events, first.state.events, 'a finished run is left as it is');
  const longer = benchmarkFrom({
    ...base,
    'benchmark.json': '{ "chapters": ["chapter1.md", "chapter2.md"] }',
    'chapter2.md': '## Two\n❓ 2.1 What is the boat called? Correct answer: Wren.\n',
  });
  const continued = await runOnStandIn(longer, { dir: first.dir, ignoreSessionBreak: true });
  assert.equal(continued.state.status, 'finished', continued.state.error);
  assert.equal(grades(continued.state)['2.1'], 10, 'the agent still has chapter 1 in its conversation');
  assert.equal(continued.state.transcript.filter((e) => e.text === 'The boat is called Wren.').length, 1);
  const sent = readFileSync(join(first.dir, 'agent', 'conversation.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.includes('"kind":"user"'));
  assert.equal(sent.filter((l) => l.includes('boat is called Wren')).length, 1, 'the agent got the message once');

  rmSync(first.dir, { recursive: true });
  const restarted = await runOnStandIn(longer, { dir: first.dir, ignoreSessionBreak: true });
  assert.equal(restarted.state.status, 'finished');
  assert.ok(restarted.state.events < continued.state.events, 'a fresh run, not the old one continued');
  const fresh = readFileSync(join(first.dir, 'agent', 'conversation.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.includes('"kind":"user"'));
  assert.equal(fresh.length, restarted.state.transcript.filter((e) => e.from === 'persona').length, 'the agent was reset too');
  assert.equal(restarted.state.persona.filter((m) => m.role === 'user' && m.content.startsWith('[The scenario continues')).length, 0);
});
