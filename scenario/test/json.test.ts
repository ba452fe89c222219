import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isFolderName, jsonDepthExceeded, parseConfig, parseManifest } from '../src';

test('benchmark.json with comments and trailing commas parses with positions', () => {
  const { manifest, diagnostics } = parseManifest(
    [
      '{',
      '  // the order of play',
      '  "chapters": ["chapter1.md", "chapter2.md",],',
      '  "time_master": true,',
      '  "start_time": "2026-03-01 20:00"',
      '}',
      '',
    ].join('\n'),
  );
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(
    manifest?.chapters.map((c) => [c.file, c.range.start.line, c.range.start.character]),
    [
      ['chapter1.md', 2, 16],
      ['chapter2.md', 2, 31],
    ],
  );
  assert.equal(manifest?.time_master, true);
  assert.equal(manifest?.time_gate, false);
  assert.equal(manifest?.start_time, '2026-03-01 20:00');
});

test('invalid manifests: syntax, types, missing chapters, bad start_time, unknown keys', () => {
  const codes = (text: string) =>
    parseManifest(text).diagnostics.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code}`);
  assert.deepEqual(codes('{ "chapters": ["a.md" "b.md"] }'), ['1:23 invalid-manifest']);
  assert.deepEqual(codes('[]'), ['1:1 invalid-manifest']);
  assert.deepEqual(codes('{\n"title": "x"\n}'), ['1:1 invalid-manifest']);
  assert.deepEqual(codes('{ "chapters": "chapter1.md" }'), ['1:15 invalid-manifest']);
  assert.deepEqual(codes('{ "chapters": ["a.md", 3, "a.md", "b.txt"] }'), [
    '1:24 invalid-manifest',
    '1:27 invalid-manifest',
    '1:35 invalid-manifest',
  ]);
  assert.deepEqual(codes('{ "chapters": ["a.md"], "time_gate": "yes", "start_time": "2026-02-30 20:00" }'), [
    '1:38 invalid-manifest',
    '1:59 invalid-manifest',
  ]);
  // An empty chapter list once checked clean and then failed at run time.
  assert.deepEqual(codes('{ "chapters": [] }'), ['1:15 invalid-manifest']);
  assert.match(parseManifest('{ "chapters": [] }').diagnostics[0]?.message ?? '', /at least one chapter/);
  const unknown = parseManifest('{ "chapters": ["a.md"], "time_gates": true }').diagnostics[0];
  assert.equal(unknown?.code, 'unknown-key');
  assert.equal(unknown?.severity, 'warning');
  assert.deepEqual(unknown?.suggestions, ['"time_gate"']);
});

test('config.jsonc: defaults, runs with adapter keys passed through', () => {
  const { config, diagnostics } = parseConfig(`{
    "persona": { "model": "deepseek-v4-flash", "base_url": "https://api.example.com/v1", "api_key_env": "DS_KEY" },
    "compaction": { "max_tokens": 30000, "trim_to_tokens": 10000 },
    "parallel": 2,
    "runs": {
      "hermes-compact-1": { "benchmark": "max", "agent": "hermes", "hermes_compression_threshold": 0.125, "ignore_session_break": true },
    },
  }`);
  assert.deepEqual(diagnostics, []);
  assert.equal(config.persona.api_key_env, 'DS_KEY');
  assert.deepEqual(config.time_master, { min_sleep_to_skip: 5, pre_wake_delay: 1, poll_interval: 1 });
  assert.equal(config.parallel, 2);
  assert.deepEqual(
    config.runs.map((r) => [r.name, r.benchmark, r.agent, r.ignore_session_break, r.options]),
    [['hermes-compact-1', 'max', 'hermes', true, { hermes_compression_threshold: 0.125 }]],
  );
});

test('config.jsonc refuses secrets in the file and explains the environment variable', () => {
  const { diagnostics } = parseConfig(
    '{ "persona": { "model": "x", "base_url": "http://h", "api_key": "sk-123" }, "runs": ' +
      '{ "r": { "benchmark": "max", "agent": "chatbot", "openai_api_key": "sk-9" } } }',
  );
  assert.deepEqual(
    diagnostics.map((d) => d.code),
    ['invalid-config', 'invalid-config'],
  );
  assert.match(diagnostics[0]?.message ?? '', /api_key_env/);
  assert.ok(diagnostics.every((d) => !d.message.includes('sk-')));
});

test('config.jsonc prices: USD per million tokens by model, both numbers required', () => {
  const good = parseConfig('{ "prices": { "deepseek-v4-flash": { "input": 0.3, "output": 1.2 } } }');
  assert.deepEqual(good.diagnostics, []);
  assert.deepEqual(good.config.prices, { 'deepseek-v4-flash': { input: 0.3, output: 1.2 } });
  assert.deepEqual(parseConfig('{}').config.prices, {});
  const bad = parseConfig('{ "prices": { "a": { "input": 1 }, "b": { "input": -1, "output": 2 } } }');
  assert.deepEqual(
    bad.diagnostics.map((d) => d.message),
    ['`prices.a` needs both `input` and `output`, USD per million tokens.', '`prices.b.input` must not be negative.'],
  );
});

test('config.jsonc type errors and missing keys', () => {
  const { config, diagnostics } = parseConfig(
    '{ "parallel": 0, "compaction": { "max_tokens": 100, "trim_to_tokens": 200 }, "runs": ' +
      '{ "a b": {}, "r": { "agent": 3 } }, "hooks": { "require_send_message": "yes" } }',
  );
  assert.deepEqual(
    diagnostics.map((d) => `${d.range.start.character} ${d.code}`),
    ['14 invalid-config', '31 invalid-config', '87 invalid-config', '98 invalid-config', '114 invalid-config', '156 invalid-config'],
  );
  assert.match(diagnostics[3]?.message ?? '', /run `r` needs `benchmark`/);
  assert.equal(config.parallel, 1);
  assert.equal(config.hooks.require_send_message, true);
  assert.deepEqual(config.runs, []);
});

test('config.jsonc refuses credential keys at any depth and URLs with userinfo, but not the keys that name variables', () => {
  const hostile = parseConfig(
    JSON.stringify({
      token: 't',
      persona: { model: 'x', base_url: 'https://me:pw@h/v1', Authorization: 'a' },
      runs: {
        r: {
          benchmark: 'max',
          agent: 'openclaw',
          openclaw_token: 't',
          agent_model: { model: 'm', base_url: 'http://h', headers: { 'X-Api-Key': 'k', nested: [{ password: 'p' }] } },
        },
      },
    }),
  );
  assert.deepEqual(
    hostile.diagnostics.filter((d) => d.severity === 'error').map((d) => /^`([^`]+)`/.exec(d.message)?.[1]),
    [
      'token',
      'persona.base_url',
      'persona.Authorization',
      'runs.r.openclaw_token',
      'runs.r.agent_model',
      'runs.r.agent_model.headers.X-Api-Key',
      'runs.r.agent_model.headers.nested[0].password',
    ],
  );
  assert.ok(
    hostile.diagnostics.every((d) => !/\bpw\b|: 't'|"k"/.test(d.message)),
    'no value is quoted',
  );
  const fine = parseConfig(
    JSON.stringify({
      persona: { model: 'x', base_url: 'https://h/v1?user=me@example.com', api_key_env: 'K' },
      compaction: { max_tokens: 3000, trim_to_tokens: 1000 },
      runs: {
        r: { benchmark: 'max', agent: 'openclaw', openclaw_token_env: 'T', openclaw_session_key: 'agent:main:main' },
        n: { benchmark: 'max', agent: 'notebook', notebook_context_tokens: 4000 },
        h: { benchmark: 'max', agent: 'hermes', hermes_api_key_env: 'H' },
      },
    }),
  );
  assert.deepEqual(
    fine.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
});

test('run and benchmark names are folder names of at most 100 characters', () => {
  assert.ok(isFolderName('a'.repeat(100)));
  assert.ok(!isFolderName('a'.repeat(101)));
  assert.ok(!isFolderName('../x') && !isFolderName('/abs') && !isFolderName('.hidden'));
  const { diagnostics, config } = parseConfig(
    JSON.stringify({
      runs: { ['r'.repeat(101)]: { benchmark: 'max', agent: 'chatbot' }, ok: { benchmark: 'b'.repeat(101), agent: 'chatbot' } },
    }),
  );
  assert.deepEqual(config.runs, []);
  assert.deepEqual(
    diagnostics.map((d) => d.message),
    [
      'run `rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr…`: ' +
        'a run name becomes a folder under results/, so it must be at most 100 characters long (this one has 101).',
      'run `ok`: `benchmark` names a folder under benchmarks/, so it must be at most 100 characters long (this one has 101).',
    ],
  );
});

test('the JSON depth bound counts only real nesting: brackets in strings and comments do not count', () => {
  const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
  assert.equal(jsonDepthExceeded(deep(64)), -1);
  assert.equal(jsonDepthExceeded(deep(65)), 64);
  assert.equal(jsonDepthExceeded(`{ "title": "${'['.repeat(100)}", // ${'{'.repeat(100)}\n /* ${'['.repeat(100)} */ "chapters": [] }`), -1);
  // jsonc-parser ends an unclosed string at the line's end, so brackets after it count again.
  assert.equal(jsonDepthExceeded(`{ "title": "open\n${'['.repeat(70)}`), 17 + 63);
  const parsed = parseManifest(`\uFEFF${deep(100)}`);
  assert.deepEqual(
    parsed.diagnostics.map((d) => `${d.range.start.line}:${d.range.start.character} ${d.code}`),
    ['0:64 invalid-manifest'],
  );
});

test('config.jsonc is strict: each typo of issue #15 is an error with the right suggestion', () => {
  const first = (text: string) => {
    const found = parseConfig(text).diagnostics.filter((d) => d.severity === 'error');
    return found.map((d) => ({ code: d.code, message: d.message, suggestions: d.suggestions }));
  };
  const run = (keys: string) => `{ "runs": { "a": { "benchmark": "max", ${keys} } } }`;
  const modle = first(run('"agent": "chatbot", "agent_modle": { "model": "gpt-4o", "base_url": "https://h/v1" }'));
  assert.deepEqual(modle, [
    {
      code: 'unknown-config-key',
      message:
        'run `a` (agent chatbot) has no key `agent_modle`; ' +
        'chatbot reads benchmark, agent, ignore_session_break, agent_model, chatbot_context_tokens. Did you mean `agent_model`?',
      suggestions: ['"agent_model"'],
    },
  ]);
  const chatbott = first(run('"agent": "chatbott"'));
  assert.equal(chatbott.length, 1);
  assert.equal(chatbott[0]?.code, 'invalid-config');
  assert.match(chatbott[0]?.message ?? '', /^run `a`: there is no agent "chatbott": use one of chatbot, .*Did you mean `chatbot`\?$/);
  assert.deepEqual(chatbott[0]?.suggestions, ['"chatbot"']);
  assert.deepEqual(first('{ "paralel": 2 }'), [
    {
      code: 'unknown-config-key',
      message:
        'config.jsonc has no key `paralel`: ' +
        'its keys are persona, compaction, time_master, hooks, parallel, prices, judges, runs. Did you mean `parallel`?',
      suggestions: ['"parallel"'],
    },
  ]);
  const agnet = first(run('"agnet": "chatbot"'));
  assert.deepEqual(
    agnet.map((d) => d.message),
    ['run `a` needs `agent`. Did you mean `agnet` to be `agent`?', 'run `a` has no key `agnet`: no agent reads it. Did you mean `agent`?'],
  );
  assert.deepEqual(agnet[1]?.suggestions, ['"agent"']);
});

test("config.jsonc is strict at every level: persona, compaction, time_master, hooks, a run's model, others' keys, types, bounds", () => {
  const errors = (text: string) =>
    parseConfig(text)
      .diagnostics.filter((d) => d.severity === 'error')
      .map((d) => [d.code, d.message.replace(/:.*?(?=\. Did|\.$)/, ''), d.suggestions ?? []]);
  assert.deepEqual(
    errors(
      '{ "persona": { "model": "stand-in", "base_ulr": "x" }, "compaction": { "max_tokenz": 3 }, ' +
        '"time_master": { "poll_intervall": 1 }, "hooks": { "require_send_mesage": true } }',
    ),
    [
      ['unknown-config-key', '`persona` has no key `base_ulr`. Did you mean `base_url`?', ['"base_url"']],
      ['unknown-config-key', '`compaction` has no key `max_tokenz`. Did you mean `max_tokens`?', ['"max_tokens"']],
      ['unknown-config-key', '`time_master` has no key `poll_intervall`. Did you mean `poll_interval`?', ['"poll_interval"']],
      ['unknown-config-key', '`hooks` has no key `require_send_mesage`. Did you mean `require_send_message`?', ['"require_send_message"']],
    ],
  );
  const run = (keys: string) =>
    parseConfig(`{ "runs": { "a": { "benchmark": "max", ${keys} } } }`).diagnostics.map((d) => `${d.code} ${d.message}`);
  assert.deepEqual(run('"agent": "chatbot", "hermes_url": "http://h"'), [
    'unknown-config-key run `a` (agent chatbot) has no key `hermes_url`: ' +
      'it is a run key of hermes; chatbot reads benchmark, agent, ignore_session_break, agent_model, chatbot_context_tokens.',
  ]);
  assert.deepEqual(run('"agent": "chatbot", "agent_model": { "modle": "stand-in" }'), [
    'invalid-config `runs.a.agent_model` needs a `model`: "stand-in" or the name your provider gives the model.',
    'unknown-config-key `runs.a.agent_model` has no key `modle`: its keys are model, base_url, api_key_env. Did you mean `model`?',
  ]);
  assert.deepEqual(run('"agent": "notebook", "notebook_context_tokens": 5, "notebook_max_tool_rounds": 2.5'), [
    'invalid-config run `a`: `notebook_context_tokens` must be from 2000 to 2000000; it is 5.',
    'invalid-config run `a`: `notebook_max_tool_rounds` must be a whole number.',
  ]);
  assert.deepEqual(run('"agent": "hermes", "hermes_url": 8642'), ['invalid-config run `a`: `hermes_url` must be a string.']);
  // benchmark.json keeps its warning: an unknown key there is ignored, not a run gone wrong.
  assert.equal(parseManifest('{ "chapters": ["a.md"], "titel": "x" }').diagnostics[0]?.severity, 'warning');
});
