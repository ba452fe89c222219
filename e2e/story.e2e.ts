/**
 * What sits beside a failed answer, as a person sees it: a fixture run given the agent's tool
 * calls (with markup in them) and a memory snapshot, its page written by the built CLI, opened
 * from file:// in Debian's chromium with the network cut off; the failed answer unfolded with its
 * tool calls and its memory (expected and stale lines told apart), in a light and a dark theme,
 * screenshots in .e2e/artifacts/; and the comparison's link from a differing check to its trap.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  assertClean,
  launchChromium,
  noChromium as skip,
  openResultsPage,
  reportWorkspace,
  type GuardedPage as Opened,
} from './guardedPage';
import type { RunState } from '../engine/src/api';

const ROOT = join(__dirname, '..');
const ARTIFACTS = join(ROOT, '.e2e', 'artifacts');

/** The colours a VS Code dark theme gives a webview, which the pages' stylesheet reads first. */
const DARK_THEME: Record<string, string> = {
  '--vscode-editor-background': '#1e1e1e',
  '--vscode-editor-foreground': '#d4d4d4',
  '--vscode-descriptionForeground': '#a0a0a0',
  '--vscode-sideBar-background': '#252526',
  '--vscode-panel-border': '#454545',
  '--vscode-textLink-foreground': '#3794ff',
};

let browser: Browser;
let workspace: string;

/** chatbot-2 as an agent with tools would have left it: calls on the reply that answered 15.2, a snapshot of its notes. */
function prepareRun(workspace: string): void {
  const file = join(workspace, 'results', 'chatbot-2', 'state.json');
  const state = JSON.parse(readFileSync(file, 'utf8')) as RunState;
  const graded = state.grades['15.2']!.at(-1)!.at;
  const answering = state.transcript.filter((e) => e.from === 'agent' && e.at < graded).at(-1)!;
  answering.toolCalls = [
    {
      name: 'search_notes',
      arguments: '{"query": "Wednesday 11 March run <script>alert(3)</script>"}',
      result: 'runs.md:2: Wed 11 Mar: 8 km along the harbourside <img src=x onerror=alert(4)>',
    },
    {
      name: 'read_note',
      arguments: '{"path": "runs.md"}',
      result: '# Runs\nWed 11 Mar: 8 km along the harbourside\nWed 11 Mar, synced: 8.4 km',
    },
  ];
  writeFileSync(file, JSON.stringify(state));
  const memory = join(workspace, 'results', 'chatbot-2', 'memory', '2');
  mkdirSync(memory, { recursive: true });
  writeFileSync(
    join(memory, 'runs.md'),
    [
      '# Runs',
      'Mon 9 Mar: 6.5 km around Ashton Court',
      'Wed 11 Mar: 8 km along the harbourside',
      'Wed 11 Mar, synced: 8.4 km',
      'Sat 14 Mar: parkrun 5 km, 25:40',
      '',
    ].join('\n'),
  );
}

before(async () => {
  if (skip) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  workspace = reportWorkspace(
    'mmb-story-e2e-',
    [
      ['chatbot-2', '--html'],
      ['--compare', 'chatbot-1', 'chatbot-2'],
    ],
    prepareRun,
  );
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

/** A results page with every request but its own file aborted and recorded, CSP violations and dialogs counted. */
function open(relativePath: string): Promise<Opened> {
  return openResultsPage(browser, workspace, relativePath);
}

async function clean(o: Opened): Promise<void> {
  await assertClean(o);
}

/** The computed background of the first element matching `selector`, as `rgb(…)`/`rgba(…)`. */
async function background(page: Page, selector: string): Promise<number[]> {
  const text = (await page.evaluate(`getComputedStyle(document.querySelector(${JSON.stringify(selector)})).backgroundColor`)) as string;
  return (text.match(/[\d.]+/g) ?? []).map(Number);
}

test('a failed answer with its tool calls and its memory, expected and stale lines apart, light and dark', { skip }, async () => {
  const o = await open(join('chatbot-2', 'report.html'));
  const { page } = o;
  await page.getByRole('button', { name: 'Expand all' }).click();
  const card = page.locator('.grade-inline.failed[data-check="15.2"]');
  assert.equal(await card.count(), 1);
  await card.locator('details').evaluateAll((all) => all.forEach((d) => d.setAttribute('open', '')));
  const calls = card.locator('details.tool-calls');
  assert.match(await calls.locator('summary').innerText(), /^🔧 2 tool calls in the turn it answered in: search_notes, read_note$/);
  assert.equal(
    await calls.locator('.tool-args').first().innerText(),
    '{"query": "Wednesday 11 March run <script>alert(3)</script>"}',
    'the markup shown as text',
  );
  assert.equal(await card.locator('img, script').count(), 0, 'and never made elements');
  assert.deepEqual(await card.locator('.mem-file .mem-line.stale').allInnerTexts(), ['Wed 11 Mar: 8 km along the harbourside']);
  assert.deepEqual(await card.locator('.mem-file .mem-line.hit').allInnerTexts(), ['Wed 11 Mar, synced: 8.4 km']);
  assert.match(await card.locator('.mem-legend').innerText(), /expected the expected value\s+stale a value a trap write replaced \(8\)/);
  const stale = await background(page, '.mem-file .mem-line.stale');
  const hit = await background(page, '.mem-file .mem-line.hit');
  assert.notDeepEqual(stale, hit, 'stale and expected lines look different');
  assert.ok(stale[0]! < stale[1]! && stale[0]! < stale[2]!, `the stale mark is not red: ${stale.join(',')}`);
  // The answer's reply in the conversation carries the same calls, folded.
  const reply = page.locator('.msg.agent:has(details.tool-calls)');
  assert.equal(await reply.count(), 1);
  assert.equal(await reply.locator('details.tool-calls[open]').count(), 0, 'folded');
  await reply.locator('details.tool-calls > summary').click();
  await reply.screenshot({ path: join(ARTIFACTS, 'story-reply-tool-calls.png') });
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: join(ARTIFACTS, 'story-failed-answer-light.png') });
  await page.evaluate(
    `(() => {
      const theme = ${JSON.stringify(DARK_THEME)};
      for (const [name, value] of Object.entries(theme)) document.documentElement.style.setProperty(name, value);
    })()`,
  );
  assert.deepEqual(await background(page, 'body'), [30, 30, 30], 'the dark theme applied');
  await card.screenshot({ path: join(ARTIFACTS, 'story-failed-answer-dark.png') });
  // Its card under Imperfect answers holds the same memory, unfolded on demand.
  const answer = page.locator('article.answer[data-check="15.2"]');
  await answer.locator('details').evaluateAll((all) => all.forEach((d) => d.setAttribute('open', '')));
  assert.deepEqual(await answer.locator('.mem-file .mem-line.stale').allInnerTexts(), ['Wed 11 Mar: 8 km along the harbourside']);
  assert.deepEqual(await answer.locator('.mem-file .mem-line.hit').allInnerTexts(), ['Wed 11 Mar, synced: 8.4 km']);
  await answer.scrollIntoViewIfNeeded();
  await answer.screenshot({ path: join(ARTIFACTS, 'story-imperfect-card-dark.png') });
  await clean(o);
});

test("the comparison: a differing check's trap link leads to its row, with the trap's result per run", { skip }, async () => {
  const o = await open('compare-chatbot-1-vs-chatbot-2.html');
  const { page } = o;
  const link = page.locator('tr[data-check="15.4"] a.story-link');
  assert.equal(await link.innerText(), '🪤 LATE-ADD');
  await link.click();
  assert.equal(await page.evaluate('location.hash'), '#trap-0');
  const row = page.locator('#trap-0');
  assert.ok(await row.isVisible());
  assert.deepEqual(await row.locator('.verdict').allInnerTexts(), ['CAUGHT', 'CAUGHT']);
  await page.locator('#traps').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(ARTIFACTS, 'story-compare-traps.png') });
  await clean(o);
});
