/** `launchRuns` in-process: what a start and a resume read of a run's saved state. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseConfig } from '../../scenario/src';
import { FileRunStore } from '../src/run/store';
import { launchRuns } from '../src/workspace/launch';
import { ROOT, tempDir } from './helpers';

const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

test("a run's saved state is read once per start and once per resume, not once by the launcher and again by the runner", async () => {
  const root = tempDir('mmb-launch-');
  const config = {
    ...parseConfig('{}').config,
    persona: { model: 'stand-in' },
    time_master: { min_sleep_to_skip: 5, pre_wake_delay: 0, poll_interval: 0.05 },
  };
  const runs = [
    {
      name: 'once',
      benchmark: 'starter',
      agent: 'chatbot',
      ignore_session_break: true,
      options: {},
      range: zero,
      phases: { from: 0, to: 0 },
    },
  ];
  const original = FileRunStore.prototype.load;
  let loads = 0;
  FileRunStore.prototype.load = function load(this: FileRunStore) {
    loads++;
    return original.call(this);
  };
  try {
    const first = await launchRuns({ root, benchmarksDir: join(ROOT, 'benchmarks'), config, runs, env: {} });
    assert.equal(first[0]?.problem, undefined);
    assert.equal(loads, 1, 'a fresh start');
    const again = await launchRuns({ root, benchmarksDir: join(ROOT, 'benchmarks'), config, runs, env: {} });
    assert.equal(again[0]?.state?.status, 'finished');
    assert.equal(loads, 2, 'a resume of the finished run');
  } finally {
    FileRunStore.prototype.load = original;
  }
});
