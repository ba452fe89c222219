/** The agent registry: one entry per agent, and everything generated from or checked against it. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { SHARED_RUN_KEYS } from '../../scenario/src';
import { configSchema, configSchemaText, runKeysTable, withRunKeysTable } from '../src/adapters/configSchema';
import { adapterUsesStandIn, AGENTS, createAdapter, rehearsalOf } from '../src/adapters/registry';
import { MAX_RUN_KEY_TEXT, SHARED_RUN_KEY_DOCS } from '../src/adapters/runKeys';
import { Clock } from '../src/clock';
import { ConfigError } from '../src/errors';
import { ROOT, tempDir } from './helpers';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

test('schemas/config.schema.json is the one scripts/schemas.ts generates from the registry (run `npm run schemas`)', () => {
  assert.equal(read('schemas/config.schema.json'), configSchemaText());
  const run = (configSchema().properties as { runs: { additionalProperties: { properties: Record<string, { enum?: string[] }>; allOf: { if: { properties: { agent: { const: string } } }; then: { propertyNames: { enum: string[] } } }[] } } }).runs.additionalProperties;
  assert.deepEqual(run.properties.agent?.enum, Object.keys(AGENTS));
  for (const [name, entry] of Object.entries(AGENTS)) {
    const allowed = run.allOf.find((branch) => branch.if.properties.agent.const === name)?.then.propertyNames.enum;
    assert.deepEqual(allowed, [...SHARED_RUN_KEYS, ...Object.keys(entry.runKeys)], `${name}: the schema allows exactly its keys`);
    for (const key of Object.keys(entry.runKeys)) assert.ok(run.properties[key], `${name}: ${key} has a property with its description`);
  }
});

test('the run keys table of docs/format.md is the one scripts/schemas.ts generates from the registry', () => {
  const reference = read('docs/format.md');
  assert.equal(reference, withRunKeysTable(reference));
  for (const [name, entry] of Object.entries(AGENTS)) {
    for (const key of Object.keys(entry.runKeys)) assert.ok(runKeysTable().includes(`| \`${name}\` | \`${key}\` |`), `${name} ${key}`);
  }
});

test('the shared run keys are the ones the parser keeps out of options, documented once', () => {
  assert.deepEqual(Object.keys(SHARED_RUN_KEY_DOCS).sort(), [...SHARED_RUN_KEYS].sort());
  for (const entry of Object.values(AGENTS)) {
    for (const key of SHARED_RUN_KEYS) assert.equal(entry.runKeys[key], undefined, `${key} is shared, not an agent's`);
  }
});

test('every run key is named in the README or docs/engine.md, and in docs/format.md', () => {
  const userDocs = read('README.md') + read('docs/engine.md');
  const format = read('docs/format.md');
  const keys = [...SHARED_RUN_KEYS, ...Object.values(AGENTS).flatMap((entry) => Object.keys(entry.runKeys))];
  for (const key of keys) {
    assert.ok(userDocs.includes(`\`${key}\``), `README.md or docs/engine.md names \`${key}\``);
    assert.ok(format.includes(`\`${key}\``), `docs/format.md names \`${key}\``);
  }
  for (const name of Object.keys(AGENTS)) assert.ok(read('README.md').includes(`\`${name}\``), `the README's agents table has ${name}`);
});

test('a rehearsal puts the stand-in in agent_model, keeps model-less agents, and plays the chatbot for hermes', () => {
  const real = { model: 'gpt-x', base_url: 'https://h/v1', api_key_env: 'KEY' };
  for (const agent of ['chatbot', 'notebook', 'openclaw']) {
    assert.deepEqual(rehearsalOf(agent, { agent_model: real, notebook_context_tokens: 9000 }), { agent, options: { agent_model: { model: 'stand-in' }, notebook_context_tokens: 9000 } });
  }
  for (const agent of ['filing-log', 'filing-consolidated', 'filing-dreaming']) assert.deepEqual(rehearsalOf(agent, {}), { agent, options: {} });
  assert.deepEqual(rehearsalOf('hermes', { hermes_url: 'http://h:1' }), { agent: 'chatbot', options: {} });
  assert.throws(() => rehearsalOf('chatbott', {}), (e: unknown) => e instanceof ConfigError && /did you mean `chatbot`/i.test(e.message));
  for (const [name, entry] of Object.entries(AGENTS)) {
    const rehearsal = rehearsalOf(name, entry.runKeys.agent_model ? { agent_model: real } : {});
    const model = rehearsal.options.agent_model as { model?: string } | undefined;
    assert.ok(model === undefined || model.model === 'stand-in', `${name}: a rehearsal calls no real model`);
  }
});

test('the stand-in is started for agents whose model is on it, and only for them', () => {
  const real = { agent_model: { model: 'gpt-x', base_url: 'https://h/v1' } };
  for (const agent of ['chatbot', 'notebook', 'openclaw']) {
    assert.equal(adapterUsesStandIn(agent, {}), true, agent);
    assert.equal(adapterUsesStandIn(agent, { agent_model: { model: 'stand-in' } }), true, agent);
    assert.equal(adapterUsesStandIn(agent, real), false, agent);
  }
  for (const agent of ['hermes', 'filing-log', 'filing-consolidated', 'filing-dreaming', 'no-such-agent']) assert.equal(adapterUsesStandIn(agent, {}), false, agent);
});

test('a run key its agent does not read, of the wrong type, out of range or too long stops the run before the adapter starts', () => {
  const ctx = (options: Record<string, unknown>) => ({ runDir: tempDir(), options, models: { env: {} }, clock: new Clock() });
  const refused = (agent: string, options: Record<string, unknown>, message: RegExp) =>
    assert.throws(() => createAdapter(agent, ctx(options)), (e: unknown) => e instanceof ConfigError && message.test(e.message), `${agent} ${JSON.stringify(options).slice(0, 80)}`);
  refused('hermes', { hermes_ulr: 'http://h' }, /the agent hermes does not read the run key `hermes_ulr`: its run keys are hermes_url, .*did you mean `hermes_url`/i);
  refused('hermes', { ['k'.repeat(5000)]: 1 }, /does not read the run key `k{80}…`: its run keys are/);
  refused('filing-log', { agent_model: { model: 'stand-in' } }, /the agent filing-log does not read the run key `agent_model`: it takes no run keys/);
  refused('openclaw', { openclaw_bin: 42 }, /`openclaw_bin` must be a string; it is 42/);
  refused('openclaw', { openclaw_compaction: [] }, /`openclaw_compaction` must be an object/);
  refused('notebook', { notebook_context_tokens: 2500.5 }, /`notebook_context_tokens` must be a whole number/);
  refused('notebook', { notebook_max_tool_rounds: 101 }, /`notebook_max_tool_rounds` must be from 1 to 100; it is 101/);
  refused('hermes', { hermes_compression_threshold: 1.5 }, /`hermes_compression_threshold` must be from 0 to 1/);
  refused('hermes', { hermes_reset_command: 'x'.repeat(MAX_RUN_KEY_TEXT + 1) }, /`hermes_reset_command` is 4097 characters long; it may hold at most 4096/);
  refused('openclaw', { openclaw_compaction: { note: 'x'.repeat(70_000) } }, /`openclaw_compaction` is larger than 65536 characters/);
  // Keys it declares reach the adapter, whose own checks follow (here: no key for Hermes in the environment).
  refused('hermes', { hermes_url: 'http://127.0.0.1:9', hermes_compression_threshold: 0.5 }, /needs its API_SERVER_KEY: set the environment variable HERMES_API_KEY/);
});
