/**
 * End to end in a real VS Code: the run view (the tree in the activity bar and a run's
 * conversation). A run that cannot start (no key) says why in a notification with the actions
 * that fix it, and keeps its row; the conversation reflows at 600 px and at 1,400 px wide, in the
 * dark and the light theme; the view and the conversation come back after a window reload; the
 * Test Explorer's default profile rehearses. Screenshots go to .e2e/artifacts/.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { requestedRunName } from '../engine/src/api';
import { command, reloadWindow, theme as switchTheme, useVsCode } from './codeServer';

const { vs: session, shot, e2e } = useVsCode();

/** The conversation's document, inside the webview's two frames. */
const conversation = (): FrameLocator => session().page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');

/** A row of the run view by its run's name (its accessible label starts with the name). */
const row = (page: Page, run: string): Locator => page.locator(`.part.sidebar .monaco-list-row[aria-label^="${run}, "]`);

const MISSING = 'MMB_E2E_MISSING_KEY';
const REHEARSAL = 'rehearsal.phase-chapter3-1.rehearsal';

function writeConfig(config: unknown): void {
  writeFileSync(join(session().workspace, 'config.jsonc'), JSON.stringify(config, null, 2));
}

/** The theme switched, and a moment for the webviews to redraw in it. */
async function theme(page: Page, name: 'Dark Modern' | 'Light Modern'): Promise<void> {
  await switchTheme(page, name);
  await page.waitForTimeout(800);
}

/** Whether the conversation's page scrolls sideways, and how many columns its grid has. */
async function layout(): Promise<{ width: number; overflow: boolean; columns: number }> {
  const body = conversation().locator('body');
  const measured = await body.evaluate(`(() => {
    const grid = document.querySelector('.grid');
    const columns = grid ? getComputedStyle(grid).gridTemplateColumns.split(' ').filter((c) => c).length : 0;
    const root = document.documentElement;
    return { width: document.body.clientWidth, overflow: root.scrollWidth > root.clientWidth + 1, columns };
  })()`);
  return measured as { width: number; overflow: boolean; columns: number };
}

async function showRunView(page: Page): Promise<void> {
  await command(page, 'MarathonMemBench: Focus on Runs View');
  await page.locator('.part.sidebar .monaco-list-row').first().waitFor({ timeout: 20_000 });
}

e2e('a run that cannot start (no key): a notification with its reason and fixes, and its row with the reason', 'nokey', async () => {
  const { page } = session();
  await theme(page, 'Dark Modern');
  writeConfig({
    persona: { model: 'remote-model', base_url: 'http://127.0.0.1:9/v1', api_key_env: MISSING },
    runs: { nokey: { benchmark: 'starter', agent: 'chatbot' } },
  });
  await showRunView(page);
  await row(page, 'nokey').waitFor({ timeout: 20_000 });
  await row(page, 'nokey').hover();
  await row(page, 'nokey').locator('.action-label[aria-label^="Start a run"]').click();
  const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'nokey could not start' });
  await toast.waitFor({ timeout: 30_000 });
  assert.match(await toast.innerText(), new RegExp(`needs an API key: set the environment variable ${MISSING}`));
  for (const action of ['Set an API key…', 'Rehearse instead', 'Open config.jsonc'])
    assert.equal(await toast.locator('.monaco-button', { hasText: action }).count(), 1, action);
  await row(page, 'nokey').locator('.label-description', { hasText: 'could not start' }).waitFor({ timeout: 10_000 });
  await conversation().locator('.head[data-run="nokey"] .error', { hasText: MISSING }).waitFor({ timeout: 10_000 });
  await shot('runview-nokey-dark');
  // The fix: the key's own variable is offered first.
  await toast.locator('.monaco-button', { hasText: 'Set an API key…' }).click();
  const first = page.locator('.quick-input-list .monaco-list-row').first();
  await first.waitFor({ timeout: 10_000 });
  assert.match(await first.innerText(), new RegExp(MISSING));
  await page.keyboard.press('Escape');
  // A phase run that cannot start gets its row too, though it has no results at all: started from
  // the palette, which asks for the phase (the lens calls the same command with its phase).
  await command(page, 'MarathonMemBench: Run a phase');
  const phase = page.locator('.quick-input-list .monaco-list-row', { hasText: 'chapter3.md · 1' }).first();
  await phase.waitFor({ timeout: 10_000 });
  await phase.click();
  await page
    .locator('.notifications-toasts .notification-toast', { hasText: 'nokey.phase-chapter3-1 could not start' })
    .waitFor({ timeout: 30_000 });
  await row(page, 'nokey.phase-chapter3-1').locator('.label-description', { hasText: 'could not start' }).waitFor({ timeout: 10_000 });
  await shot('runview-nokey-phase');
  await command(page, 'Notifications: Clear All Notifications');
});

e2e('the run view at 1,400 and at 600 px wide, dark and light: a finished rehearsal, nothing scrolls sideways', 'widths', async () => {
  const { page } = session();
  writeConfig({ persona: { model: 'stand-in' }, runs: { rehearsal: { benchmark: 'starter', agent: 'notebook' } } });
  await showRunView(page);
  await row(page, 'rehearsal').waitFor({ timeout: 20_000 });
  // From the palette: the command asks for the phase, the one at the cursor first.
  await command(page, 'MarathonMemBench: Rehearse a phase on the stand-in');
  const phase = page.locator('.quick-input-list .monaco-list-row', { hasText: 'chapter3.md · 1' }).first();
  await phase.waitFor({ timeout: 10_000 });
  await phase.click();
  await conversation().locator(`.head[data-run="${REHEARSAL}"] .status`, { hasText: 'finished' }).waitFor({ timeout: 90_000 });
  assert.match(
    await conversation().locator('.where').innerText(),
    /^Ended after chapter3\.md, phase 1/,
    'a finished run is not "now" anywhere',
  );
  assert.equal(await conversation().locator('.check').count(), 5);
  await row(page, REHEARSAL).locator('.label-description', { hasText: 'finished' }).waitFor({ timeout: 10_000 });
  // The conversation alone in the editor area, beside the run view.
  for (let tries = 0; tries < 5 && (await page.locator('.tab', { hasText: 'chapter3.md' }).count()) > 0; tries++) {
    // A middle click closes a tab, whatever its close button shows.
    await page.locator('.tab', { hasText: 'chapter3.md' }).first().click({ button: 'middle' });
    await page.waitForTimeout(500);
  }
  await page
    .locator('.tab', { hasText: `Run: ${REHEARSAL}` })
    .first()
    .click();
  await page.waitForTimeout(800);
  assert.equal(await page.locator('.tab', { hasText: 'chapter3.md' }).count(), 0, 'the chapter is closed');
  const wide = await layout();
  assert.equal(wide.overflow, false, `no sideways scroll at ${wide.width} px`);
  assert.equal(wide.columns, 2, 'two columns when wide');
  await shot('runview-1400-dark');
  await theme(page, 'Light Modern');
  await shot('runview-1400-light');
  await page.setViewportSize({ width: 600, height: 900 });
  await page.waitForTimeout(1000);
  const narrow = await layout();
  assert.equal(narrow.overflow, false, `no sideways scroll at ${narrow.width} px`);
  assert.equal(narrow.columns, 1, 'one column when narrow');
  await shot('runview-600-light');
  await theme(page, 'Dark Modern');
  await shot('runview-600-dark');
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.waitForTimeout(500);
});

e2e('after a window reload, the run view and the conversation come back on the same run', 'reload', async () => {
  const { page } = session();
  await reloadWindow(page);
  await conversation().locator(`.head[data-run="${REHEARSAL}"] .status`, { hasText: 'finished' }).waitFor({ timeout: 60_000 });
  await row(page, REHEARSAL).waitFor({ timeout: 30_000 });
  assert.equal(await page.locator('.tab', { hasText: `Run: ${REHEARSAL}` }).count(), 1, 'one conversation tab, no empty group');
  await shot('runview-reloaded');
});

e2e("the Test Explorer's default profile rehearses on the stand-in: no dialog, no real run", 'testing', async () => {
  const { page } = session();
  // The benchmark's one run of config.jsonc, rehearsed with its agent on the stand-in.
  const rehearsal = requestedRunName({ kind: 'rehearsal', base: { run: 'rehearsal' } });
  await command(page, 'Testing: Focus on Test Explorer View');
  await page.locator('.test-explorer .monaco-list-row', { hasText: 'Starter' }).first().waitFor({ timeout: 20_000 });
  await command(page, 'Test: Run All Tests');
  const state = join(session().workspace, 'results', rehearsal, 'state.json');
  const deadline = Date.now() + 120_000;
  while (
    !(existsSync(state) && JSON.parse(readFileSync(state, 'utf8')).status === 'finished') ||
    existsSync(join(session().workspace, 'results', rehearsal, 'run.lock'))
  ) {
    assert.ok(Date.now() < deadline, `${rehearsal} finished within 2 minutes`);
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'the default profile asks nothing');
    await page.waitForTimeout(500);
  }
  assert.ok(!existsSync(join(session().workspace, 'results', 'rehearsal', 'state.json')), 'the configured run was not started');
  await page.locator('.test-explorer .monaco-list-row .codicon-testing-failed-icon').first().waitFor({ timeout: 20_000 });
  await shot('runview-test-explorer');
});
