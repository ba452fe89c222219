/**
 * End to end in a real VS Code: the packaged extension's language server reports a broken fact
 * ref in the Problems panel, completes fact ids, and jumps to a fact's definition. Screenshots go
 * to .e2e/artifacts/.
 */
import assert from 'node:assert/strict';
import { focusEditor, openFile, select, useVsCode } from './codeServer';

const { vs: session, shot, e2e } = useVsCode();

e2e('a broken fact ref shows in the Problems panel with its code and message', 'problems', async () => {
  const { page } = session();
  await openFile(page, 'chapter2.md');
  await select(page, 'move#2.1');
  await page.keyboard.type('move#9.1');
  await page.keyboard.press('Control+Shift+M');
  const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'move#9.1' });
  await row.first().waitFor({ timeout: 30_000 });
  const text = await row.first().innerText();
  assert.match(text, /points nowhere: the `move` sheet has no fact 9\.1/);
  assert.match(text, /unknown-fact/);
  await shot('problems-unknown-fact');
});

e2e("typing a fact ref offers the sheet's fact ids with their text, and accepting one inserts it", 'completion', async () => {
  const { page } = session();
  await focusEditor(page);
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('See move#');
  const widget = page.locator('.suggest-widget.visible');
  await widget.waitFor({ timeout: 20_000 }).catch(async () => {
    await page.keyboard.press('Control+Space');
    await widget.waitFor({ timeout: 20_000 });
  });
  await page.locator('.suggest-widget.visible .monaco-list-row', { hasText: '1.1' }).first().waitFor({ timeout: 10_000 });
  const rows = await page.locator('.suggest-widget.visible .monaco-list-row').allInnerTexts();
  assert.ok(
    rows.some((r) => r.includes('1.1') && r.includes('Harehills Lane')),
    rows.join(' | '),
  );
  await shot('completion-fact-ids');
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
  const lines = await page.locator('.editor-instance .view-lines').first().innerText();
  assert.match(lines.replace(/\u00a0/g, ' '), /See move#1\.1/);
});

e2e('go to definition on a fact ref opens its sheet at the fact', 'definition', async () => {
  const { page } = session();
  await focusEditor(page);
  await select(page, 'move#1.3');
  // The cursor on the id (not the sheet name, which leads to the sheet's top).
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('F12');
  await page.waitForSelector('.tab.active[aria-label*="move.md"]', { timeout: 20_000 });
  await page
    .locator('.statusbar-item', { hasText: /Ln 6, Col 1/ })
    .first()
    .waitFor({ timeout: 10_000 });
  const visible = await page.locator('.editor-instance .view-lines').first().innerText();
  assert.match(visible.replace(/\u00a0/g, ' '), /1\.3 The keys are handed over on the 14th/);
  await shot('definition-move-sheet');
});
