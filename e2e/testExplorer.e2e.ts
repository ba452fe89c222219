/**
 * The Playwright user's path through the Test Explorer, in a real VS Code: run one check of the
 * starter from the explorer (the rehearsal profile), see it fail under its run's id, peek the
 * failure at the check (question, expected against actual, the trap write as a stack frame), open
 * the trap write from the frame, fix the chapter and *Rerun Failed Tests* until it passes. The peek
 * is shot at 1,400 and 1,000 px in Dark Modern and Light Modern into .e2e/artifacts/.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { command, focusEditor, openFile, theme, useVsCode } from './codeServer';

// The peek is opened by the test, as a user would (Go to Next Test Failure), never by surprise.
const {
  vs: session,
  shot,
  e2e,
} = useVsCode({
  settings: { 'testing.automaticallyOpenPeekView': 'never', 'workbench.colorTheme': 'Default Dark Modern' },
});

/** Check 3.3 alone: rehearsed with the config's run (the notebook) from the earliest trap write aimed at it. */
const ONE = 'rehearsal.from-chapter2-2.rehearsal';
/** The rerun once that trap write is gone: the whole benchmark, a full run. */
const WHOLE = 'rehearsal.rehearsal';

/** Waits until `run` has finished and let go of its lock. */
async function finished(page: Page, run: string): Promise<void> {
  const dir = join(session().workspace, 'results', run);
  const deadline = Date.now() + 60_000;
  while (!(existsSync(join(dir, 'state.json')) && JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')).status === 'finished')) {
    assert.ok(Date.now() < deadline, `${run} finished within a minute`);
    await page.waitForTimeout(500);
  }
  while (existsSync(join(dir, 'run.lock'))) await page.waitForTimeout(250);
}

const row = (page: Page, text: string) => page.locator('.test-explorer .monaco-list-row', { hasText: text }).first();

/** The Test Explorer with the starter's checks showing: Starter → chapter3.md → its checks. */
async function explorerChecks(page: Page): Promise<void> {
  await command(page, 'Testing: Focus on Test Explorer View');
  await row(page, 'Starter').waitFor({ timeout: 20_000 });
  if (await row(page, '❓ 3.3').isVisible()) return;
  await row(page, 'Starter').click();
  await page.keyboard.press('ArrowRight');
  await row(page, 'chapter3.md').click();
  await page.keyboard.press('ArrowRight');
  await row(page, '❓ 3.3').waitFor({ timeout: 10_000 });
}

const peek = (page: Page) => page.locator('.test-output-peek').first();

/** The failure's peek in chapter3.md, opened as a user would when it is not showing: a click on the failure shown at the check. */
async function openPeek(page: Page): Promise<void> {
  if (await peek(page).isVisible()) return;
  await openFile(page, 'chapter3.md');
  await page.locator('.test-message-inline-content', { hasText: '£380' }).first().click();
  await peek(page).waitFor({ timeout: 15_000 });
  await page.waitForTimeout(800);
}

e2e('run one check from the Test Explorer: it fails under its run, and Go to Test lands on the check', 'tests-run-one', async () => {
  const { page } = session();
  // The chapter open, its lenses drawn: the extension is up and its test controller registered.
  await openFile(page, 'chapter3.md');
  await page.locator('.contentWidgets .codelens-decoration a').first().waitFor({ timeout: 30_000 });
  await explorerChecks(page);
  await row(page, '❓ 3.3').hover();
  await row(page, '❓ 3.3').locator('.action-label.codicon-testing-run-icon').click();
  await finished(page, ONE);
  await row(page, '❓ 3.3').locator('.codicon-testing-failed-icon').waitFor({ timeout: 20_000 });
  assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'the rehearsal profile asks nothing');
  // Test Results holds it under the run that graded it, named as the run view names it.
  await command(page, 'Test Results: Focus on Test Results View');
  await page.locator('.monaco-list-row', { hasText: ONE }).first().waitFor({ timeout: 20_000 });
  await shot('tests-results-1400-dark');
  // The item has its range: a double-click opens the check's line, not line 1.
  await explorerChecks(page);
  await row(page, '❓ 3.3').dblclick();
  await page.waitForSelector('.tab.active[aria-label*="chapter3.md"]', { timeout: 10_000 });
  await page.locator('.statusbar-item', { hasText: 'Ln 13,' }).waitFor({ timeout: 10_000 });
});

e2e("the failure's peek at the check: the question, expected against actual, the trap write as a frame", 'tests-peek', async () => {
  const { page } = session();
  await openPeek(page);
  await page.locator('.statusbar-item', { hasText: 'Ln 13,' }).waitFor({ timeout: 10_000 });
  // Its title is the question, then expected against actual, then the trap write's line in its chapter.
  // Monaco draws spaces as no-break spaces.
  const text = (await peek(page).innerText()).replace(/\u00a0/g, ' ');
  assert.match(text, /❓ 3\.3 What did the first movers quote before I changed my mind\?/, 'the question');
  assert.match(text, /£380 \(Two Lads & A Van\)\.\s+Expected\s+You never told me that\.\s+Actual/, 'expected against actual');
  const frame = peek(page).locator('.multiCallStackFrame', { hasText: 'chapter2.md' }).first();
  await frame.waitFor({ timeout: 10_000 });
  const frameText = (await frame.innerText()).replace(/\u00a0/g, ' ');
  assert.match(frameText, /12\s[\s\S]*RECONSIDER move#2\.1 → 3\.2, 3\.3/, "the trap write's line");
  // The run played the trap write: the failure counts, so no note says otherwise.
  await command(page, 'Test Results: Focus on Test Results View');
  assert.equal(await page.locator('.monaco-list-row', { hasText: /not counted against the agent/i }).count(), 0);
  // The panel closed, the peek has the height to show its three parts, at 1,000 px too.
  await command(page, 'View: Hide Panel');
  await openPeek(page);
  await shot('tests-peek-1400-dark');
  await theme(page, 'Light Modern');
  await openPeek(page);
  await shot('tests-peek-1400-light');
  await page.setViewportSize({ width: 1000, height: 800 });
  await page.waitForTimeout(1000);
  await openPeek(page);
  await shot('tests-peek-1000-light');
  await theme(page, 'Dark Modern');
  await openPeek(page);
  await shot('tests-peek-1000-dark');
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.waitForTimeout(1000);
});

e2e('the trap frame opens the trap write that caught the check: chapter2.md, line 12', 'tests-frame', async () => {
  const { page } = session();
  await openPeek(page);
  const frame = peek(page).locator('.multiCallStackFrame', { hasText: 'chapter2.md' }).first();
  await frame.hover();
  await frame.locator('.actions .action-label').first().click();
  await page.waitForSelector('.tab.active[aria-label*="chapter2.md"]', { timeout: 10_000 });
  await page.locator('.statusbar-item', { hasText: 'Ln 12,' }).waitFor({ timeout: 10_000 });
  await shot('tests-trap-1400-dark');
});

e2e('fix the chapter, Rerun Failed Tests: the check passes in the whole rehearsal', 'tests-rerun', async () => {
  const { page, workspace } = session();
  const chapter2 = join(workspace, 'benchmarks', 'starter', 'chapter2.md');
  // The trap aimed 3.3 at a run from chapter 2, where the first quote was never told: the fix drops it.
  await focusEditor(page);
  await page.keyboard.press('Control+G');
  await page.keyboard.type('12');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+Shift+K');
  await page.keyboard.press('Control+S');
  const deadline = Date.now() + 10_000;
  while (readFileSync(chapter2, 'utf8').includes('🪤 RECONSIDER')) {
    assert.ok(Date.now() < deadline, 'the trap line was deleted and saved');
    await page.waitForTimeout(250);
  }
  await page.waitForTimeout(1500);
  await command(page, 'Test: Rerun Failed Tests');
  await finished(page, WHOLE);
  await explorerChecks(page);
  await row(page, '❓ 3.3').locator('.codicon-testing-passed-icon').waitFor({ timeout: 20_000 });
  await command(page, 'Test Results: Focus on Test Results View');
  await page.locator('.monaco-list-row', { hasText: WHOLE }).first().waitFor({ timeout: 20_000 });
  await shot('tests-rerun-1400-dark');
});
