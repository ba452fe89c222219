/**
 * `mmb … | head -1`: the built CLI with its stdout (or stderr) a real pipe whose reader has gone stops quietly with
 * status 0, as `git log | head` does, never with an unhandled EPIPE and a Node stack trace.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { CLI, ROOT } from './helpers';

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** What the stream left open said: nothing, when the closed one is handled quietly. */
  said: string;
}

/** The CLI with `closed` a pipe closed before the CLI writes to it; the other stream is read whole. */
function withClosedPipe(args: readonly string[], closed: 'stdout' | 'stderr'): Promise<Ended> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    // The reader goes before the CLI has loaded: its first write meets a closed pipe.
    child[closed].destroy();
    let said = '';
    child[closed === 'stdout' ? 'stderr' : 'stdout'].on('data', (chunk: Buffer) => (said += chunk.toString()));
    child.on('close', (code, signal) => resolve({ code, signal, said }));
  });
}

test('a reader that closes stdout early: mmb stops quietly with status 0', async () => {
  for (const args of [['check', 'benchmarks/max', '--coverage'], ['check', 'benchmarks/max', '--json'], ['--help'], ['report']]) {
    const ended = await withClosedPipe(args, 'stdout');
    assert.deepEqual(ended, { code: 0, signal: null, said: '' }, args.join(' '));
  }
});

test('a reader that closes stderr early (2>&1 | head): mmb stops quietly with status 0', async () => {
  const ended = await withClosedPipe(['run', 'no-such-run', '--config', 'no-such.jsonc'], 'stderr');
  assert.deepEqual(ended, { code: 0, signal: null, said: '' });
});
