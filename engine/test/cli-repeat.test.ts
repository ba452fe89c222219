/**
 * `mmb run --repeat`, `-j`, `--shard` and `mmb report --merge` through the built CLI on the
 * stand-in: the ids of repeats, how many runs play at once, the split over machines (disjoint,
 * complete, the same on each), and the results folders brought back, checked as untrusted.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { tempDir, workspace, mmb } from './helpers';

const run = (name: string) => ({ [name]: { benchmark: 'starter', agent: 'chatbot' } });
const config = (...names: string[]) => ({ persona: { model: 'stand-in' }, runs: Object.assign({}, ...names.map(run)) });
const resultLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => / (finished|crashed) +average /.test(line))
    .map((line) => line.split(' ')[0]);
const state = (dir: string, id: string) =>
  JSON.parse(readFileSync(join(dir, 'results', id, 'state.json'), 'utf8')) as { run: string; startedAt: string; finishedAt: string };
const runsIn = (dir: string) =>
  readdirSync(join(dir, 'results'))
    .filter((name) => !name.includes('.md'))
    .sort();

test('--repeat N: runs <id>#1 … <id>#N, resumable by id, one group in the list and in trends; -j plays them at once or one by one', () => {
  // "parallel": 2 in the config: -j 3 plays more at once, -j 1 fewer.
  const dir = workspace({ ...config('a', 'b'), parallel: 2 });
  const r = mmb(['run', 'a', '--repeat', '3', '-j', '3'], dir);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(r.stderr, '');
  assert.deepEqual(resultLines(r.stdout), ['a#1', 'a#2', 'a#3']);
  assert.deepEqual(runsIn(dir), ['a#1', 'a#2', 'a#3'], 'a folder per repeat, nothing of b');
  const repeats = ['a#1', 'a#2', 'a#3'].map((id) => state(dir, id));
  assert.deepEqual(
    repeats.map((s) => s.run),
    ['a#1', 'a#2', 'a#3'],
    'each state names its repeat',
  );
  const firstFinish = repeats.map((s) => s.finishedAt).sort()[0]!;
  assert.ok(
    repeats.every((s) => s.startedAt < firstFinish),
    '-j 3 over "parallel": 2: all three started before any finished',
  );
  const again = mmb(['run', 'a#2'], dir);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /^a#2: finished already/m);
  const one = mmb(['run', 'b', '--repeat', '2', '--max-concurrency=1'], dir);
  assert.equal(one.code, 0, one.stderr);
  assert.ok(state(dir, 'b#2').startedAt >= state(dir, 'b#1').finishedAt, '-j 1: the second starts after the first finished');
  const list = mmb(['report'], dir);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /^repeats of a: 3 \(3 finished\), mean 2\.00 \(2\.00–2\.00\)$/m);
  assert.match(list.stdout, /^repeats of b: 2 \(2 finished\)/m);
  const trends = mmb(['report', '--trends'], dir);
  assert.equal(trends.code, 0, trends.stderr);
  assert.match(trends.stdout, /^repeats of a \(starter @ chatbot on the stand-in\): 3 runs \(a#1, a#2, a#3\), mean 2\.00/m);
  assert.match(
    trends.stdout,
    /^repeats of b \(starter @ chatbot on the stand-in\): 2 runs \(b#1, b#2\)/m,
    'the repeats of another run of the same configuration are a group of their own',
  );
  const html = mmb(['report', 'a#1', '--html'], dir);
  assert.equal(html.code, 0, html.stderr);
  // `#` would start a fragment in a browser: the file URL that opens it follows the path.
  assert.equal(html.stdout, `Wrote results/a#1/report.html (${pathToFileURL(join(dir, 'results', 'a#1', 'report.html')).href})\n`);
  assert.ok(existsSync(join(dir, 'results', 'a#1', 'report.html')));
});

test('--repeat, -j, --shard: bad values exit 2 with one line and run nothing', () => {
  const dir = workspace(config('a'));
  const cases: [string[], RegExp][] = [
    [['run', 'a', '--repeat', '0'], /^mmb: --repeat needs a whole number from 1 to 100, as in --repeat 3 \(got "0"\)\.$/m],
    [['run', 'a', '--repeat', '101'], /^mmb: --repeat needs a whole number from 1 to 100/],
    [
      ['run', 'a', '-j', '1.5'],
      /^mmb: -j, --max-concurrency needs a whole number from 1 to 64, as in --max-concurrency 4 \(got "1\.5"\)\.$/m,
    ],
    [['run', 'a', '--shard', '3/2'], /^mmb: --shard needs this machine's number and the number of machines, as in --shard 1\/3/],
    [['run', 'a', '--shard', 'one'], /^mmb: --shard needs/],
    [['run', 'a#1', '--repeat', '2'], /^mmb: "a#1" is a repeat already: --repeat takes the run it repeats \(a\)\.$/m],
    [['run', 'a#0'], /^mmb: the run "a#0" cannot be a folder name/],
    [['run', 'b#1'], /^mmb: no run "b#1" in config\.jsonc; its runs: a\.$/m],
  ];
  for (const [args, message] of cases) {
    const r = mmb(args, dir);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, message, args.join(' '));
    assert.equal(r.stderr.split('\n').length, 2, `${args.join(' ')}: one line`);
    assert.equal(r.stdout, '', args.join(' '));
  }
  assert.equal(existsSync(join(dir, 'results')), false, 'nothing ran');
});

test('--shard I/N splits the runs and their repeats round-robin; an empty shard says so and exits 0', () => {
  const machines = [1, 2].map(() => workspace(config('a', 'b', 'c')));
  const shares = machines.map((dir, i) => {
    const r = mmb(['run', 'a', 'c', '--repeat', '2', '--shard', `${i + 1}/2`, '-j', '2'], dir);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    return resultLines(r.stdout);
  });
  // In the order named, a#1 a#2 c#1 c#2: the k-th goes to shard k mod 2 + 1.
  assert.deepEqual(shares, [
    ['a#1', 'c#1'],
    ['a#2', 'c#2'],
  ]);
  const empty = mmb(['run', 'a', '--shard', '2/2'], machines[0]!);
  assert.equal(empty.code, 0, empty.stderr);
  assert.equal(empty.stderr, 'mmb: shard 2/2 has no runs (1 in all): nothing to do here.\n');
  assert.deepEqual(resultLines(empty.stdout), []);

  // The three machines' results, brought together on a fourth.
  const here = workspace(config('a', 'b', 'c'));
  writeFileSync(join(machines[1]!, 'results', 'a#2', 'run.lock'), JSON.stringify({ pid: process.pid, since: 'now' }));
  const merge = mmb(['report', '--merge', ...machines.map((dir) => join(dir, 'results')), '--junit', 'all.xml'], here);
  assert.equal(merge.code, 0, merge.stdout + merge.stderr);
  assert.equal(merge.stderr, '');
  assert.match(merge.stdout, /^Merged 4 runs into results\.$/m);
  assert.match(merge.stdout, /^Wrote all\.xml$/m);
  assert.deepEqual(runsIn(here), ['a#1', 'a#2', 'c#1', 'c#2']);
  assert.equal(existsSync(join(here, 'results', 'a#2', 'run.lock')), false, 'a lock names a process of another machine: it never travels');
  assert.match(merge.stdout, /^a#2 +starter +chatbot +finished +2\.00 +5\/5$/m, 'listed as finished, not running');
  const report = readFileSync(join(here, 'results', 'report.md'), 'utf8');
  assert.equal(report.match(/^## .* — [ac]#\d: starter @ chatbot$/gm)?.length, 4, 'one report.md entry per merged run');
  assert.equal(readFileSync(join(here, 'all.xml'), 'utf8').match(/<testsuite /g)?.length, 4);
  const twice = mmb(['report', '--merge', join(machines[0]!, 'results')], here);
  assert.equal(twice.code, 0, twice.stderr);
  assert.match(twice.stdout, /^Merged 0 runs into results \(2 already there\)\.$/m, 'the same runs again change nothing');
  assert.equal(readFileSync(join(here, 'results', 'report.md'), 'utf8'), report);
});

test('--merge takes its folders as untrusted: links, oversized files, foreign names and conflicts refuse the whole merge', () => {
  const source = workspace(config('a', 'b'));
  assert.equal(mmb(['run'], source).code, 0);
  const results = join(source, 'results');
  const attempt = (prepare: (copy: string) => void) => {
    const copy = join(tempDir('mmb-merge-'), 'results');
    cpSync(results, copy, { recursive: true });
    prepare(copy);
    const here = workspace(config('a', 'b'));
    return { here, r: mmb(['report', '--merge', copy], here) };
  };
  const refusals: [string, (copy: string) => void, RegExp][] = [
    [
      'a link',
      (copy) => symlinkSync('/etc', join(copy, 'b', 'memory')),
      /^mmb: --merge: .*b\/memory is a link: a run's files are never links\.$/m,
    ],
    [
      'a huge file',
      (copy) => truncateSync(join(copy, 'b', 'journal.jsonl'), 300 * 1024 * 1024),
      /^mmb: --merge: .*b\/journal\.jsonl is 300 MiB, more than a run's file may be\.$/m,
    ],
    [
      'a renamed folder',
      (copy) => cpSync(join(copy, 'a'), join(copy, 'z'), { recursive: true }),
      /^mmb: --merge: .*z holds the state of run "a", not of "z"/,
    ],
    ['a damaged state', (copy) => writeFileSync(join(copy, 'b', 'state.json'), '{ cut'), /^mmb: --merge: .*b is damaged: /],
  ];
  for (const [what, prepare, message] of refusals) {
    const { here, r } = attempt(prepare);
    assert.equal(r.code, 2, `${what}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, message, what);
    assert.equal(r.stdout, '', what);
    assert.equal(existsSync(join(here, 'results', 'a')), false, `${what}: nothing copied, not even the good run`);
  }
  const { here, r } = attempt((copy) => mkdirSync(join(copy, 'not a run')));
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^mmb: --merge left out .*\/not a run: not a run id$/m);
  assert.deepEqual(runsIn(here), ['a', 'b']);
  // The same id with other results here: refused, the run here kept.
  const other = workspace(config('a'));
  assert.equal(mmb(['run', 'a', '--filter', 'HIST'], other).code, 0);
  rmSync(join(other, 'results', 'a'), { recursive: true, force: true });
  cpSync(join(other, 'results', 'a.filter-HIST'), join(other, 'results', 'a'), { recursive: true });
  const conflict = mmb(['report', '--merge', results], other);
  assert.equal(conflict.code, 2, conflict.stdout);
  assert.match(conflict.stderr, /^mmb: run "a" of .* is already in results with other results: delete one of them first\.$/m);
});
