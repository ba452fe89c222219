/**
 * The dataset's metric on every surface of a run: LoCoMo's fixture imported and played on the stand-in,
 * then report.md, summary.json, the run page (the CLI's and the editor's, one renderer) and the trends
 * (text and page) give the accuracy per category with its Wilson interval, the same figures each, pooled
 * over two runs in the trends; a hostile title (the one place the dataset is read from) injects no markup;
 * a benchmark of another kind shows nothing new.
 */
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadBenchmark, type Benchmark } from '../../scenario/src';
import { renderRunReport, runView } from '../src/api';
import { reportEntry } from '../src/report/markdown';
import { summarize } from '../src/report/summary';
import { computeTrends } from '../src/report/trends';
import { renderTrends } from '../src/report/html/trendsPage';
import { ON_POLICY_NOTE } from '../src/report/datasetAccuracy';
import { FileRunStore } from '../src/run/store';
import type { RunState } from '../src/state/runState';
import { readBenchmarkFolder } from '../src/workspace/folders';
import { problemOf } from '../src/protocol/shape';
import { SUMMARY_SHAPE } from '../src/report/summaryShape';
import { trendsText } from '../src/report/trends';
import { mmb, reportMultiday, reportRun, tempDir } from './helpers';

const FIXTURE = join(__dirname, 'fixtures', 'datasets', 'locomo.json');
const RUN = 'locomo-conv-26.rehearsal';
/** A copy of the conversation whose title carries markup in the item's id (no space: it still marks a LoCoMo benchmark). */
const HOSTILE = 'locomo-hostile';
const HOSTILE_TITLE = 'LoCoMo <img/src=x/onerror=alert(1)>[x](http://evil.example)*🪤❓``` · by category';

/**
 * The stand-in's chatbot keeps nothing past a session switch: every question is missed but the
 * adversarial one, whose right answer is that it was never said. Per category, passed of graded.
 */
const ONE_RUN: [string, string, string][] = [
  ['adversarial', '1/1', '100 % (21–100 %)'],
  ['multi-hop', '0/1', '0 % (0–79 %)'],
  ['open-domain', '0/1', '0 % (0–79 %)'],
  ['single-hop', '0/2', '0 % (0–66 %)'],
  ['temporal', '0/1', '0 % (0–79 %)'],
  ['all', '1/6', '17 % (3–56 %)'],
];

/** The two runs pooled: each check counted once per run, the denominator the checks graded. */
const TWO_RUNS: [string, string, string][] = [
  ['adversarial', '2/2', '100 % (34–100 %)'],
  ['multi-hop', '0/2', '0 % (0–66 %)'],
  ['open-domain', '0/2', '0 % (0–66 %)'],
  ['single-hop', '0/4', '0 % (0–49 %)'],
  ['temporal', '0/2', '0 % (0–66 %)'],
  ['all', '2/12', '17 % (5–45 %)'],
];

interface Played {
  dir: string;
  state: (id: string) => RunState;
  benchmark: (name: string) => Benchmark;
}

let once: Played | undefined;

/** The workspace both tests read: the fixture imported, a hostile copy of it, each rehearsed once (played once per file). */
function played(): Played {
  once ??= play();
  return once;
}

function play(): Played {
  const dir = tempDir('mmb-metric-');
  writeFileSync(join(dir, 'config.jsonc'), '{ "persona": { "model": "stand-in" } }\n');
  assert.equal(mmb(['import', 'locomo', FIXTURE], dir).code, 0);
  cpSync(join(dir, 'benchmarks', 'locomo-conv-26'), join(dir, 'benchmarks', HOSTILE), { recursive: true });
  const manifest = join(dir, 'benchmarks', HOSTILE, 'benchmark.json');
  writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('"LoCoMo conv-26 · by category"', JSON.stringify(HOSTILE_TITLE)));
  for (const name of ['locomo-conv-26', HOSTILE]) {
    const run = mmb(['run', '--benchmark', name, '--rehearse'], dir);
    assert.equal(run.code, 0, run.stderr);
  }
  return {
    dir,
    state: (id) => new FileRunStore(join(dir, 'results', id)).load()!,
    benchmark: (name) => loadBenchmark(readBenchmarkFolder(join(dir, 'benchmarks', name))),
  };
}

/** The rows of the run page's or the trends page's pass-rate table in a section: key, passed/graded, rate, interval. */
function htmlRows(html: string, opening: string): string[] {
  const start = html.indexOf(opening);
  assert.ok(start >= 0, `${opening} is on the page`);
  const section = html.slice(start, html.indexOf('</section>', start));
  return [...section.matchAll(/<tr data-rate="([^"]*)"><td>[^<]*<\/td>((?:<td class="num">[^<]*<\/td>)+)<\/tr>/g)].map(
    (m) => `${m[1]} ${[...m[2]!.matchAll(/<td class="num">([^<]*)<\/td>/g)].map((cell) => cell[1]).join(' | ')}`,
  );
}

/** `2/2 100 % 34 %–100 %`: a row of the text figures as the HTML table writes it. */
const asHtml = ([key, counted, figure]: [string, string, string]) => {
  const [rate, low, high] = figure === '—' ? ['—'] : figure.match(/^(\d+) % \((\d+)–(\d+) %\)$/)!.slice(1);
  return `${key} ${counted} | ${rate} %${high === undefined ? '' : ` | ${low} %–${high} %`}`;
};

test('LoCoMo played on the stand-in: report.md, summary.json, the run page and the trends give the accuracy per category', () => {
  const { dir, state, benchmark } = played();
  // The figures below follow from these grades: only the adversarial question (5.1) passed.
  const grades = Object.entries(state(RUN).grades).map(([id, list]) => `${id} ${list.at(-1)!.effective}`);
  assert.deepEqual(grades.sort(), ['1.1 0', '2.1 0', '3.1 0', '4.1 0', '4.2 0', '5.1 10']);

  // report.md: the run's entry holds the table, the rule and the note.
  const report = readFileSync(join(dir, 'results', 'report.md'), 'utf8');
  const entry = report.slice(report.indexOf(`— ${RUN}:`), report.indexOf('Imperfect answers', report.indexOf(`— ${RUN}:`)));
  assert.match(entry, /^📏 LoCoMo: accuracy \(a check at or above 8\/10 counts as correct\) per category, with 95 % Wilson intervals:$/m);
  const table = ONE_RUN.map(([key, counted, figure]) => `| ${key} | ${counted} | ${figure} |`);
  assert.ok(entry.includes(['| category | correct | accuracy (95 % interval) |', '| --- | --- | --- |', ...table].join('\n')), entry);
  assert.ok(entry.includes(`💡 ${ON_POLICY_NOTE}`));

  // summary.json: the same figures as numbers, and the note.
  const summary = JSON.parse(readFileSync(join(dir, 'results', RUN, 'summary.json'), 'utf8')) as Record<string, unknown>;
  const metric = summary.dataset as { dataset: string; by: string; passScore: number; note: string; rates: Record<string, unknown>[] };
  assert.deepEqual([metric.dataset, metric.by, metric.passScore, metric.note], ['LoCoMo', 'category', 8, ON_POLICY_NOTE]);
  assert.deepEqual(
    metric.rates.map((r) => [r.key, r.passed, r.graded, (r.interval as number[]).map((x) => Number(x.toFixed(3)))]),
    [
      ['adversarial', 1, 1, [0.207, 1]],
      ['multi-hop', 0, 1, [0, 0.793]],
      ['open-domain', 0, 1, [0, 0.793]],
      ['single-hop', 0, 2, [0, 0.658]],
      ['temporal', 0, 1, [0, 0.793]],
      ['all', 1, 6, [0.03, 0.564]],
    ],
  );
  assert.equal((metric.rates.at(-1)!.rate as number).toFixed(4), '0.1667');
  assert.equal(problemOf(SUMMARY_SHAPE, summary), undefined);
  assert.equal(
    problemOf(SUMMARY_SHAPE, { ...summary, dataset: { ...metric, rates: [{ key: 'all', passed: -1 }] } })?.path,
    'dataset.rates[0].passed',
  );

  // The run page, as `mmb report --html` writes it.
  assert.equal(mmb(['report', RUN, '--html'], dir).code, 0);
  const page = readFileSync(join(dir, 'results', RUN, 'report.html'), 'utf8');
  assert.deepEqual(htmlRows(page, '<section class="dataset" data-dataset="LoCoMo">'), ONE_RUN.map(asHtml));
  assert.match(page, /<p class="sub">Accuracy \(a check at or above 8\/10 counts as correct\) per category, with 95 % Wilson/);
  assert.ok(page.includes(ON_POLICY_NOTE.replace(/'/g, '&#39;')));

  // The editor's run page: the same view and renderer through engine/src/api, with its pass score.
  const editor = renderRunReport(runView(state(RUN), benchmark('locomo-conv-26'), { passScore: 10 }), { nonce: 'n' });
  assert.deepEqual(htmlRows(editor, '<section class="dataset"'), ONE_RUN.map(asHtml));
  assert.match(editor, /Accuracy \(a check at or above 10\/10 counts as correct\) per category/);

  // Trends: the two runs (two benchmarks, one run each) pooled by dataset and category, in text and on the page.
  const trends = mmb(['report', '--trends'], dir);
  assert.equal(trends.code, 0, trends.stderr);
  const lines = trends.stdout.split('\n');
  const heading = lines.indexOf(
    'LoCoMo @ chatbot on the stand-in: accuracy (a check at or above 8/10 counts as correct) over 2 runs, with 95 % Wilson intervals:',
  );
  assert.ok(heading >= 0, trends.stdout);
  assert.deepEqual(
    lines.slice(heading + 1, heading + 7).map((line) => line.trim().split(/\s{2,}/)),
    TWO_RUNS.map((row) => [...row]),
  );
  assert.equal(lines[heading + 7], ON_POLICY_NOTE);
  const trendsPage = readFileSync(join(dir, 'results', 'trends.html'), 'utf8');
  assert.deepEqual(
    htmlRows(trendsPage, '<section class="group dataset" data-dataset="LoCoMo @ chatbot on the stand-in">'),
    TWO_RUNS.map(asHtml),
  );
});

test('a hostile title injects no markup, a title that is no mark shows no metric, and another benchmark shows nothing new', () => {
  const { dir, state, benchmark } = played();
  const hostileRun = `${HOSTILE}.rehearsal`;
  // The id carries the markup: the metric never shows it, and every page that shows the title escapes it.
  const report = readFileSync(join(dir, 'results', 'report.md'), 'utf8');
  const entry = report.slice(report.indexOf(`— ${hostileRun}:`));
  assert.match(entry, /^\| all \| 1\/6 \| 17 % \(3–56 %\) \|$/m);
  assert.doesNotMatch(entry, /<img|\]\(http|```|🪤|❓/u);
  assert.equal(mmb(['report', hostileRun, '--html'], dir).code, 0);
  const page = readFileSync(join(dir, 'results', hostileRun, 'report.html'), 'utf8');
  assert.deepEqual(htmlRows(page, '<section class="dataset" data-dataset="LoCoMo">'), ONE_RUN.map(asHtml));
  assert.ok(!page.includes('<img') && page.includes('&lt;img/src=x/onerror=alert(1)&gt;'));

  // A type in the title (how LongMemEval's are read) with emphasis in it: escaped in report.md, in the HTML, in summary.json as is.
  const typed = { ...benchmark(HOSTILE), title: 'LongMemEval q1 · __bold__ (x)_y' };
  const summary = summarize(state(hostileRun), typed);
  assert.deepEqual(
    summary.dataset?.rates.map((r) => `${r.key} ${r.passed}/${r.graded}`),
    ['__bold__ (x)_y 1/6', 'all 1/6'],
  );
  const markdown = reportEntry(summary, new Date(0));
  assert.match(markdown, /^📏 LongMemEval: accuracy .* per question type, with 95 % Wilson intervals:$/m);
  assert.match(markdown, /^\| \\_\\_bold\\_\\_ \(x\)\\_y \| 1\/6 \| 17 % \(3–56 %\) \|$/m);
  assert.deepEqual(htmlRows(renderRunReport(runView(state(hostileRun), typed), { nonce: 'n' }), '<section class="dataset"'), [
    '__bold__ (x)_y 1/6 | 17 % | 3 %–56 %',
    'all 1/6 | 17 % | 3 %–56 %',
  ]);
  // Titles that are no mark (markup in the type, a space in the id, no separator, too long): no metric anywhere.
  for (const title of [
    'LoCoMo conv-26 · <b>by</b> category',
    'LoCoMo conv 26 · by category',
    'LoCoMo conv-26 by category',
    `LongMemEval q1 · ${'x'.repeat(61)}`,
  ]) {
    const other = summarize(state(hostileRun), { ...typed, title });
    assert.equal(other.dataset, undefined, title);
    assert.ok(!reportEntry(other, new Date(0)).includes('📏'), title);
  }

  // A benchmark of another kind: no metric in summary.json's figures, report.md, the run page or the trends.
  const starter = reportRun('chatbot-1');
  const plain = summarize(starter, reportMultiday());
  assert.ok(!('dataset' in plain));
  assert.doesNotMatch(reportEntry(plain, new Date(0)), /📏|accuracy|On-policy/);
  assert.doesNotMatch(renderRunReport(runView(starter, reportMultiday()), { nonce: 'n' }), /class="dataset"|On-policy/);
  const trends = computeTrends([starter, reportRun('chatbot-2')], () => ({ benchmark: reportMultiday() }));
  assert.deepEqual(trends.datasets, []);
  assert.doesNotMatch(trendsText(trends), /accuracy|On-policy/);
  assert.doesNotMatch(renderTrends(trends, { nonce: 'n' }), /group dataset|On-policy/);
});
