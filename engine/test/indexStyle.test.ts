/**
 * What the runs index looked like when first opened in a real VS Code, fixed: status and grade
 * pills too faint to read, a dark editor's checkboxes and date pickers drawn for a light page,
 * dates broken inside their digits. The stylesheet's colours and rules, and the row's markup.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { indexRow, renderRunsIndex, runsIndex } from '../src/report/html';
import { STYLE } from '../src/report/html/style';
import { FileRunStore } from '../src/run/store';
import type { RunState } from '../src/state/runState';
import { REPORTS } from './helpers';

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
  ];
  for (const [what, text, background] of pills) assert.ok(contrast(text, background) >= 4.5, `${what}: ${text} on ${background} is ${contrast(text, background).toFixed(2)}:1`);
  assert.match(STYLE, /\.g-fair \{ background: var\(--fair\); color: var\(--on-fair\); \}/, 'a fair grade is written in the dark text');
  assert.match(STYLE, /\.st-stopped \{ background: var\(--fair\); color: var\(--on-fair\); \}/, 'so is a stopped run');
  // A damaged run is red text on the page itself: a lighter red where the page is dark.
  assert.ok(contrast('#ff7b72', '#1f1f1f') >= 4.5 && /body\.vscode-dark[^{]*\{[^}]*--poor-text: #ff7b72/.test(STYLE), 'damaged reads in a dark editor');
  assert.ok(contrast(variable('--poor-text'), '#ffffff') >= 4.5, 'damaged reads on a light page');
});

test('in a webview, native controls (checkboxes, date pickers) follow VS Code\'s theme, whatever the system\'s', () => {
  assert.match(rule('body.vscode-dark, body.vscode-high-contrast:not(.vscode-high-contrast-light)'), /color-scheme: dark;/);
  assert.match(rule('body.vscode-light, body.vscode-high-contrast-light'), /color-scheme: light;/);
});

test('a row: its start as day and minute each kept whole, status, dates, models and figures unbroken at a normal width, the table scrolling alone when narrow', () => {
  const state: RunState = { ...new FileRunStore(join(REPORTS, 'runs', 'chatbot-1')).load()!, startedAt: '2026-12-01T15:31:07.000Z' };
  const html = renderRunsIndex(runsIndex([indexRow('chatbot-1', state, 'finished', undefined)]), { nonce: 'n' });
  assert.match(html, /<td class="state"><span class="status st-finished">finished<\/span><\/td><td class="when"><span>2026-12-01<\/span> <span>15:31<\/span><\/td>/);
  assert.match(html, /<div class="table-scroll"><table class="runs">[\s\S]*<\/table><\/div>/);
  assert.match(rule('table.runs td.when, table.runs td.when span, table.runs td.models, table.runs td.num, table.runs td.state'), /white-space: nowrap/);
  assert.match(rule('.table-scroll'), /overflow-x: auto/);
  const narrow = STYLE.slice(STYLE.indexOf('@media (max-width: 860px)'));
  assert.match(narrow, /table\.runs td\.when, table\.runs td\.models \{ white-space: normal; \}/, 'a narrow editor may break between day and minute');
});
