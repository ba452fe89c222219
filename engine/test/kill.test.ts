/** SIGKILL at random moments: every resume continues where the run stopped, nothing lost, nothing sent twice. */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, workspace } from './helpers';
import { FileRunStore } from '../src/run/store';
import type { RunState } from '../src/state/runState';

const CONFIG = { persona: { model: 'stand-in' }, runs: { k1: { benchmark: 'starter', agent: 'chatbot', ignore_session_break: true } } };

/** Starts `mmb run k1` and kills it with SIGKILL once its journal holds `lines` lines. */
async function runAndKill(dir: string, lines: number): Promise<boolean> {
  const child = spawn(process.execPath, [CLI, 'run', 'k1'], { cwd: dir, stdio: 'ignore' });
  const journal = join(dir, 'results', 'k1', 'journal.jsonl');
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let killed = false;
  for (;;) {
    if (child.exitCode !== null) break;
    if (existsSync(journal) && statSync(journal).size > 0 && readFileSync(journal, 'utf8').split('\n').length > lines) {
      killed = child.kill('SIGKILL');
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  await exited;
  return killed;
}

function finalState(dir: string): RunState {
  const state = new FileRunStore(join(dir, 'results', 'k1')).load();
  assert.ok(state);
  return state;
}

const view = (s: RunState) => ({
  grades: Object.fromEntries(Object.entries(s.grades).map(([id, g]) => [id, g.map((x) => [x.effective, x.answer])])),
  transcript: s.transcript.map((e) => `${e.from}: ${e.text}`),
  sheets: s.sheets,
});

test('killed at several random moments and resumed each time, the run ends exactly as an uninterrupted one', async () => {
  const reference = workspace(CONFIG);
  assert.equal(spawnSync(process.execPath, [CLI, 'run', 'k1'], { cwd: reference, encoding: 'utf8' }).status, 0);
  const expected = view(finalState(reference));

  const dir = workspace(CONFIG);
  let seed = 20261129;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  let kills = 0;
  let at = 0;
  for (let i = 0; i < 6; i++) {
    at += 5 + Math.floor(random() * 30);
    if (await runAndKill(dir, at)) kills++;
  }
  assert.ok(kills >= 4, `the run was killed ${kills} times`);
  const last = spawnSync(process.execPath, [CLI, 'run', 'k1'], { cwd: dir, encoding: 'utf8' });
  assert.equal(last.status, 0, last.stdout + last.stderr);

  const got = finalState(dir);
  assert.equal(got.status, 'finished');
  assert.deepEqual(view(got), expected);
  const sent = readFileSync(join(dir, 'results', 'k1', 'agent', 'conversation.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { kind: string; text?: string })
    .filter((e) => e.kind === 'user')
    .map((e) => e.text);
  assert.deepEqual(
    sent,
    expected.transcript.filter((t) => t.startsWith('persona: ')).map((t) => t.slice('persona: '.length)),
    'the agent got every message exactly once',
  );
  const report = readFileSync(join(dir, 'results', 'report.md'), 'utf8');
  assert.equal((report.match(/— k1: starter @ chatbot/g) ?? []).length, 1, 'one report entry, for the finished run');
});
