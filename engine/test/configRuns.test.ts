/**
 * Adding a run to config.jsonc (cli/configRuns.ts, for `mmb new` and `mmb new agent`): one line after the
 * last run in the file's own indentation, comments and every other byte kept, a one-line file left on one
 * line, a trailing comma not doubled; and both commands through `main`, in process.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseConfig } from '../../scenario/src';
import { oneLineJson, withRunAdded } from '../src/cli/configRuns';
import { main } from '../src/cli/main';
import { tempDir } from './helpers';

const entry = { benchmark: 'b', agent: 'process', command: ['python3', 'agents/x.py'] };
const added = '"x": { "benchmark": "b", "agent": "process", "command": ["python3", "agents/x.py"] }';

test('oneLineJson spaces a value as config.jsonc writes its entries', () => {
  assert.equal(oneLineJson(entry), '{ "benchmark": "b", "agent": "process", "command": ["python3", "agents/x.py"] }');
  assert.equal(oneLineJson({ a: { b: 1, c: true }, d: {}, e: [] }), '{ "a": { "b": 1, "c": true }, "d": {}, "e": [] }');
});

test('a run is one line after the last, comments kept; a one-line file stays on one line', () => {
  const commented = [
    '// top',
    '{',
    '  "persona": { "model": "stand-in" },',
    '  "runs": {',
    '    // the first',
    '    "a": { "benchmark": "starter", "agent": "chatbot" }   // trailing',
    '    /* after */',
    '  }',
    '}',
    '',
  ].join('\n');
  assert.equal(
    withRunAdded(commented, 'x', entry),
    [
      '// top',
      '{',
      '  "persona": { "model": "stand-in" },',
      '  "runs": {',
      '    // the first',
      '    "a": { "benchmark": "starter", "agent": "chatbot" },   // trailing',
      '    /* after */',
      `    ${added}`,
      '  }',
      '}',
      '',
    ].join('\n'),
  );
  const oneLine = '{ "persona": { "model": "stand-in" }, "runs": { "a": { "benchmark": "starter", "agent": "chatbot" } } }\n';
  assert.equal(
    withRunAdded(oneLine, 'x', entry),
    `{ "persona": { "model": "stand-in" }, "runs": { "a": { "benchmark": "starter", "agent": "chatbot" }, ${added} } }\n`,
  );
  assert.equal(withRunAdded('{ "runs": {} }', 'x', entry), `{ "runs": { ${added} } }`);
  assert.equal(
    withRunAdded('{\n  "runs": {\n    "a": { "benchmark": "s", "agent": "chatbot" },\n  }\n}', 'x', entry),
    `{\n  "runs": {\n    "a": { "benchmark": "s", "agent": "chatbot" },\n    ${added}\n  }\n}`,
    'a trailing comma is kept, not doubled',
  );
  const noRuns = withRunAdded('{\n  "persona": { "model": "stand-in" }\n}\n', 'x', entry);
  assert.deepEqual(
    parseConfig(noRuns).config.runs.map((r) => r.name),
    ['x'],
  );
});

/** `mmb` in this process: exit status and stdout. */
async function mmbHere(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, cwd, { out: (s) => (out += s), err: (s) => (err += s), tty: false, env: {} });
  return { code, out, err };
}

test("mmb new agent adds one line and reflows nothing; mmb new adds the benchmark's rehearsal and prints its command", async () => {
  const dir = tempDir('mmb-new-');
  const before = '// mine\n{ "persona": { "model": "stand-in" }, "runs": { "a": { "benchmark": "starter", "agent": "chatbot" } } }\n';
  writeFileSync(join(dir, 'config.jsonc'), before);
  assert.equal((await mmbHere(['new', 'agent', 'my-agent', '--kind', 'module'], dir)).code, 0);
  assert.equal(
    readFileSync(join(dir, 'config.jsonc'), 'utf8'),
    '// mine\n{ "persona": { "model": "stand-in" }, "runs": { "a": { "benchmark": "starter", "agent": "chatbot" }, ' +
      '"my-agent": { "benchmark": "starter", "agent": "./agents/my-agent.mjs" } } }\n',
  );
  const made = await mmbHere(['new', 'garden-bench'], dir);
  assert.equal(made.code, 0, made.err);
  assert.equal(
    made.out,
    'Created benchmarks/garden-bench: three chapters, a profile and one sheet, a trap and four checks.\n' +
      'Added the run "garden-bench-rehearsal" to config.jsonc: the notebook agent, whose notes outlive a session switch.\n' +
      'Next: edit it, `mmb check benchmarks/garden-bench`, then rehearse it whole: mmb run garden-bench-rehearsal\n',
  );
  assert.match(
    readFileSync(join(dir, 'config.jsonc'), 'utf8'),
    /, "garden-bench-rehearsal": \{ "benchmark": "garden-bench", "agent": "notebook" \} \} \}\n$/,
  );
  const rehearsal = await mmbHere(['run', 'garden-bench-rehearsal'], dir);
  assert.equal(rehearsal.code, 0, rehearsal.err);
  assert.match(
    rehearsal.out,
    /^garden-bench-rehearsal +finished +average [\d.]+\/10 +coverage 4\/4 /m,
    'the whole benchmark, no partial run',
  );
});

test('mmb new with no config.jsonc writes one; with a real persona the command rehearses on the stand-in', async () => {
  const bare = tempDir('mmb-new-');
  const made = await mmbHere(['new', 'b1'], bare);
  assert.equal(made.code, 0, made.err);
  assert.match(made.out, /^Added the run "b1-rehearsal" in a new config\.jsonc: /m);
  const fresh = parseConfig(readFileSync(join(bare, 'config.jsonc'), 'utf8'));
  assert.deepEqual(fresh.diagnostics, []);
  assert.deepEqual(
    fresh.config.runs.map((r) => [r.name, r.benchmark, r.agent]),
    [['b1-rehearsal', 'b1', 'notebook']],
  );

  const real = tempDir('mmb-new-');
  const config = '{ "persona": { "model": "gpt-x", "base_url": "http://127.0.0.1:9/v1", "api_key_env": "X_KEY" }, "runs": {} }';
  writeFileSync(join(real, 'config.jsonc'), config);
  assert.match((await mmbHere(['new', 'b2'], real)).out, /then rehearse it whole: mmb run b2-rehearsal --rehearse\n$/);
  writeFileSync(join(real, 'config.jsonc'), '{ "runs": ');
  const broken = await mmbHere(['new', 'b3'], real);
  assert.equal(broken.code, 0, 'the benchmark is made all the same');
  assert.match(
    broken.out,
    /^config\.jsonc has errors \(mmb check config\.jsonc\): no run was added to it\.\nNext: .* mmb run --benchmark b3 --rehearse\n$/m,
  );
});
