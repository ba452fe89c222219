/** `mmb init` as a global install runs it: from a fresh folder, no key, nothing of the user's overwritten. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Ajv from 'ajv';
import { parse } from 'jsonc-parser';
import { parseConfig } from '../../scenario/src';
import { CLI, ROOT, tempDir } from './helpers';

/** The environment with every API key taken out: what the rehearsal must do without. */
function keylessEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/_API_KEY$/i.test(name)));
}

function mmb(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: keylessEnv() });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const BUNDLED = ['filing', 'max', 'month', 'multiday', 'starter'];

test('mmb init into a folder that does not exist: mmb check finds no error, mmb run plays both rehearsals with no key', () => {
  const parent = tempDir('mmb-init-');
  const init = mmb(['init', 'my-bench-workspace'], parent);
  assert.equal(init.code, 0, init.stdout + init.stderr);
  assert.equal(init.stderr, '');
  const dir = join(parent, 'my-bench-workspace');
  assert.deepEqual(readdirSync(join(dir, 'benchmarks')).sort(), ['AUTHORING.md', ...BUNDLED]);
  assert.equal(
    readFileSync(join(dir, 'benchmarks', 'AUTHORING.md'), 'utf8'),
    readFileSync(join(ROOT, 'benchmarks', 'AUTHORING.md'), 'utf8'),
  );
  assert.match(
    init.stdout,
    /^Next: `cd my-bench-workspace && mmb run` plays .* the notebook agent \(`rehearsal`\) and the chatbot \(`rehearsal-chatbot`\) side/m,
  );
  const check = mmb(['check'], dir);
  assert.equal(check.code, 0, check.stdout + check.stderr);
  // Every bundled benchmark and config.jsonc.
  assert.match(check.stdout, new RegExp(`^${BUNDLED.length + 1} targets: 0 errors, 0 warnings$`, 'm'));
  const run = mmb(['run'], dir);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const average = (id: string) => Number(new RegExp(`^${id} +finished +average ([\\d.]+)/10 +coverage 5/5`, 'm').exec(run.stdout)?.[1]);
  assert.ok(average('rehearsal') >= average('rehearsal-chatbot') + 3, `the notebook's notes outlive the switch:\n${run.stdout}`);
  assert.ok(existsSync(join(dir, 'results', 'rehearsal', 'summary.json')), 'the run wrote its results');
  const report = readFileSync(join(dir, 'results', 'report.md'), 'utf8');
  assert.match(report, /— rehearsal: starter @ notebook$/m);
  assert.match(report, /— rehearsal-chatbot: starter @ chatbot$/m);
  assert.equal(report.split('\n- 💡 A stand-in run: no model').length - 1, 2, 'each entry says what a stand-in run means');
  assert.match(run.stdout, /^Full entries: results\/report\.md$/m);
  assert.match(
    run.stdout,
    /^A stand-in run: no model, .* its low scores after one are expected; .* Next: mmb report rehearsal --html, then a real model/m,
  );
  const one = mmb(['run', 'rehearsal'], dir);
  assert.match(one.stdout, /^rehearsal: finished already/m, '`mmb run rehearsal` as the docs say it');
});

test("mmb init's config: JSONC with comments, clean for the parser and the editor's schema, a real run commented out, no key", () => {
  const dir = tempDir('mmb-init-');
  assert.equal(mmb(['init'], dir).code, 0);
  const text = readFileSync(join(dir, 'config.jsonc'), 'utf8');
  assert.match(text, /^\s*\/\/ /m, 'it explains itself in comments');
  const { config, diagnostics } = parseConfig(text);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(config.persona, { model: 'stand-in' });
  assert.deepEqual(
    config.runs.map((r) => [r.name, r.benchmark, r.agent, r.options]),
    [
      ['rehearsal', 'starter', 'notebook', {}],
      ['rehearsal-chatbot', 'starter', 'chatbot', {}],
    ],
  );
  const validate = new Ajv({ allErrors: true, strict: false }).compile(
    JSON.parse(readFileSync(join(ROOT, 'schemas', 'config.schema.json'), 'utf8')),
  );
  assert.ok(validate(parse(text)), JSON.stringify(validate.errors));
  // Uncommenting the real run (its lines start `// "` or `//   "`) gives a config that also checks clean.
  const real = text.replace(/^(\s*)\/\/ ( *")(chatbot-deepseek|agent_model)/gm, '$1$2$3');
  const uncommented = parseConfig(real);
  assert.deepEqual(uncommented.diagnostics, []);
  const deepseek = uncommented.config.runs.find((r) => r.name === 'chatbot-deepseek');
  assert.deepEqual(deepseek?.options.agent_model, {
    model: 'deepseek-v4-flash',
    base_url: 'https://api.deepseek.com/v1',
    api_key_env: 'DEEPSEEK_API_KEY',
  });
  assert.ok(validate(parse(real)), JSON.stringify(validate.errors));
  assert.doesNotMatch(text, /sk-|"api_key"\s*:/, 'no key, only the name of its variable');
});

test("mmb init twice: the user's config.jsonc and benchmarks are kept byte for byte, each named once", () => {
  const dir = tempDir('mmb-init-');
  assert.equal(mmb(['init'], dir).code, 0);
  const edited = '// mine\n{ "persona": { "model": "stand-in" }, "runs": { "mine": { "benchmark": "starter", "agent": "chatbot" } } }\n';
  writeFileSync(join(dir, 'config.jsonc'), edited);
  const chapter = join(dir, 'benchmarks', 'starter', 'chapter1.md');
  writeFileSync(chapter, '# my own chapter\n');
  const again = mmb(['init', '.'], dir);
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.equal(readFileSync(join(dir, 'config.jsonc'), 'utf8'), edited);
  assert.equal(readFileSync(chapter, 'utf8'), '# my own chapter\n');
  assert.match(again.stdout, /^config\.jsonc exists already: left as it is\.$/m);
  for (const name of BUNDLED) assert.match(again.stdout, new RegExp(`^benchmarks/${name} exists already: left as it is\\.$`, 'm'));
  assert.doesNotMatch(again.stdout, /^Created /m);
});

test('mmb init beside what the user has: only the missing parts are created', () => {
  const dir = tempDir('mmb-init-');
  mkdirSync(join(dir, 'benchmarks', 'max'), { recursive: true });
  writeFileSync(join(dir, 'benchmarks', 'max', 'notes.txt'), 'mine');
  const r = mmb(['init'], dir);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^benchmarks\/max exists already: left as it is\.$/m);
  assert.match(r.stdout, /^Created config\.jsonc\.$/m);
  assert.match(r.stdout, /^Created benchmarks\/starter\.$/m);
  assert.deepEqual(readdirSync(join(dir, 'benchmarks', 'max')), ['notes.txt']);
});

test('mmb init into a file, under a file, or with a file where benchmarks/ goes: exit 2, one line, nothing written', () => {
  const dir = tempDir('mmb-init-');
  writeFileSync(join(dir, 'a-file'), 'x');
  for (const [args, message] of [
    [['init', 'a-file'], /^mmb: a-file is a file, not a folder: /],
    [['init', 'a-file/sub'], /^mmb: cannot make the folder a-file\/sub: a file stands in its path; /],
    [['init', 'one', 'two'], /^mmb: mmb init takes one folder/],
  ] as const) {
    const r = mmb([...args], dir);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, message);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    assert.equal(r.stdout, '');
  }
  const blocked = join(dir, 'blocked');
  mkdirSync(blocked);
  writeFileSync(join(blocked, 'benchmarks'), 'x');
  const r = mmb(['init', 'blocked'], dir);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^mmb: blocked\/benchmarks is a file, not a folder: /);
  assert.deepEqual(readdirSync(blocked), ['benchmarks'], 'no config.jsonc beside a workspace that cannot be finished');
});

test('mmb init --help: its synopsis and exit statuses; mmb --help lists it', () => {
  const dir = tempDir('mmb-init-');
  const help = mmb(['init', '--help'], dir);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: mmb init \[<folder>\]$/m);
  assert.match(help.stdout, /^ {2}2 +the folder is unusable/m);
  assert.deepEqual(readdirSync(dir), [], '--help creates nothing');
  assert.match(mmb(['--help'], dir).stdout, /^ {2}init \[<folder>\] +a workspace to start from/m);
});

test('the hints for a folder with no workspace point at mmb init', () => {
  const dir = tempDir('mmb-init-');
  assert.match(mmb(['check'], dir).stderr, /or start a workspace here with `mmb init`$/m);
  assert.match(mmb(['run'], dir).stderr, /`mmb init` writes one with a key-free rehearsal run/);
});
