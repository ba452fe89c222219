/** The sample configs of docs/commands.md and the walkthrough rehearse as they are, with no key at all. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseConfig } from '../../scenario/src';

const ROOT = join(__dirname, '..', '..');

/** The first jsonc block of a markdown file that holds a config (a "persona" key). */
function sampleConfig(file: string): string {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const block = [...text.matchAll(/```jsonc\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('"persona"'));
  assert.ok(block, `${file} has a sample config.jsonc`);
  return block;
}

/** The environment without any variable a key could be in. */
function keylessEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/KEY|TOKEN|SECRET/i.test(name)));
}

for (const file of ['docs/commands.md', 'media/walkthrough/run.md']) {
  test(`${file}: its sample config is valid, and its rehearsal run finishes with no key in the environment`, () => {
    const text = sampleConfig(file);
    const parsed = parseConfig(text);
    assert.deepEqual(
      parsed.diagnostics.filter((d) => d.severity === 'error'),
      [],
      'no errors',
    );
    assert.equal(parsed.config.persona.model, 'stand-in');
    assert.ok(
      parsed.config.runs.some((r) => r.name === 'rehearsal'),
      'it has a rehearsal run',
    );
    const workspace = mkdtempSync(join(tmpdir(), 'mmb-sample-'));
    try {
      cpSync(join(ROOT, 'benchmarks', 'starter'), join(workspace, 'benchmarks', 'starter'), { recursive: true });
      writeFileSync(join(workspace, 'config.jsonc'), text);
      const run = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'run', 'rehearsal'], {
        cwd: workspace,
        env: keylessEnv(),
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
      assert.match(run.stdout, /rehearsal\s+finished/);
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });
}
