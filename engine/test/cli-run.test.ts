/** `mmb run`, `mmb report` and `mmb demo` as users run them, bad input included. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { AGENTS } from '../src/adapters/registry';
import { CLI, STARTER, tempDir, workspace, mmb, joinedPattern } from './helpers';

const noStack = (text: string) => assert.doesNotMatch(text, /\n\s+at /);
/** Every registered agent, sorted as the "no agent" message lists them: the registry is the one list. */
const EVERY_AGENT_SORTED = Object.keys(AGENTS).sort().join(', ');
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** How the dead agent's model fails: nothing listens on port 9. */
const MODEL_GONE = /model gone: ECONNREFUSED from http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions: the connection was refused/;

test('mmb demo: no config, no key; every bundled benchmark runs to the end; in context and the notebook score clearly higher', () => {
  const dir = tempDir('mmb-demo-');
  const r = mmb(['demo'], dir);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const avg = (run: string) => Number(new RegExp(`${run} +finished +average ([\\d.]+)/10`).exec(r.stdout)?.[1]);
  assert.ok(avg('demo-starter-in-context') >= avg('demo-starter-new-session') + 3, r.stdout);
  // The notebook's notes outlive the session switch that leaves the chatbot nothing: a memory at work.
  assert.ok(avg('demo-starter-notebook') >= avg('demo-starter-new-session') + 3, r.stdout);
  assert.ok(avg('demo-multiday-notebook') >= avg('demo-multiday-new-session') + 3, r.stdout);
  assert.match(r.stdout, /^Full entries: results\/report\.md$/m);
  assert.match(r.stdout, /^A stand-in run: no model, .* Next: mmb report demo-starter-notebook --html, then a real model/m);
  for (const b of ['filing', 'max', 'multiday', 'starter']) {
    for (const mode of ['in-context', 'new-session', 'notebook'])
      assert.match(r.stdout, new RegExp(`^demo-${b}-${mode} +finished +average [\\d.]+/10 +coverage (\\d+)/\\1 `, 'm'), `${b} ${mode}`);
  }
  const report = readFileSync(join(dir, 'results', 'report.md'), 'utf8');
  assert.match(report, /^## \d{4}-\d\d-\d\d \d\d:\d\d — demo-starter-in-context: starter @ chatbot$/m);
  assert.match(report, /^- 📊 Check coverage: 5\/5$/m);
  assert.match(
    report,
    joinedPattern(
      [
        /^\| 0\/10, 2nd attempt \| 3\.2 \| Which movers did we book, and for how much\? \| /,
        /Leeds Lift, £340\. \| You never told me that\. \| missing Leeds Lift, 340 \|$/,
      ],
      'm',
    ),
  );
  const summary = JSON.parse(readFileSync(join(dir, 'results', 'demo-starter-new-session', 'summary.json'), 'utf8'));
  assert.equal(summary.average, 2);
  assert.deepEqual(summary.coverage, { graded: 5, planned: 5, missing: [] });
  assert.equal(summary.sessionSwitches, 1);
});

test('mmb run and mmb report on a workspace', () => {
  const dir = workspace({ persona: { model: 'stand-in' }, runs: { a: { benchmark: 'starter', agent: 'chatbot' } } });
  const r = mmb(['run'], dir);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^a: check 3\.5 graded 10\/10$/m, 'plain progress lines when not on a terminal');
  assert.match(r.stdout, /^a +finished +average 2\.00\/10 +coverage 5\/5/m);
  const again = mmb(['run', 'a'], dir);
  assert.equal(again.code, 0);
  assert.equal(
    (readFileSync(join(dir, 'results', 'report.md'), 'utf8').match(/— a: starter/g) ?? []).length,
    1,
    'a finished run is not reported twice',
  );
  const list = mmb(['report'], dir);
  assert.match(list.stdout, /^a +starter +chatbot +finished +2\.00 +5\/5$/m);
  const one = mmb(['report', 'a'], dir);
  assert.match(one.stdout, /^- 📊 Evaluations: 5, average 2\.00\/10$/m);
  writeFileSync(join(dir, 'results', 'a', 'state.json'), '{ cut short');
  const broken = mmb(['report', 'a'], dir);
  assert.equal(broken.code, 2);
  assert.match(broken.stderr, /^mmb: damaged: results\/a\/state\.json: not JSON \(.*\); start it over with `mmb run a --restart` .*\.$/m);
  assert.doesNotMatch(broken.stderr, /\n\s+at /);
});

test('bad config, unknown runs, broken benchmarks and missing keys stop with exit 2 and one clear message', () => {
  const dir = workspace({ persona: { model: 'stand-in' }, runs: { a: { benchmark: 'starter', agent: 'chatbot' } } });
  const cases: [string, string[], RegExp, NodeJS.ProcessEnv?][] = [
    [
      '{ "runs": { "a": { "benchmark": "starter", "agent": "chatbot", } ',
      ['run'],
      /^mmb: config\.jsonc:1:\d+ invalid-config config\.jsonc is not valid JSON: a closing `}` was expected\.$/m,
    ],
    [
      '{ "persona": { "model": "x", "base_url": "http://h", "api_key": "sk-1" }, "runs": {} }',
      ['run'],
      /would put a secret in a file: set the key in an environment variable and name it in `api_key_env`/,
    ],
    [
      '{ "runs": { "a": { "benchmark": "starter", "agent": "chatbot" } } }',
      ['run', 'b'],
      /^mmb: no run "b" in config\.jsonc; its runs: a\.$/m,
    ],
    [
      '{ "runs": { "a": { "benchmark": "strter", "agent": "chatbot" } } }',
      ['run'],
      joinedPattern(
        [
          /^mmb: run "a": there is no benchmark benchmarks\/strter\/benchmark\.json: /,
          /`mmb init` copies the bundled benchmarks here, `mmb new <name>` starts one\.$/,
        ],
        'm',
      ),
    ],
    [
      '{ "runs": { "a": { "benchmark": "starter", "agent": "chatbott" } } }',
      ['run'],
      new RegExp(
        `^mmb: config\\.jsonc:1:\\d+ invalid-config run \`a\`: there is no agent "chatbott": use one of ${literal(
          EVERY_AGENT_SORTED,
        )}, or a module of the workspace such as "\\./agents/my-agent\\.mjs"\\. Did you mean \`chatbot\`\\?$`,
        'm',
      ),
    ],
    [
      '{ "runs": { "a": { "benchmark": "starter", "agent": "notebook", "notebook_context_tokns": 9000 } } }',
      ['run'],
      joinedPattern(
        [
          /^mmb: config\.jsonc:1:\d+ unknown-config-key run `a` \(agent notebook\) has no key `notebook_context_tokns`; /,
          /notebook reads benchmark, agent, ignore_session_break, agent_model, notebook_context_tokens, notebook_max_tool_rounds\. /,
          /Did you mean `notebook_context_tokens`\?$/,
        ],
        'm',
      ),
    ],
    [
      '{ "persona": { "model": "gpt-x", "base_url": "http://127.0.0.1:9/v1", "api_key_env": "MMB_TEST_ABSENT_KEY" }, ' +
        '"runs": { "a": { "benchmark": "starter", "agent": "chatbot" } } }',
      ['run'],
      /model "gpt-x" needs an API key: set the environment variable MMB_TEST_ABSENT_KEY/,
    ],
  ];
  for (const [config, args, message, env] of cases) {
    writeFileSync(join(dir, 'config.jsonc'), config);
    const r = mmb(args, dir, env);
    assert.equal(r.code, 2, `${config}\n${r.stdout}${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(r.stdout, '', 'a run that cannot start prints no result');
    noStack(r.stderr);
  }
  writeFileSync(join(dir, 'config.jsonc'), '{ "runs": { "a": { "benchmark": "starter", "agent": "chatbot" } } }');
  writeFileSync(join(dir, 'benchmarks', 'starter', 'chapter2.md'), '## Broken\n🪤 RECONSIDER move#9.9 → 3.2\n');
  const broken = mmb(['run'], dir);
  assert.equal(broken.code, 2);
  assert.match(
    broken.stderr,
    joinedPattern(
      [
        /^mmb: benchmarks\/starter has 1 error; fix it first \(mmb check benchmarks\/starter\):\n/,
        / {2}benchmarks\/starter\/chapter2\.md:2:20 unknown-fact/,
      ],
      'm',
    ),
  );
  assert.ok(!existsSync(join(dir, 'results', 'a')), 'nothing ran');
  const none = mmb(['run'], tempDir());
  assert.equal(none.code, 2);
  assert.match(
    none.stderr,
    /^mmb: no config\.jsonc: `mmb init` writes one with a key-free rehearsal run beside the bundled benchmarks \(or try `mmb demo`\)\.$/m,
  );
});

test('a strict config: a typo at any level stops mmb run with exit 2 and one line, before anything runs; mmb check names the file', () => {
  const dir = workspace({ runs: { a: { benchmark: 'starter', agent: 'chatbot' } } });
  const cases: [string, RegExp][] = [
    [
      '{ "runs": { "a": { "benchmark": "starter", "agent": "chatbot", ' +
        '"agent_modle": { "model": "gpt-4o", "base_url": "http://127.0.0.1:9/v1" } } } }',
      /^mmb: config\.jsonc:1:\d+ unknown-config-key run `a` \(agent chatbot\) has no key `agent_modle`; .*Did you mean `agent_model`\?\n$/,
    ],
    [
      '{ "paralel": 2, "runs": { "a": { "benchmark": "starter", "agent": "chatbot" } } }',
      /^mmb: config\.jsonc:1:3 unknown-config-key config\.jsonc has no key `paralel`: .*Did you mean `parallel`\?\n$/,
    ],
    [
      '{ "hooks": { "require_send_mesage": false }, "runs": { "a": { "benchmark": "starter", "agent": "chatbot" } } }',
      /^mmb: config\.jsonc:1:\d+ unknown-config-key `hooks` has no key `require_send_mesage`: .*Did you mean `require_send_message`\?\n$/,
    ],
  ];
  for (const [config, message] of cases) {
    writeFileSync(join(dir, 'config.jsonc'), config);
    const r = mmb(['run'], dir);
    assert.equal(r.code, 2, `${config}\n${r.stdout}${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(r.stdout, '');
    assert.ok(!existsSync(join(dir, 'results')), 'nothing ran: no results/ folder');
    const check = mmb(['check', 'config.jsonc'], dir);
    assert.equal(check.code, 1, check.stdout);
    assert.match(check.stdout, /\nconfig\.jsonc: 1 error, 0 warnings\n$/);
  }
  const clean = mmb(['check', 'config.jsonc'], workspace({ runs: { a: { benchmark: 'starter', agent: 'chatbot' } } }));
  assert.equal(clean.code, 0);
  assert.equal(clean.stdout, 'config.jsonc: 0 errors, 0 warnings\n', 'the summary names the file, not an empty name');
});

test('a dead agent crashes the run with a clear error in the report, and the run stays resumable', () => {
  const dir = workspace({
    persona: { model: 'stand-in' },
    runs: { d: { benchmark: 'starter', agent: 'chatbot', agent_model: { model: 'gone', base_url: 'http://127.0.0.1:9/v1' } } },
  });
  const r = mmb(['run'], dir, { MMB_BACKOFF_BASE_MS: '1', MMB_MODEL_TIMEOUT_MS: '500' });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /^d +crashed/m);
  assert.match(r.stderr, joinedPattern([/^mmb: run "d" crashed: the chatbot's model failed: /, MODEL_GONE], 'm'));
  const report = readFileSync(join(dir, 'results', 'report.md'), 'utf8');
  assert.match(report, joinedPattern([/— d: starter @ chatbot \(crashed\)\n\n- 💥 Crashed: the chatbot's model failed: /, MODEL_GONE]));
  const state = JSON.parse(readFileSync(join(dir, 'results', 'd', 'state.json'), 'utf8'));
  assert.equal(state.status, 'crashed');
  assert.equal(state.retries, 0, 'a port fetch refuses is not retried');
});

test('mmb new scaffolds a benchmark that checks clean and runs to the end; an existing name is refused', () => {
  const dir = tempDir('mmb-new-');
  const made = mmb(['new', 'garden-bench'], dir);
  assert.equal(made.code, 0, made.stderr);
  const check = mmb(['check', 'benchmarks/garden-bench'], dir);
  assert.equal(check.stdout, 'benchmarks/garden-bench: 0 errors, 0 warnings\n');
  writeFileSync(join(dir, 'config.jsonc'), '{ "runs": { "g": { "benchmark": "garden-bench", "agent": "chatbot" } } }');
  const run = mmb(['run'], dir);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /^g +finished +average [\d.]+\/10 +coverage 4\/4/m);
  const again = mmb(['new', 'garden-bench'], dir);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /^mmb: benchmarks\/garden-bench exists already; pick another name\.$/m);
  assert.equal(mmb(['new', 'Bad Name'], dir).code, 2);
});

test('mmb stand-in serves the stand-in model over HTTP until Ctrl-C', async () => {
  const child = spawn(process.execPath, [CLI, 'stand-in', '--port', '0'], { cwd: tempDir() });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      const m = /serving at (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(d.toString());
      if (m?.[1]) resolve(m[1]);
    });
    child.on('exit', () => reject(new Error('exited before serving')));
  });
  const models = (await (await fetch(`${url}/models`)).json()) as { data: { id: string }[] };
  assert.deepEqual(
    models.data.map((m) => m.id),
    ['stand-in'],
  );
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.kill('SIGINT');
  assert.equal(await exited, 0);
});

test('mmb run --from: a fresh run of one phase or from a phase, on the stand-in by --rehearse, resumable by its name', () => {
  const dir = workspace({
    persona: { model: 'x', base_url: 'http://127.0.0.1:9', api_key_env: 'NO_SUCH_KEY' },
    runs: { a: { benchmark: 'starter', agent: 'hermes', hermes_url: 'http://127.0.0.1:9' } },
  });
  const phase = mmb(['run', 'a', '--from', 'chapter2.md:2', '--only', '--rehearse'], dir);
  assert.equal(phase.code, 0, phase.stdout + phase.stderr);
  const state = JSON.parse(readFileSync(join(dir, 'results', 'a.phase-chapter2-2.rehearsal', 'state.json'), 'utf8'));
  assert.equal(state.agent, 'chatbot', 'a rehearsal swaps an agent with no stand-in for the chatbot');
  assert.deepEqual(
    [state.phases.from.chapter, state.phases.from.phase, state.phases.to.chapter, state.phases.to.phase],
    ['chapter2.md', 1, 'chapter2.md', 1],
  );
  assert.ok(
    state.transcript.length > 0 &&
      state.transcript.every(
        (e: { position: { chapter: string; phase: number } }) => e.position.chapter === 'chapter2.md' && e.position.phase === 1,
      ),
    'only that phase is played',
  );
  const summary = JSON.parse(readFileSync(join(dir, 'results', 'a.phase-chapter2-2.rehearsal', 'summary.json'), 'utf8'));
  assert.equal(summary.coverage.planned, Object.keys(state.grades).length, 'coverage counts the checks of the phase only');

  const from = mmb(['run', 'a', '--from', 'chapter3.md:1', '--rehearse'], dir);
  assert.equal(from.code, 0, from.stdout + from.stderr);
  const fromState = JSON.parse(readFileSync(join(dir, 'results', 'a.from-chapter3-1.rehearsal', 'state.json'), 'utf8'));
  assert.equal(fromState.transcript[0].position.chapter, 'chapter3.md');
  assert.equal(fromState.status, 'finished');
  const again = mmb(['run', 'a.from-chapter3-1.rehearsal'], dir);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /^a\.from-chapter3-1\.rehearsal +finished/m, 'a saved partial run is found by its name');

  const configless = tempDir('mmb-rehearse-');
  const bare = mmb(['run', '--benchmark', 'starter', '--from', 'chapter1.md:1', '--only', '--rehearse'], workspaceDirWithout(configless));
  assert.equal(bare.code, 0, bare.stdout + bare.stderr);

  for (const [args, message] of [
    [
      ['run', 'a', '--from', 'chapter9.md:1'],
      new RegExp(
        String.raw`^mmb: starter has no chapter chapter9\.md; its chapters: chapter1\.md, chapter2\.md, chapter3\.md\. ` +
          String.raw`Did you mean \`chapter1\.md:1\` or \`chapter2\.md:1\` or \`chapter3\.md:1\`\?$`,
        'm',
      ),
    ],
    [
      ['run', 'a', '--from', 'chapter2.md:9'],
      /^mmb: chapter2\.md has 3 phases; --from chapter2\.md:9 is not one of them\. Did you mean `chapter2\.md:3`\?$/m,
    ],
    [
      ['run', 'a', '--from', 'chapter2'],
      /^mmb: --from needs a chapter file and a phase number, as in .* \(got "chapter2"\)\. Did you mean `chapter2\.md:1`\?$/m,
    ],
    [['run', '--benchmark', 'starter', '--from', 'chapter1.md:1'], /add --rehearse, or name a run/],
    [['run', 'a', '--only'], /^mmb: --only goes with --from <chapter\.md>:<phase>\.$/m],
  ] as const) {
    const r = mmb([...args], dir);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, message);
  }
});

/** A folder holding only the bundled starter under benchmarks/, no config.jsonc. */
function workspaceDirWithout(dir: string): string {
  cpSync(STARTER, join(dir, 'benchmarks', 'starter'), { recursive: true });
  return dir;
}

test('a run held by a live process is not started twice; a stale lock is taken over', async () => {
  const dir = workspace({ persona: { model: 'stand-in' }, runs: { a: { benchmark: 'starter', agent: 'chatbot' } } });
  const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
  try {
    mkdirSync(join(dir, 'results', 'a'), { recursive: true });
    writeFileSync(join(dir, 'results', 'a', 'run.lock'), JSON.stringify({ pid: holder.pid, since: '2026-11-29T10:00:00.000Z' }));
    const held = mmb(['run', 'a'], dir);
    assert.equal(held.code, 2, held.stdout);
    assert.match(
      held.stderr,
      new RegExp(`^mmb: run "a" is already running \\(process ${holder.pid}, since 2026-11-29T10:00:00\\.000Z\\); stop it first\\.$`, 'm'),
    );
  } finally {
    holder.kill();
  }
  await new Promise((r) => holder.once('exit', r));
  const stale = mmb(['run', 'a'], dir);
  assert.equal(stale.code, 0, stale.stdout + stale.stderr);
  assert.ok(!existsSync(join(dir, 'results', 'a', 'run.lock')), 'the lock goes when the run ends');
});

test('starting over: refused while a process runs the run; a partial run keeps its settings; names with paths are refused', async () => {
  const dir = workspace({ persona: { model: 'stand-in' }, runs: { a: { benchmark: 'starter', agent: 'chatbot' } } });
  assert.equal(mmb(['run', 'a'], dir).code, 0);
  const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
  try {
    writeFileSync(join(dir, 'results', 'a', 'run.lock'), JSON.stringify({ pid: holder.pid, since: '2026-11-29T10:00:00.000Z' }));
    const busy = mmb(['run', 'a', '--restart'], dir);
    assert.equal(busy.code, 2);
    assert.match(
      busy.stderr,
      new RegExp(`^mmb: run "a" is running \\(process ${holder.pid}, .*\\); stop it before starting it over\\.$`, 'm'),
    );
    assert.ok(existsSync(join(dir, 'results', 'a', 'state.json')), 'its results are intact');
  } finally {
    holder.kill();
  }
  await new Promise((r) => holder.once('exit', r));

  assert.equal(mmb(['run', 'a', '--from', 'chapter3.md:1', '--only', '--rehearse'], dir).code, 0);
  const again = mmb(['run', 'a.phase-chapter3-1.rehearsal', '--restart'], dir);
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.ok(
    existsSync(join(dir, 'results', 'a.phase-chapter3-1.rehearsal', 'run.json')),
    'a restarted partial run can still be resumed by name',
  );
  assert.equal(mmb(['run', 'a.phase-chapter3-1.rehearsal'], dir).code, 0);
  const mixed = mmb(['run', 'a', 'a.phase-chapter3-1.rehearsal'], dir);
  assert.equal(mixed.code, 2);
  assert.match(mixed.stderr, /rehearsals run on the stand-in .* run them separately/);

  for (const args of [
    ['run', '../a'],
    ['run', '--benchmark', '../starter', '--from', 'chapter1.md:1', '--rehearse'],
  ]) {
    const r = mmb(args, dir);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, /cannot be a folder name/);
  }
});

test('MMB_MAX_TURNS_PER_PHASE lowers the turn cap of mmb run; a value that is no whole number from 1 up is ignored', () => {
  const dir = workspace({
    persona: { model: 'stand-in:chaos?rate=1&behaviours=never-next-phase' },
    runs: { a: { benchmark: 'starter', agent: 'chatbot' } },
  });
  const capped = mmb(['run', 'a', '--from', 'chapter1.md:1', '--only'], dir, { MMB_MAX_TURNS_PER_PHASE: '4' });
  assert.notEqual(capped.code, 0);
  assert.match(capped.stdout + capped.stderr, /the persona took 4 turns in chapter1\.md, phase 1, without finishing it/);
  const ignored = mmb(['run', 'a', '--from', 'chapter1.md:1', '--only'], dir, { MMB_MAX_TURNS_PER_PHASE: '0' });
  assert.match(ignored.stdout + ignored.stderr, /the persona took 6\d turns in chapter1\.md, phase 1/, "the engine's own cap");
});
