/**
 * End to end in a real VS Code: the first rehearsal a newcomer meets. The workspace is what `mmb
 * init` writes, its two rehearsals played by the built CLI (`mmb run`), then opened: the run view
 * lists both, the conversation of each says in one line what a stand-in score means, nothing is
 * called partial, and the chatbot's low scores sit beside the notebook's. Screenshots at 1,400 and
 * 1,000 px wide, dark and light, go to .e2e/artifacts/.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { INIT_CONFIG } from '../engine/src/cli/init';
import { command, focusEditor, ROOT, theme as switchTheme, useVsCode } from './codeServer';

const CLI = join(ROOT, 'dist', 'cli.js');

/** `mmb <args>` in the workspace, as the newcomer typed it; a failure fails the test with its output. */
function mmb(workspace: string, args: string[]): void {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: workspace, encoding: 'utf8' });
  assert.equal(result.status, 0, `mmb ${args.join(' ')}: ${result.stdout}${result.stderr}`);
}

const {
  vs: session,
  shot,
  e2e,
} = useVsCode({
  config: INIT_CONFIG,
  prepare: (workspace) => {
    mmb(workspace, ['init', '.']);
    mmb(workspace, ['run']);
  },
  settings: { 'workbench.colorTheme': 'Default Dark Modern' },
});

const conversation = (): FrameLocator => session().page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
const row = (page: Page, run: string) => page.locator(`.part.sidebar .monaco-list-row[aria-label^="${run}, "]`);

async function theme(page: Page, name: 'Dark Modern' | 'Light Modern'): Promise<void> {
  await switchTheme(page, name);
  await page.waitForTimeout(800);
}

/** Opens a run's conversation from its row, and waits for its head. */
async function openRun(page: Page, run: string): Promise<void> {
  await row(page, run).click();
  await conversation().locator(`.head[data-run="${run}"] .status`, { hasText: 'finished' }).waitFor({ timeout: 30_000 });
}

e2e('the first rehearsals in the run view: each says what a stand-in score means; none is partial', 'firstrun', async () => {
  const { page } = session();
  await command(page, 'MarathonMemBench: Focus on Runs View');
  // The first window on a workspace of every bundled benchmark: on a loaded machine its rows can take a while.
  await page
    .locator('.part.sidebar .monaco-list-row')
    .first()
    .waitFor({ timeout: 60_000 })
    .catch(async (error: Error) => {
      const views = await page.locator('.part.sidebar .pane-header').allInnerTexts();
      throw new Error(`no row in the run view; the side bar's views: ${views.join(' | ')}: ${error.message}`);
    });
  for (const run of ['rehearsal', 'rehearsal-chatbot']) {
    await row(page, run)
      .waitFor({ timeout: 30_000 })
      .catch(async (error: Error) => {
        const rows = await page
          .locator('.part.sidebar .monaco-list-row')
          .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
        throw new Error(`no row for ${run}; the rows: ${rows.join(' | ')}: ${error.message}`);
      });
    assert.match(await row(page, run).innerText(), /\d\.\d\d\/10 · finished/);
  }
  for (const run of ['rehearsal-chatbot', 'rehearsal']) {
    await openRun(page, run);
    const head = conversation().locator(`.head[data-run="${run}"]`);
    assert.match(await head.locator('.note').innerText(), /A stand-in run: no model.*Next: mmb report \S+ --html/);
    assert.doesNotMatch(await conversation().locator('body').innerText(), /partial/i);
  }
  await shot('firstrun-1400-dark');
  await theme(page, 'Light Modern');
  await shot('firstrun-1400-light');
  await page.setViewportSize({ width: 1000, height: 800 });
  await page.waitForTimeout(800);
  await shot('firstrun-1000-light');
  await theme(page, 'Dark Modern');
  await shot('firstrun-1000-dark');
  await page.setViewportSize({ width: 1400, height: 900 });
});

/** Opens the starter's chapter3.md by its path: every bundled benchmark `mmb init` copied has a chapter3.md. */
async function openStarterExam(page: Page): Promise<void> {
  await page.keyboard.press('Control+P');
  await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
  await page.keyboard.type('starter/chapter3.md');
  await page.waitForSelector('.quick-input-list .monaco-list-row.focused[aria-label*="chapter3.md"][aria-label*="starter"]', {
    timeout: 15_000,
  });
  await page.keyboard.press('Enter');
  await page.waitForSelector('.tab.active[aria-label*="chapter3.md"]', { timeout: 15_000 });
  await focusEditor(page);
}

e2e("the starter's exam after the first rehearsals: the checks carry their scores", 'firstrun-exam', async () => {
  const { page } = session();
  await openStarterExam(page);
  await page.locator('.contentWidgets .codelens-decoration a', { hasText: 'rehearsal' }).first().waitFor({ timeout: 30_000 });
  const lenses = await page.locator('.contentWidgets .codelens-decoration').allInnerTexts();
  assert.ok(!lenses.some((text) => /partial/i.test(text)), `no lens says partial: ${lenses.join(' | ')}`);
  await shot('firstrun-exam-dark');
  await theme(page, 'Light Modern');
  await shot('firstrun-exam-light');
  await theme(page, 'Dark Modern');
});
