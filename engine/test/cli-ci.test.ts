/**
 * The CI outputs through the built CLI: `mmb report --json`, `--junit` on `mmb report` and
 * `mmb run`, `--fail-under`. The JUnit files are checked for well-formedness and against the
 * shape of the JUnit schema (windyroad/JUnit-Schema's JUnit.xsd, rule by rule in `xmlCheck.ts`);
 * `junit-xsd.test.ts` validates them against junit-10.xsd with xmllint itself.
 */
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPORTS, tempDir, workspace, mmb } from './helpers';
import { assertJunitShape, casesOf, parseXml } from './xmlCheck';

function reportsWorkspace(): string {
  const dir = tempDir('mmb-ci-');
  cpSync(join(REPORTS, 'benchmarks'), join(dir, 'benchmarks'), { recursive: true });
  cpSync(join(REPORTS, 'runs'), join(dir, 'results'), { recursive: true });
  return dir;
}

const junitOf = (file: string) => assertJunitShape(parseXml(readFileSync(file, 'utf8')));

test("mmb report --json: every run's summary in one document, nothing else on stdout; named runs only when named", () => {
  const dir = reportsWorkspace();
  const all = mmb(['report', '--json'], dir);
  assert.equal(all.code, 0, all.stderr);
  const document = JSON.parse(all.stdout) as { runs: { run: string; average: number; coverage: { graded: number; planned: number } }[] };
  assert.deepEqual(Object.keys(document), ['runs', 'damaged']);
  assert.deepEqual(
    document.runs.map((s) => [s.run, s.average, s.coverage.graded, s.coverage.planned]),
    [
      ['chatbot-1', 2, 10, 10],
      ['chatbot-2', 2.4, 10, 10],
      ['chatbot-3', 2, 10, 10],
      ['in-context', 2.33, 10, 10],
    ],
  );
  const one = JSON.parse(mmb(['report', 'chatbot-2', '--json'], dir).stdout) as { runs: { run: string }[] };
  assert.deepEqual(
    one.runs.map((s) => s.run),
    ['chatbot-2'],
  );
  const withJunit = mmb(['report', '--json', '--junit', 'out/all.xml'], dir);
  assert.doesNotThrow(() => JSON.parse(withJunit.stdout), "the file's line goes to stderr");
  assert.equal(withJunit.stderr, 'Wrote out/all.xml\n');
  assert.deepEqual(
    junitOf(join(dir, 'out', 'all.xml')).map((s) => s.attributes.name),
    ['chatbot-1', 'chatbot-2', 'chatbot-3', 'in-context'],
  );
});

test('mmb report --junit: hostile answers in a saved run stay text in a well-formed file; --pass-score moves the failures', () => {
  const dir = reportsWorkspace();
  const stateFile = join(dir, 'results', 'chatbot-1', 'state.json');
  const state = JSON.parse(readFileSync(stateFile, 'utf8'));
  const hostile = ']]></failure></testcase></testsuite><testsuite name="forged"> & &lt; <x/> \u0000\u001b\u0008 "\'';
  state.grades['15.1'].at(-1).answer = hostile;
  state.grades['12.1'].at(-1).comment = '<![CDATA[ ]]>';
  writeFileSync(stateFile, JSON.stringify(state));
  const r = mmb(['report', 'chatbot-1', '--junit', 'junit.xml'], dir);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^- 📊 Evaluations: 10, average 2\.00\/10$/m, 'the text report as without --junit');
  assert.match(r.stdout, /^Wrote junit\.xml$/m);
  const [suite, ...more] = junitOf(join(dir, 'junit.xml'));
  assert.equal(more.length, 0, 'no suite was forged');
  assert.equal(suite!.attributes.failures, '8');
  const failure = casesOf(suite!).find((c) => c.attributes.name?.startsWith('15.1 '))!.children[0]!;
  assert.equal(
    failure.text.split('\n')[1],
    `got: ${[...hostile].filter((c) => c >= ' ').join('')}`,
    'only the characters XML forbids are gone',
  );
  const lenient = mmb(['report', 'chatbot-1', '--junit', 'junit.xml', '--pass-score', '0'], dir);
  assert.equal(lenient.code, 0, lenient.stderr);
  assert.equal(junitOf(join(dir, 'junit.xml'))[0]!.attributes.failures, '0');
});

test('mmb report --fail-under: exit 1 when a named run averages below it, 0 when none does', () => {
  const dir = reportsWorkspace();
  const below = mmb(['report', 'chatbot-1', 'chatbot-2', '--fail-under', '2.2'], dir);
  assert.equal(below.code, 1);
  assert.equal(below.stderr, 'mmb: chatbot-1 averages 2.00/10, below --fail-under 2.2\n');
  assert.equal(mmb(['report', 'chatbot-2', '--fail-under', '2.2'], dir).code, 0, 'a run averaging 2.4 holds 2.2');
  assert.equal(mmb(['report', '--fail-under', '9', '--json'], dir).code, 1, 'every run when none is named');
  assert.equal(mmb(['report', '--fail-under', '1'], dir).code, 0);
});

test('mmb run --junit --fail-under: a file per invocation, a crash as an error case, the threshold only if nothing worse happened', () => {
  const dir = workspace({
    persona: { model: 'stand-in' },
    runs: {
      a: { benchmark: 'starter', agent: 'chatbot' },
      d: { benchmark: 'starter', agent: 'chatbot', agent_model: { model: 'gone', base_url: 'http://127.0.0.1:9/v1' } },
    },
  });
  const env = { MMB_BACKOFF_BASE_MS: '1', MMB_MODEL_TIMEOUT_MS: '500' };
  const both = mmb(['run', '--junit', 'ci/run.xml', '--fail-under', '1'], dir, env);
  assert.equal(both.code, 1, both.stdout + both.stderr);
  assert.match(both.stdout, /^Wrote ci\/run\.xml$/m);
  const [a, d] = junitOf(join(dir, 'ci', 'run.xml'));
  assert.deepEqual([a!.attributes.name, a!.attributes.tests, a!.attributes.failures, a!.attributes.errors], ['a', '5', '4', '0']);
  assert.deepEqual(
    casesOf(a!).map((c) => c.attributes.classname),
    Array(5).fill('starter.chapter3'),
  );
  assert.equal(d!.attributes.errors, '1');
  const crash = casesOf(d!).at(-1)!;
  assert.equal(crash.attributes.name, 'the run crashed');
  assert.match(
    crash.children[0]!.attributes.message ?? '',
    /the chatbot's model failed: model gone: ECONNREFUSED from http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions/,
  );
  // The finished run again: nothing to play, the same figures, held to the threshold.
  const strict = mmb(['run', 'a', '--junit', 'a.xml', '--fail-under', '9'], dir);
  assert.equal(strict.code, 1, strict.stdout + strict.stderr);
  assert.equal(strict.stderr, 'mmb: a averages 2.00/10, below --fail-under 9\n');
  assert.equal(junitOf(join(dir, 'a.xml')).length, 1);
  assert.equal(mmb(['run', 'a', '--fail-under', '1'], dir).code, 0);
  const json = mmb(['report', 'a', '--json'], dir);
  assert.deepEqual(
    JSON.parse(json.stdout),
    { runs: [JSON.parse(readFileSync(join(dir, 'results', 'a', 'summary.json'), 'utf8'))], damaged: [] },
    'the figures of summary.json',
  );
});

test('misused CI options: exit 2 with one clear message', () => {
  const dir = reportsWorkspace();
  const cases: [string[], RegExp][] = [
    [['report', 'chatbot-1', '--pass-score', '9'], /^mmb: --pass-score goes with --junit/],
    [
      ['report', 'chatbot-1', '--fail-under', 'high'],
      /^mmb: --fail-under needs a score from 0 to 10, as in --fail-under 7\.5 \(got "high"\)\.$/,
    ],
    [['report', 'chatbot-1', '--junit', 'x.xml', '--pass-score', '11'], /^mmb: --pass-score needs a score from 0 to 10/],
    [['report', 'chatbot-1', '--json', '--html'], /^mmb: --json, --junit and --fail-under go with the text report, not with --html\.$/],
    [['report', '--junit'], /^mmb: --junit needs a value, as in --junit results\.xml or --junit=results\.xml\.$/],
    [['report', 'nope', '--json'], /^mmb: no results for run "nope"/],
    [['run', '--json'], /^mmb: unknown option --json for run\b/],
  ];
  for (const [args, message] of cases) {
    const r = mmb(args, dir);
    assert.equal(r.code, 2, `${args.join(' ')}\n${r.stdout}${r.stderr}`);
    if (args[0] === 'report' && args.includes('--json')) {
      // With --json, a usage error is JSON on stdout too, and stderr stays empty.
      assert.match(`mmb: ${(JSON.parse(r.stdout) as { error: string }).error}`, message, args.join(' '));
      assert.equal(r.stderr, '', args.join(' '));
      continue;
    }
    assert.match(r.stderr.split('\n')[0] ?? '', message, args.join(' '));
    assert.equal(r.stdout, '', args.join(' '));
  }
  assert.equal(mmb(['report', '--fail-under', '5'], tempDir()).code, 2, 'no runs to hold to a threshold is a usage error, not a pass');
});
