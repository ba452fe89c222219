/**
 * The HTML report, comparison and trends pages as a person opens them: written by the built CLI
 * from the fixture runs, opened from file:// in Debian's chromium with every non-file request
 * blocked and recorded, the charts drawn, the links present, screenshots in .e2e/artifacts/; and
 * `mmb view`'s pages from its loopback server, everything else cut off.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  assertClean,
  guardedPage,
  launchChromium,
  noChromium as skip,
  openResultsPage,
  reportWorkspace,
  type GuardedPage as Opened,
} from './guardedPage';

const ROOT = join(__dirname, '..');
const ARTIFACTS = join(ROOT, '.e2e', 'artifacts');

let browser: Browser;
let workspace: string;

before(async () => {
  if (skip) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  workspace = reportWorkspace('mmb-report-e2e-', [
    ['chatbot-2', '--html'],
    ['--compare', 'chatbot-1', 'in-context', 'chatbot-2'],
    ['--trends'],
  ]);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

/** Opens a results page with the network cut off: any request other than the file itself is aborted and recorded. */
function open(relativePath: string): Promise<Opened> {
  return openResultsPage(browser, workspace, relativePath);
}

/** How many canvases the page's charts drew on, each counted when it has painted pixels. */
async function paintedCharts(page: Page): Promise<{ charts: number; painted: number }> {
  // Page-side code as text: the e2e tests compile without the DOM's types.
  return (await page.evaluate(`({
    charts: window.mmbCharts.length,
    painted: Array.from(document.querySelectorAll('canvas')).filter((c) => {
      const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let inked = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) inked++;
      return inked > 500;
    }).length,
  })`)) as { charts: number; painted: number };
}

async function clean(o: Opened): Promise<void> {
  await assertClean(o);
}

test(
  'the run report renders offline: charts drawn, imperfect answers with their trap links, the conversation folds',
  { skip },
  async () => {
    const o = await open(join('chatbot-2', 'report.html'));
    const { page } = o;
    assert.deepEqual(await paintedCharts(page), { charts: 3, painted: 3 });
    assert.equal(await page.locator('article.answer').count(), 8);
    const flaky = page.locator('article.answer[data-check="15.4"]');
    assert.match(
      await flaky.locator('.got-text').innerText(),
      /^About 5 km, I think <img src=x onerror="alert\(1\)"><script>alert\(2\)<\/script>$/,
    );
    assert.equal(await flaky.locator('img').count(), 0);
    const trap = flaky.locator('a.trap-link');
    assert.equal(await trap.innerText(), 'LATE-ADD week2.md:11');
    assert.equal(await trap.getAttribute('data-file'), 'benchmarks/multiday/week2.md');
    assert.equal(await trap.getAttribute('data-line'), '11');
    assert.ok(
      existsSync(join(workspace, 'results', 'chatbot-2', (await trap.getAttribute('href')) ?? '')),
      "the link leads to the trap write's file",
    );
    await page.screenshot({ path: join(ARTIFACTS, 'report-run.png'), fullPage: true });
    assert.equal(await page.locator('details.chapter[open]').count(), 0);
    await page.getByRole('button', { name: 'Expand all' }).click();
    assert.equal(await page.locator('details.chapter[open]').count(), 3);
    const exam = page.locator('details.chapter').nth(2);
    assert.equal(await exam.locator('.marker.m-session').innerText(), '⟳ the agent switches to a new conversation');
    await exam.screenshot({ path: join(ARTIFACTS, 'report-conversation.png') });
    await clean(o);
  },
);

test('the comparison page renders offline: differing checks first, one bar per run', { skip }, async () => {
  const o = await open('compare-chatbot-1-vs-in-context-vs-chatbot-2.html');
  const { page } = o;
  assert.deepEqual(await paintedCharts(page), { charts: 2, painted: 2 });
  const rows = await page
    .locator('table.compare tbody tr[data-check]')
    .evaluateAll((trs) => trs.map((tr) => `${tr.getAttribute('data-check')}${tr.classList.contains('differs') ? '*' : ''}`));
  assert.deepEqual(rows, ['15.3*', '15.7*', '15.4*', '15.9*', '12.1', '15.1', '15.2', '15.5', '15.6', '15.8']);
  await page.screenshot({ path: join(ARTIFACTS, 'report-compare.png'), fullPage: true });
  await clean(o);
});

test(
  'the trends page renders offline: a group per configuration, the flaky check marked apart from the failing ones',
  { skip },
  async () => {
    const o = await open('trends.html');
    const { page } = o;
    // Three repeats of one configuration get their charts; the configuration with one full run
    // lists its grades and says there is nothing to compare yet, with no charts and no verdicts.
    assert.deepEqual(await paintedCharts(page), { charts: 3, painted: 3 });
    assert.equal(await page.locator('section.group').count(), 2);
    assert.match(await page.locator('section.group.single').innerText(), /nothing to compare yet/);
    assert.equal(await page.locator('section.group.single .verdict').count(), 0);
    assert.equal(await page.locator('section.group').first().locator('tr.flaky').getAttribute('data-check'), '15.4');
    assert.equal(await page.locator('tr.flaky .verdict').first().innerText(), 'FLAKY');
    const background = 'getComputedStyle(document.querySelector("tr.KIND td")).backgroundColor';
    const flakyBg = await page.evaluate(background.replace('KIND', 'flaky'));
    const failingBg = await page.evaluate(background.replace('KIND', 'failing'));
    assert.notEqual(flakyBg, failingBg, 'flaky rows stand out');
    await page.screenshot({ path: join(ARTIFACTS, 'report-trends.png'), fullPage: true });
    await clean(o);
  },
);

/** `mmb view` started by the built CLI on a copy of the fixture runs plus a stopped one; its printed URL, and a stop. */
async function startView(): Promise<{ url: string; origin: string; root: string; stop: () => Promise<void> }> {
  const root = reportWorkspace('mmb-view-e2e-', [], (ws) => {
    writeFileSync(join(ws, 'config.jsonc'), '{}');
    const state = JSON.parse(readFileSync(join(ws, 'results', 'chatbot-1', 'state.json'), 'utf8')) as Record<string, unknown>;
    mkdirSync(join(ws, 'results', 'stopped-1'));
    writeFileSync(
      join(ws, 'results', 'stopped-1', 'state.json'),
      JSON.stringify({ ...state, run: 'stopped-1', status: 'running', finishedAt: undefined }),
    );
  });
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'view'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const deadline = Date.now() + 15_000;
  while (!/http:\/\/\S+/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const url = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(out)?.[0];
  assert.ok(url, out);
  return {
    url,
    origin: new URL(url).origin,
    root,
    stop: async () => {
      child.kill('SIGINT');
      assert.equal(await exited, 0);
    },
  };
}

test(
  'mmb view in chromium, offline but for its loopback server: the index filters, two runs selected open their comparison, light and dark',
  { skip },
  async () => {
    const view = await startView();
    const opened = await guardedPage(browser, (asked) => new URL(asked).origin === view.origin);
    const { page } = opened;
    try {
      await page.goto(view.url);
      assert.equal(page.url(), `${view.origin}/`, 'the token became a cookie and left the address');
      const visible = () =>
        page
          .locator('#mmb-rows tr:not([hidden])')
          .evaluateAll((trs) => trs.map((tr) => `${tr.getAttribute('data-run')}:${tr.getAttribute('data-status')}`));
      assert.deepEqual((await visible()).sort(), [
        'chatbot-1:finished',
        'chatbot-2:finished',
        'chatbot-3:finished',
        'in-context:finished',
        'stopped-1:stopped',
      ]);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.screenshot({ path: join(ARTIFACTS, `view-index-${scheme}.png`), fullPage: true });
      }
      await page.emulateMedia({ colorScheme: 'light' });
      // Instant filtering: the rows hide as the select changes, and the address says what is shown.
      await page.locator('select[name=status]').selectOption('stopped');
      assert.deepEqual(await visible(), ['stopped-1:stopped']);
      assert.equal(new URL(page.url()).search, '?status=stopped');
      await page.locator('select[name=status]').selectOption('finished');
      assert.equal((await visible()).length, 4);
      // The same filter with no script: the address's query, answered by the server.
      await page.reload();
      assert.equal(await page.locator('#mmb-rows tr').count(), 4, 'the server sends the rows the query filter passes');
      assert.equal(await page.locator('select[name=status]').inputValue(), 'finished');
      await page.locator('input[name=run][value="chatbot-1"]').check();
      await page.locator('input[name=run][value="chatbot-2"]').check();
      await page.getByRole('button', { name: 'Compare' }).click();
      // The runs in the table's order, newest first.
      await page.waitForURL(/\/compare\?run=chatbot-2&run=chatbot-1$/);
      await page.waitForFunction(() => Array.isArray((globalThis as unknown as { mmbCharts?: unknown }).mmbCharts));
      assert.deepEqual(await paintedCharts(page), { charts: 2, painted: 2 });
      assert.match(await page.locator('h1').innerText(), /^Comparison: chatbot-2 · chatbot-1$/);
      await page.screenshot({ path: join(ARTIFACTS, 'view-compare-light.png'), fullPage: true });
      // The charts take their colours when drawn: the dark page is loaded dark.
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.reload();
      await page.waitForFunction(() => Array.isArray((globalThis as unknown as { mmbCharts?: unknown }).mmbCharts));
      await page.screenshot({ path: join(ARTIFACTS, 'view-compare-dark.png'), fullPage: true });
      await page.emulateMedia({ colorScheme: 'light' });
      // Live: a run's state changes on disk, and the index, which follows /events, shows it without a click.
      await page.goto(`${view.origin}/`);
      await page.waitForFunction(() => (globalThis as unknown as { mmbLive?: { readyState: number } }).mmbLive?.readyState === 1);
      writeFileSync(
        join(view.root, 'results', 'stopped-1', 'state.json'),
        JSON.stringify({
          ...JSON.parse(readFileSync(join(view.root, 'results', 'stopped-1', 'state.json'), 'utf8')),
          status: 'crashed',
          error: 'a model error',
        }),
      );
      await page.locator('#mmb-rows tr[data-run="stopped-1"][data-status="crashed"]').waitFor({ timeout: 15_000 });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.goto(`${view.origin}/run/chatbot-2`);
      await page.waitForFunction(() => Array.isArray((globalThis as unknown as { mmbCharts?: unknown }).mmbCharts));
      await page.getByRole('link', { name: '← All runs' }).waitFor();
      await page.screenshot({ path: join(ARTIFACTS, 'view-run-dark.png') });
      await clean(opened);
    } finally {
      await opened.close();
      await view.stop();
    }
  },
);
