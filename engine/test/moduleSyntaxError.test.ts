/**
 * A module agent with a syntax error is refused in one line that gives its place, `file:line:col` (Node's ES module
 * loader gives none), for .mjs, .js and .cjs modules; in process, through the adapter's first call.
 */
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ModuleAdapter } from '../src/adapters/moduleAgent';
import { syntaxErrorPlace } from '../src/adapters/moduleSyntaxError';
import { mmb, tempDir, workspace } from './helpers';

/** The refusal of a module of that name and text, at the adapter's first call. */
async function refusal(name: string, text: string): Promise<{ file: string; message: string }> {
  const dir = realpathSync(tempDir('mmb-module-'));
  const file = join(dir, name);
  writeFileSync(file, text);
  const adapter = new ModuleAdapter(file, { home: dir, workspace: dir, options: {}, model: undefined, now: () => new Date(0) });
  try {
    await adapter.createSession('s');
  } catch (e) {
    return { file, message: (e as Error).message };
  }
  assert.fail(`${name} was loaded`);
}

test('an ES module with a syntax error: file:line:col and the error, one line', async () => {
  const { file, message } = await refusal(
    'bad.mjs',
    'export default function createAgent(context) {\n  const x = 1;\n  return { createSession() {}, sendMessage( { };\n}\n',
  );
  assert.equal(message, `the module agent ${file}:3:48 could not be loaded: SyntaxError: Unexpected token ';'`);
  const redeclared = await refusal('twice.mjs', 'export default () => {\n  const x = 1;\n  const x = 2;\n};\n');
  assert.equal(
    redeclared.message,
    `the module agent ${redeclared.file}:3:9 could not be loaded: SyntaxError: Identifier 'x' has already been declared`,
  );
});

test('a CommonJS module with a syntax error: its place from Node, the same form', async () => {
  const { file, message } = await refusal('bad.cjs', 'module.exports = function (c) {\n  return {;\n};\n');
  assert.equal(message, `the module agent ${file}:2:11 could not be loaded: SyntaxError: Unexpected token ';'`);
});

test('an error that is no syntax error, or a module acorn parses, keeps Node words alone', async () => {
  const { file, message } = await refusal('throws.mjs', "throw new Error('no key');\n");
  assert.equal(message, `the module agent ${file} could not be loaded: no key`);
  assert.equal(syntaxErrorPlace(file, new SyntaxError('from elsewhere')), undefined, 'a file that parses has no syntax error to place');
  assert.equal(syntaxErrorPlace(join(file, '..', 'nowhere.mjs'), new SyntaxError('x')), undefined);
});

test('mmb run with a module agent that does not parse: the place in the one line that refuses the run', () => {
  const dir = workspace({ persona: { model: 'stand-in' }, runs: { mine: { benchmark: 'starter', agent: './agents/mine.mjs' } } });
  mkdirSync(join(dir, 'agents'));
  writeFileSync(join(dir, 'agents', 'mine.mjs'), 'export default (context) => {\n  return { createSession() {} ;\n};\n');
  const r = mmb(['run', 'mine'], dir);
  assert.notEqual(r.code, 0);
  const line = r.stderr.split('\n').find((text) => text.includes('could not be loaded'));
  assert.match(line ?? r.stderr, /agents\/mine\.mjs:2:31 could not be loaded: SyntaxError: Unexpected token ';'$/);
  assert.doesNotMatch(r.stderr, /\n {4}at /, 'no stack');
});
