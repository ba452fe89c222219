/**
 * Ctrl-C cuts a judge's request in flight: `mmb regrade` and `mmb judge audit` with a judge on a
 * slow server (the meddling proxy holding a request) stop within a second, exit 130 with their
 * line, the request cut (the server sees its client go), and run again they finish what is left.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { main } from '../src/cli/main';
import type { Io } from '../src/cli/run';
import { readGradingSets } from '../src/judge/gradingSet';
import { findBenchmarkFolders } from '../src/workspace/folders';
import { ROOT, tempDir, workspace } from './helpers';
import { startMeddlingProxy, type MeddlingProxy } from './meddlingProxy';

const SLOW_MS = 20_000;

interface Ran {
  code: number;
  out: string;
  err: string;
  /** Milliseconds from the stop to the command's end. */
  afterStop: number;
}

async function mmb(args: string[], cwd: string, controller = new AbortController(), stoppedAt = () => 0): Promise<Ran> {
  let out = '';
  let err = '';
  const io: Io = { out: (text) => (out += text), err: (text) => (err += text), tty: false, env: {}, signal: controller.signal };
  const code = await main(args, cwd, io);
  return { code, out, err, afterStop: Date.now() - stoppedAt() };
}

/** A proxy that holds its `nth` request until its client goes, and aborts `controller` once that request is in flight. */
async function slowAt(nth: number, controller: AbortController): Promise<{ proxy: MeddlingProxy; stoppedAt: () => number }> {
  let stoppedAt = 0;
  let seen = 0;
  const proxy = await startMeddlingProxy(() => {
    if (++seen !== nth) return undefined;
    setTimeout(() => {
      stoppedAt = Date.now();
      controller.abort();
    }, 100);
    return { holdMs: SLOW_MS };
  });
  return { proxy, stoppedAt: () => stoppedAt };
}

async function until(condition: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
}

test('mmb regrade: Ctrl-C while the judge waits on a slow server stops within a second; run again, it grades the rest', async () => {
  const controller = new AbortController();
  const { proxy, stoppedAt } = await slowAt(3, controller);
  try {
    const config = { persona: { model: 'stand-in' }, judges: { slow: { model: 'judge-x', base_url: proxy.url() } } };
    const dir = workspace({ ...config, runs: { a: { benchmark: 'starter', agent: 'chatbot' } } });
    const ran = await mmb(['run', 'a'], dir);
    assert.equal(ran.code, 0, ran.err);
    const stopped = await mmb(['regrade', 'a', '--judge', 'slow'], dir, controller, stoppedAt);
    assert.equal(stopped.code, 130, stopped.err + stopped.out);
    assert.ok(stoppedAt() > 0 && stopped.afterStop < 1000, `mmb regrade ended ${stopped.afterStop} ms after the stop`);
    assert.equal(stopped.err, 'mmb: stopped; run mmb regrade again to grade what is left.\n');
    await until(() => proxy.cut.length > 0);
    assert.ok(proxy.cut.length >= 1, 'the request in flight was cut');
    const again = await mmb(['regrade', 'a', '--judge', 'slow'], dir);
    assert.equal(again.code, 0, again.err);
    assert.match(again.out, /^slow: \d+ graded now, [1-9]\d* done before$/m);
  } finally {
    await proxy.close();
  }
});

test('mmb judge audit: Ctrl-C while the judge waits on a slow server stops within a second; the resume asks only the rest', async () => {
  const dir = tempDir('mmb-judge-');
  const items = readGradingSets(findBenchmarkFolders(ROOT)).items.slice(0, 8);
  const set = join(dir, 'small.jsonl');
  writeFileSync(set, `${items.map((item) => JSON.stringify({ ...item, file: undefined, line: undefined })).join('\n')}\n`);
  const controller = new AbortController();
  const { proxy, stoppedAt } = await slowAt(4, controller);
  try {
    writeFileSync(join(dir, 'config.jsonc'), JSON.stringify({ judges: { slow: { model: 'judge-x', base_url: proxy.url() } }, runs: {} }));
    const args = ['judge', 'audit', '--judge', 'slow', '--set', set, '--json'];
    const stopped = await mmb(args, dir, controller, stoppedAt);
    assert.equal(stopped.code, 130, stopped.err + stopped.out);
    assert.ok(stoppedAt() > 0 && stopped.afterStop < 1000, `mmb judge audit ended ${stopped.afterStop} ms after the stop`);
    assert.match(stopped.err, /^mmb: judge audit stopped; \d+ answers are journaled in .*journal\.jsonl: run the same command again/m);
    await until(() => proxy.cut.length > 0);
    assert.ok(proxy.cut.length >= 1, 'the request in flight was cut');
    const resumed = await mmb(args, dir);
    assert.equal(resumed.code, 0, resumed.err);
    const { journal, answered } = JSON.parse(resumed.out) as { journal: string; answered: number };
    const keys = readFileSync(journal, 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { ask: string }).ask);
    assert.equal(new Set(keys).size, keys.length, 'an ask journaled twice');
    assert.equal(keys.length, answered);
  } finally {
    await proxy.close();
  }
});
