/**
 * *Add a run for this benchmark…* on plain values: the agents and models offered for Max in a
 * workspace as `mmb init` writes it, the name proposed, and the line written into config.jsonc
 * with its comments kept.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseConfig } from '../../scenario/src';
import { withRunAdded } from '../../engine/src/api';
import { INIT_CONFIG } from '../../engine/src/cli/init';
import { agentChoices, freeRunName, modelChoices, runEntry, runNameProblem } from '../src/runEntry';

const init = parseConfig(INIT_CONFIG).config;

test("the agents offered: config.jsonc's first, with their keys, then the registry's that need no key of their own", () => {
  const agents = agentChoices(init);
  assert.deepEqual(
    agents.slice(0, 2).map((a) => [a.agent, a.description, a.takesModel]),
    [
      ['notebook', 'as in rehearsal', true],
      ['chatbot', 'as in rehearsal-chatbot', true],
    ],
  );
  const names = agents.map((a) => a.agent);
  assert.ok(names.includes('openclaw') && names.includes('filing-log'));
  assert.ok(!names.includes('process') && !names.includes('openai-http'), 'they need a command or a server: config.jsonc sets them up');
  assert.equal(agents.find((a) => a.agent === 'filing-log')?.takesModel, false);
});

test('the models offered: the stand-in first, then each model config.jsonc names, once', () => {
  assert.deepEqual(
    modelChoices(init).map((m) => m.label),
    ['stand-in'],
  );
  const deep = { model: 'deepseek-v4-flash', base_url: 'https://api.deepseek.com/v1', api_key_env: 'DEEPSEEK_API_KEY' };
  const config = parseConfig(
    JSON.stringify({
      persona: deep,
      runs: { a: { benchmark: 'starter', agent: 'chatbot', agent_model: deep }, b: { benchmark: 'starter', agent: 'chatbot' } },
    }),
  ).config;
  const models = modelChoices(config);
  assert.deepEqual(
    models.map((m) => [m.label, m.description]),
    [
      ['stand-in', 'the built-in model: no key, no cost (a rehearsal)'],
      ['deepseek-v4-flash', 'https://api.deepseek.com/v1 · key in DEEPSEEK_API_KEY · as the persona'],
    ],
  );
  assert.deepEqual(models[1]!.model, deep);
});

test('the name proposed is free and a folder name; a taken or bad name is refused', () => {
  assert.equal(freeRunName(init, 'max', 'notebook'), 'max-notebook');
  assert.equal(freeRunName(init, 'starter', './agents/my-agent.mjs'), 'starter-my-agent');
  const taken = parseConfig(JSON.stringify({ runs: { 'max-notebook': { benchmark: 'max', agent: 'notebook' } } })).config;
  assert.equal(freeRunName(taken, 'max', 'notebook'), 'max-notebook-2');
  assert.equal(runNameProblem(taken, 'max-notebook'), 'config.jsonc has a run named max-notebook already');
  assert.match(runNameProblem(init, 'my run') ?? '', /^The name is a folder of results\/: it may hold only letters/);
  assert.equal(runNameProblem(init, 'max-notebook'), undefined);
});

test('the run written: one line after the last run, its comments kept, parsed back as asked', () => {
  const notebook = agentChoices(init)[0]!;
  const onStandIn = runEntry('max', notebook, modelChoices(init)[0]);
  assert.deepEqual(onStandIn, { benchmark: 'max', agent: 'notebook' }, 'the stand-in is no agent_model');
  const deep = { model: 'deepseek-v4-flash', base_url: 'https://api.deepseek.com/v1', api_key_env: 'DEEPSEEK_API_KEY' };
  const entry = runEntry('max', notebook, { label: deep.model, description: '', model: deep });
  const text = withRunAdded(INIT_CONFIG, 'max-notebook', entry);
  assert.ok(text.includes('// `rehearsal-chatbot` is a chatbot'), 'comments kept');
  assert.ok(
    text.includes(
      '    "max-notebook": { "benchmark": "max", "agent": "notebook", "agent_model": { "model": "deepseek-v4-flash", ' +
        '"base_url": "https://api.deepseek.com/v1", "api_key_env": "DEEPSEEK_API_KEY" } }\n  }\n}',
    ),
    text,
  );
  const parsed = parseConfig(text);
  assert.deepEqual(parsed.diagnostics, []);
  const run = parsed.config.runs.find((r) => r.name === 'max-notebook');
  assert.deepEqual([run?.benchmark, run?.agent, run?.options.agent_model], ['max', 'notebook', deep]);
});
