/**
 * What the runs index did wrong when first opened in a real VS Code, fixed: status and grade
 * pills too faint to read, a dark editor's checkboxes and date pickers drawn for a light page,
 * dates broken inside their digits (the stylesheet's colours and rules, the row's markup), and
 * filters and ticks lost whenever the editor drew the page again (its script, run in `node:vm`).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { test } from 'node:test';
import { indexRow, renderRunsIndex, runsIndex } from '../src/report/html';
import { STYLE } from '../src/report/html/style';
import { FileRunStore } from '../src/run/store';
import type { RunState } from '../src/state/runState';
import { REPORTS, joinedPattern } from './helpers';

/** The colour a custom property of the stylesheet's root block is given (the light defaults). */
function variable(name: string): string {
  const value = new RegExp(`${name}: (#[0-9a-f]{6})`).exec(STYLE)?.[1];
  assert.ok(value, `${name} is a hex colour in STYLE`);
  return value;
}

/** WCAG's relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const channel = parseInt(hex.slice(i, i + 2), 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(foreground: string, background: string): number {
  const [light, dark] = [luminance(foreground), luminance(background)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The declarations of the rule whose selector list is `selector`. */
function rule(selector: string): string {
  const start = STYLE.indexOf(`${selector} {`);
  assert.ok(start >= 0, `a rule for ${selector}`);
  return STYLE.slice(start, STYLE.indexOf('}', start));
}

test('the status and grade pills: their text at 4.5:1 or more against their colour (WCAG AA, small bold text)', () => {
  const running = /\.st-running \{ background: (#[0-9a-f]{6}); \}/.exec(STYLE)?.[1];
  assert.ok(running, 'running has its own colour');
  const pills: Array<[string, string, string]> = [
    ['good (finished, a good grade)', '#ffffff', variable('--good')],
    ['poor (crashed, a poor grade)', '#ffffff', variable('--poor')],
    ['running', '#ffffff', running],
    ['fair (stopped, a fair grade)', variable('--on-fair'), variable('--fair')],
    ['the flaky verdict (compare, trends)', variable('--on-fair'), variable('--flaky')],
  ];
  for (const [what, text, background] of pills)
    assert.ok(contrast(text, background) >= 4.5, `${what}: ${text} on ${background} is ${contrast(text, background).toFixed(2)}:1`);
  assert.match(STYLE, /\.g-fair \{ background: var\(--fair\); color: var\(--on-fair\); \}/, 'a fair grade is written in the dark text');
  assert.match(STYLE, /\.st-stopped \{ background: var\(--fair\); color: var\(--on-fair\); \}/, 'so is a stopped run');
  assert.match(STYLE, /\.v-flaky \{ background: var\(--flaky\); color: var\(--on-fair\); \}/, 'and the flaky verdict');
  // A damaged run is red text on the page itself: a lighter red where the page is dark.
  assert.ok(
    contrast('#ff7b72', '#1f1f1f') >= 4.5 && /body\.vscode-dark[^{]*\{[^}]*--poor-text: #ff7b72/.test(STYLE),
    'damaged reads in a dark editor',
  );
  assert.ok(contrast(variable('--poor-text'), '#ffffff') >= 4.5, 'damaged reads on a light page');
});

test("in a webview, native controls (checkboxes, date pickers) follow VS Code's theme, whatever the system's", () => {
  assert.match(rule('body.vscode-dark, body.vscode-high-contrast:not(.vscode-high-contrast-light)'), /color-scheme: dark;/);
  assert.match(rule('body.vscode-light, body.vscode-high-contrast-light'), /color-scheme: light;/);
});

test('a row: start day and minute, status, dates, models, figures unbroken at normal width; the table alone scrolls when narrow', () => {
  const state: RunState = { ...new FileRunStore(join(REPORTS, 'runs', 'chatbot-1')).load()!, startedAt: '2026-12-01T15:31:07.000Z' };
  const html = renderRunsIndex(runsIndex([indexRow('chatbot-1', state, 'finished', undefined)]), { nonce: 'n' });
  assert.match(
    html,
    joinedPattern([
      /<td class="state"><span class="status st-finished">finished<\/span><\/td>/,
      /<td class="when"><span>2026-12-01<\/span> <span>15:31<\/span><\/td>/,
    ]),
  );
  assert.match(html, /<div class="table-scroll"><table class="runs">[\s\S]*<\/table><\/div>/);
  assert.match(
    rule('table.runs td.when, table.runs td.when span, table.runs td.models, table.runs td.num, table.runs td.state'),
    /white-space: nowrap/,
  );
  assert.match(rule('.table-scroll'), /overflow-x: auto/);
  const narrow = STYLE.slice(STYLE.indexOf('@media (max-width: 860px)'));
  assert.match(
    narrow,
    /table\.runs td\.when, table\.runs td\.models, table\.runs td\.state \{ white-space: normal; \}/,
    'a narrow editor may break between day and minute, and a status from its partial tag',
  );
});

interface Field {
  name: string;
  value: string;
}

/**
 * The index's script run against a stand-in for the webview's document: two rows, the filter
 * form's fields and the run checkboxes, and the VS Code API's state.
 */
function runIndexScript(saved: unknown): {
  fields: Map<string, Field>;
  rows: Array<{ agent: string; hidden: boolean }>;
  boxes: Array<{ value: string; checked: boolean }>;
  states: unknown[];
  fire: (target: 'filters' | 'selection') => void;
} {
  const state: RunState = new FileRunStore(join(REPORTS, 'runs', 'chatbot-1')).load()!;
  const html = renderRunsIndex(
    runsIndex([indexRow('a', state, 'finished', undefined), indexRow('b', { ...state, agent: 'notebook' }, 'finished', undefined)]),
    { nonce: 'n', postMessageLinks: true },
  );
  const script = [...html.matchAll(/<script nonce="n">([\s\S]*?)<\/script>/g)].at(-1)![1]!;
  const fields = new Map(['benchmark', 'agent', 'status', 'from', 'to'].map((name) => [name, { name, value: '' }]));
  const rows = [
    { run: 'a', agent: 'chatbot', hidden: false },
    { run: 'b', agent: 'notebook', hidden: false },
  ];
  const boxes = [
    { value: 'a', checked: false },
    { value: 'b', checked: false },
  ];
  const listeners = new Map<string, () => void>();
  const states: unknown[] = [];
  const element = (id: string) => ({
    addEventListener: (type: string, listener: () => void) => listeners.set(`${id}:${type}`, listener),
    elements: { namedItem: (name: string) => fields.get(name) ?? null },
    hidden: false,
  });
  const document = {
    getElementById: (id: string) => element(id),
    addEventListener: () => undefined,
    querySelectorAll: (selector: string) =>
      selector === '#mmb-rows tr'
        ? rows.map((row) =>
            Object.assign(row, {
              getAttribute: (name: string) =>
                (
                  ({
                    'data-agent': row.agent,
                    'data-benchmark': 'multiday',
                    'data-status': 'finished',
                    'data-day': '2026-11-29',
                  }) as Record<string, string>
                )[name] ?? null,
            }),
          )
        : boxes,
  };
  class FormData {
    forEach(callback: (value: string, key: string) => void): void {
      for (const field of fields.values()) callback(field.value, field.name);
    }
    get(key: string): string | null {
      return fields.get(key)?.value || null;
    }
  }
  const window: Record<string, unknown> = {
    document,
    FormData,
    URLSearchParams,
    mmbVscode: { getState: () => saved, setState: (value: unknown) => states.push(value), postMessage: () => undefined },
  };
  window.window = window;
  runInNewContext(script, window);
  return {
    fields,
    rows,
    boxes,
    states,
    fire: (target) => listeners.get(`${target === 'filters' ? 'mmb-filters' : 'mmb-selection'}:change`)?.(),
  };
}

test("in the editor, the filters and ticked runs are kept in the webview's state and put back when the page is drawn again", () => {
  const page = runIndexScript({ filter: { agent: 'notebook', status: 7 }, ticked: ['b', 'gone'] });
  assert.equal(page.fields.get('agent')!.value, 'notebook', 'the saved filter is back in its field');
  assert.equal(page.fields.get('status')!.value, '', 'a saved value that is no text is left out');
  assert.deepEqual(
    page.rows.map((r) => r.hidden),
    [true, false],
    'and applied: only the notebook run shows',
  );
  assert.deepEqual(
    page.boxes.map((b) => b.checked),
    [false, true],
    'the ticked run is ticked again; a run that is gone is not',
  );
  page.boxes[0]!.checked = true;
  page.fire('selection');
  page.fields.get('status')!.value = 'finished';
  page.fire('filters');
  // The page's objects come from another realm: compared as JSON.
  assert.deepEqual(
    JSON.parse(JSON.stringify(page.states.at(-1))),
    { filter: { agent: 'notebook', status: 'finished' }, ticked: ['a', 'b'] },
    'each change is saved',
  );
  const fresh = runIndexScript(undefined);
  assert.deepEqual(
    fresh.rows.map((r) => r.hidden),
    [false, false],
    'no state: every run shows',
  );
  assert.equal(fresh.states.length, 0, 'nothing saved before a change');
});
