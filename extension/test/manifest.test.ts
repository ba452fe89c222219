/** package.json's contributions agree with the code: every command used is declared, every file named exists. */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const declared = new Set<string>(pkg.contributes.commands.map((c: { command: string }) => c.command));
const source = readdirSync(join(ROOT, 'extension', 'src')).map((f) => readFileSync(join(ROOT, 'extension', 'src', f), 'utf8')).join('\n')
  + readFileSync(join(ROOT, 'media', 'panel.js'), 'utf8');

test('every command the code registers or runs is declared, and every declared one is registered', () => {
  const registered = new Set([...source.matchAll(/registerCommand\('(marathonMemBench\.\w+)'/g), ...source.matchAll(/c\('(marathonMemBench\.\w+)'/g)].map((m) => m[1]!));
  const used = new Set([...source.matchAll(/'(marathonMemBench\.\w+)'/g)].map((m) => m[1]!).filter((c) => !/^marathonMemBench\.(runs|report|secretNames|env)$/.test(c)));
  for (const c of declared) assert.ok(registered.has(c), `${c} is declared but never registered`);
  for (const c of used) if (/Run|Phase|Key|Cause|Panel|Log|Report|Trends|Benchmarks|Here/.test(c)) assert.ok(declared.has(c), `${c} is used but not declared`);
});

test('the walkthrough links declared commands and existing media; run commands need a trusted workspace', () => {
  const steps = pkg.contributes.walkthroughs[0].steps as { description: string; media: { markdown: string }; completionEvents: string[] }[];
  assert.deepEqual(steps.map((s) => s.completionEvents[0]), ['onCommand:marathonMemBench.openBundledBenchmarks', 'onCommand:marathonMemBench.rehearsePhase', 'onCommand:marathonMemBench.setApiKey', 'onCommand:marathonMemBench.startRun']);
  for (const s of steps) {
    assert.ok(existsSync(join(ROOT, s.media.markdown)), s.media.markdown);
    for (const m of s.description.matchAll(/command:([\w.]+)/g)) assert.ok(declared.has(m[1]!), m[1]);
  }
  const runs = pkg.contributes.commands.filter((c: { command: string }) => /(start|resume|restart|stop)Run|runPhase|runFromHere|rehearsePhase/.test(c.command));
  assert.equal(runs.length, 7);
  for (const c of runs) assert.equal(c.enablement, 'isWorkspaceTrusted', c.command);
  assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
  for (const f of ['media/panel.js', 'media/panel.css', 'media/score-good.svg', 'media/score-fair.svg', 'media/score-poor.svg', 'media/score-unplayed.svg', 'media/trap-caught.svg']) assert.ok(existsSync(join(ROOT, f)), f);
  // Featured, the walkthrough is on the Welcome page of a workspace with a benchmark, not only in its list.
  assert.deepEqual(pkg.contributes.walkthroughs[0].featuredFor, ['**/benchmark.json', 'config.jsonc']);
  assert.ok(pkg.files.includes('media'), 'the media ship in the .vsix');
});
