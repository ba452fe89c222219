/**
 * A chromium page for the HTML views with the network cut off: every request that `allowed`
 * refuses is aborted and recorded, and CSP violations (a load the CSP stops never reaches the
 * router), page errors, console errors and dialogs are counted, so `assertClean` can say the
 * page fetched nothing, broke nothing and ran no script from a run's text.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

const ROOT = join(__dirname, '..');
export const CHROMIUM = '/usr/bin/chromium';
const FIXTURES = join(ROOT, 'engine', 'test', 'fixtures', 'reports');
/** Why the chromium tests cannot run here, or false. */
export const noChromium = existsSync(CHROMIUM) ? false : `no ${CHROMIUM}: scripts/e2e-setup.sh installs it`;

/**
 * A workspace of the fixture runs and benchmarks in a new temporary folder; `prepare` changes it,
 * then the built CLI writes each `mmb report` of `reports` (each must succeed). Its folder.
 */
export function reportWorkspace(prefix: string, reports: string[][], prepare?: (workspace: string) => void): string {
  const workspace = mkdtempSync(join(tmpdir(), prefix));
  cpSync(join(FIXTURES, 'benchmarks'), join(workspace, 'benchmarks'), { recursive: true });
  cpSync(join(FIXTURES, 'runs'), join(workspace, 'results'), { recursive: true });
  prepare?.(workspace);
  for (const args of reports) {
    const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'report', ...args], { cwd: workspace, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  }
  return workspace;
}

/** Debian's chromium, with nothing of its own reaching out. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

export interface GuardedPage {
  page: Page;
  /** Every request `allowed` refused. */
  blocked: string[];
  errors: string[];
  dialogs: string[];
  close: () => Promise<void>;
}

export async function guardedPage(
  browser: Browser,
  allowed: (url: string) => boolean,
  options: { offline?: boolean } = {},
): Promise<GuardedPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, offline: options.offline ?? false });
  await context.addInitScript({
    content: [
      'window.cspViolations = [];',
      "document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));",
    ].join(' '),
  });
  const page = await context.newPage();
  const guarded: GuardedPage = { page, blocked: [], errors: [], dialogs: [], close: () => context.close() };
  await page.route('**/*', (route) => {
    if (allowed(route.request().url())) return route.continue();
    guarded.blocked.push(route.request().url());
    return route.abort();
  });
  page.on('pageerror', (e) => guarded.errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') guarded.errors.push(m.text());
  });
  page.on('dialog', (d) => {
    guarded.dialogs.push(d.message());
    void d.dismiss();
  });
  return guarded;
}

/** Nothing fetched beyond what was allowed, no CSP violation, no error, no dialog (no script from a run's text ran). */
export async function assertClean(guarded: GuardedPage): Promise<void> {
  assert.deepEqual(guarded.blocked, [], 'the page asked for nothing beyond what it may');
  assert.deepEqual(await guarded.page.evaluate('window.cspViolations'), [], 'nothing broke the CSP');
  assert.deepEqual(guarded.errors, []);
  assert.deepEqual(guarded.dialogs, [], "no script from a run's text ran");
}

/** A page of `results/` opened from file:// with the network cut off (only the file itself, any fragment, loads), its charts drawn. */
export async function openResultsPage(browser: Browser, workspace: string, relativePath: string): Promise<GuardedPage> {
  const url = `file://${join(workspace, 'results', relativePath)}`;
  const opened = await guardedPage(browser, (asked) => asked.split('#')[0] === url, { offline: true });
  await opened.page.goto(url);
  await opened.page.waitForFunction(() => Array.isArray((globalThis as unknown as { mmbCharts?: unknown }).mmbCharts));
  return opened;
}
