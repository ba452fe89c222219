/**
 * Reports outlive their benchmark: a run keeps the benchmark it played in results/<run>/benchmark/,
 * and `mmb report <id>`, `--html`, the list and `mmb view`'s pages read it, say in one line when the
 * benchmark has changed or gone, fall back to the folder and then to the state alone, and never refuse.
 */
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, readdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { main } from '../src/cli/main';
import { FileRunStore } from '../src/run/store';
import { readValidBenchmark } from '../src/workspace/launch';
import { keepBenchmark, keepPlayedBenchmark, MAX_KEPT_FILES } from '../src/workspace/keptBenchmark';
import { STARTER, tempDir, workspace } from './helpers';

interface Ran {
  code: number;
  out: string;
  err: string;
}

async function mmb(args: string[], cwd: string): Promise<Ran> {
  let out = '';
  let err = '';
  const io = { out: (s: string) => void (out += s), err: (s: string) => void (err += s), tty: false, env: {} };
  const code = await main(args, cwd, io);
  return { code, out, err };
}

/** One finished run `a` of the starter on the stand-in, in a workspace of its own (made once, copied per test). */
let finished: Promise<string> | undefined;
async function ranWorkspace(): Promise<string> {
  finished ??= (async () => {
    // Not named as a bundled benchmark: `mmb report` would read that one when the workspace's is gone.
    const dir = workspace({ persona: { model: 'stand-in' }, runs: { a: { benchmark: 'mine', agent: 'chatbot' } } }, { mine: STARTER });
    const ran = await mmb(['run', 'a'], dir);
    assert.equal(ran.code, 0, ran.err);
    return dir;
  })();
  const copy = tempDir('mmb-kept-');
  cpSync(await finished, copy, { recursive: true });
  return copy;
}

const kept = (dir: string) => join(dir, 'results', 'a', 'benchmark');

test('a run keeps the files it played, with their digests in kept.json', async () => {
  const dir = await ranWorkspace();
  assert.deepEqual(readdirSync(kept(dir)).sort(), [
    'README.md',
    'benchmark.json',
    'chapter1.md',
    'chapter2.md',
    'chapter3.md',
    'instructions.md',
    'kept.json',
    'move.md',
    'profile.md',
  ]);
  assert.equal(readFileSync(join(kept(dir), 'chapter2.md'), 'utf8'), readFileSync(join(dir, 'benchmarks', 'mine', 'chapter2.md'), 'utf8'));
  const manifest = JSON.parse(readFileSync(join(kept(dir), 'kept.json'), 'utf8')) as { benchmark: string; files: object };
  assert.equal(manifest.benchmark, 'mine');
  assert.equal(Object.keys(manifest.files).length, 8);
  const report = await mmb(['report', 'a'], dir);
  assert.equal(report.code, 0, report.err);
  assert.doesNotMatch(report.out, /Note:/, 'an unchanged benchmark needs no line');
  assert.match(report.out, /📊 Check coverage: 5\/5/);
  const json = await jsonRuns(['a'], dir);
  assert.equal(json[0]?.run, 'a');
  assert.equal('benchmarkNote' in json[0]!, false, 'nor a field');
});

/** `mmb report --json [ids]`'s runs. */
async function jsonRuns(ids: string[], dir: string): Promise<{ run: string; benchmarkNote?: string; coverage: unknown }[]> {
  const ran = await mmb(['report', '--json', ...ids], dir);
  assert.equal(ran.code, 0, ran.err);
  return (JSON.parse(ran.out) as { runs: { run: string; benchmarkNote?: string; coverage: unknown }[] }).runs;
}

/** The `Note:` line of `mmb report <id>`, without its label and full stop: what `--json` gives as `benchmarkNote`. */
async function textNote(id: string, dir: string): Promise<string | undefined> {
  const line = (await mmb(['report', id], dir)).out.split('\n').find((text) => text.startsWith('Note: '));
  return line?.slice('Note: '.length).replace(/\.$/, '');
}

test("mmb report --json carries the note of the text report as each run's benchmarkNote: changed, gone, no copy", async () => {
  const dir = await ranWorkspace();
  appendFileSync(
    join(dir, 'benchmarks', 'mine', 'chapter1.md'),
    '\n## 🪤 A phase added later\n```js\nbench.x()\n```\n❓ `mine` changed 🎉\n',
  );
  const changed = await jsonRuns([], dir);
  assert.equal(
    changed[0]?.benchmarkNote,
    'the benchmark has changed since this run; the report uses the copy kept with the run (results/a/benchmark/)',
  );
  assert.equal(changed[0]?.benchmarkNote, await textNote('a', dir), 'the same fact as the text report');
  assert.match(JSON.stringify(changed[0]?.coverage), /^\{"graded":5,"planned":5,/, 'counted from the kept copy');

  rmSync(join(dir, 'benchmarks', 'mine'), { recursive: true });
  const gone = await jsonRuns(['a'], dir);
  assert.match(
    gone[0]?.benchmarkNote ?? '',
    /^the benchmark is gone \(benchmarks\/mine has no benchmark\.json\); the report uses the copy/,
  );
  assert.equal(gone[0]?.benchmarkNote, await textNote('a', dir));

  rmSync(kept(dir), { recursive: true });
  const stateOnly = await jsonRuns(['a'], dir);
  assert.match(stateOnly[0]?.benchmarkNote ?? '', /and no copy was kept with this run: the report shows what the run's state holds/);
  assert.equal(stateOnly[0]?.benchmarkNote, await textNote('a', dir));
});

test('a chapter deleted after the run: report and --html exit 0 from the kept copy, with the line', async () => {
  const dir = await ranWorkspace();
  rmSync(join(dir, 'benchmarks', 'mine', 'chapter3.md'));
  const report = await mmb(['report', 'a'], dir);
  assert.equal(report.code, 0, report.err);
  assert.match(
    report.out,
    /^Note: the benchmark has changed since this run; the report uses the copy kept with the run \(results\/a\/benchmark\/\)\.\n/,
  );
  assert.match(report.out, /📊 Check coverage: 5\/5/);
  const html = await mmb(['report', 'a', '--html'], dir);
  assert.equal(html.code, 0, html.err);
  const page = readFileSync(join(dir, 'results', 'a', 'report.html'), 'utf8');
  assert.match(page, /<p class="note">ℹ the benchmark has changed since this run; the report uses the copy kept with the run/);
  assert.ok(page.includes('data-file="results/a/benchmark/chapter3.md"'), 'links lead to the kept copy');
});

test('an edited chapter: "changed since"; the benchmark gone: "is gone", both from the kept copy', async () => {
  const dir = await ranWorkspace();
  appendFileSync(join(dir, 'benchmarks', 'mine', 'chapter1.md'), '\nOne more line.\n');
  assert.match((await mmb(['report', 'a'], dir)).out, /^Note: the benchmark has changed since this run;/);
  rmSync(join(dir, 'benchmarks', 'mine'), { recursive: true });
  const gone = await mmb(['report', 'a'], dir);
  assert.equal(gone.code, 0, gone.err);
  assert.match(gone.out, /^Note: the benchmark is gone \(benchmarks\/mine has no benchmark\.json\); the report uses the copy kept/);
  assert.match(gone.out, /📊 Check coverage: 5\/5/);
  const list = await mmb(['report'], dir);
  assert.match(list.out, /^a +mine +chatbot +finished +[\d.]+ +5\/5$/m, 'the list gives the number from the kept copy');
});

test('no kept copy and the benchmark deleted (a run from before): still a report, from the state', async () => {
  const dir = await ranWorkspace();
  rmSync(kept(dir), { recursive: true });
  rmSync(join(dir, 'benchmarks', 'mine'), { recursive: true });
  const report = await mmb(['report', 'a'], dir);
  assert.equal(report.code, 0, report.err);
  assert.match(
    report.out,
    new RegExp(
      '^Note: the benchmark is gone \\(benchmarks/mine has no benchmark\\.json\\) and no copy was kept with this run: ' +
        "the report shows what the run's state holds \\(the 5 checks it graded, without their questions; " +
        'how many checks it had is unknown\\)\\.\n',
    ),
  );
  const html = await mmb(['report', 'a', '--html'], dir);
  assert.equal(html.code, 0, html.err);
  const list = await mmb(['report'], dir);
  assert.match(list.out, /^a +mine +chatbot +finished +[\d.]+ +5\/\?$/m);
  assert.match(list.out, /^coverage \?: the number of checks is unknown for a: the benchmark is gone/m);
});

test('a damaged kept copy: truncated, missing, a link planted; the report renders, naming the problem', async () => {
  const cases: [string, (dir: string) => void, RegExp][] = [
    [
      'truncated',
      (dir) => truncateSync(join(kept(dir), 'chapter2.md'), 10),
      /damaged: benchmark\/chapter2\.md: it holds 10 bytes, not the \d+ kept/,
    ],
    ['missing', (dir) => rmSync(join(kept(dir), 'move.md')), /damaged: benchmark\/move\.md: it cannot be read \(it is gone\)/],
    ['manifest', (dir) => writeFileSync(join(kept(dir), 'kept.json'), '{"benchmark": '), /damaged: benchmark\/kept\.json: /],
    [
      'link',
      (dir) => {
        rmSync(kept(dir), { recursive: true });
        symlinkSync(join(dir, 'benchmarks', 'mine'), kept(dir));
      },
      /damaged: benchmark\/: a link where the kept copy goes \(never followed\)/,
    ],
  ];
  for (const [name, damage, line] of cases) {
    const dir = await ranWorkspace();
    damage(dir);
    rmSync(join(dir, 'benchmarks', 'mine', 'chapter3.md'));
    const report = await mmb(['report', 'a'], dir);
    assert.equal(report.code, 0, `${name}: ${report.err}`);
    assert.match(report.out, new RegExp(`^Note: ${line.source}.*: the report shows what the run's state holds`), name);
    const html = await mmb(['report', 'a', '--html'], dir);
    assert.equal(html.code, 0, `${name}: ${html.err}`);
  }
});

test('a resume that plays a changed benchmark keeps it, and says so; a finished run keeps its copy', async () => {
  const dir = await ranWorkspace();
  const runFolder = join(dir, 'results', 'a');
  const state = new FileRunStore(runFolder).load()!;
  const folder = join(dir, 'benchmarks', 'mine');
  appendFileSync(join(folder, 'chapter3.md'), '\nA line added after the run.\n');
  const read = readValidBenchmark(folder, 'benchmarks/mine');
  const played = { whole: read.benchmark, files: read.files };
  assert.deepEqual(keepPlayedBenchmark(runFolder, 'mine', played, state), [], 'a finished run has nothing left to play');
  assert.doesNotMatch(readFileSync(join(kept(dir), 'chapter3.md'), 'utf8'), /added after the run/);
  const stopped = { ...state, status: 'running' as const, position: { chapter: 'chapter2.md', chapterIndex: 1, phase: 0 } };
  assert.deepEqual(keepPlayedBenchmark(runFolder, 'mine', played, stopped), [
    'the benchmark has changed since the run started: the run goes on with it as it is now, ' +
      'and the copy kept with the run (benchmark/ of its results folder) is now this one',
  ]);
  assert.match(readFileSync(join(kept(dir), 'chapter3.md'), 'utf8'), /added after the run/);
  assert.deepEqual(
    readdirSync(runFolder).filter((name) => name.startsWith('.')),
    [],
    'nothing is left aside',
  );
  assert.deepEqual(keepPlayedBenchmark(runFolder, 'mine', played, stopped), [], 'the same files again: left as they are');
  const lost = { ...stopped, position: { chapter: 'chapter9.md', chapterIndex: 8, phase: 0 } };
  appendFileSync(join(folder, 'chapter3.md'), 'Another.\n');
  const again = readValidBenchmark(folder, 'benchmarks/mine');
  assert.deepEqual(keepPlayedBenchmark(runFolder, 'mine', { whole: again.benchmark, files: again.files }, lost), []);
  assert.doesNotMatch(readFileSync(join(kept(dir), 'chapter3.md'), 'utf8'), /Another/, 'a resume that cannot go on keeps the copy');
});

test('a benchmark past the cap is not kept, in one line; a damaged copy of an unchanged folder reads the folder', async () => {
  const many = new Map(Array.from({ length: MAX_KEPT_FILES + 1 }, (_, i) => [`sheet${i}.md`, '# S\n'] as const));
  const folder = tempDir('mmb-kept-cap-');
  const outcome = keepBenchmark(folder, 'huge', many);
  assert.ok('skipped' in outcome);
  assert.match(
    outcome.skipped,
    /^the benchmark is not kept with the run: its 5001 files hold 1 MiB, more than the 5000 files or 32 MiB kept;/,
  );
  assert.deepEqual(readdirSync(folder), []);
  const dir = await ranWorkspace();
  truncateSync(join(kept(dir), 'chapter1.md'), 3);
  const report = await mmb(['report', 'a'], dir);
  assert.equal(report.code, 0, report.err);
  assert.match(
    report.out,
    /^Note: damaged: benchmark\/chapter1\.md: it holds 3 bytes, not the \d+ kept; the report reads benchmarks\/mine\/, unchanged since\.\n/,
  );
  assert.match(report.out, /📊 Check coverage: 5\/5/);
});

test('compare and trends of runs whose benchmark is gone read the copy kept with them', async () => {
  const dir = await ranWorkspace();
  cpSync(join(dir, 'results', 'a'), join(dir, 'results', 'b'), { recursive: true });
  const state = JSON.parse(readFileSync(join(dir, 'results', 'b', 'state.json'), 'utf8')) as { run: string };
  writeFileSync(join(dir, 'results', 'b', 'state.json'), JSON.stringify({ ...state, run: 'b' }));
  rmSync(join(dir, 'benchmarks', 'mine'), { recursive: true });
  const compare = await mmb(['report', '--compare', 'a', 'b'], dir);
  assert.equal(compare.code, 0, compare.err);
  assert.match(compare.out, /^Note: a: the benchmark is gone \(benchmarks\/mine has no benchmark\.json\); the report uses the copy kept/);
  const trends = await mmb(['report', '--trends'], dir);
  assert.equal(trends.code, 0, trends.err);
  assert.match(trends.out, /^mine @ chatbot on the stand-in: 2 runs \(a, b\)/m);
});

test('mmb report --merge brings the kept copy: the run reports here, where its benchmark never was', async () => {
  const dir = await ranWorkspace();
  const here = workspace({ persona: { model: 'stand-in' }, runs: {} }, {});
  const merged = await mmb(['report', '--merge', join(dir, 'results')], here);
  assert.equal(merged.code, 0, merged.err);
  assert.equal(readFileSync(join(kept(here), 'chapter2.md'), 'utf8'), readFileSync(join(kept(dir), 'chapter2.md'), 'utf8'));
  const report = await mmb(['report', 'a'], here);
  assert.equal(report.code, 0, report.err);
  assert.match(report.out, /^Note: the benchmark is gone \(benchmarks\/mine has no benchmark\.json\); the report uses the copy kept/);
  assert.match(report.out, /📊 Check coverage: 5\/5/);
});

test('runs of one benchmark read it once: the second copy is checked by its sizes, a truncated one still named', async () => {
  const dir = await ranWorkspace();
  cpSync(join(dir, 'results', 'a'), join(dir, 'results', 'b'), { recursive: true });
  const state = JSON.parse(readFileSync(join(dir, 'results', 'b', 'state.json'), 'utf8')) as { run: string };
  writeFileSync(join(dir, 'results', 'b', 'state.json'), JSON.stringify({ ...state, run: 'b' }));
  truncateSync(join(dir, 'results', 'b', 'benchmark', 'chapter2.md'), 10);
  const report = await mmb(['report', 'a', 'b'], dir);
  assert.equal(report.code, 0, report.err);
  const notes = report.out.split('\n').filter((line) => line.startsWith('Note:'));
  assert.equal(notes.length, 1, report.out);
  assert.match(
    notes[0]!,
    /^Note: damaged: benchmark\/chapter2\.md: it holds 10 bytes, not the \d+ kept; the report reads benchmarks\/mine\/, unchanged since\.$/,
  );
  const list = await mmb(['report'], dir);
  assert.match(list.out, /^b +mine +chatbot +finished +[\d.]+ +5\/5$/m);
});
