/**
 * The frame every HTML view shares: one self-contained document under a strict CSP (every script
 * and style inline with the nonce, images only as data: URLs), Chart.js inlined, and the escaping
 * and source links the views use. Nothing here fetches anything at view time.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SourceRef } from '../runView';
import { OPEN_SOURCE } from '../../protocol/messages';
import { scoreBand, type ScoreBand } from '../../protocol/scores';
import { STYLE } from './style';
import { gradeTone } from '../counted';

export interface RenderOptions {
  /** The CSP nonce of every script and style; a fresh random one when absent. */
  nonce?: string;
  /**
   * The workspace root relative to the HTML file (`../..` for `results/<id>/report.html`): source
   * links get it as their href prefix. Absent (as in a webview), links carry only their data attributes.
   */
  linkBase?: string;
  /** In a VS Code webview: clicks on source links post `{ type: 'mmb.openSource', file, line }` (`ReportMessage`). */
  postMessageLinks?: boolean;
  /** A script of the host's own, inlined with the nonce after the page's script. */
  extraScript?: string;
  /** The Chart.js UMD build's source, when the caller has it; otherwise it is read from dist/ or node_modules. */
  chartJs?: string;
  /** Where grades are banded good, fair and poor (`scoreBand`); the editor passes its `passScore` setting. */
  passScore?: number;
  /** The address of the runs index (`mmb view`'s `/`): the page links back to it at its top. */
  indexHref?: string;
  /** `connect-src 'self'` in the CSP: only for the pages of `mmb view` that follow a run live (`/events`). */
  connectSelf?: boolean;
}

/** A chart: the canvas id and a Chart.js configuration (plain JSON: no callbacks). */
export interface ChartSpec {
  canvas: string;
  config: { type: string; data: unknown; options?: unknown };
}

const HTML_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ENTITIES[character]!);
}

/** JSON safe to put inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

let chartJsSource: string | undefined;

/**
 * The Chart.js UMD build: beside the bundle first (`dist/chart.umd.min.js`, which the build copies
 * and the .vsix ships), then from node_modules (running from source). Its source-map comment is
 * dropped so that nothing asks for the map.
 */
export function chartLibrary(): string {
  if (chartJsSource !== undefined) return chartJsSource;
  const candidates = [join(__dirname, 'chart.umd.min.js')];
  try {
    candidates.push(join(dirname(require.resolve('chart.js')), 'chart.umd.min.js'));
  } catch {
    // Not installed: only the copy beside the bundle can serve.
  }
  const file = candidates.find((candidate) => existsSync(candidate));
  if (!file) throw new Error(`the charting library is missing: none of ${candidates.join(', ')} exists; run npm run build`);
  chartJsSource = readFileSync(file, 'utf8').replace(/\/\/# sourceMappingURL=\S+\s*$/, '');
  return chartJsSource;
}

/** A link to a place in a benchmark; see docs/engine.md for the data attributes a panel relies on. */
export function sourceLink(
  ref: SourceRef,
  options: RenderOptions,
  text = `${ref.file.split('/').pop()}:${ref.line}`,
  className = 'src',
): string {
  // Each part percent-encoded: a run id's `#` (`results/a#1/benchmark/…`) would otherwise end the path and start a fragment.
  const path = `${options.linkBase?.replace(/\/$/, '')}/${ref.file}`.split('/').map(encodeURIComponent).join('/');
  const href = options.linkBase !== undefined ? path : '#';
  const place = `data-file="${escapeHtml(ref.file)}" data-line="${ref.line}" title="${escapeHtml(`${ref.file}:${ref.line}`)}"`;
  return `<a class="${className}" href="${escapeHtml(href)}" ${place}>${escapeHtml(text)}</a>`;
}

/**
 * Grade colour class by tone (`gradeTone`): `g-good`, `g-fair`, `g-poor` by score band, `g-muted` for a
 * failure not held against the agent (`notCounted` says why), `g-none` without a grade.
 */
export function gradeClass(grade: number | null | undefined, passScore?: number, notCounted?: string): string {
  const band = grade === null || grade === undefined ? undefined : scoreBand(grade, passScore);
  return `g-${gradeTone(band, notCounted === undefined)}`;
}

/** A grade as few digits as it needs (`7`, `7.5`, `3.33`), — without one. */
export function fmtGrade(grade: number | null | undefined): string {
  if (grade === null || grade === undefined) return '—';
  return Number.isInteger(grade) ? String(grade) : grade.toFixed(2).replace(/0$/, '');
}

export const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];
export const GRADE_COLOURS: Record<ScoreBand, string> = { good: '#3a9d5d', fair: '#e0a030', poor: '#d9534f' };

/** The colour of a failure not held against the agent: a grey that reads on both themes, never a band's. */
export const MUTED_COLOUR = '#8b949e';

/** A chart's colour of a grade: its band's, or `MUTED_COLOUR` for a failure not counted (`notCounted` says why). */
export function gradeColour(grade: number, passScore?: number, notCounted?: string): string {
  const band = scoreBand(grade, passScore);
  return gradeTone(band, notCounted === undefined) === 'muted' ? MUTED_COLOUR : GRADE_COLOURS[band];
}

/** The y axis of every chart of grades: 0 to 10. */
export const GRADE_AXIS = { min: 0, max: 10, title: { display: true, text: 'grade' } };

/** A bar chart (Chart.js `bar`, whose datasets may also hold a `line`) on a canvas. */
export function barChart(canvas: string, labels: string[], datasets: object[], options: object): ChartSpec {
  return { canvas, config: { type: 'bar', data: { labels, datasets }, options } };
}

/** A bar chart of grades 0–10 by label; `notCounted` (a partial run's averages) mutes the bars below the pass score. */
export function gradeBars(
  canvas: string,
  labels: string[],
  values: (number | null)[],
  label: string,
  passScore?: number,
  notCounted?: string,
): ChartSpec {
  const backgroundColor = values.map((value) => gradeColour(value ?? 0, passScore, notCounted));
  const bars = { label, data: values, backgroundColor, minBarLength: 3, maxBarThickness: 64 };
  return barChart(canvas, labels, [bars], { scales: { y: GRADE_AXIS }, plugins: { legend: { display: false } } });
}

/** A chart's frame: its caption and the canvas its spec draws on; `className` widens it (`wide`). */
export function chartBox(canvas: string, title: string, className = ''): string {
  const canvasBox = `<div class="canvas-box"><canvas id="${canvas}" role="img" aria-label="${escapeHtml(title)}"></canvas></div>`;
  return `<figure class="chart ${className}"><figcaption>${escapeHtml(title)}</figcaption>${canvasBox}</figure>`;
}

const PAGE_SCRIPT = `(function () {
  var specs = JSON.parse(document.getElementById('mmb-charts').textContent);
  var css = getComputedStyle(document.body);
  Chart.defaults.color = css.color;
  Chart.defaults.borderColor = css.getPropertyValue('--grid').trim() || 'rgba(128,128,128,0.25)';
  Chart.defaults.font.family = css.fontFamily;
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;
  window.mmbCharts = specs.map(function (s) {
    var canvas = document.getElementById(s.canvas);
    return canvas ? new Chart(canvas, s.config) : null;
  }).filter(Boolean);
  document.addEventListener('click', function (e) {
    var button = e.target.closest('[data-toggle-all]');
    if (button) {
      var open = button.getAttribute('data-toggle-all') === 'open';
      document.querySelectorAll('details.' + button.getAttribute('data-target')).forEach(function (d) { d.open = open; });
    }
  });
  if (document.body.getAttribute('data-post-message') === 'true' && typeof acquireVsCodeApi === 'function') {
    var vscode = window.mmbVscode = acquireVsCodeApi();
    document.addEventListener('click', function (e) {
      var link = e.target.closest('[data-file]');
      if (!link) return;
      e.preventDefault();
      vscode.postMessage({ type: '${OPEN_SOURCE}', file: link.getAttribute('data-file'), line: Number(link.getAttribute('data-line')) });
    });
  }
})();`;

/** The content-security policy of a page: nothing but its own nonce'd scripts and styles, and data: images. */
export function pageCsp(nonce: string, options: Pick<RenderOptions, 'connectSelf'> = {}): string {
  const connect = options.connectSelf ? "; connect-src 'self'" : '';
  return `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src data:${connect}`;
}

/** A script's source made safe to inline: nothing in it can close its element. */
function inlineScript(source: string): string {
  return source.replace(/<\/script/gi, '<\\/script');
}

/** The whole document: head with the CSP, the body, Chart.js, the chart specs and the page script. */
export function page(title: string, body: string, charts: ChartSpec[], options: RenderOptions): string {
  const nonce = options.nonce ?? randomBytes(16).toString('base64');
  const nonceValue = escapeHtml(nonce);
  const csp = pageCsp(nonce, options);
  const backLink =
    options.indexHref !== undefined ? `<nav class="back"><a href="${escapeHtml(options.indexHref)}">← All runs</a></nav>\n` : '';
  const extraScript = options.extraScript ? `<script nonce="${nonceValue}">${inlineScript(options.extraScript)}</script>\n` : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style nonce="${nonceValue}">${STYLE}</style>
</head>
<body data-post-message="${options.postMessageLinks ? 'true' : 'false'}">
${backLink}${body}
<script nonce="${nonceValue}">${inlineScript(options.chartJs ?? chartLibrary())}</script>
<script type="application/json" id="mmb-charts">${scriptJson(charts)}</script>
<script nonce="${nonceValue}">${PAGE_SCRIPT}</script>
${extraScript}</body>
</html>
`;
}
