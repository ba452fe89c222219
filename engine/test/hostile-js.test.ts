/**
 * Hostile JS blocks: each one ends in a clear, one-line error that names its chapter file and
 * line, or in a harmless result, and the sandbox runs a normal block right after. The last two
 * go through the engine: a run that a stuck block crashes and that resumes once it is fixed, and
 * a run through the built CLI whose block hunts for a canary key in the environment.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runJsBlock, type SandboxResult } from '../src/persona/sandbox';
import { benchmarkFrom, CLI, runOnStandIn, tempDir, workspace } from './helpers';

const FILE = 'chapter9.md';
const LINE = 20;

/** A normal block works after whatever came before it. */
async function assertAlive(): Promise<void> {
  const result = await runJsBlock(
    'vars.n = (vars.n ?? 0) + 1;\nbench.log(`n=${vars.n}`);\nawait bench.newSession();',
    { n: 41 },
    FILE,
    LINE,
  );
  assert.deepEqual(result, { vars: { n: 42 }, logs: ['n=42'], newSession: true });
  assert.equal(({} as Record<string, unknown>).polluted, undefined, "the host's Object.prototype is untouched");
}

/** The block's error: one line, naming the file and the given line (or the block's first line). */
async function assertFails(code: string, expected: RegExp, line = LINE): Promise<string> {
  let message = '';
  await assert.rejects(
    runJsBlock(code, {}, FILE, LINE),
    (error: Error) => {
      message = error.message;
      return true;
    },
    code,
  );
  assert.ok(!/[\n\r]/.test(message), `one line: ${JSON.stringify(message)}`);
  assert.ok(message.length <= 1000, `bounded: ${message.length} characters`);
  const where = line === LINE ? `(?:${FILE} line ${LINE}|${FILE}, the JS block at line ${LINE})` : `${FILE} line ${line}`;
  assert.match(message, new RegExp(`^${where.replace(/\./g, '\\.')}: `), message);
  assert.match(message, expected, code);
  await assertAlive();
  return message;
}

async function assertHarmless(code: string, vars: Record<string, unknown> = {}): Promise<SandboxResult> {
  const result = await runJsBlock(code, vars, FILE, LINE);
  await assertAlive();
  return result;
}

const CODE_FROM_STRINGS = /EvalError: Code generation from strings disallowed for this context$/;

test('the constructor chains end in the isolate: no process, no code from strings', async () => {
  await assertFails("this.constructor.constructor('return process')().env", CODE_FROM_STRINGS);
  await assertFails("vars.x = 1;\n\nbench.log.constructor('return process')()", CODE_FROM_STRINGS, LINE + 2);
  await assertFails("Function('return 1')()", CODE_FROM_STRINGS);
  await assertFails("eval('1 + 1')", CODE_FROM_STRINGS);
  await assertFails("(async function () {}).constructor('return 1')", CODE_FROM_STRINGS);
  await assertFails("(function* () {}).constructor('yield 1')", CODE_FROM_STRINGS);
  await assertFails("Reflect.construct(Object.getPrototypeOf(async function* () {}).constructor, ['x'])", CODE_FROM_STRINGS);
});

test('import() is refused, and the constructor of its rejection leads nowhere', async () => {
  await assertFails("await import('node:child_process')", /ReferenceError: could not load module 'node:child_process'$/);
  await assertFails(
    "try { await import('node:fs'); } catch (error) {\n  error.constructor.constructor('return process')();\n}",
    CODE_FROM_STRINGS,
    LINE + 1,
  );
});

test('no host global exists in the isolate', async () => {
  const names = [
    'process',
    'require',
    'module',
    'exports',
    '__dirname',
    'Buffer',
    'console',
    'fetch',
    'setTimeout',
    'WebAssembly',
    'Atomics',
  ];
  const result = await assertHarmless(
    `vars.seen = [${names.map((name) => `typeof ${name}`).join(', ')}, typeof globalThis.process, typeof globalThis.require];`,
  );
  assert.deepEqual(result.vars.seen, [...names.map(() => 'undefined'), 'undefined', 'undefined']);
  await assertFails('process.exit(1)', /ReferenceError: process is not defined$/);
  await assertFails("require('node:fs')", /ReferenceError: require is not defined$/);
  await assertFails('Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)', /ReferenceError: Atomics is not defined$/);
  await assertFails('vars.shared = new SharedArrayBuffer(8)', /its vars cannot be kept: vars\.shared is not a plain object or array/);
});

test('a runaway block is stopped: a loop, a microtask chain, a native built-in, a regular expression', async () => {
  const tooLong = /: it ran longer than 1 s and was stopped\.$/;
  for (const code of [
    'vars.a = 1;\nwhile (true) {}',
    // A built-in in native code never looks at the interrupt handler: the watchdog ends the worker.
    'Array.prototype.includes.call({ length: 1e15 }, 1)',
    "/(a+)+b/.test('a'.repeat(40))",
  ]) {
    const started = Date.now();
    await assertFails(code, tooLong);
    assert.ok(Date.now() - started < 15_000, `${code} was stopped in time`);
  }
  // Endless promise chains are counted, not timed: a fast machine would reach the memory cap first.
  const tooManyJobs = /: it queued more than 100,000 promise jobs and was stopped\.$/;
  for (const code of ['const loop = () => Promise.resolve().then(loop);\nloop();', 'for (;;) await null;'])
    await assertFails(code, tooManyJobs);
  await assertFails(
    'await new Promise(() => {});',
    /it waits for something that never comes; only bench\.newSession\(\) may be awaited\.$/,
  );
});

test('a memory bomb and a deep recursion end in their own errors', async () => {
  await assertFails("vars.big = 'x'.repeat(1e8);", /it used more than 32 MB of memory and was stopped\.$/);
  await assertFails('vars.buffer = new ArrayBuffer(5e7);', /it used more than 32 MB of memory and was stopped\.$/);
  // Growing the WebAssembly memory is slow on a loaded machine: the clock may stop it first.
  await assertFails(
    'const chunks = [];\nfor (;;) chunks.push(new Float64Array(1e6));',
    /it used more than 32 MB of memory and was stopped\.$|it ran longer than 1 s/,
  );
  await assertFails('function down(n) { return down(n + 1) + 1; }\ndown(0);', /InternalError: stack overflow$/, LINE);
  for (const code of [
    'const o = { get x() { return this.x; } };\no.x;',
    'const p = new Proxy({}, { get(target, key, receiver) { return receiver[key]; } });\np.x;',
    'function down() { return [1].map(down); }\ndown();',
    'async function down() { await down(); }\nawait down();',
  ])
    await assertFails(code, /InternalError: stack overflow$/, LINE);
});

test('bench.log is capped: 100 lines of 2,000 characters', async () => {
  await assertFails(
    "vars.a = 1;\nfor (let i = 0; i < 10000; i++) bench.log('x'.repeat(5000));",
    /RangeError: bench\.log was called more than 100 times; a block logs at most 100 lines$/,
    LINE + 1,
  );
  const caught = await assertHarmless(
    [
      "try { for (;;) bench.log('y'.repeat(5000)); } catch (error) { vars.caught = error.name; }",
      "try { bench.log('late'); } catch (error) { vars.late = error.name; }",
    ].join('\n'),
  );
  assert.equal(caught.logs.length, 100);
  assert.ok(caught.logs.every((text) => text.length === 2000 && text.endsWith('…')));
  assert.deepEqual(caught.vars, { caught: 'RangeError', late: 'RangeError' });
  assert.deepEqual((await assertHarmless("bench.log({ toString() { return 'shown'; } });")).logs, ['shown']);
  assert.deepEqual((await assertHarmless("bench.log('a\\u0000b');")).logs, ['a\ufffdb'], 'NUL does not cut a text short');
});

test('vars go out as plain JSON or not at all, with the path of what is not', async () => {
  const refused: [string, RegExp][] = [
    ["vars.big = 'x'.repeat(2e6);", /its vars cannot be kept: vars hold more than 1000000 characters of JSON$/],
    ['vars.f = () => 1;', /vars\.f is a function; vars hold only JSON data/],
    ['vars.a = { b: [] };\nvars.a.b.push(vars.a);', /vars\.a\.b\[0\] is an object that contains itself \(a cycle\)/],
    ['vars.n = 10n;', /vars\.n is a bigint/],
    ["vars.s = Symbol('s');", /vars\.s is a symbol/],
    ["vars[Symbol('k')] = 1;", /vars has a symbol key/],
    ['vars.x = NaN;', /vars\.x is NaN, which JSON cannot hold/],
    ['vars.d = new Date();', /vars\.d is not a plain object or array/],
    ['vars.list = [1, undefined];', /vars\.list\[1\] is undefined/],
    ["vars['two words'] = () => 1;", /vars\["two words"\] is a function/],
    ["Object.defineProperty(vars, 'g', { get() { throw new Error('boom'); }, enumerable: true });", /vars\.g is a getter or a setter/],
    ["vars.p = new Proxy({}, { ownKeys() { throw new Error('trap'); } });", /its vars cannot be kept: trap$/],
    ['vars = 5;', /vars must stay an object/],
    ['vars = [1, 2];', /vars must stay an object/],
    [
      'let deep = {}; vars.deep = deep;\nfor (let i = 0; i < 100; i++) { deep.next = {}; deep = deep.next; }',
      /is nested more than 64 levels deep/,
    ],
  ];
  for (const [code, expected] of refused) await assertFails(code, expected);
  const proxied = await assertHarmless('vars.p = new Proxy({ a: 1 }, {});\nvars.gone = undefined;');
  assert.deepEqual(proxied.vars, { p: { a: 1 } });
});

test('prototype pollution stays in the isolate', async () => {
  const result = await assertHarmless(
    'Object.prototype.polluted = 1;\nArray.prototype.also = 2;\nJSON.stringify = () => \'{"hacked":1}\';\nvars.ok = [1];',
  );
  assert.deepEqual(result.vars, { ok: [1] });
  assert.equal(Object.getPrototypeOf(result.vars), Object.prototype);
  await assertFails('vars.__proto__ = { admin: true };', /vars is not a plain object or array/);
  await assertFails('vars.o = JSON.parse(\'{"__proto__": {"admin": true}}\');', /vars\.o has a key named __proto__/);
  const frozen = await assertHarmless('bench.newSession = null;\nglobalThis.bench = {};\nvars.kept = typeof bench.log;');
  assert.deepEqual(frozen, { vars: { kept: 'function' }, logs: [], newSession: false });
});

test('a thrown non-Error becomes one line, and a hostile error cannot break its report', async () => {
  assert.match(
    await assertFails('throw { code: 42 };', /the JS block failed: it threw \{"code":42\}$/),
    /^chapter9\.md, the JS block at line 20/,
  );
  await assertFails("throw 'line one\\nline two\\r\\nline three';", /it threw line one line two line three$/);
  await assertFails('throw null;', /it threw null$/);
  await assertFails("throw Symbol('s');", /it threw Symbol\(s\)$/);
  await assertFails('throw { get message() { throw 1; }, get name() { throw 2; } };', /it threw \[object Object\]$/);
  await assertFails("throw new Error('x'.repeat(1e6));", /Error: x+…$/);
  await assertFails("const error = new Error('forged');\nerror.stack = 'chapter9.md:99999';\nthrow error;", /Error: forged$/, LINE + 2);
  await assertFails('this is not javascript', /SyntaxError: /);
});

test('a block that only the watchdog can stop crashes the run cleanly, and the run resumes once it is fixed', async () => {
  const files = {
    'benchmark.json': '{ "chapters": ["chapter1.md", "chapter2.md"] }',
    'chapter1.md': '## Hello\nSay hello.\n',
    'chapter2.md': '## Stuck\n```js\nvars.x = 1;\nArray.prototype.includes.call({ length: 1e15 }, 1);\n```\nSay bye.\n',
  };
  const first = await runOnStandIn(benchmarkFrom(files));
  assert.equal(first.state.status, 'crashed');
  assert.equal(first.state.error, 'chapter2.md, the JS block at line 3: it ran longer than 1 s and was stopped.');
  const fixed = benchmarkFrom({ ...files, 'chapter2.md': '## Stuck\n```js\nvars.x = 1;\n```\nSay bye.\n' });
  const second = await runOnStandIn(fixed, { dir: first.dir });
  assert.equal(second.state.status, 'finished', second.state.error);
  assert.deepEqual(second.state.vars, { x: 1 });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const ESCAPE = `## Escape
\`\`\`js
const canary = () => [
  () => this.constructor.constructor('return process')().env.MMB_SANDBOX_CANARY,
  () => vars.constructor.constructor('return process')().env.MMB_SANDBOX_CANARY,
  () => globalThis.process.env.MMB_SANDBOX_CANARY,
  () => require('node:process').env.MMB_SANDBOX_CANARY,
];
vars.attempts = [];
for (const attempt of canary()) {
  try { vars.attempts.push(String(attempt())); } catch (error) { vars.attempts.push(String(error)); }
}
try { await import('node:process'); } catch (error) {
  try {
    vars.attempts.push(String(error.constructor.constructor('return process')().env.MMB_SANDBOX_CANARY));
  } catch (inner) {
    vars.attempts.push(String(inner));
  }
}
bench.log(vars.attempts.join(' | '));
\`\`\`
Say hello.
`;

test('end to end: a block that hunts for a canary key finds nothing, and the run goes on', async () => {
  const canary = 'sk-canary-sandbox-5d1e8b27';
  const source = tempDir('mmb-escape-');
  mkdirSync(join(source, 'escape'));
  const files: Record<string, string> = {
    'benchmark.json': '{ "chapters": ["chapter1.md", "chapter2.md"] }',
    'instructions.md': 'You are Sam.',
    'chapter1.md': ESCAPE,
    'chapter2.md': '## After\n```js\nvars.after = vars.attempts.length;\nbench.log("after");\n```\nSay bye.\n',
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(source, 'escape', name), text);
  const dir = workspace(
    { persona: { model: 'stand-in' }, runs: { e1: { benchmark: 'escape', agent: 'chatbot' } } },
    { escape: join(source, 'escape') },
  );
  const run = await new Promise<{ status: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI, 'run', 'e1'], { cwd: dir, env: { ...process.env, MMB_SANDBOX_CANARY: canary } });
    let output = '';
    child.stdout.on('data', (data: Buffer) => {
      output += data.toString();
    });
    child.stderr.on('data', (data: Buffer) => {
      output += data.toString();
    });
    child.on('close', (status) => resolve({ status, output }));
  });
  assert.equal(run.status, 0, run.output);
  const state = JSON.parse(readFileSync(join(dir, 'results', 'e1', 'state.json'), 'utf8')) as {
    status: string;
    vars: { attempts: string[]; after: number };
    log: { text: string }[];
  };
  assert.equal(state.status, 'finished');
  assert.equal(state.vars.after, 5, 'the next phase ran its block');
  assert.deepEqual(
    state.vars.attempts.map((text) => text.replace(/:.*/, '')),
    ['EvalError', 'EvalError', 'TypeError', 'ReferenceError', 'EvalError'],
  );
  assert.ok(state.log.some((entry) => entry.text === 'after'));
  const written = filesUnder(join(dir, 'results'));
  assert.ok(written.some((file) => file.endsWith('state.json')) && written.some((file) => file.endsWith('journal.jsonl')));
  for (const file of written) assert.ok(!readFileSync(file, 'utf8').includes(canary), `${file} holds the canary`);
  assert.ok(!run.output.includes(canary));
});
