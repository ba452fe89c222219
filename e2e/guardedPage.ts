/**
 * A chromium page for the HTML views with the network cut off: every request that `allowed`
 * refuses is aborted and recorded, and CSP violations (a load the CSP stops never reaches the
 * router), page errors, console errors and dialogs are counted, so `assertClean` can say the
 * page fetched nothing, broke nothing and ran no script from a run's text.
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';

export interface GuardedPage {
  page: Page;
  /** Every request `allowed` refused. */
  blocked: string[];
  errors: string[];
  dialogs: string[];
  close: () => Promise<void>;
}

export async function guardedPage(browser: Browser, allowed: (url: string) => boolean, options: { offline?: boolean } = {}): Promise<GuardedPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, offline: options.offline ?? false });
  await context.addInitScript({ content: "window.cspViolations = []; document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));" });
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
  assert.deepEqual(guarded.dialogs, [], 'no script from a run\'s text ran');
}
