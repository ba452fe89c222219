/** What the editor reads of runs: statuses by lock, latest grades, the cause of a failed check, where a rerun starts. */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { loadBenchmark } from '../../scenario/src';
import { readBenchmarkFolder } from '../../engine/src/api';
import { CLI, STARTER, workspace } from '../../engine/test/helpers';
import { checkCause, distinctive, rerunStart } from '../src/checkCause';
import { ResultsFolder } from '../src/results';

const starter = () => loadBenchmark(readBenchmarkFolder(STARTER));
const mmb = (args: string[], cwd: string) => spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });

test('runs of config.jsonc and phase runs, with status, average, position; the latest grade of each check across runs', () => {
  const dir = workspace({
    persona: { model: 'stand-in' },
    runs: { notes: { benchmark: 'starter', agent: 'chatbot' }, later: { benchmark: 'starter', agent: 'chatbot' } },
  });
  const folder = new ResultsFolder(dir);
  assert.deepEqual(
    folder.runs().map((r) => [r.name, r.status]),
    [
      ['notes', 'not started'],
      ['later', 'not started'],
    ],
  );
  assert.equal(mmb(['run', 'notes'], dir).status, 0);
  assert.equal(mmb(['run', '--benchmark', 'starter', '--from', 'chapter3.md:1', '--only', '--rehearse'], dir).status, 0);
  const runs = folder.runs();
  assert.deepEqual(
    runs.map((r) => [r.name, r.status, r.configured]),
    [
      ['notes', 'finished', true],
      ['later', 'not started', true],
      ['starter.phase-chapter3-1.rehearsal', 'finished', false],
    ],
  );
  const notes = runs[0]!;
  assert.equal(notes.agent, 'chatbot');
  assert.equal(notes.graded, 5);
  assert.equal(notes.chapter, 'chapter3.md');
  assert.ok(notes.average !== null && notes.average > 0);
  const latest = folder.latestGrades('starter');
  assert.deepEqual([...latest.keys()].sort(), ['3.1', '3.2', '3.3', '3.4', '3.5']);
  assert.ok(
    [...latest.values()].every((g) => g.run === 'starter.phase-chapter3-1.rehearsal'),
    'the phase run graded later: its grades stand',
  );
  assert.equal(folder.latestSnapshot('notes'), undefined, 'the chatbot keeps no memory folder');

  writeFileSync(join(dir, 'results', 'notes', 'state.json'), '{ broken');
  const broken = new ResultsFolder(dir).runs()[0]!;
  assert.equal(broken.status, 'damaged');
  assert.match(broken.error ?? '', /^damaged: notes\/state\.json: not JSON /);
});

test('a run whose process holds the lock is running, with its pid; a lock left by a dead process is ignored', async () => {
  const dir = workspace({ persona: { model: 'stand-in' }, runs: { a: { benchmark: 'starter', agent: 'chatbot' } } });
  const child = spawn(process.execPath, [CLI, 'run', 'a'], { cwd: dir });
  const folder = new ResultsFolder(dir);
  let seen = false;
  for (let i = 0; i < 200 && !seen; i++) {
    const r = folder.runs()[0]!;
    if (r.status === 'running' && r.pid === child.pid) seen = true;
    else await new Promise((res) => setTimeout(res, 10));
  }
  await new Promise((res) => child.once('exit', res));
  assert.ok(seen, 'the run showed as running, with the pid of its process');
  assert.equal(folder.runs()[0]!.status, 'finished');
  writeFileSync(join(dir, 'results', 'a', 'run.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, since: new Date().toISOString() }));
  assert.equal(folder.runs()[0]!.status, 'finished', 'a lock left by a dead process does not make it run');
});

test('the cause of a check: trap writes aimed at it, and memory lines with the expected and the planted values', () => {
  const dir = workspace({ runs: {} });
  // A memory snapshot as an agent with notes leaves it: the booking stored twice, one copy stale.
  for (const [n, file, text] of [
    ['1', 'move.md', 'Movers: Two Lads & A Van, £380\n'],
    ['2', 'move.md', '# Move\n- movers: Leeds Lift, 340 GBP\n'],
    ['2', 'old/quotes.md', 'First quote: Two Lads & A Van at £380\n'],
  ]) {
    mkdirSync(dirname(join(dir, 'results', 'notes', 'memory', n!, file!)), { recursive: true });
    writeFileSync(join(dir, 'results', 'notes', 'memory', n!, file!), text!);
  }
  const folder = new ResultsFolder(dir);
  assert.match(folder.latestSnapshot('notes') ?? '', /results\/notes\/memory\/2$/, 'the newest snapshot');
  // The run page in the editor gets every snapshot, as `mmb report --html` does.
  assert.deepEqual(
    folder.memorySnapshots('notes').map((m) => [m.conversation, m.files.map((f) => f.name)]),
    [
      [1, ['move.md']],
      [2, ['move.md', 'old/quotes.md']],
    ],
  );
  assert.deepEqual(folder.memorySnapshots('no-such-run'), []);
  const cause = checkCause(starter(), '3.2', folder.latestSnapshot('notes'));
  assert.deepEqual(
    cause.traps.map((t) => [t.file, t.line + 1, t.type]),
    [['chapter2.md', 12, 'RECONSIDER']],
  );
  assert.deepEqual(
    cause.memory.map((m) => [m.file, m.line + 1, m.kind, m.value]),
    [
      ['move.md', 2, 'expected', '340'],
      ['old/quotes.md', 1, 'stale', '380'],
    ],
  );
  assert.equal(cause.memoryNote, undefined);
  const none = checkCause(starter(), '3.2', undefined);
  assert.match(none.memoryNote ?? '', /keeps no memory folder/);
  assert.deepEqual(checkCause(starter(), '3.5', undefined).traps, []);
});

test('distinctive values and where a rerun of failed checks starts', () => {
  assert.deepEqual(distinctive('Leeds Lift, £340. The keys on the 14th at 11:00'), ['340', '14', '11:00', 'Leeds Lift']);
  const b = starter();
  assert.deepEqual(rerunStart(b, ['3.2', '3.1']), { chapter: 'chapter2.md', phase: 2 });
  assert.deepEqual(rerunStart(b, ['3.1']), { chapter: 'chapter2.md', phase: 3 });
  assert.equal(rerunStart(b, ['3.1', '3.5']), undefined, 'a check with no trap write needs the whole run');
});

test("the editor's pages and What caught it hold no key: masked by config.jsonc's key variables; a snapshot linked out is unread", () => {
  const key = 'sk-editor-canary-1f9e7c3a5b2d';
  const dir = workspace({ persona: { model: 'x', base_url: 'http://127.0.0.1:9/v1', api_key_env: 'MMB_TEST_EDITOR_KEY' }, runs: {} });
  const snapshot = join(dir, 'results', 'notes', 'memory', '1');
  mkdirSync(snapshot, { recursive: true });
  writeFileSync(join(snapshot, 'notes.md'), `Leeds Lift, £340\nkey ${key}\n`);
  const outside = join(dir, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'notes.md'), 'Leeds Lift, £340 from outside\n');
  symlinkSync(outside, join(dir, 'results', 'notes', 'memory', '2'));
  process.env.MMB_TEST_EDITOR_KEY = key;
  try {
    const folder = new ResultsFolder(dir);
    assert.equal(folder.masked(`<p>${key}</p>`), '<p>***</p>');
    assert.deepEqual(
      folder.memorySnapshots('notes').map((s) => s.files.map((f) => f.text)),
      [['Leeds Lift, £340\nkey ***\n']],
    );
    assert.equal(folder.latestSnapshot('notes'), snapshot, 'the newest real snapshot, not the link');
    assert.deepEqual(
      checkCause(starter(), '3.2', folder.latestSnapshot('notes')).memory.map((m) => m.text),
      ['Leeds Lift, £340'],
    );
  } finally {
    delete process.env.MMB_TEST_EDITOR_KEY;
  }
});

test("a running run that waits on its agent shows the wait: waiting for the agent's reply: N s of 60", async () => {
  const dir = workspace({
    persona: { model: 'stand-in' },
    runs: { slow: { benchmark: 'starter', agent: 'process', command: ['node', 'agents/wait-agent.mjs'] } },
  });
  mkdirSync(join(dir, 'agents'));
  copyFileSync(
    join(__dirname, '..', '..', 'engine', 'test', 'fixtures', 'agents', 'wait-agent.mjs'),
    join(dir, 'agents', 'wait-agent.mjs'),
  );
  const env = { ...process.env, MMB_WAIT_NOTICE_MS: '200', MMB_REPLY_TIMEOUT_MS: '60000' };
  const child = spawn(process.execPath, [CLI, 'run', 'slow'], { cwd: dir, env });
  const exited = new Promise((res) => child.once('exit', res));
  const folder = new ResultsFolder(dir);
  let waiting: string | undefined;
  for (let i = 0; i < 300 && !waiting; i++) {
    waiting = folder.runs()[0]?.waiting;
    if (!waiting) await new Promise((res) => setTimeout(res, 50));
  }
  child.kill('SIGINT');
  await exited;
  assert.match(waiting ?? '', /^waiting for the agent's reply: \d+ s of 60$/);
  assert.equal(folder.runs()[0]?.waiting, undefined, 'a stopped run waits on nothing');
});
