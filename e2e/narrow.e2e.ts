/**
 * End to end in a real VS Code: narrow is normal (issue #33 item 7). At 1,000 × 800 the conversation
 * opens below the chapter, which keeps at least 70 columns; the run view's row of a long run id still
 * shows its score and status; the conversation, the report and the runs index never scroll sideways
 * (each webview's page is no wider than its frame) and the report's traps table keeps its check and
 * result columns in view. A partial rehearsal's failures are grey in the conversation, a full run's red.
 * Screenshots of each view at 1,000 and 1,400 px, dark and light, go to .e2e/artifacts/narrow-*.png.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { command, focusEditor, openFile, ROOT, theme as switchTheme, useVsCode } from './codeServer';

const CLI = join(ROOT, 'dist', 'cli.js');
const FULL = 'chatbot-1';
const PARTIAL = 'starter.phase-chapter3-1.rehearsal';
const WIDTHS = [
  { width: 1000, height: 800 },
  { width: 1400, height: 900 },
] as const;

function mmb(workspace: string, args: string[]): void {
  const run = spawnSync(process.execPath, [CLI, ...args], { cwd: workspace, encoding: 'utf8', timeout: 90_000 });
  assert.equal(run.status, 0, `mmb ${args.join(' ')}: ${run.stdout}${run.stderr}`);
}

const {
  vs: session,
  shot,
  e2e,
} = useVsCode({
  config: `{\n  "persona": { "model": "stand-in" },\n  "runs": { "${FULL}": { "benchmark": "starter", "agent": "chatbot" } }\n}\n`,
  prepare: (workspace) => {
    mmb(workspace, ['run', FULL]);
    mmb(workspace, ['run', '--benchmark', 'starter', '--from', 'chapter3.md:1', '--only', '--rehearse']);
  },
  settings: { 'workbench.colorTheme': 'Default Dark Modern' },
});

const row = (page: Page, run: string) => page.locator(`.part.sidebar .monaco-list-row[aria-label^="${run}, "]`);

/** The document of the webview whose page holds `selector` (the conversation, a report, the index). */
async function webviewWith(page: Page, selector: string): Promise<FrameLocator> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const frames = page.locator('iframe.webview.ready');
    for (let i = 0; i < (await frames.count()); i++) {
      const frame = frames.nth(i).contentFrame().frameLocator('iframe#active-frame');
      if (
        await frame
          .locator(selector)
          .count()
          .catch(() => 0)
      )
        return frame;
    }
    await page.waitForTimeout(500);
  }
  throw new Error(`no webview shows ${selector}`);
}

/** A webview page's width against its frame's: wider would scroll sideways. */
async function pageWidth(frame: FrameLocator): Promise<{ scrollWidth: number; innerWidth: number }> {
  // The page's own code, as text: this file is compiled without the DOM's types.
  return (await frame
    .locator('body')
    .evaluate('({ scrollWidth: document.scrollingElement.scrollWidth, innerWidth: window.innerWidth })')) as {
    scrollWidth: number;
    innerWidth: number;
  };
}

async function assertNoSidewaysScroll(frame: FrameLocator, what: string): Promise<void> {
  const { scrollWidth, innerWidth } = await pageWidth(frame);
  assert.ok(scrollWidth <= innerWidth, `${what}: ${scrollWidth} px of page in a ${innerWidth} px frame`);
}

/**
 * How many columns of text the chapter's editor shows: from where its text starts to the minimap (or
 * its right edge), less the scroll bar, over the width of one character of a line it drew.
 */
async function chapterColumns(page: Page): Promise<number> {
  return (await page.locator('body').evaluate(`(() => {
    const group = document.querySelector('.tab.active[aria-label*="chapter3.md"]').closest('.editor-group-container');
    const text = [...group.querySelectorAll('.view-lines .view-line')]
      .filter((line) => /^[\\x20-\\x7e\\u00a0]{20,}$/.test(line.textContent))
      .sort((a, b) => b.textContent.length - a.textContent.length)[0];
    const range = document.createRange();
    range.selectNodeContents(text);
    const char = range.getBoundingClientRect().width / text.textContent.length;
    const left = group.querySelector('.view-lines').getBoundingClientRect().left;
    const minimap = group.querySelector('.minimap');
    const right = minimap && minimap.getBoundingClientRect().width > 0
      ? minimap.getBoundingClientRect().left
      : group.querySelector('.editor-scrollable').getBoundingClientRect().right - 14;
    return Math.floor((right - left) / char);
  })()`)) as number;
}

/** Each view at 1,000 and 1,400 px, dark and light, as `narrow-<view>-<width>-<theme>.png`; `check` runs at each width. */
async function shootWidths(page: Page, view: string, check: () => Promise<void>): Promise<void> {
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.waitForTimeout(1000);
    await check();
    await shot(`narrow-${view}-${size.width}-dark`);
    await switchTheme(page, 'Light Modern');
    await page.waitForTimeout(800);
    await shot(`narrow-${view}-${size.width}-light`);
    await switchTheme(page, 'Dark Modern');
  }
  await page.setViewportSize(WIDTHS[0]);
  await page.waitForTimeout(500);
}

e2e('at 1,000 px the conversation opens below the chapter, which keeps 70 columns; grey for a partial run', 'conversation', async () => {
  const { page } = session();
  await page.setViewportSize(WIDTHS[0]);
  await openFile(page, 'chapter3.md');
  await command(page, 'View: Close Primary Side Bar');
  const alone = await chapterColumns(page);
  await command(page, 'MarathonMemBench: Focus on Runs View');
  await row(page, PARTIAL).waitFor({ timeout: 30_000 });
  await row(page, PARTIAL).click();
  const conversation = await webviewWith(page, `.head[data-run="${PARTIAL}"]`);
  await conversation.locator('.check').first().waitFor({ timeout: 20_000 });
  assert.ok((await conversation.locator('.check.muted').count()) > 0, "the partial run's failures are muted");
  assert.equal(await conversation.locator('.check.poor, .check.fair').count(), 0, 'none red or amber');
  // The side bar closed, as when reading a chapter: the conversation below takes none of its width.
  await command(page, 'View: Close Primary Side Bar');
  await focusEditor(page);
  const columns = await chapterColumns(page);
  assert.ok(columns >= 70 && columns >= alone - 1, `the chapter shows ${columns} columns (${alone} alone) with the conversation open`);
  await shootWidths(page, 'conversation', async () => {
    assert.ok((await chapterColumns(page)) >= 70, 'the chapter keeps 70 columns');
    await assertNoSidewaysScroll(conversation, 'the conversation');
  });
  await command(page, 'MarathonMemBench: Focus on Runs View');
  await row(page, FULL).click();
  const full = await webviewWith(page, `.head[data-run="${FULL}"]`);
  await full.locator('.check').first().waitFor({ timeout: 20_000 });
  assert.equal(await full.locator('.check.muted').count(), 0, "a full run's failures count");
});

e2e("the run view's row of a long run id shows its score and status at 1,000 px", 'runview', async () => {
  const { page } = session();
  await command(page, 'MarathonMemBench: Focus on Runs View');
  await row(page, PARTIAL).waitFor({ timeout: 20_000 });
  // Where the status word ends, against the row's visible edge (VS Code cuts the label and description at the end).
  const visible = async () =>
    (await page.locator('body').evaluate(`(() => {
      const row = document.querySelector('.part.sidebar .monaco-list-row[aria-label^="${PARTIAL}, "]');
      const container = row.querySelector('.monaco-icon-label-container');
      const text = container.querySelector('.label-description').firstChild;
      const at = text.textContent.indexOf('finished');
      const range = document.createRange();
      range.setStart(text, 0);
      range.setEnd(text, at + 'finished'.length);
      return { end: range.getBoundingClientRect().right, edge: container.getBoundingClientRect().right, text: container.innerText };
    })()`)) as { end: number; edge: number; text: string };
  await shootWidths(page, 'runview', async () => {
    const seen = await visible();
    assert.match(seen.text, /^star…3-1\.rehearsal/, 'the id cut in its middle');
    // Room for the "…" VS Code draws where it cuts the rest of the description.
    assert.ok(seen.end + 12 <= seen.edge, `the status ends at ${seen.end} px, the row at ${seen.edge} px: ${seen.text}`);
  });
});

e2e('the report and the runs index scroll sideways nowhere; the traps table keeps its last columns', 'report', async () => {
  const { page } = session();
  await row(page, FULL).click();
  const conversation = await webviewWith(page, `.head[data-run="${FULL}"]`);
  await conversation.locator('button[data-action="report"]').click();
  const report = await webviewWith(page, 'table.traps');
  await report.locator('canvas').first().waitFor({ timeout: 20_000 });
  // The traps table fits its box: the result column's right edge inside the page.
  const traps = async () =>
    (await report.locator('body').evaluate(`(() => {
      const table = document.querySelector('table.traps');
      const box = table.parentElement.getBoundingClientRect();
      const last = table.querySelector('thead th:last-child').getBoundingClientRect();
      return { box: Math.round(box.right), last: Math.round(last.right), scroller: table.parentElement.className };
    })()`)) as { box: number; last: number; scroller: string };
  await shootWidths(page, 'report', async () => {
    await report.locator('table.traps').scrollIntoViewIfNeeded();
    await assertNoSidewaysScroll(report, 'the report');
    const table = await traps();
    assert.equal(table.scroller, 'table-scroll');
    assert.ok(table.last <= table.box, `the result column ends at ${table.last} px, its box at ${table.box} px`);
  });
  await command(page, 'MarathonMemBench: Open the runs index');
  const index = await webviewWith(page, '#mmb-rows');
  // The same colour rule as the panel's: the partial run's low average grey, the full run's red.
  assert.equal(await index.locator(`tr[data-run="${PARTIAL}"] .grade.g-muted`).count(), 1, "the partial run's average is grey");
  assert.equal(await index.locator(`tr[data-run="${FULL}"] .grade.g-poor`).count(), 1, "the full run's is red");
  await shootWidths(page, 'index', async () => assertNoSidewaysScroll(index, 'the runs index'));
});
