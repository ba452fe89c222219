/**
 * `mmb new agent`'s copy of the example names itself, never the example: a module agent's header gives the `"agent"`
 * entry that runs it, a process agent's `initialize` reply gives its own file. In process.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { newAgentCommand } from '../src/cli/newAgent';
import { ROOT, tempDir } from './helpers';

const EXAMPLES = join(ROOT, 'examples', 'agents');

test('a generated module agent says in its header the "agent" entry that runs it', () => {
  const cwd = tempDir('mmb-newagent-');
  assert.equal(
    newAgentCommand({ name: 'my-bot', kind: 'module', cwd, examples: EXAMPLES }, () => undefined),
    0,
  );
  const text = readFileSync(join(cwd, 'agents', 'my-bot.mjs'), 'utf8');
  assert.equal(text.split('\n')[0], '// A complete module agent for MarathonMemBench ("agent": "./agents/my-bot.mjs"): the');
  assert.doesNotMatch(text, /my-agent-module/);
  assert.match(readFileSync(join(cwd, 'config.jsonc'), 'utf8'), /"agent": "\.\/agents\/my-bot\.mjs"/, 'the entry the header names');
});

test('a generated process agent gives its own file as its name', () => {
  const cwd = tempDir('mmb-newagent-');
  assert.equal(
    newAgentCommand({ name: 'py-bot', kind: 'process', cwd, examples: EXAMPLES }, () => undefined),
    0,
  );
  const text = readFileSync(join(cwd, 'agents', 'py-bot.py'), 'utf8');
  assert.match(text, /"name": "py-bot\.py"/);
  assert.doesNotMatch(text, /my_agent\.py/);
});
