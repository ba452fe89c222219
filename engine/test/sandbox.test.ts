/** The JS block sandbox: only `vars` and `bench`, one second, no way out. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runJsBlock } from '../src/persona/sandbox';

test('a block sets vars, logs, and asks for a new session', async () => {
  const r = await runJsBlock(
    'vars.require_all_facts = ["family", "car"];\nvars.n = (vars.n ?? 0) + 1;\nawait bench.newSession();\nbench.log(`n=${vars.n}`);',
    { n: 4 },
    'chapter1.md',
    5,
  );
  assert.deepEqual(r, { vars: { n: 5, require_all_facts: ['family', 'car'] }, logs: ['n=5'], newSession: true });
});

test('nothing but vars and bench is reachable', async () => {
  for (const code of ['require("fs")', 'process.exit(1)', 'fetch("http://x")', 'setTimeout(() => 1)']) {
    await assert.rejects(runJsBlock(code, {}, 'c.md', 4), /c\.md line 4: the JS block failed: ReferenceError/, code);
  }
  for (const code of ['vars.constructor.constructor("return process")()', 'bench.log.constructor("return process")()', 'eval("1")']) {
    await assert.rejects(runJsBlock(code, {}, 'c.md', 4), /Code generation from strings disallowed/, code);
  }
});

test('a block is stopped after 1 s or 100,000 promise jobs, async loops and memory bombs included, with its file and line', async () => {
  await assert.rejects(
    runJsBlock('vars.a = 1;\nwhile (true) {}', {}, 'chapter7.md', 12),
    /^Error: chapter7\.md, the JS block at line 12: it ran longer than 1 s and was stopped\.$/,
  );
  await assert.rejects(
    runJsBlock('for (;;) await null;', {}, 'c.md', 3),
    /^Error: c\.md, the JS block at line 3: it queued more than 100,000 promise jobs and was stopped\.$/,
  );
  await assert.rejects(runJsBlock('await new Promise(() => {});', {}, 'c.md', 3), /waits for something that never comes/);
  await assert.rejects(
    runJsBlock('const a = []; for (;;) a.push(new Array(1e6).fill(1));', {}, 'c.md', 3),
    /c\.md, the JS block at line 3/,
  );
});

test('errors name the line of the chapter where they happen', async () => {
  await assert.rejects(
    runJsBlock('vars.a = 1;\n\nnope();', {}, 'chapter2.md', 10),
    /^Error: chapter2\.md line 12: the JS block failed: ReferenceError: nope is not defined$/,
  );
});
