/**
 * End to end in a real VS Code: chapter 20 of Max after a real run that failed checks, and after a
 * rehearsal of the exam alone. One mark per check line (a score icon before its text and a score lens, the
 * detail in the hover), red only where the run played the check's trap writes, a trap line marked
 * once when it caught a check; then sheet names offered after a trap type. Each state is shot in
 * a dark and a light theme into .e2e/artifacts/.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { focusEditor, markIcons, openFile, ROOT, theme as switchTheme, useVsCode, type MarkIcon } from './codeServer';

const CLI = join(ROOT, 'dist', 'cli.js');
const FULL = 'notes';
/** How a grade's lens names the rehearsal of the exam alone (max.phase-chapter20-1.rehearsal): by the phase it played alone. */
const EXAM_ONLY_LENS = 'phase 20-1 · ';
const mmb = (workspace: string, args: string[]) => {
  const run = spawnSync(process.execPath, [CLI, 'run', ...args], { cwd: workspace, encoding: 'utf8', timeout: 240_000 });
  assert.equal(run.status, 0, `mmb run ${args.join(' ')}: ${run.stderr}`);
};

const {
  vs: session,
  shot,
  e2e,
} = useVsCode({
  benchmarks: ['max'],
  config: `{\n  "persona": { "model": "stand-in" },\n  "runs": { "${FULL}": { "benchmark": "max", "agent": "notebook" } }\n}\n`,
  // The whole of Max against the notebook on the stand-in, before the window opens: it fails some checks.
  prepare: (workspace) => mmb(workspace, [FULL]),
  settings: { 'workbench.colorTheme': 'Default Dark Modern' },
});

type Icon = MarkIcon;

/** Waits until the icons on screen satisfy `ok` (decorations follow file events), for up to 20 s. */
async function iconsWhen(page: Page, ok: (icons: Icon[]) => boolean): Promise<Icon[]> {
  let icons: Icon[] = [];
  for (let i = 0; i < 80; i++) {
    icons = await markIcons(page);
    if (ok(icons)) return icons;
    await page.waitForTimeout(250);
  }
  return icons;
}

const lenses = (page: Page) => page.locator('.contentWidgets .codelens-decoration a:visible');

function assertOneIconPerLine(icons: readonly Icon[]): void {
  const tops = icons.map((i) => i.top);
  assert.equal(new Set(tops).size, tops.length, `two icons on one line: ${icons.map((i) => `${i.icon}@${i.top}`).join(', ')}`);
}

/** The theme switched, and a moment for the semantic tokens (a check's continuation lines) to be styled again. */
async function theme(page: Page, name: 'Light Modern' | 'Dark Modern'): Promise<void> {
  await switchTheme(page, name);
  await page.waitForTimeout(2500);
}

/** The screen in the dark theme, then in the light one, then dark again. */
async function shots(page: Page, name: string): Promise<void> {
  await shot(`${name}-dark`);
  await theme(page, 'Light Modern');
  await shot(`${name}-light`);
  await theme(page, 'Dark Modern');
  await focusEditor(page);
}

/** The checks of chapter 11's trap lines that failed in `run`, by line (1-based). */
function caughtByTrapLines(workspace: string, run: string, file: string): Map<number, string[]> {
  const state = JSON.parse(readFileSync(join(workspace, 'results', run, 'state.json'), 'utf8')) as {
    grades: Record<string, { effective: number }[]>;
  };
  const out = new Map<number, string[]>();
  readFileSync(join(workspace, 'benchmarks', 'max', file), 'utf8')
    .split('\n')
    .forEach((text, line) => {
      const targets =
        /^🪤.*→([\s\d.,]*)/
          .exec(text)?.[1]
          ?.split(',')
          .map((t) => t.trim())
          .filter(Boolean) ?? [];
      const failed = targets.filter((id) => (state.grades[id]?.at(-1)?.effective ?? 10) < 8);
      if (failed.length) out.set(line + 1, failed);
    });
  return out;
}

e2e(
  'chapter 20 after failed checks: a score icon and a lens per graded check, red for the failures, the hover with the dates of the run',
  'marks-full',
  async () => {
    const { page, workspace } = session();
    await openFile(page, 'chapter20.md');
    await page.keyboard.press('Control+Home');
    await lenses(page).filter({ hasText: FULL }).first().waitFor({ timeout: 30_000 });
    const icons = await iconsWhen(
      page,
      (found) => found.some((i) => i.icon === 'score-poor') && found.some((i) => i.icon === 'score-good'),
    );
    assertOneIconPerLine(icons);
    assert.ok(
      icons.some((i) => i.icon === 'score-poor'),
      `a failure whose traps the run played is red: ${icons.map((i) => i.icon).join(', ')}`,
    );
    assert.equal(icons.filter((i) => i.icon === 'score-unplayed').length, 0, 'a full run played every trap write');
    const scores = await lenses(page).filter({ hasText: FULL }).allInnerTexts();
    assert.equal(scores.length, icons.length, `one score lens per check icon: ${scores.join(' | ')}`);
    assert.equal(await lenses(page).filter({ hasText: 'not graded yet' }).count(), 0);
    const tinted = await page.evaluate<number>(`[...document.querySelectorAll('.editor-instance .view-overlays .cdr')]
    .filter((d) => getComputedStyle(d).backgroundColor !== 'rgba(0, 0, 0, 0)').length`);
    assert.equal(tinted, 0, 'no tint on check lines');
    await shots(page, 'marks-chapter20-full');
    // The multi-line check of Anna's visit: its answer is a template, shown as the run wrote it.
    const state = JSON.parse(readFileSync(join(workspace, 'results', FULL, 'state.json'), 'utf8')) as { templates: Record<string, string> };
    const date = state.templates['{{FUTURE:3:weeks}}'] ?? '';
    assert.match(date, /^\d+ \w+ \d{4}$/);
    await page.mouse.move(0, 0);
    await page.locator('.view-line', { hasText: 'for a week' }).first().hover();
    const hover = page.locator('.monaco-hover:visible', { hasText: 'Expected' });
    await hover.first().waitFor({ timeout: 10_000 });
    const text = await hover.first().innerText();
    assert.ok(text.includes(`${date}, for a week`), text);
    assert.doesNotMatch(text, /\{\{FUTURE/);
    await shot('marks-hover-template-dark');
    await page.mouse.move(0, 0);
  },
);

e2e('the trap lines of chapter 11 that caught a check in that run are marked, each once', 'marks-traps-full', async () => {
  const { page, workspace } = session();
  await openFile(page, 'chapter11.md');
  const caught = caughtByTrapLines(workspace, FULL, 'chapter11.md');
  assert.ok(caught.size > 0, 'the run failed a check some trap line of chapter 11 aims at');
  const icons = await iconsWhen(page, (found) => found.filter((i) => i.icon === 'trap-caught').length === caught.size);
  assertOneIconPerLine(icons);
  assert.equal(icons.filter((i) => i.icon === 'trap-caught').length, caught.size, `trap lines marked: ${JSON.stringify([...caught])}`);
  await shots(page, 'marks-traps-full');
});

e2e('after a rehearsal of the exam alone: no red and no trap line marked, the checks marked partial', 'marks-partial', async () => {
  const { page, workspace } = session();
  mmb(workspace, ['--benchmark', 'max', '--from', 'chapter20.md:1', '--only', '--rehearse']);
  const traps = await iconsWhen(page, (found) => !found.some((i) => i.icon === 'trap-caught'));
  assert.deepEqual(
    traps.filter((i) => i.icon === 'trap-caught'),
    [],
    "the rehearsal played none of chapter 11's trap writes",
  );
  await shots(page, 'marks-traps-partial');
  await openFile(page, 'chapter20.md');
  await page.keyboard.press('Control+Home');
  await lenses(page).filter({ hasText: EXAM_ONLY_LENS }).first().waitFor({ timeout: 30_000 });
  const icons = await iconsWhen(
    page,
    (found) => found.some((i) => i.icon === 'score-unplayed') && !found.some((i) => i.icon === 'score-poor'),
  );
  assertOneIconPerLine(icons);
  assert.deepEqual(
    icons.filter((i) => i.icon === 'score-poor' || i.icon === 'score-fair'),
    [],
    'nothing is red: the rehearsal never played a trap write',
  );
  const scores = await lenses(page).filter({ hasText: EXAM_ONLY_LENS }).allInnerTexts();
  assert.ok(
    scores.every((s) => /phase 20-1 · \d+(\.\d+)?\/10/.test(s)),
    scores.join(' | '),
  );
  await shots(page, 'marks-chapter20-partial');
  await page.mouse.move(0, 0);
  await page.locator('.view-line', { hasText: 'Where did I grow up' }).first().hover();
  const hover = page.locator('.monaco-hover:visible', { hasText: 'Expected' });
  await hover.first().waitFor({ timeout: 10_000 });
  const text = await hover.first().innerText();
  assert.match(text, /A partial run: it played only chapter20\.md phase 1/);
  assert.match(text, /Not counted against the agent/);
  await shot('marks-hover-partial-dark');
  await page.mouse.move(0, 0);
});

e2e("after a trap type, the sheet names are offered, then the sheet's fact ids", 'completion-trap-sheets', async () => {
  const { page } = session();
  await openFile(page, 'chapter11.md');
  await focusEditor(page);
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('🪤 STALE ');
  const widget = page.locator('.suggest-widget.visible');
  await widget.waitFor({ timeout: 20_000 }).catch(async () => {
    await page.keyboard.press('Control+Space');
    await widget.waitFor({ timeout: 20_000 });
  });
  await page.locator('.suggest-widget.visible .monaco-list-row', { hasText: 'bathroom' }).first().waitFor({ timeout: 10_000 });
  const rows = await page.locator('.suggest-widget.visible .monaco-list-row').allInnerTexts();
  assert.ok(rows.some((r) => r.includes('kitchen')) && rows.some((r) => r.includes('car')), rows.join(' | '));
  await shot('completion-trap-sheets-dark');
  // The theme's picker closes the suggestions: ask for them again in each theme.
  for (const [name, file] of [
    ['Light Modern', 'completion-trap-sheets-light'],
    ['Dark Modern', ''],
  ] as const) {
    await page.keyboard.press('Escape');
    await theme(page, name);
    await focusEditor(page);
    await page.keyboard.press('Control+Space');
    await page.locator('.suggest-widget.visible .monaco-list-row', { hasText: 'bathroom' }).first().waitFor({ timeout: 20_000 });
    if (file) await shot(file);
  }
  await page.keyboard.type('bath');
  await page.waitForTimeout(300);
  // `#` commits the sheet name and asks for its fact ids (a habitual `#` never doubles).
  await page.keyboard.type('#');
  await page.locator('.suggest-widget.visible .monaco-list-row', { hasText: '1.2' }).first().waitFor({ timeout: 20_000 });
  const lines = await page.locator('.editor-instance .view-lines').first().innerText();
  assert.match(lines.replace(/\u00a0/g, ' '), /🪤 STALE bathroom#/);
  await shot('completion-trap-fact-ids-dark');
  await page.keyboard.press('Escape');
});

e2e(
  "a fact sheet's ids are coloured (semantic tokens: the grammar cannot tell a sheet from other markdown)",
  'sheet-fact-ids',
  async () => {
    const { page } = session();
    await openFile(page, 'family.md');
    // The colour of a fact line's id against the colour of its text, from the rendered tokens.
    const colours = () =>
      page.evaluate<string[]>(`(() => {
    const line = [...document.querySelectorAll('.editor-instance .view-line')]
      .find((l) => /^1\\.1\\s/.test(l.textContent.replace(/\\u00a0/g, ' ')));
    const spans = line ? [...line.querySelectorAll('span > span')] : [];
    return spans.length > 1 ? [getComputedStyle(spans[0]).color, getComputedStyle(spans[spans.length - 1]).color] : [];
  })()`);
    let found: string[] = [];
    for (let i = 0; i < 60 && !(found.length === 2 && found[0] !== found[1]); i++) {
      found = await colours();
      await page.waitForTimeout(250);
    }
    assert.equal(found.length, 2, 'the fact line 1.1 is on screen');
    assert.notEqual(found[0], found[1], `the id is coloured apart from the text: ${found.join(' vs ')}`);
    await shots(page, 'sheet-fact-ids');
  },
);
