/**
 * One damaged run harms only itself (issue 28, item 5). A run folder beside the four report
 * fixtures is damaged in one way at a time (fourteen: `null`, `[]`, wrong types, `__proto__`, huge
 * numbers, cut JSON, an empty file, binary garbage, a folder in a file's place, journal lines of the
 * wrong shape); each time the built CLI lists every other run (`mmb report`, `--json` with the
 * damaged row, exit 0), `mmb run` on the damaged run says in one line what is damaged and offers
 * `--restart` (exit 2), and `mmb view`'s pages answer: the index and the trends with the others,
 * the damaged run's page with what is wrong.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { pageAt } from '../src/view/pages';
import { CLI, mmb, REPORTS, tempDir } from './helpers';

const OTHERS = ['chatbot-1', 'chatbot-2', 'chatbot-3', 'in-context'];
const AT = '2026-03-01T09:00:00.000Z';

/** The report fixtures in results/, the multiday benchmark, and `bad` (a copy of chatbot-1 until damaged) in config.jsonc. */
function fixtureWorkspace(): string {
  const dir = tempDir('mmb-damaged-');
  cpSync(join(REPORTS, 'benchmarks'), join(dir, 'benchmarks'), { recursive: true });
  cpSync(join(REPORTS, 'runs'), join(dir, 'results'), { recursive: true });
  const runs = { bad: { benchmark: 'multiday', agent: 'chatbot' } };
  writeFileSync(join(dir, 'config.jsonc'), JSON.stringify({ persona: { model: 'stand-in' }, runs }));
  return dir;
}

const wholeState = () => readFileSync(join(REPORTS, 'runs', 'chatbot-1', 'state.json'), 'utf8');
const edited = (change: (state: Record<string, unknown>) => void) => {
  const state = JSON.parse(wholeState()) as Record<string, unknown>;
  change(state);
  return JSON.stringify(state);
};

/** Bytes no JSON parser takes, the same at every run of the test. */
function garbage(length: number): Buffer {
  let seed = 28;
  return Buffer.from(Array.from({ length }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256));
}

interface Damage {
  name: string;
  /** The damaged file of results/bad/. */
  file: 'state.json' | 'journal.jsonl';
  /** What the problem says after `damaged: results/bad/<file>: `. */
  what: RegExp;
  /** What `mmb view`'s index says of it, when the view refuses it before reading (its own bound on what it serves). */
  viewed?: RegExp;
  /** Left out of `mmb view` altogether: its index lists real folders of results/ only. */
  unlisted?: true;
  plant: (run: string) => void;
}

const state = (text: string | Buffer) => (run: string) => writeFileSync(join(run, 'state.json'), text);
const journal = (line: unknown) => (run: string) => {
  writeFileSync(join(run, 'state.json'), wholeState());
  writeFileSync(join(run, 'journal.jsonl'), `${JSON.stringify(line)}\n`);
};

const DAMAGES: Damage[] = [
  { name: 'null', file: 'state.json', what: /^an object expected, found null/, plant: state('null') },
  { name: '[]', file: 'state.json', what: /^an object expected, found an array/, plant: state('[]') },
  {
    name: 'grades: [1]',
    file: 'state.json',
    what: /^grades: an object expected, found an array/,
    plant: state(
      edited((s) => {
        s.grades = [1];
      }),
    ),
  },
  {
    name: 'a grade of the wrong type',
    file: 'state.json',
    what: /^grades\["15\.1"\]\[0\]: an object expected, found the number 1/,
    plant: state(
      edited((s) => {
        (s.grades as Record<string, unknown>)['15.1'] = [1];
      }),
    ),
  },
  {
    name: 'grades: {"__proto__": …}',
    file: 'state.json',
    what: /^grades\.__proto__: a key no file of the engine holds/,
    plant: state(wholeState().replace('"grades":{', '"grades":{"__proto__":[{"score":10}],')),
  },
  {
    name: 'a huge number',
    file: 'state.json',
    what: /^events: a whole number from 0 expected, found the number Infinity/,
    plant: state(wholeState().replace(/"events":\d+/, '"events":1e400')),
  },
  {
    name: 'a phase past any index',
    file: 'state.json',
    what: /^position\.phase: a whole number from 0 expected, found the number 1e\+300/,
    plant: state(
      edited((s) => {
        s.position = { chapter: 'exam.md', chapterIndex: 0, phase: 1e300 };
      }),
    ),
  },
  {
    name: 'a date that is no date',
    file: 'state.json',
    what: /^lastEventAt: a date and time expected, found the string "yesterday"/,
    plant: state(
      edited((s) => {
        s.lastEventAt = 'yesterday';
      }),
    ),
  },
  {
    name: 'a text that is a number',
    file: 'state.json',
    what: /^transcript\[2\]\.text: a string expected, found the number 42/,
    plant: state(
      edited((s) => {
        (s.transcript as Record<string, unknown>[])[2]!.text = 42;
      }),
    ),
  },
  { name: 'cut JSON', file: 'state.json', what: /^not JSON \(/, plant: state(wholeState().slice(0, 20_000)) },
  { name: 'an empty file', file: 'state.json', what: /^empty$/, plant: state('') },
  { name: 'binary garbage', file: 'state.json', what: /^not JSON \(\P{Cc}*\)$/u, plant: state(garbage(4096)) },
  // Sparse: no disk is used, but a reader that read it whole would take 600 MB of memory first.
  {
    name: 'a state of 600 MiB',
    file: 'state.json',
    what: /^a file of 600 MiB \(at most 512 MiB is read\)$/,
    viewed: /bad&#39;s state files hold 600 MiB, more than the 128 MiB served/,
    plant: (run) => {
      writeFileSync(join(run, 'state.json'), '{');
      truncateSync(join(run, 'state.json'), 600 * 1024 * 1024);
    },
  },
  // A link planted in results/: following it would show the outside file's first bytes in the parser's message.
  {
    name: 'a link where state.json goes',
    file: 'state.json',
    what: /^a link where a file goes \(never followed\)$/,
    plant: (run) => {
      const outside = join(dirname(dirname(dirname(run))), 'outside-secret.txt');
      writeFileSync(outside, 'outside-canary-text');
      symlinkSync(outside, join(run, 'state.json'));
    },
  },
  {
    name: 'a run folder that is a link',
    file: 'state.json',
    what: /^its run folder is a link, which is never followed$/,
    unlisted: true,
    plant: (run) => {
      const outside = join(dirname(dirname(dirname(run))), 'outside-run');
      rmSync(outside, { recursive: true, force: true });
      mkdirSync(outside);
      writeFileSync(join(outside, 'state.json'), wholeState());
      rmSync(run, { recursive: true });
      symlinkSync(outside, run);
    },
  },
  {
    name: 'a folder where state.json goes',
    file: 'state.json',
    what: /^a folder where a file goes$/,
    plant: (run) => mkdirSync(join(run, 'state.json')),
  },
  {
    name: 'a journal line of the wrong shape',
    file: 'journal.jsonl',
    what: /^line 1: seq: a whole number from 0 expected, found the string "x"/,
    plant: journal({ n: 461, type: 'reply', at: AT, seq: 'x', text: 'hi' }),
  },
  {
    name: 'a journal line of no event type',
    file: 'journal.jsonl',
    what: /^line 1: type: one of start, .* expected, found the string "drop"/,
    plant: journal({ n: 461, type: 'drop', at: AT }),
  },
  {
    name: 'a folder where journal.jsonl goes',
    file: 'journal.jsonl',
    what: /^a folder where a file goes$/,
    plant: (run) => mkdirSync(join(run, 'journal.jsonl')),
  },
];

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The problem line of a damage after its prefix: `damaged: results/bad/<file>: <what>; …--restart…`. */
function assertDamagedLine(line: string, prefix: string, damage: Damage, id = 'bad'): void {
  assert.ok(line.startsWith(`${prefix}damaged: results/${id}/${damage.file}: `), `${damage.name}: ${line}`);
  const what = line.slice(`${prefix}damaged: results/${id}/${damage.file}: `.length);
  assert.match(what.split('; start it over')[0]!, damage.what, damage.name);
  assert.match(
    line,
    new RegExp(
      `; start it over with \`mmb run ${escaped(id)} --restart\` \\(its results are deleted\\), or delete results/${escaped(id)}\\.$`,
    ),
    damage.name,
  );
}

test('each damaged run is listed as damaged, and every other run as before: mmb report, --json, mmb run, mmb view', () => {
  const dir = fixtureWorkspace();
  const context = { ws: { root: dir, configPath: join(dir, 'config.jsonc'), bundled: join(dir, 'none') }, prices: () => ({}) };
  const page = (path: string) => pageAt(context, path.split('?')[0]!, new URLSearchParams(path.split('?')[1] ?? ''), { nonce: 'n' });
  assert.match(mmb(['run', '--help'], dir).stdout, /--restart/, 'the option offered is one mmb run has');
  for (const damage of DAMAGES) {
    const run = join(dir, 'results', 'bad');
    rmSync(run, { recursive: true, force: true });
    mkdirSync(run);
    damage.plant(run);

    const report = mmb(['report'], dir);
    assert.equal(report.code, 0, `${damage.name}: ${report.stderr}`);
    assert.match(report.stdout, /^bad +— +— +damaged +— +—$/m, damage.name);
    for (const id of OTHERS)
      assert.match(report.stdout, new RegExp(`^${id} +multiday +chatbot +finished +\\d\\.\\d\\d +10/10$`, 'm'), `${damage.name}: ${id}`);
    assert.equal(report.stderr.split('\n').length, 2, `${damage.name}: one line on stderr: ${report.stderr}`);
    assertDamagedLine(report.stderr.trimEnd(), 'mmb: ', damage);

    const json = mmb(['report', '--json'], dir);
    assert.equal(json.code, 0, `${damage.name}: ${json.stderr}`);
    const document = JSON.parse(json.stdout) as { runs: { run: string }[]; damaged: { run: string; file: string; what: string }[] };
    assert.deepEqual(
      document.runs.map((r) => r.run),
      OTHERS,
      damage.name,
    );
    assert.deepEqual(
      document.damaged.map((d) => [d.run, d.file]),
      [['bad', damage.file]],
      damage.name,
    );
    assert.match(document.damaged[0]!.what, damage.what, damage.name);

    assert.doesNotMatch(report.stdout + report.stderr + json.stdout, /outside-canary/, `${damage.name}: nothing of a linked file is shown`);

    const resumed = mmb(['run', 'bad'], dir);
    assert.equal(resumed.code, 2, `${damage.name}: ${resumed.stdout}${resumed.stderr}`);
    assert.equal(resumed.stderr.split('\n').length, 2, `${damage.name}: one line: ${resumed.stderr}`);
    assertDamagedLine(resumed.stderr.trimEnd(), 'mmb: run "bad": ', damage);
    assert.doesNotMatch(resumed.stdout + resumed.stderr, /internal error|\n\s+at /, damage.name);

    const trends = page('/trends');
    assert.equal(trends.status, 200, damage.name);
    assert.ok(
      /<h2>multiday @ chatbot on the stand-in<\/h2>\n<p class="sub">[^<]* · 3 runs<\/p>/.test(trends.html),
      `${damage.name}: the three whole runs of the group`,
    );
    const index = page('/');
    assert.equal(index.status, 200, damage.name);
    assert.equal([...index.html.matchAll(/<tr data-run="([^"]+)"[^>]*data-status="finished"/g)].length, OTHERS.length, damage.name);
    if (damage.unlisted) {
      assert.doesNotMatch(index.html, /data-run="bad"/, `${damage.name}: mmb view lists real folders only`);
      assert.doesNotMatch(page('/run/bad').html, /outside-canary|data-status="finished"/, damage.name);
    } else {
      const note = damage.viewed?.source ?? `damaged: bad/${escaped(damage.file)}: `;
      assert.match(index.html, new RegExp(`<tr data-run="bad"[^>]*data-status="damaged"[\\s\\S]*?${note}`), damage.name);
      const own = page('/run/bad');
      assert.equal(own.status, 200, damage.name);
      assert.match(
        own.html,
        new RegExp(`<p class="problem">${damage.viewed?.source ?? `damaged: bad/${escaped(damage.file)}: [^<\\n]*`}</p>`),
        damage.name,
      );
    }
    if (damage.unlisted) continue; // a page naming a run the view does not know is a 404, as for any unknown id
    assert.equal(page('/trends?run=chatbot-1&run=bad&run=chatbot-2').status, 200, damage.name);
    const compared = page('/compare?run=chatbot-1&run=bad&run=chatbot-2');
    assert.equal(compared.status, 200, damage.name);
    assert.match(compared.html, /<h1>Comparison: chatbot-1 · chatbot-2<\/h1>/, damage.name);
  }
});

test('--junit, --trends, --compare and --html list the other runs; a damaged run named alone is one line; --restart plays it again', () => {
  const dir = fixtureWorkspace();
  mkdirSync(join(dir, 'results', 'bad'));
  writeFileSync(
    join(dir, 'results', 'bad', 'state.json'),
    edited((s) => {
      s.grades = [1];
    }),
  );
  const junit = mmb(['report', '--junit', 'out/junit.xml'], dir);
  assert.equal(junit.code, 0, junit.stderr);
  const xml = readFileSync(join(dir, 'out', 'junit.xml'), 'utf8');
  assert.equal((xml.match(/<testsuite /g) ?? []).length, 5);
  assert.match(xml, /<testsuite name="bad"[^>]*errors="1"[\s\S]*?<testcase [^>]*name="the run&apos;s files are damaged"/);
  const trends = mmb(['report', '--trends'], dir);
  assert.equal(trends.code, 0, trends.stderr);
  assert.match(trends.stdout, /^multiday @ chatbot on the stand-in: 3 runs \(chatbot-1, chatbot-2, chatbot-3\)/m);
  assert.match(trends.stderr, /^mmb: damaged: results\/bad\/state\.json: grades: .* It is left out\.\n$/);
  const compare = mmb(['report', '--compare', 'chatbot-1', 'bad', 'chatbot-2'], dir);
  assert.equal(compare.code, 0, compare.stderr);
  assert.match(compare.stdout, /Wrote results\/compare-chatbot-1-vs-bad-vs-chatbot-2\.html/);
  assert.doesNotMatch(readFileSync(join(dir, 'results', 'compare-chatbot-1-vs-bad-vs-chatbot-2.html'), 'utf8'), /<th[^>]*>bad</);
  for (const args of [
    ['report', 'bad', '--html'],
    ['report', 'bad'],
  ]) {
    const alone = mmb(args, dir);
    assert.equal(alone.code, 2, args.join(' '));
    assert.equal(alone.stderr.split('\n').length, 2, `${args.join(' ')}: ${alone.stderr}`);
    assert.match(alone.stderr, /^mmb: damaged: results\/bad\/state\.json: grades: .*--restart/, args.join(' '));
  }
  const pair = mmb(['report', '--compare', 'bad', 'chatbot-1'], dir);
  assert.equal(pair.code, 2);
  assert.match(
    pair.stderr,
    /^mmb: damaged: results\/bad\/.* It is left out\.\nmmb: --compare needs two runs or more that can be read; only chatbot-1 can\.\n$/,
  );
  const restarted = mmb(['run', 'bad', '--restart'], dir);
  assert.equal(restarted.code, 0, `the stand-in plays the run again: ${restarted.stderr}`);
  assert.match(mmb(['report'], dir).stdout, /^bad +multiday +chatbot +finished /m);
});

test('run.json and summary.json: a damaged one harms only its run; summary.json is written again from the state', () => {
  const dir = fixtureWorkspace();
  const phaseRun = join(dir, 'results', 'phase-run');
  cpSync(join(dir, 'results', 'chatbot-1'), phaseRun, { recursive: true });
  writeFileSync(join(phaseRun, 'run.json'), '{"benchmark": 5, "agent": "chatbot"}');
  const resumed = mmb(['run', 'phase-run'], dir);
  assert.equal(resumed.code, 2);
  assert.equal(
    resumed.stderr,
    'mmb: damaged: results/phase-run/run.json: benchmark: a string expected, found the number 5; ' +
      'start the phase run again (`mmb run --from <chapter.md>:<phase>` or the editor), or delete results/phase-run.\n',
  );
  const listed = mmb(['report'], dir);
  assert.equal(listed.code, 0);
  assert.equal(listed.stderr, '', 'the reports read the state, which is whole');
  assert.match(listed.stdout, /^phase-run +multiday +chatbot +finished /m);

  const bad = join(dir, 'results', 'bad');
  cpSync(join(dir, 'results', 'chatbot-1'), bad, { recursive: true });
  writeFileSync(join(bad, 'summary.json'), '{"run": "bad", "average": "high"}');
  assert.equal(mmb(['report', '--json'], dir).code, 0);
  const rewritten = mmb(['run', 'bad'], dir);
  assert.equal(rewritten.code, 0, rewritten.stderr);
  const summary = JSON.parse(readFileSync(join(bad, 'summary.json'), 'utf8')) as { status: string; coverage: { graded: number } };
  assert.deepEqual([summary.status, summary.coverage.graded], ['finished', 10], 'a damaged summary.json is made again from the state');
  assert.equal(
    existsSync(join(dir, 'results', 'chatbot-1', 'summary.json')),
    false,
    'the copied state names chatbot-1: its folder is not written',
  );
  rmSync(join(bad, 'summary.json'));
  mkdirSync(join(bad, 'summary.json'));
  const folder = mmb(['run', 'bad'], dir);
  assert.equal(folder.code, 2);
  assert.equal(
    folder.stderr,
    'mmb: run "bad": damaged: results/bad/summary.json: a folder where a file goes; ' +
      'start it over with `mmb run bad --restart` (its results are deleted), or delete results/bad.\n',
  );
});

test('--merge into a folder whose run has a FIFO for its state: one line, exit 2, never a read that waits for a writer', () => {
  const here = fixtureWorkspace();
  rmSync(join(here, 'results', 'chatbot-1', 'state.json'));
  execFileSync('mkfifo', [join(here, 'results', 'chatbot-1', 'state.json')]);
  const incoming = join(tempDir('mmb-merge-'), 'results');
  cpSync(join(REPORTS, 'runs'), incoming, { recursive: true });
  const merge = spawnSync(process.execPath, [CLI, 'report', '--merge', incoming], { cwd: here, encoding: 'utf8', timeout: 30_000 });
  assert.equal(merge.status, 2, `${merge.signal ?? ''} ${merge.stderr}`);
  assert.match(
    merge.stderr,
    /^mmb: damaged: results\/chatbot-1\/state\.json: a special file \(a FIFO, a socket or a device\) where a file goes; start it over/,
  );
});

test('a run whose benchmark is gone from benchmarks/, with no copy kept: its page is made from its state and says so', () => {
  const dir = fixtureWorkspace();
  mkdirSync(join(dir, 'results', 'orphan'));
  writeFileSync(
    join(dir, 'results', 'orphan', 'state.json'),
    edited((s) => {
      s.benchmark = 'gone';
    }),
  );
  const context = { ws: { root: dir, configPath: join(dir, 'config.jsonc'), bundled: join(dir, 'none') }, prices: () => ({}) };
  const page = (path: string) => pageAt(context, path, new URLSearchParams(), { nonce: 'n' });
  const own = page('/run/orphan');
  assert.equal(own.status, 200);
  assert.match(
    own.html,
    /<p class="note">ℹ the benchmark is gone \(benchmarks\/gone has no benchmark\.json\) and no copy was kept with this run: /,
  );
  assert.equal(page('/').status, 200);
  for (const id of OTHERS) assert.equal(page(`/run/${id}`).status, 200, id);
});
