/**
 * End to end in a real VS Code: authoring a check and a trap write by typing, as a user does. The
 * editor auto-closes `[`; accepting the next id, then a check type, then a sheet with the habitual `#`
 * must leave `❓ 3.6 [RECALL] ` and `🪤 RECONSIDER move#` on the line, and a check typed with an id
 * already used is marked on the line typed. First, the starter's exam as shipped, a wall of check
 * questions, in Dark Modern, Light Modern and High Contrast Light: the questions in the text colour,
 * never a string's red (authoring-chapter-<width>-<theme>.png in .e2e/artifacts/).
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { focusEditor, openFile, theme, useVsCode } from './codeServer';

const { vs: session, shot, e2e } = useVsCode({ settings: { 'workbench.colorTheme': 'Default Dark Modern' } });

/** The editor's last non-empty line as the user reads it. */
async function lastLine(page: Page): Promise<string> {
  const text = await page.locator('.editor-instance .view-lines').first().innerText();
  return (
    text
      .replace(/\u00a0/g, ' ')
      .split('\n')
      .filter((line) => line.trim())
      .at(-1) ?? ''
  );
}

/** Waits for the suggestion widget to list `label`, asking for it if the trigger character did not open it. */
async function suggested(page: Page, label: string): Promise<void> {
  const row = page.locator('.suggest-widget.visible .monaco-list-row', { hasText: label }).first();
  await row.waitFor({ timeout: 15_000 }).catch(async () => {
    await page.keyboard.press('Control+Space');
    await row.waitFor({ timeout: 15_000 });
  });
}

e2e("the exam's check questions in the text colour in Dark Modern, Light Modern and High Contrast Light", 'authoring-chapter', async () => {
  const { page } = session();
  await openFile(page, 'chapter3.md');
  await page.keyboard.press('Control+Home');
  const questionColour = () =>
    page.evaluate<{ question: string; text: string }>(`(() => {
      const spans = [...document.querySelectorAll('.editor-instance .view-line span span')];
      const find = (words) => spans.find((s) => s.textContent.replace(/\u00a0/g, ' ').includes(words));
      const question = find('Which movers did we book');
      const text = find('Say openly that you would like');
      return { question: question ? getComputedStyle(question).color : '', text: text ? getComputedStyle(text).color : '' };
    })()`);
  for (const [themeName, file] of [
    ['Dark Modern', 'authoring-chapter-1400-dark'],
    ['Light Modern', 'authoring-chapter-1400-light'],
    ['Light High Contrast', 'authoring-chapter-1400-hc-light'],
  ] as const) {
    await theme(page, themeName);
    await page.waitForTimeout(800);
    const colours = await questionColour();
    assert.ok(colours.question && colours.text, JSON.stringify(colours));
    assert.equal(colours.question, colours.text, `${themeName}: a question is coloured as the prose around it`);
    await shot(file);
  }
  await page.setViewportSize({ width: 1000, height: 800 });
  await theme(page, 'Light Modern');
  await page.waitForTimeout(800);
  await shot('authoring-chapter-1000-light');
  await page.setViewportSize({ width: 1400, height: 900 });
  await theme(page, 'Dark Modern');
});

e2e('typing a check and a trap write: each accepted item leaves the line as a user would write it', 'authoring-typing', async () => {
  const { page } = session();
  await openFile(page, 'chapter3.md');
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('❓ ');
  await suggested(page, '3.6');
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
  assert.equal(await lastLine(page), '❓ 3.6', 'the next free id, with no space after it');
  // The `[` is auto-closed by the editor: the type replaces the `]` it added.
  await page.keyboard.type(' [');
  await suggested(page, 'RECALL');
  await page.keyboard.type('REC');
  await page.waitForTimeout(300);
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
  assert.equal((await lastLine(page)).trimEnd(), '❓ 3.6 [RECALL]');
  await page.keyboard.type('Which street is the flat on? Correct answer: Harehills Lane.');
  await page.keyboard.press('Escape');
  await page.waitForTimeout(500);
  assert.equal(await lastLine(page), '❓ 3.6 [RECALL] Which street is the flat on? Correct answer: Harehills Lane.');

  await page.keyboard.press('Enter');
  await page.keyboard.type('🪤 RECONSIDER ');
  await suggested(page, 'move');
  await page.keyboard.type('mo');
  await page.waitForTimeout(300);
  // The habitual `#` after a sheet name: it accepts the name and types itself, once.
  await page.keyboard.type('#');
  await suggested(page, '1.1');
  assert.equal(await lastLine(page), '🪤 RECONSIDER move#');
  await shot('authoring-typing-1400-dark');
  await page.keyboard.press('Escape');
});

e2e(
  'a check typed with an id already used is an error on the line just typed, with its own renumber fix',
  'authoring-duplicate',
  async () => {
    const { page } = session();
    await focusEditor(page);
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    await page.keyboard.type('❓ 3.2 Which floor is the flat on? Correct answer: the second.');
    await page.keyboard.press('Escape');
    const squiggle = page.locator('.editor-instance .view-overlays .squiggly-error');
    await squiggle.first().waitFor({ timeout: 20_000 });
    await page.keyboard.press('Control+Shift+M');
    const rows = page.locator('.markers-panel .monaco-list-row', { hasText: 'Check id 3.2 is also used in chapter3.md line 12' });
    await rows.first().waitFor({ timeout: 20_000 });
    // While typing, the line lacked its answer for a moment: wait for the diagnostics of the whole line.
    await page
      .locator('.markers-panel .monaco-list-row', { hasText: 'has no correct answer' })
      .first()
      .waitFor({ state: 'detached', timeout: 20_000 });
    const all = await page.locator('.markers-panel .monaco-list-row', { hasText: 'Check id 3.2 is also used' }).allInnerTexts();
    assert.ok(
      all.some((row) => /chapter3\.md line 12: check ids are unique in a benchmark; renumber this one to 3\.\d+\./.test(row)),
      all.join(' | '),
    );
    assert.equal(all.length, 2, `both 3.2 lines are marked: ${all.join(' | ')}`);
    await shot('authoring-duplicate-1400-dark');
    await page.keyboard.press('Control+Shift+M');
  },
);
