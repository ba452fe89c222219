/**
 * End to end in a real VS Code: every lens has a way forward (issue #33 items 5 and 8). In a
 * workspace as `mmb init` writes it, Max has no run in config.jsonc: its phases show *Rehearse* and
 * *Add a run for this benchmark…*, never *Run phase*; *Rehearse* opens the conversation on its own
 * run at once; *Add a run…* picks an agent and a model and writes the run into config.jsonc (its
 * comments kept), and the run it offers to start could not start (no key): an amber toast with its
 * fixes; the key stored offers *Start again*, and the crash that follows says "crashed" once, in red.
 * Screenshots at 1,400 and 1,000 px, dark and light, go to .e2e/artifacts/lenses-*.png.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { INIT_CONFIG } from '../engine/src/cli/init';
import { command, focusEditor, openFile, theme as switchTheme, useVsCode } from './codeServer';

const {
  vs: session,
  shot,
  e2e,
} = useVsCode({
  benchmarks: ['starter', 'max'],
  config: INIT_CONFIG,
  settings: { 'workbench.colorTheme': 'Default Dark Modern' },
});

const KEY = 'MMB_E2E_LOCAL_KEY';
const RUN = 'max-notebook';
const REHEARSAL = 'max.phase-chapter4-1.rehearsal';

/** The conversation's document, inside the webview's two frames. */
const conversation = (): FrameLocator => session().page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
const lens = (page: Page, text: string): Locator => page.locator('.contentWidgets .codelens-decoration a:visible', { hasText: text });
const toast = (page: Page, text: string): Locator => page.locator('.notifications-toasts .notification-toast', { hasText: text });

async function theme(page: Page, name: 'Dark Modern' | 'Light Modern'): Promise<void> {
  await switchTheme(page, name);
  await page.waitForTimeout(800);
}

async function size(page: Page, width: 1000 | 1400): Promise<void> {
  await page.setViewportSize(width === 1000 ? { width: 1000, height: 800 } : { width: 1400, height: 900 });
  await page.waitForTimeout(800);
}

/** The buttons of a toast, by their titles. */
async function buttons(t: Locator): Promise<string[]> {
  return (await t.locator('.monaco-button').allInnerTexts()).map((b) => b.trim()).filter((b) => b.length > 0);
}

/** Picks the focused row of the open quick pick once it shows `text` (typed as a filter first). */
async function pick(page: Page, title: string, text: string): Promise<void> {
  await page.locator('.quick-input-widget .quick-input-title', { hasText: title }).waitFor({ timeout: 15_000 });
  await page.keyboard.type(text);
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: text }).waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
}

/** Types into the input box whose title or prompt says `title`, once it shows. */
async function answer(page: Page, title: string, text: string): Promise<void> {
  await page.locator('.quick-input-widget', { hasText: title }).waitFor({ timeout: 15_000 });
  if (text) await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

e2e('Max after mmb init: its phases offer Rehearse and Add a run…, not runs that could only fail', 'lenses-max', async () => {
  const { page } = session();
  await openFile(page, 'chapter4.md');
  await page.keyboard.press('Control+Home');
  await lens(page, 'Add a run for this benchmark…').first().waitFor({ timeout: 60_000 });
  const titles = (await page.locator('.contentWidgets .codelens-decoration').first().innerText()).replace(/\s+/g, ' ').trim();
  assert.match(titles, /Rehearse \| +Add a run for this benchmark…$/, titles);
  assert.equal(await lens(page, 'Run phase').count(), 0, 'no Run phase on a benchmark without a run');
  assert.equal(await lens(page, 'Run from here').count(), 0);
  await shot('lenses-max-1400-dark');
  await theme(page, 'Light Modern');
  await shot('lenses-max-1400-light');
  await size(page, 1000);
  await shot('lenses-max-1000-light');
  await theme(page, 'Dark Modern');
  await shot('lenses-max-1000-dark');
  await size(page, 1400);
});

e2e('Rehearse on Max opens the conversation on its own run at once, never on another', 'lenses-rehearse', async () => {
  const { page } = session();
  await focusEditor(page);
  await lens(page, 'Rehearse').first().click();
  const seen = new Set<string>();
  const deadline = Date.now() + 30_000;
  while (!seen.has(`Run: ${REHEARSAL}`)) {
    assert.ok(Date.now() < deadline, `a tab "Run: ${REHEARSAL}" within 30 s; seen: ${[...seen].join(' | ')}`);
    for (const tab of await page.locator('.tab').allInnerTexts()) if (tab.startsWith('Run')) seen.add(tab.trim());
    await page.waitForTimeout(50);
  }
  assert.deepEqual([...seen], [`Run: ${REHEARSAL}`], 'no other run shown first');
});

e2e('Add a run…: agent and model picked, the run written into config.jsonc; the toasts carry their fixes', 'lenses-add', async () => {
  const { page, workspace } = session();
  // Back to the chapter by its tab: the conversation just opened may hold the keyboard (a webview takes F1 too).
  await page.locator('.tab', { hasText: 'chapter4.md' }).first().click();
  await lens(page, 'Add a run for this benchmark…').first().click();
  await pick(page, 'Add a run (1/3): agent', 'notebook');
  await pick(page, 'Add a run (2/3): model', 'Another model…');
  await answer(page, 'as its server calls it', 'local');
  await answer(page, 'the OpenAI-compatible server', 'http://127.0.0.1:9/v1');
  await answer(page, 'the environment variable that holds its API key', KEY);
  await answer(page, 'Add a run (3/3): name', '');
  const added = toast(page, `${RUN} is in config.jsonc`);
  await added.waitFor({ timeout: 15_000 });
  assert.deepEqual(await buttons(added), ['Set an API key…', 'Start it', 'Open config.jsonc']);
  const config = readFileSync(join(workspace, 'config.jsonc'), 'utf8');
  assert.ok(
    config.includes(
      `    "${RUN}": { "benchmark": "max", "agent": "notebook", "agent_model": ` +
        `{ "model": "local", "base_url": "http://127.0.0.1:9/v1", "api_key_env": "${KEY}" } }\n  }\n}\n`,
    ),
    config,
  );
  assert.ok(config.includes('// A real run: uncomment these two lines'), 'the comments are kept');
  // The benchmark has a run now: its phases run for real.
  await lens(page, 'Run phase').first().waitFor({ timeout: 20_000 });
  // The rehearsal's conversation is still drawn below the chapter (not a blank webview).
  await conversation().locator(`.head[data-run="${REHEARSAL}"] .status`, { hasText: 'finished' }).waitFor({ timeout: 30_000 });
  await shot('lenses-added-1400-dark');

  await added.locator('.monaco-button', { hasText: 'Start it' }).click();
  const refused = toast(page, `${RUN} could not start`);
  await refused.waitFor({ timeout: 30_000 });
  assert.match(await refused.innerText(), new RegExp(`set the environment variable ${KEY}`));
  assert.equal(await refused.locator('.codicon-warning').count(), 1, 'amber ⚠, as its row');
  assert.equal(await refused.locator('.codicon-error').count(), 0, 'not a red ✗');
  assert.deepEqual(await buttons(refused), ['Set an API key…', 'Rehearse instead', 'Open config.jsonc']);
  await command(page, 'MarathonMemBench: Focus on Runs View');
  const row = page.locator(`.part.sidebar .monaco-list-row[aria-label^="${RUN}, "]`);
  await row.locator('.label-description', { hasText: 'could not start' }).waitFor({ timeout: 15_000 });
  assert.equal(await row.locator('.codicon-warning').count(), 1, "the row's icon is the toast's");
  // The conversation's box of the reason is amber too, not a crash's red.
  await conversation().locator(`.head[data-run="${RUN}"] .error.could-not-start`, { hasText: KEY }).waitFor({ timeout: 15_000 });
  await shot('lenses-toast-1400-dark');

  await refused.locator('.monaco-button', { hasText: 'Set an API key…' }).click();
  const first = page.locator('.quick-input-list .monaco-list-row').first();
  await first.waitFor({ timeout: 10_000 });
  assert.match(await first.innerText(), new RegExp(KEY), 'the missing variable is offered first');
  await page.keyboard.press('Enter');
  await answer(page, `The value of ${KEY}`, 'e2e-not-a-real-key');
  const stored = toast(page, `${KEY} is stored`);
  await stored.waitFor({ timeout: 10_000 });
  assert.match(await stored.innerText(), new RegExp(`${RUN} could not start without it`));
  assert.deepEqual(await buttons(stored), ['Start again']);
  await theme(page, 'Light Modern');
  await size(page, 1000);
  await shot('lenses-key-stored-1000-light');

  await stored.locator('.monaco-button', { hasText: 'Start again' }).click();
  const crashed = toast(page, `${RUN} crashed: `);
  await crashed.waitFor({ timeout: 60_000 });
  const text = await crashed.innerText();
  assert.match(text, /crashed: the notebook agent failed: model local: ECONNREFUSED/);
  assert.doesNotMatch(text, /stopped: crashed/, 'one word for what happened');
  assert.equal(await crashed.locator('.codicon-error').count(), 1, 'a crash is red');
  assert.deepEqual(await buttons(crashed), ['Resume', 'Open the log']);
  await row.locator('.label-description', { hasText: 'crashed' }).waitFor({ timeout: 15_000 });
  assert.equal(await row.locator('.codicon-error').count(), 1, "the row's icon is the toast's: red");
  await conversation().locator(`.head[data-run="${RUN}"] .status`, { hasText: 'crashed' }).waitFor({ timeout: 15_000 });
  await shot('lenses-crash-1000-light');
  await command(page, 'Notifications: Clear All Notifications');
  await size(page, 1400);
  await theme(page, 'Dark Modern');
});
