/** `mmb report --html/--compare/--trends` as users run them, on a workspace holding the fixture runs. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, REPORTS, STARTER, tempDir, joinedPattern } from './helpers';

function mmb(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A workspace with the multiday benchmark and the four fixture runs in results/. */
function reportsWorkspace(): string {
  const dir = tempDir('mmb-report-');
  cpSync(join(REPORTS, 'benchmarks'), join(dir, 'benchmarks'), { recursive: true });
  cpSync(join(REPORTS, 'runs'), join(dir, 'results'), { recursive: true });
  return dir;
}

test('mmb report <id> --html writes results/<id>/report.html with links relative to it', () => {
  const dir = reportsWorkspace();
  const r = mmb(['report', 'chatbot-2', '--html'], dir);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'Wrote results/chatbot-2/report.html\n');
  const html = readFileSync(join(dir, 'results', 'chatbot-2', 'report.html'), 'utf8');
  assert.match(html, /<title>MarathonMemBench — chatbot-2: multiday @ chatbot<\/title>/);
  assert.ok(html.includes('href="../../benchmarks/multiday/week2.md" data-file="benchmarks/multiday/week2.md" data-line="11"'));
  const out = mmb(['report', 'chatbot-1', '--html', '--out', 'elsewhere/one.html'], dir);
  assert.equal(out.code, 0, out.stderr);
  assert.ok(readFileSync(join(dir, 'elsewhere', 'one.html'), 'utf8').includes('href="../benchmarks/multiday/'));
});

test('config.jsonc prices reach the cost estimate', () => {
  const dir = reportsWorkspace();
  writeFileSync(join(dir, 'config.jsonc'), '{ "prices": { "stand-in": { "input": 1, "output": 2 } } }');
  assert.equal(mmb(['report', 'chatbot-1', '--html'], dir).code, 0);
  assert.match(
    readFileSync(join(dir, 'results', 'chatbot-1', 'report.html'), 'utf8'),
    /<td class="num">\$1 \/ \$2<\/td><td class="num">\$0\.4437<\/td>/,
  );
});

test('mmb report --compare prints the differing checks and writes the comparison page', () => {
  const dir = reportsWorkspace();
  const r = mmb(['report', '--compare', 'chatbot-1', 'in-context', 'chatbot-2'], dir);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^check {3}chatbot-1 {3}in-context {2}chatbot-2$/m);
  assert.match(r.stdout, /^15\.3 {4}0\* {10}10 {10}0\* {10}What distance/m);
  assert.match(r.stdout, /^4 of 10 checks differ; 6 graded the same \(\* = 2nd attempt\)$/m);
  assert.match(r.stdout, /^Wrote results\/compare-chatbot-1-vs-in-context-vs-chatbot-2\.html$/m);
  assert.ok(existsSync(join(dir, 'results', 'compare-chatbot-1-vs-in-context-vs-chatbot-2.html')));
});

test('mmb report --trends groups the runs in results/ and marks the flaky check', () => {
  const dir = reportsWorkspace();
  const r = mmb(['report', '--trends'], dir);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    joinedPattern(
      [
        /^multiday @ chatbot on the stand-in: 3 runs \(chatbot-1, chatbot-2, chatbot-3\), /,
        /mean 2\.13, 2\.00–2\.40\n {2}flaky: {3}15\.4 \(0–4\)$/,
      ],
      'm',
    ),
  );
  assert.match(r.stdout, /^multiday @ chatbot on the stand-in \(session breaks ignored\): 1 run \(in-context\)/m);
  assert.match(readFileSync(join(dir, 'results', 'trends.html'), 'utf8'), /<tr class="flaky" data-check="15\.4">/);
  const strict = mmb(['report', '--trends', 'chatbot-1', 'chatbot-2', '--flaky', '5'], dir);
  assert.doesNotMatch(strict.stdout, /flaky:/);
});

test('unknown runs, runs of different benchmarks and misused options: exit 2 with one clear message', () => {
  const dir = reportsWorkspace();
  cpSync(STARTER, join(dir, 'benchmarks', 'starter'), { recursive: true });
  cpSync(join(dir, 'results', 'chatbot-1'), join(dir, 'results', 'other'), { recursive: true });
  const state = JSON.parse(readFileSync(join(dir, 'results', 'other', 'state.json'), 'utf8'));
  writeFileSync(join(dir, 'results', 'other', 'state.json'), JSON.stringify({ ...state, run: 'other', benchmark: 'starter' }));
  const cases: [string[], RegExp][] = [
    [
      ['report', 'chatbot-22', '--html'],
      joinedPattern([
        /^mmb: no results for run "chatbot-22" in results; the runs there: chatbot-1, chatbot-2, chatbot-3, in-context, other\. /,
        // chatbot-2 is one edit away, chatbot-1 and chatbot-3 two: only the nearest is offered.
        /Did you mean `chatbot-2`\?$/,
      ]),
    ],
    [
      ['report', '--compare', 'chatbot-1', 'other'],
      joinedPattern([
        /^mmb: runs of different benchmarks cannot be compared check by check /,
        /\(chatbot-1: multiday, other: starter\): compare runs of one benchmark\.$/,
      ]),
    ],
    [['report', '--compare', 'chatbot-1'], /^mmb: --compare needs two runs or more/],
    [['report', '--html'], /^mmb: --html needs a run/],
    [['report', 'chatbot-1', '--html', '--trends'], /^mmb: --html and --trends do not go together/],
    [['report', '--trends', '--flaky', 'x'], /^mmb: --flaky needs a value|^mmb: --flaky needs a number/],
    [['report', 'chatbot-1', '--out', 'a.html'], /^mmb: --out goes with --html, --compare or --trends\.$/],
  ];
  for (const [args, message] of cases) {
    const r = mmb(args, dir);
    assert.equal(r.code, 2, `${args.join(' ')}\n${r.stdout}${r.stderr}`);
    assert.match(r.stderr.split('\n')[0] ?? '', message, args.join(' '));
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  }
});
