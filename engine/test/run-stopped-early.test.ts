/** A Ctrl-C that comes before the runs start (as the CLI loads) stops `mmb run` before any restart deletes. */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCommand } from '../src/cli/run';
import { workspace } from './helpers';

test('mmb run --restart stopped before it started deletes nothing and says so in one line, exit 130', async () => {
  const dir = workspace({ persona: { model: 'stand-in' }, runs: { a: { benchmark: 'starter', agent: 'chatbot' } } });
  const kept = join(dir, 'results', 'a', 'events.jsonl');
  mkdirSync(join(dir, 'results', 'a'), { recursive: true });
  writeFileSync(kept, '');
  const controller = new AbortController();
  controller.abort();
  let out = '';
  let err = '';
  const code = await runCommand(
    { ids: ['a'], configPath: join(dir, 'config.jsonc'), restart: true },
    {
      out: (s) => {
        out += s;
      },
      err: (s) => {
        err += s;
      },
      tty: false,
      env: {},
      signal: controller.signal,
    },
  );
  assert.equal(code, 130);
  assert.ok(existsSync(kept), "the run's results are still there");
  assert.equal(err, 'mmb: stopped before the runs started: nothing was deleted.\n');
  assert.equal(out, '');
});
