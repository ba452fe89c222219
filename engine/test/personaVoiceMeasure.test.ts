/**
 * Issue #32, measured: on every bundled benchmark the stand-in persona plays in process, the share of
 * her messages that hold instruction text (an instruction verb opening a sentence, a backtick, a
 * sheet reference, a fact id; see personaLeaks.ts) is printed and is 0. And the demo's report.md and
 * transcripts quote no instruction.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadBenchmark } from '../../scenario/src';
import { demoCommand } from '../src/cli/demo';
import { readBenchmarkFolder } from '../src/workspace/folders';
import { average, ROOT, runOnStandIn, tempDir } from './helpers';
import { INSTRUCTION_PHRASES, instructionLeak } from './personaLeaks';

const BUNDLED = ['starter', 'max', 'multiday', 'filing', 'month'];
const FAST = { timeMaster: { minSleepToSkipMs: 0, preWakeDelayMs: 0, pollIntervalMs: 1 } };

test('the stand-in persona says no instruction text on any bundled benchmark (share printed per benchmark)', async () => {
  assert.deepEqual(
    readdirSync(join(ROOT, 'benchmarks'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort(),
    [...BUNDLED].sort(),
    'every bundled benchmark is measured',
  );
  const leaks: string[] = [];
  for (const name of BUNDLED) {
    const benchmark = loadBenchmark(readBenchmarkFolder(join(ROOT, 'benchmarks', name)));
    const { state } = await runOnStandIn(benchmark, { ignoreSessionBreak: true, extra: FAST });
    assert.equal(state.status, 'finished', state.error);
    const said = state.transcript.filter((entry) => entry.from === 'persona').map((entry) => entry.text);
    const leaking = said.flatMap((text) => {
      const why = instructionLeak(text);
      return why ? [`${name}: ${why} in "${text.slice(0, 120)}"`] : [];
    });
    const share = (100 * leaking.length) / said.length;
    console.log(
      `${name}: ${leaking.length}/${said.length} persona messages hold instruction text (${share.toFixed(1)}%), ` +
        `average ${average(state).toFixed(2)}`,
    );
    assert.ok(said.length > 10, `${name} said something`);
    leaks.push(...leaking);
  }
  assert.deepEqual(leaks, []);
});

test('the demo: report.md and every transcript quote no instruction text', async () => {
  const root = tempDir('mmb-demo-voice-');
  const printed: string[] = [];
  const io = { out: (s: string) => printed.push(s), err: (s: string) => printed.push(s), tty: false, env: {} };
  assert.equal(await demoCommand(root, join(ROOT, 'benchmarks'), io), 0, printed.join(''));
  const results = join(root, 'results');
  const texts = [{ where: 'report.md', text: readFileSync(join(results, 'report.md'), 'utf8') }];
  for (const run of readdirSync(results, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
    const state = JSON.parse(readFileSync(join(results, run.name, 'state.json'), 'utf8')) as {
      transcript: { from: string; text: string }[];
    };
    // The engine's own lines (session switches) are no conversation; hers and the agent's are.
    const said = state.transcript.filter((entry) => entry.from !== 'engine').map((entry) => entry.text);
    texts.push({ where: `${run.name} transcript`, text: said.join('\n') });
  }
  assert.ok(texts.length >= 11, `report.md and the demo's runs: ${texts.map((t) => t.where).join(', ')}`);
  const found = texts.flatMap(({ where, text }) =>
    INSTRUCTION_PHRASES.filter((phrase) => text.includes(phrase)).map((phrase) => `${where}: "${phrase}"`),
  );
  assert.deepEqual(found, []);
});
