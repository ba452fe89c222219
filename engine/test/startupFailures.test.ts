/**
 * Agents that fail to start, through the built CLI with real processes: a command that does not
 * exist, a program that prints a line that is not JSON, one that speaks protocol 2, one that
 * never answers the handshake, a module that throws as it loads, a gateway that is not running.
 * Each is the run's crash, in one line and exit 1, journaled and listed by `mmb report`, with the
 * agent's last lines on stderr masked; `mmb conformance` says it in one FAIL line. A canary key,
 * exported as the persona's, is printed by every agent and must appear nowhere.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { mmb, ROOT, workspace } from './helpers';

const CANARY = 'sk-canary-startup-7f3e9a1c5b2d4e6f';
const ENV = { MMB_TEST_STARTUP_PERSONA_KEY: CANARY, HERMES_API_KEY: 'sk-hermes-startup-0a9b8c7d6e' };

/** Writes its first words (the canary among them) on stderr, then does what `then` says. */
const program = (then: string) =>
  [
    "import { createInterface } from 'node:readline';",
    // The second line sets the terminal's title: the crash line must not carry the escape.
    `process.stderr.write('starting with key ${CANARY}\\nstill starting\\u001b]0;pwned\\u0007\\n');`,
    then,
  ].join('\n');

const PROGRAMS: Record<string, string> = {
  'not-json.mjs': program("process.stdout.write('hello, I am an agent\\n'); setInterval(() => {}, 1000);"),
  'protocol-2.mjs': program(
    [
      'for await (const line of createInterface({ input: process.stdin })) {',
      '  const request = JSON.parse(line);',
      '  process.stdout.write(`${JSON.stringify({ id: request.id, result: { protocol: 2, methods: [] } })}\\n`);',
      '}',
    ].join('\n'),
  ),
  'silent.mjs': program('setInterval(() => {}, 1000);'),
  'throws.mjs': `throw new Error('the module failed to load with key ${CANARY}\\nand a second line');`,
  // Starts well, then dies at the first message with an escape sequence and the key on stderr.
  'dies-mid-run.mjs': [
    "import { createInterface } from 'node:readline';",
    'for await (const line of createInterface({ input: process.stdin })) {',
    '  const request = JSON.parse(line);',
    "  if (request.method === 'send') {",
    `    process.stderr.write('\\u001b[2J\\u001b]0;pwned\\u0007out of memory, key ${CANARY}\\n');`,
    '    process.exit(3);',
    '  }',
    "  const result = request.method === 'initialize' ? { protocol: 1, methods: [] } : null;",
    '  process.stdout.write(`${JSON.stringify({ id: request.id, result })}\\n`);',
    '}',
  ].join('\n'),
};

interface StartCase {
  run: string;
  options: Record<string, unknown>;
  /** What the crash line says after "the agent did not start: ". */
  reason: RegExp;
  /** The agent wrote on stderr before it failed (a missing command and a module have no stderr of their own). */
  logged: boolean;
}

const CASES: StartCase[] = [
  {
    run: 'missing',
    options: { agent: 'process', command: ['mmb-no-such-program-4f1d', 'agent.py'] },
    reason: /the agent's command "mmb-no-such-program-4f1d" could not start: spawn mmb-no-such-program-4f1d ENOENT/,
    logged: false,
  },
  {
    run: 'not-json',
    options: { agent: 'process', command: ['node', 'agents/not-json.mjs'] },
    reason: /the agent printed a line that is not JSON: "hello, I am an agent"/,
    logged: true,
  },
  {
    run: 'protocol-2',
    options: { agent: 'process', command: ['node', 'agents/protocol-2.mjs'] },
    reason: /the agent speaks protocol 2; this engine speaks 1/,
    logged: true,
  },
  // The smallest handshake timeout: process_timeout bounds `initialize` too.
  {
    run: 'silent',
    options: { agent: 'process', command: ['node', 'agents/silent.mjs'], process_timeout: 1 },
    reason: /the agent did not answer `initialize` within 1 s/,
    logged: true,
  },
  {
    run: 'module',
    options: { agent: './agents/throws.mjs' },
    reason: /the module agent .*throws\.mjs could not be loaded: the module failed to load with key \*\*\* and a second line/,
    logged: false,
  },
  // A gateway the user runs, not running: the connection is refused at once (port 9, as cli-run.test.ts's model).
  {
    run: 'gateway',
    options: { agent: 'hermes', hermes_url: 'http://127.0.0.1:9' },
    reason: /POST \/api\/sessions: fetch failed/,
    logged: false,
  },
];

function startWorkspace(): string {
  const runs: Record<string, unknown> = Object.fromEntries(CASES.map((c) => [c.run, { benchmark: 'starter', ...c.options }]));
  runs['mid-run'] = { benchmark: 'starter', agent: 'process', command: ['node', 'agents/dies-mid-run.mjs'] };
  const dir = workspace({ persona: { model: 'stand-in', api_key_env: 'MMB_TEST_STARTUP_PERSONA_KEY' }, runs });
  mkdirSync(join(dir, 'agents'));
  for (const [name, text] of Object.entries(PROGRAMS)) writeFileSync(join(dir, 'agents', name), text);
  return dir;
}

/** Every file under the folder, whole. */
function everyFile(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

function assertNoStack(text: string, what: string): void {
  assert.doesNotMatch(text, /\n\s+at |internal error/, `${what}: no stack trace, no internal error`);
}

describe("an agent that fails to start is the run's crash, in one line", () => {
  const dir = startWorkspace();

  for (const c of CASES) {
    test(`${c.run}: mmb run, mmb report and mmb conformance`, { timeout: 60_000 }, () => {
      const ran = mmb(['run', c.run], dir, ENV);
      assert.equal(ran.code, 1, ran.stdout + ran.stderr);
      assertNoStack(ran.stderr, 'mmb run');
      const lines = ran.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, ran.stderr);
      assert.match(lines[0]!, new RegExp(`^mmb: run "${c.run}" crashed: the agent did not start: ${c.reason.source}`));
      if (c.logged)
        assert.match(
          lines[0]!,
          /; its last lines on stderr: starting with key \*\*\* \| still starting ]0;pwned$/,
          'its last words, the key masked',
        );
      // eslint-disable-next-line no-control-regex
      assert.doesNotMatch(ran.stderr, /[\u0000-\u0009\u000b-\u001f\u007f]/, 'no control character reaches the terminal');

      const state = JSON.parse(readFileSync(join(dir, 'results', c.run, 'state.json'), 'utf8')) as { status: string; error: string };
      assert.equal(state.status, 'crashed');
      assert.match(state.error, c.reason, "journaled as the run's crash, with its reason");
      const listed = mmb(['report'], dir, ENV);
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(listed.stdout, new RegExp(`^${c.run} +starter +\\S+ +crashed `, 'm'));
      assert.match(listed.stdout, new RegExp(`^${c.run} crashed: the agent did not start: `, 'm'), 'the list says why');
      const entry = mmb(['report', c.run], dir, ENV);
      // report.md's text escapes Markdown: the reason is matched as written.
      assert.match(entry.stdout.replace(/\\(?=[`*_])/g, ''), new RegExp(`^- 💥 Crashed: the agent did not start: ${c.reason.source}`, 'm'));

      const checked = mmb(['conformance', c.run], dir, ENV);
      assert.equal(checked.code, 1, checked.stdout + checked.stderr);
      assertNoStack(checked.stdout + checked.stderr, 'mmb conformance');
      const failed = checked.stdout.split('\n').filter((line) => /^\s+FAIL /.test(line));
      assert.equal(failed.length, 1, checked.stdout);
      assert.match(failed[0]!, new RegExp(`^  FAIL  the agent starts: .*${c.reason.source}`));
      assert.doesNotMatch(checked.stdout, /^\s+(pass|skip) /m, 'nothing else is checked of an agent that does not start');

      for (const text of [ran.stdout, ran.stderr, listed.stdout, entry.stdout, checked.stdout, checked.stderr])
        assert.ok(!text.includes(CANARY), 'the key is masked in what is printed');
      for (const file of everyFile(join(dir, 'results')))
        assert.ok(!readFileSync(file, 'utf8').includes(CANARY), `the key is masked in ${file}`);
    });
  }

  test('the same kind of agent dying mid-run: one line too, its escape sequences and the key gone', { timeout: 60_000 }, () => {
    const ran = mmb(['run', 'mid-run'], dir, ENV);
    assert.equal(ran.code, 1, ran.stdout + ran.stderr);
    assert.match(
      ran.stderr,
      /^mmb: run "mid-run" crashed: the agent's program exited \(code 3\); it last logged: \[2J ]0;pwned out of memory, key \*\*\*\n$/,
    );
    assert.ok(!ran.stderr.includes(CANARY));
  });

  test('run again: a run whose agent still cannot start crashes again; once fixed, it plays from the start', { timeout: 60_000 }, () => {
    const again = mmb(['run', 'missing'], dir, ENV);
    assert.equal(again.code, 1, again.stdout + again.stderr);
    assert.match(
      again.stderr,
      /^mmb: run "missing" crashed: the agent did not start: the agent's command "mmb-no-such-program-4f1d" could not start/,
    );
    const state = JSON.parse(readFileSync(join(dir, 'results', 'missing', 'state.json'), 'utf8')) as { status: string; events: number };
    assert.equal(state.status, 'crashed');
    assert.equal(state.events, 4, 'the start and its crash, then the resume and its crash');

    const config = JSON.parse(readFileSync(join(dir, 'config.jsonc'), 'utf8')) as { runs: Record<string, Record<string, unknown>> };
    config.runs.missing!.command = ['node', join(ROOT, 'examples', 'agents', 'my-agent.mjs')];
    writeFileSync(join(dir, 'config.jsonc'), JSON.stringify(config));
    const fixed = mmb(['run', 'missing'], dir, ENV);
    assert.equal(fixed.code, 0, fixed.stdout + fixed.stderr);
    assert.match(fixed.stdout, /^missing +finished +average [\d.]+\/10 +coverage 5\/5/m);
  });
});
