/** package.json's contributions agree with the code: every command used is declared, every file named exists. */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RunView } from '../src/results';
import { runRow } from '../src/runInfo';

const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const declared = new Set<string>(pkg.contributes.commands.map((c: { command: string }) => c.command));
const source =
  readdirSync(join(ROOT, 'extension', 'src'))
    .map((f) => readFileSync(join(ROOT, 'extension', 'src', f), 'utf8'))
    .join('\n') + readFileSync(join(ROOT, 'media', 'panel.js'), 'utf8');

test('every command the code registers or runs is declared, and every declared one is registered', () => {
  const registered = new Set(
    [...source.matchAll(/registerCommand\(\s*'(marathonMemBench\.\w+)'/g), ...source.matchAll(/c\(\s*'(marathonMemBench\.\w+)'/g)].map(
      (m) => m[1]!,
    ),
  );
  const used = new Set(
    [...source.matchAll(/'(marathonMemBench\.\w+)'/g)]
      .map((m) => m[1]!)
      .filter((c) => !/^marathonMemBench\.(runs|report|secretNames|env)$/.test(c)),
  );
  for (const c of declared) assert.ok(registered.has(c), `${c} is declared but never registered`);
  for (const c of used)
    if (/Run|Phase|Key|Cause|Panel|Log|Report|Trends|Benchmarks|Here/.test(c)) assert.ok(declared.has(c), `${c} is used but not declared`);
});

test('the walkthrough links declared commands and existing media; run commands need a trusted workspace', () => {
  const steps = pkg.contributes.walkthroughs[0].steps as { description: string; media: { markdown: string }; completionEvents: string[] }[];
  assert.deepEqual(
    steps.map((s) => s.completionEvents[0]),
    [
      'onCommand:marathonMemBench.openBundledBenchmarks',
      'onCommand:marathonMemBench.rehearsePhase',
      'onCommand:marathonMemBench.setApiKey',
      'onCommand:marathonMemBench.startRun',
    ],
  );
  for (const s of steps) {
    assert.ok(existsSync(join(ROOT, s.media.markdown)), s.media.markdown);
    for (const m of s.description.matchAll(/command:([\w.]+)/g)) assert.ok(declared.has(m[1]!), m[1]);
  }
  const runs = pkg.contributes.commands.filter((c: { command: string }) =>
    /(start|resume|restart|stop)Run|runPhase|runFromHere|rehearsePhase/.test(c.command),
  );
  assert.equal(runs.length, 7);
  for (const c of runs) assert.equal(c.enablement, 'isWorkspaceTrusted', c.command);
  assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
  for (const f of [
    'media/panel.js',
    'media/panel.css',
    'media/score-good.svg',
    'media/score-fair.svg',
    'media/score-poor.svg',
    'media/score-unplayed.svg',
    'media/trap-caught.svg',
  ])
    assert.ok(existsSync(join(ROOT, f)), f);
  // Featured, the walkthrough is on the Welcome page of a workspace with a benchmark, not only in its list.
  assert.deepEqual(pkg.contributes.walkthroughs[0].featuredFor, ['**/benchmark.json', 'config.jsonc']);
  assert.ok(pkg.files.includes('media'), 'the media ship in the .vsix');
});

test('the run view: its container, view and icon exist; the phase commands are in the palette; both webviews revive after a reload', () => {
  const container = pkg.contributes.viewsContainers.activitybar.find((v: { id: string }) => v.id === 'marathonMemBench');
  assert.ok(container && existsSync(join(ROOT, container.icon)), 'the activity-bar container and its icon');
  assert.deepEqual(
    pkg.contributes.views.marathonMemBench.map((v: { id: string }) => v.id),
    ['marathonMemBench.runs'],
  );
  const hidden = new Set(
    pkg.contributes.menus.commandPalette.filter((m: { when: string }) => m.when === 'false').map((m: { command: string }) => m.command),
  );
  for (const c of ['marathonMemBench.runPhase', 'marathonMemBench.rehearsePhase']) assert.ok(!hidden.has(c), `${c} is in the palette`);
  for (const type of ['marathonMemBench.runs', 'marathonMemBench.report']) {
    assert.ok(pkg.activationEvents.includes(`onWebviewPanel:${type}`), `activates to revive ${type}`);
    assert.ok(source.includes(`'${type}'`), `a webview of type ${type} is created`);
  }
  for (const menu of [...pkg.contributes.menus['view/title'], ...pkg.contributes.menus['view/item/context']])
    assert.ok(declared.has(menu.command), menu.command);
});

test("each row of the run view gets the inline action its status needs, by the menus' own when clauses", () => {
  const inline = (pkg.contributes.menus['view/item/context'] as { command: string; when: string; group: string }[]).filter((m) =>
    m.group.startsWith('inline'),
  );
  const actionsOf = (contextValue: string) =>
    inline
      .filter((m) => {
        const pattern = /viewItem =~ \/(.+)\/$/.exec(m.when)?.[1];
        return pattern !== undefined && new RegExp(pattern).test(contextValue);
      })
      .map((m) => m.command.replace('marathonMemBench.', ''));
  const view: RunView = {
    name: 'r',
    benchmark: 'starter',
    agent: 'chatbot',
    status: 'finished',
    configured: true,
    average: 5,
    graded: 3,
    lastEventAt: '2026-12-01T09:00:00Z',
  };
  const failure = { run: 'r', reason: 'no key', couldNotStart: true, at: '2026-12-01T10:00:00Z' };
  assert.deepEqual(
    actionsOf(
      runRow({ ...view, status: 'not started', average: null, graded: 0, lastEventAt: undefined } as RunView, undefined).contextValue,
    ),
    ['startRun'],
  );
  assert.deepEqual(
    actionsOf(
      runRow({ ...view, status: 'not started', average: null, graded: 0, lastEventAt: undefined } as RunView, failure).contextValue,
    ),
    ['startRun'],
  );
  assert.deepEqual(actionsOf(runRow({ ...view, status: 'running' }, undefined).contextValue), ['stopRun', 'showReport']);
  assert.deepEqual(actionsOf(runRow({ ...view, status: 'stopped' }, undefined).contextValue), ['resumeRun', 'showReport']);
  assert.deepEqual(actionsOf(runRow({ ...view, status: 'crashed' }, undefined).contextValue), ['resumeRun', 'showReport']);
  assert.deepEqual(actionsOf(runRow(view, undefined).contextValue), ['showReport']);
});

test("the engine's missing-key error names the key command by its real title", () => {
  const title = pkg.contributes.commands.find((c: { command: string }) => c.command === 'marathonMemBench.setApiKey').title;
  assert.equal(title, 'Set an API key…');
  assert.ok(readFileSync(join(ROOT, 'engine', 'src', 'models', 'resolve.ts'), 'utf8').includes(`the command "MarathonMemBench: ${title}"`));
});
