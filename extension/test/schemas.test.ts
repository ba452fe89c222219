/** The JSON schemas VS Code uses for benchmark.json and config.jsonc agree with the engine's own parser. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Ajv from 'ajv';
import { parse } from 'jsonc-parser';
import { parseConfig, parseManifest } from '../../scenario/src';

const ROOT = join(__dirname, '..', '..');
const ajv = new Ajv({ allErrors: true, strict: false });
const schema = (name: string) => ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schemas', name), 'utf8')));

test('benchmark.json: the bundled and fixture manifests pass; what the parser refuses, the schema refuses', () => {
  const validate = schema('benchmark.schema.json');
  for (const file of ['benchmarks/starter/benchmark.json', 'engine/test/fixtures/workspace/benchmarks/clean/benchmark.json']) {
    assert.ok(validate(parse(readFileSync(join(ROOT, file), 'utf8'))), `${file}: ${JSON.stringify(validate.errors)}`);
  }
  for (const bad of [
    '{}',
    '{ "chapters": ["a.md"], "time_gates": true }',
    '{ "chapters": ["a.md"], "start_time": "2026-03-01" }',
    '{ "chapters": ["sub/a.md"] }',
  ]) {
    assert.equal(validate(parse(bad)), false, bad);
    assert.ok(parseManifest(bad).diagnostics.length > 0, `the parser also objects to ${bad}`);
  }
});

test('config.jsonc: a working config passes; keys in the file and unknown agents do not', () => {
  const validate = schema('config.schema.json');
  const good = JSON.stringify({
    persona: { model: 'x', base_url: 'https://h/v1', api_key_env: 'KEY' },
    parallel: 2,
    prices: { x: { input: 0.3, output: 1.2 } },
    runs: { 'r-1': { benchmark: 'starter', agent: 'chatbot', agent_model: { model: 'stand-in' } } },
  });
  assert.ok(validate(parse(good)), JSON.stringify(validate.errors));
  assert.deepEqual(parseConfig(good).diagnostics, []);
  const notebook =
    '{ "runs": { "n": { "benchmark": "starter", "agent": "notebook", "notebook_context_tokens": 16000, "notebook_max_tool_rounds": 8 } } }';
  assert.ok(validate(parse(notebook)), JSON.stringify(validate.errors));
  for (const bad of [
    '{ "runs": { "n": { "benchmark": "b", "agent": "notebook", "notebook_context_tokens": 100 } } }',
    '{ "persona": { "model": "x", "api_key": "sk-1" } }',
    '{ "runs": { "r": { "benchmark": "b" } } }',
    '{ "parallel": 0 }',
    '{ "prices": { "x": { "input": 1 } } }',
    '{ "runs": { "r": { "benchmark": "b", "agent": "nope" } } }',
  ]) {
    assert.equal(validate(parse(bad)), false, bad);
  }
  // Unknown keys at any level: what the parser makes an error, the schema refuses.
  for (const bad of [
    '{ "paralel": 2 }',
    '{ "persona": { "model": "stand-in", "base_ulr": "x" } }',
    '{ "compaction": { "max_tokenz": 3 } }',
    '{ "time_master": { "poll": 1 } }',
    '{ "hooks": { "require_send_mesage": true } }',
    '{ "runs": { "r": { "benchmark": "b", "agent": "chatbot", "agent_modle": { "model": "stand-in" } } } }',
  ]) {
    assert.equal(validate(parse(bad)), false, bad);
    assert.ok(
      parseConfig(bad).diagnostics.some((d) => d.code === 'unknown-config-key' && d.severity === 'error'),
      `the parser also refuses ${bad}`,
    );
  }
});

test("config.jsonc: every agent's own run keys pass on its runs, and a key of another agent or of the wrong type does not", () => {
  const validate = schema('config.schema.json');
  const config = (run: Record<string, unknown>) => ({ runs: { r: { benchmark: 'starter', ...run } } });
  const openclaw = {
    agent: 'openclaw',
    agent_model: { model: 'stand-in' },
    openclaw_bin: '/opt/openclaw',
    openclaw_node_bin: '/opt/node24/bin',
    openclaw_url: 'ws://127.0.0.1:18789',
    openclaw_token_env: 'OC_TOKEN',
    openclaw_compaction: { notifyUser: false },
    openclaw_session_key: 'agent:main:main',
  };
  const hermes = {
    agent: 'hermes',
    hermes_url: 'http://127.0.0.1:8642',
    hermes_api_key_env: 'HERMES_API_KEY',
    hermes_home: '/srv/hermes',
    hermes_reset_command: './reset.sh',
    hermes_compression_threshold: 0.125,
    hermes_compression_target_ratio: 0.12,
    ignore_session_break: true,
  };
  for (const good of [openclaw, hermes, { agent: 'filing-log' }])
    assert.ok(validate(config(good)), `${JSON.stringify(good)}: ${JSON.stringify(validate.errors)}`);
  for (const bad of [
    { agent: 'chatbot', hermes_url: 'http://h' },
    { agent: 'filing-log', agent_model: { model: 'stand-in' } },
    { agent: 'hermes', hermes_ulr: 'http://h' },
    { agent: 'hermes', hermes_compression_threshold: '0.5' },
    { agent: 'openclaw', openclaw_bin: 42 },
  ])
    assert.equal(validate(config(bad)), false, JSON.stringify(bad));
  const fixture = readFileSync(join(ROOT, 'engine/test/fixtures/workspace/config.jsonc'), 'utf8');
  assert.ok(validate(parse(fixture)), JSON.stringify(validate.errors));
});
