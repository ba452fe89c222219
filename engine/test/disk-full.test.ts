/**
 * Every stop resumes to the same end, whatever the disk did. Runs of the starter benchmark on the
 * stand-in, for the chatbot, the notebook and a process agent (examples/agents/my-agent.mjs), each
 * with `results/` on a real tmpfs of a size that fills during the run: each stops with exit 75 and
 * one line naming the file and the space free; with the tmpfs grown, it resumes to the grades and
 * the transcript of an uninterrupted run. Also: a journal cut at half with the agent's own record
 * ahead of it, an empty journal, and a read-only `results/`. Mounting needs root (CI runs as root).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DiskFull } from '../src/errors';
import { JOURNAL_FILE } from '../src/protocol/layout';
import { FileRunStore, type StoreFileSystem } from '../src/run/store';
import type { RunState } from '../src/state/runState';
import { mmbAsync, ROOT, runOnStandIn, starter, tempDir, workspace, joinedPattern } from './helpers';

const AGENT_SCRIPT = join(ROOT, 'examples', 'agents', 'my-agent.mjs');
const RUNS = {
  c: { benchmark: 'starter', agent: 'chatbot' },
  n: { benchmark: 'starter', agent: 'notebook' },
  p: { benchmark: 'starter', agent: 'process', command: [process.execPath, AGENT_SCRIPT] },
};
type RunId = keyof typeof RUNS;
/** A turn the agent cannot answer shows up as `unanswered` within this, instead of the default 300 s. */
const ENV = { MMB_REPLY_TIMEOUT_MS: '8000' };
const RUNS_AT_ONCE = 4;

const SIZES_PER_AGENT = 10;
const PAGE_BYTES = 4096;

/** The KiB a folder takes on a tmpfs: whole pages of its files' data. */
function footprintKib(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) bytes += Math.ceil(statSync(join(entry.parentPath, entry.name)).size / PAGE_BYTES) * PAGE_BYTES;
  }
  return bytes / 1024;
}

/**
 * Sizes of the tmpfs in KiB, whole pages from one page up to the footprint of the finished run
 * (which its peak exceeds: the journal and the snapshot's temporary file stand beside each other
 * at the end), so each fills during the run, whatever the git version's hooks add.
 */
function sizesBelow(footprint: number): number[] {
  const pages = Math.max(SIZES_PER_AGENT, Math.floor(footprint / 4));
  return Array.from({ length: SIZES_PER_AGENT }, (_, i) => 4 * (1 + Math.floor((i * (pages - 1)) / (SIZES_PER_AGENT - 1))));
}

/** Why mounting cannot be tested here, or undefined when a tmpfs mounts. */
function mountProblem(): string | undefined {
  const dir = tempDir('mmb-mount-');
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { encoding: 'utf8' });
  if (mounted.status !== 0) return `mounting a tmpfs is not permitted here (${(mounted.stderr || String(mounted.error)).trim()})`;
  spawnSync('umount', [dir]);
  return undefined;
}
const skip = mountProblem() ?? false;

function mount(dir: string, options: string): void {
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

function remount(dir: string, options: string): void {
  const r = spawnSync('mount', ['-o', `remount,${options}`, dir], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

function umount(dir: string): void {
  spawnSync('umount', [dir]);
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The built CLI with the short reply timeout, asynchronously, so that several runs go at once. */
const mmbQuick = (args: string[], cwd: string): Promise<Ran> => mmbAsync(args, cwd, ENV);

/** Runs `jobs` with at most `limit` at once. */
async function inParallel<T>(jobs: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const out: T[] = new Array<T>(jobs.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < jobs.length; i = next++) out[i] = await jobs[i]!();
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return out;
}

const WALL_CLOCK_STAMP = /\((Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day \d{1,2} \w+ \d{4}, \d\d:\d\d\)/g;

/** What must be the same after any stop: the standing grades, and every message of the transcript. */
function outcome(state: RunState) {
  return {
    status: state.status,
    grades: Object.fromEntries(Object.entries(state.grades).map(([id, g]) => [id, g.at(-1)?.effective])),
    // The chatbot stamps each message with the wall clock's minute, which a later run may not share.
    transcript: state.transcript.map((e) => `${e.from}: ${e.text.replace(WALL_CLOCK_STAMP, '(stamp)')}`),
    agentReplies: state.transcript.filter((e) => e.from === 'agent').length,
    unanswered: state.unanswered,
  };
}

function loadRun(dir: string, id: RunId): RunState {
  const state = new FileRunStore(join(dir, 'results', id)).load();
  assert.ok(state, `results/${id} holds a run`);
  return state;
}

const DISK_FULL_LINE = (id: string) =>
  new RegExp(
    `^mmb: the disk is full \\(writing results/${id}/\\S+, \\d+ KiB free\\): ` +
      `free at least \\d+ KiB and run \`mmb run ${id}\` again to resume where it stopped\\.\\n$`,
  );

test(
  'a full disk at 30 sizes across the runs of three agents: each stops with exit 75 and one line, and resumes to the uninterrupted end',
  { skip },
  async (t) => {
    const reference = workspace({ persona: { model: 'stand-in' }, runs: RUNS });
    const expected = new Map<RunId, ReturnType<typeof outcome>>();
    const sizes = new Map<RunId, number[]>();
    await inParallel(
      (Object.keys(RUNS) as RunId[]).map((id) => async () => {
        const ran = await mmbQuick(['run', id], reference);
        assert.equal(ran.code, 0, ran.stderr);
        expected.set(id, outcome(loadRun(reference, id)));
        sizes.set(id, sizesBelow(footprintKib(join(reference, 'results', id))));
      }),
      RUNS_AT_ONCE,
    );
    const cases = [...sizes].flatMap(([id, list]) => list.map((size) => ({ id, size })));
    t.diagnostic(`tmpfs sizes (KiB): ${JSON.stringify(Object.fromEntries(sizes))}`);
    assert.equal(cases.length, 30);
    const failures = await inParallel(
      cases.map(({ id, size }) => async (): Promise<string[]> => {
        const dir = workspace({ persona: { model: 'stand-in' }, runs: { [id]: RUNS[id] } });
        const results = join(dir, 'results');
        mkdirSync(results);
        mount(results, `size=${size}k`);
        try {
          const stopped = await mmbQuick(['run', id], dir);
          const problems: string[] = [];
          if (stopped.code !== 75) problems.push(`${id} at ${size} KiB: exit ${stopped.code}, not 75: ${stopped.stderr.slice(0, 400)}`);
          else if (!DISK_FULL_LINE(id).test(stopped.stderr))
            problems.push(`${id} at ${size} KiB: not one disk-full line: ${stopped.stderr.slice(0, 400)}`);
          remount(results, 'size=8m');
          const resumed = await mmbQuick(['run', id], dir);
          if (resumed.code !== 0) problems.push(`${id} at ${size} KiB: the resume exits ${resumed.code}: ${resumed.stderr.slice(0, 400)}`);
          else assert.deepEqual(outcome(loadRun(dir, id)), expected.get(id), `${id} at ${size} KiB resumes to the uninterrupted end`);
          return problems;
        } finally {
          umount(results);
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      RUNS_AT_ONCE,
    );
    assert.deepEqual(failures.flat(), []);
  },
);

/** The store's writes with every snapshot refused for want of space: the journal keeps every event of the run. */
const NO_SNAPSHOTS: StoreFileSystem = {
  appendFileSync: (path, data) => appendFileSync(path, data),
  writeFileSync: (path) => {
    throw Object.assign(new Error(`ENOSPC: no space left on device, write '${path}'`), { code: 'ENOSPC', path });
  },
  renameSync: () => undefined,
  truncateSync: (path, length) => truncateSync(path, length),
};

const PYTHON_AGENT = ['python3', join(ROOT, 'examples', 'agents', 'my_agent.py')];
const CUT_JOURNAL_AGENTS = [
  { name: 'chatbot', chosen: {} },
  { name: 'notebook', chosen: { agent: 'notebook', options: {} } },
  { name: 'process (my-agent.mjs)', chosen: { agent: 'process', options: { command: [process.execPath, AGENT_SCRIPT] } } },
  { name: 'process (my_agent.py)', chosen: { agent: 'process', options: { command: PYTHON_AGENT } } },
];

for (const { name: agent, chosen } of CUT_JOURNAL_AGENTS) {
  test(`${agent}: a journal cut at half behind its own record resumes to the uninterrupted end, each reply to its send`, async () => {
    const quick = { replyTimeoutMs: 8000 };
    const reference = await runOnStandIn(starter(), { ...chosen, extra: quick });
    assert.equal(reference.state.status, 'finished');
    const dir = tempDir('mmb-cut-');
    await assert.rejects(runOnStandIn(starter(), { ...chosen, dir, store: new FileRunStore(dir, NO_SNAPSHOTS), extra: quick }), DiskFull);
    const journal = join(dir, JOURNAL_FILE);
    truncateSync(journal, Math.floor(readFileSync(journal).length / 2));
    const resumed = await runOnStandIn(starter(), { ...chosen, dir, extra: quick });
    assert.deepEqual(outcome(resumed.state), outcome(reference.state));
  });
}

test("an empty journal, or one whose only line is cut, starts the run afresh; the end is an uninterrupted run's", { skip }, async () => {
  const reference = workspace({ persona: { model: 'stand-in' }, runs: RUNS });
  assert.equal((await mmbQuick(['run', 'c'], reference)).code, 0);
  for (const journal of ['', '{"n":1,"type":"start","at":"2026-']) {
    const dir = workspace({ persona: { model: 'stand-in' }, runs: RUNS });
    mkdirSync(join(dir, 'results', 'c'), { recursive: true });
    writeFileSync(join(dir, 'results', 'c', JOURNAL_FILE), journal);
    const ran = await mmbQuick(['run', 'c'], dir);
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(ran.stderr, '');
    assert.deepEqual(outcome(loadRun(dir, 'c')), outcome(loadRun(reference, 'c')));
  }
});

test(
  'a read-only results/: mmb run, --junit and the report files say so in one line (exit 75), no stack; a report into a full folder too',
  { skip },
  async () => {
    const dir = workspace({ persona: { model: 'stand-in' }, runs: RUNS });
    const results = join(dir, 'results');
    mkdirSync(results);
    assert.equal((await mmbQuick(['run', 'c'], dir)).code, 0);
    const saved = tempDir('mmb-ro-');
    spawnSync('cp', ['-a', `${results}/.`, saved]);
    mount(results, 'size=4m');
    try {
      spawnSync('cp', ['-a', `${saved}/.`, results]);
      remount(results, 'ro');
      const readOnly = joinedPattern([
        /^mmb: the disk is read-only \(writing results\/\S+\): make it writable and /,
        /(run the command again|run `mmb run \w` again to resume where it stopped)\.\n$/,
      ]);
      for (const args of [
        ['run', 'n'],
        ['run', 'c', '--restart'],
        ['report', '--html', 'c'],
        ['report', '--trends'],
        ['report', '--compare', 'c', 'c'],
      ]) {
        const ran = await mmbQuick(args, dir);
        assert.equal(ran.code, 75, `${args.join(' ')}: ${ran.stderr}`);
        assert.match(ran.stderr, readOnly, args.join(' '));
      }
    } finally {
      umount(results);
    }
    // A report written elsewhere, into a read-only folder, after a run that has its results.
    spawnSync('cp', ['-a', `${saved}/.`, results]);
    const elsewhere = join(dir, 'reports');
    mkdirSync(elsewhere);
    mount(elsewhere, 'size=64k,ro');
    try {
      for (const [args, file] of [
        [['run', 'c', '--junit', 'reports/junit.xml'], 'junit.xml'],
        [['report', '--html', 'c', '--out', 'reports/c.html'], 'c.html'],
      ] as const) {
        const ran = await mmbQuick([...args], dir);
        assert.equal(ran.code, 75, ran.stderr);
        assert.equal(ran.stderr, `mmb: the disk is read-only (writing reports/${file}): make it writable and run the command again.\n`);
      }
    } finally {
      umount(elsewhere);
    }
    // The same report into a full folder: one line with the space free, and neither half a file nor its temporary one.
    mount(elsewhere, 'size=8k');
    try {
      const full = await mmbQuick(['report', '--html', 'c', '--out', 'reports/c.html'], dir);
      assert.equal(full.code, 75, full.stderr);
      assert.match(
        full.stderr,
        /^mmb: the disk is full \(writing reports\/c\.html, \d+ KiB free\): free at least \d+ KiB and run the command again\.\n$/,
      );
      assert.deepEqual(readdirSync(elsewhere), []);
    } finally {
      umount(elsewhere);
    }
  },
);

test(
  'a disk turning read-only mid-run (the agent remounts it as it starts): one line naming the run to resume, exit 75, then the same end',
  { skip },
  async () => {
    const reference = workspace({ persona: { model: 'stand-in' }, runs: RUNS });
    assert.equal((await mmbQuick(['run', 'p'], reference)).code, 0);
    const dir = workspace({ persona: { model: 'stand-in' }, runs: {} });
    const results = join(dir, 'results');
    mkdirSync(results);
    const once = join(dir, 'remounted');
    // Outside a sandbox, so that the remount is the machine's; only at the first start.
    const command = [
      'sh',
      '-c',
      `[ -e ${once} ] || { touch ${once}; mount -o remount,ro ${results}; }; exec ${process.execPath} ${AGENT_SCRIPT}`,
    ];
    writeFileSync(
      join(dir, 'config.jsonc'),
      JSON.stringify({ persona: { model: 'stand-in' }, runs: { p: { ...RUNS.p, command, agent_sandbox: false } } }),
    );
    mount(results, 'size=4m');
    try {
      const stopped = await mmbQuick(['run', 'p'], dir);
      assert.equal(stopped.code, 75, stopped.stderr);
      assert.match(
        stopped.stderr,
        joinedPattern([
          /^mmb: the disk is read-only \(writing results\/p\/\S+\): /,
          /make it writable and run `mmb run p` again to resume where it stopped\.\n$/,
        ]),
      );
      remount(results, 'rw');
      const resumed = await mmbQuick(['run', 'p'], dir);
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.deepEqual(outcome(loadRun(dir, 'p')), outcome(loadRun(reference, 'p')));
    } finally {
      umount(results);
    }
  },
);

/** The chatbot's conversations begun, and the notebook's conversations filed: each session switch the agent made. */
function switchesMade(dir: string, agent: string): number {
  if (agent === 'chatbot')
    return readFileSync(join(dir, 'agent', 'conversation.jsonl'), 'utf8').split('"kind":"new-conversation"').length - 1;
  return readdirSync(join(dir, 'agent', 'history')).length;
}

for (const { name: agent, chosen } of CUT_JOURNAL_AGENTS.slice(0, 2)) {
  test(`${agent}: stopped after the session switch with the journal cut before it, the replay does not make the switch twice`, async () => {
    const quick = { replyTimeoutMs: 8000 };
    const reference = await runOnStandIn(starter(), { ...chosen, extra: quick });
    const dir = tempDir('mmb-switch-');
    const stop = new AbortController();
    // Late in the run, past the switch to the exam; the journal keeps every event (no snapshot).
    const late = Math.floor(reference.state.events * 0.95);
    const onEvent = (state: RunState) => (state.events >= late ? stop.abort() : undefined);
    await assert.rejects(
      runOnStandIn(starter(), {
        ...chosen,
        dir,
        store: new FileRunStore(dir, NO_SNAPSHOTS),
        extra: { ...quick, signal: stop.signal, onEvent },
      }),
    );
    assert.equal(switchesMade(dir, agent), 1, 'the agent made the switch before the stop');
    const journal = join(dir, JOURNAL_FILE);
    truncateSync(journal, Math.floor(readFileSync(journal).length * 0.4));
    const resumed = await runOnStandIn(starter(), { ...chosen, dir, extra: quick });
    assert.equal(switchesMade(dir, agent), 1);
    assert.deepEqual(outcome(resumed.state), outcome(reference.state));
  });
}
