/**
 * *Check this model*: the arguments the run view starts `mmb doctor` with are the CLI's own (run
 * here through `main` against a workspace whose persona is the stand-in), and the notification
 * says what the exit status and the last line say.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { main } from '../../engine/src/cli/main';
import { PERSONA_JUDGE } from '../../engine/src/judge/models';
import { doctorArguments, doctorVerdict, PERSONA_MODEL } from '../src/doctorRun';

/** `mmb <args>` in a fresh workspace whose config.jsonc's persona is `model`: its exit status and output. */
async function inWorkspace(model: string): Promise<{ code: number; output: string }> {
  const root = mkdtempSync(join(tmpdir(), 'mmb-check-model-'));
  const configFile = join(root, 'config.jsonc');
  writeFileSync(configFile, JSON.stringify({ persona: { model }, runs: {} }));
  let output = '';
  const io = { out: (s: string) => void (output += s), err: (s: string) => void (output += s), tty: false, env: {} };
  const code = await main(doctorArguments(configFile), root, io);
  return { code, output };
}

test("Check this model runs mmb doctor on config.jsonc's persona: a stand-in persona passes, and the notice says so", async () => {
  assert.equal(PERSONA_MODEL, PERSONA_JUDGE, "the name the CLI gives config.jsonc's persona model");
  const { code, output } = await inWorkspace('stand-in');
  assert.equal(code, 0, output);
  const verdict = doctorVerdict(code, output);
  assert.equal(verdict.severity, 'info');
  assert.match(verdict.text, /passes every check\. Every capability passes/);
  assert.deepEqual(verdict.actions, [], 'nothing to fix');
});

test('a persona that writes plain text: a warning naming the capabilities that failed', async () => {
  const { code, output } = await inWorkspace('stand-in:chaos?rate=1&behaviours=plain-text');
  assert.equal(code, 1, output);
  const verdict = doctorVerdict(code, output);
  assert.equal(verdict.severity, 'warning');
  assert.deepEqual(verdict.actions, ['Open config.jsonc', 'Show the output'], 'the model to change, the lines that say why');
  assert.match(verdict.text, /failed a check: 3 of \d+ capabilities failed in [\d.]+ s: send-message, next-phase, grading\.$/);
});

test('a config problem is amber, as a run that could not start; a killed check red; each with its last line, no mmb: prefix', () => {
  assert.deepEqual(doctorVerdict(2, 'mmb: no config.jsonc: `mmb init` writes one\n'), {
    severity: 'warning',
    text: 'Check this model could not start: no config.jsonc: `mmb init` writes one',
    actions: ['Open config.jsonc', 'Show the output'],
  });
  assert.deepEqual(doctorVerdict(null, ''), {
    severity: 'error',
    text: 'Check this model stopped (killed): no output',
    actions: ['Show the output'],
  });
});
