/**
 * End to end in a real VS Code: the installed extension's own page (Extensions view → MarathonMemBench) shows the
 * packaged README with no image it cannot draw and no link that goes nowhere. The page draws images only from http(s)
 * URLs (not data: ones, not the extension's own files), so a README written for the repository broke there.
 */
import assert from 'node:assert/strict';
import { command, useVsCode } from './codeServer';

const { vs: session, shot, e2e } = useVsCode();

/** What the README webview holds, read in its frame (this file is compiled without the DOM's types). */
interface ReadmeFacts {
  title: string;
  headings: string[];
  images: number;
  drawn: number;
  links: string[];
}

e2e("the extension's page shows its README: no broken image, no dead link", 'extension-page', async () => {
  const { page } = session();
  await command(page, 'Extensions: Show Installed Extensions');
  const entry = page.locator('.extensions-viewlet .monaco-list-row', { hasText: 'MarathonMemBench' }).first();
  await entry.waitFor({ timeout: 30_000 });
  await entry.click();
  const readme = page.locator('iframe.webview.ready').filter({ visible: true }).last().contentFrame().frameLocator('iframe#active-frame');
  await readme.locator('h1', { hasText: 'MarathonMemBench' }).waitFor({ timeout: 30_000 });
  await page.waitForTimeout(1500);
  const facts = (await readme.locator('body').evaluate(`(() => {
    const images = [...document.images];
    return {
      title: document.querySelector('h1')?.textContent ?? '',
      headings: [...document.querySelectorAll('h2')].map((heading) => heading.textContent),
      images: images.length,
      drawn: images.filter((image) => image.complete && image.naturalWidth > 0).length,
      links: [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href')).filter((href) => href !== '#'),
    };
  })()`)) as ReadmeFacts;
  await shot('extension-page');
  assert.equal(facts.title, 'MarathonMemBench');
  assert.equal(facts.images, 0, 'no image: the page draws none from the package');
  assert.equal(facts.drawn, 0);
  assert.ok(facts.headings.includes('Authoring') && facts.headings.includes('Runs'), facts.headings.join(' | '));
  assert.deepEqual(facts.links, [], 'no link the page could not follow');
});
