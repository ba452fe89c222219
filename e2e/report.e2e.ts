/**
 * The HTML report, comparison and trends pages as a person opens them: written by the built CLI
 * from the fixture runs, opened from file:// in Debian's chromium with every non-file request
 * blocked and recorded, the charts drawn, the links present, screenshots in .e2e/artifacts/.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';

const ROOT = join(__dirname, '..');
const ARTIFACTS = join(ROOT, '.e2e', 'artifacts');
const CHROMIUM = '/usr/bin/chromium';
const FIXTURES = join(ROOT, 'engine', 'test', 'fixtures', 'reports');
const skip = existsSync(CHROMIUM) ? false : `no ${CHROMIUM}: scripts/e2e-setup.sh installs it`;

let browser: Browser;
let workspace: string;

before(async () => {
  if (skip) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  workspace = mkdtempSync(join(tmpdir(), 'mmb-report-e2e-'));
  cpSync(join(FIXTURES, 'benchmarks'), join(workspace, 'benchmarks'), { recursive: true });
  cpSync(join(FIXTURES, 'runs'), join(workspace, 'results'), { recursive: true });
  for (const args of [['chatbot-2', '--html'], ['--compare', 'chatbot-1', 'in-context', 'chatbot-2'], ['--trends']]) {
    const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'report', ...args], { cwd: workspace, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  }
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
});

after(async () => {
  await browser?.close();
});

interface Opened {
  page: Page;
  /** Every request that was not for the page's own file. */
  blocked: string[];
  errors: string[];
  dialogs: string[];
}

/** Opens a results page with the network cut off: any request other than the file itself is aborted and recorded. */
async function open(relativePath: string): Promise<Opened> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, offline: true });
  // A load the CSP stops never reaches the router: count those too.
  await context.addInitScript({ content: "window.cspViolations = []; document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));" });
  const page = await context.newPage();
  const url = `file://${join(workspace, 'results', relativePath)}`;
  const opened: Opened = { page, blocked: [], errors: [], dialogs: [] };
  await page.route('**/*', (route) => {
    if (route.request().url() === url) return route.continue();
    opened.blocked.push(route.request().url());
    return route.abort();
  });
  page.on('pageerror', (e) => opened.errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') opened.errors.push(m.text());
  });
  page.on('dialog', (d) => {
    opened.dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(url);
  await page.waitForFunction('Array.isArray(window.mmbCharts)');
  return opened;
}

/** How many canvases the page's charts drew on, each counted when it has painted pixels. */
async function paintedCharts(page: Page): Promise<{ charts: number; painted: number }> {
  // Page-side code as text: the e2e tests compile without the DOM's types.
  return await page.evaluate(`({
    charts: window.mmbCharts.length,
    painted: Array.from(document.querySelectorAll('canvas')).filter((c) => {
      const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let inked = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) inked++;
      return inked > 500;
    }).length,
  })`) as { charts: number; painted: number };
}

async function clean(o: Opened): Promise<void> {
  assert.deepEqual(o.blocked, [], 'the page asked for nothing beyond its own file');
  assert.deepEqual(await o.page.evaluate('window.cspViolations'), [], 'nothing broke the CSP');
  assert.deepEqual(o.errors, []);
  assert.deepEqual(o.dialogs, [], 'no script from an answer ran');
}

test('the run report renders offline: charts drawn, imperfect answers with their trap links, the conversation folds', { skip }, async () => {
  const o = await open(join('chatbot-2', 'report.html'));
  const { page } = o;
  assert.deepEqual(await paintedCharts(page), { charts: 3, painted: 3 });
  assert.equal(await page.locator('article.answer').count(), 8);
  const flaky = page.locator('article.answer[data-check="15.4"]');
  assert.match(await flaky.locator('.got-text').innerText(), /^About 5 km, I think <img src=x onerror="alert\(1\)"><script>alert\(2\)<\/script>$/);
  assert.equal(await flaky.locator('img').count(), 0);
  const trap = flaky.locator('a.trap-link');
  assert.equal(await trap.innerText(), 'LATE-ADD week2.md:11');
  assert.equal(await trap.getAttribute('data-file'), 'benchmarks/multiday/week2.md');
  assert.equal(await trap.getAttribute('data-line'), '11');
  assert.ok(existsSync(join(workspace, 'results', 'chatbot-2', await trap.getAttribute('href') ?? '')), 'the link leads to the trap write\'s file');
  await page.screenshot({ path: join(ARTIFACTS, 'report-run.png'), fullPage: true });
  assert.equal(await page.locator('details.chapter[open]').count(), 0);
  await page.getByRole('button', { name: 'Expand all' }).click();
  assert.equal(await page.locator('details.chapter[open]').count(), 3);
  const exam = page.locator('details.chapter').nth(2);
  assert.equal(await exam.locator('.marker.m-session').innerText(), '⟳ the agent switches to a new conversation');
  await exam.screenshot({ path: join(ARTIFACTS, 'report-conversation.png') });
  await clean(o);
});

test('the comparison page renders offline: differing checks first, one bar per run', { skip }, async () => {
  const o = await open('compare-chatbot-1-vs-in-context-vs-chatbot-2.html');
  const { page } = o;
  assert.deepEqual(await paintedCharts(page), { charts: 2, painted: 2 });
  const rows = await page.locator('table.compare tbody tr[data-check]').evaluateAll((trs) => trs.map((tr) => `${tr.getAttribute('data-check')}${tr.classList.contains('differs') ? '*' : ''}`));
  assert.deepEqual(rows, ['15.3*', '15.7*', '15.4*', '15.9*', '12.1', '15.1', '15.2', '15.5', '15.6', '15.8']);
  await page.screenshot({ path: join(ARTIFACTS, 'report-compare.png'), fullPage: true });
  await clean(o);
});

test('the trends page renders offline: a group per configuration, the flaky check marked apart from the failing ones', { skip }, async () => {
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
});
