/** The HTML views as strings: a strict CSP with the nonce on every script and style, escaped user text, source links, nothing fetched. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareRuns, computeTrends, renderComparison, renderRunReport, renderTrends, runView } from '../src/report/html';
import { reportMultiday as multiday, reportRun as run, joinedPattern } from './helpers';

function pages(nonce: string): { run: string; compare: string; trends: string } {
  const b = multiday();
  return {
    run: renderRunReport(runView(run('chatbot-2'), b), { nonce, linkBase: '../..' }),
    compare: renderComparison(compareRuns([run('chatbot-1'), run('chatbot-2')], b), { nonce }),
    trends: renderTrends(
      computeTrends(['chatbot-1', 'chatbot-2', 'chatbot-3'].map(run), () => ({ benchmark: b })),
      { nonce },
    ),
  };
}

test('every page: one strict CSP, every script and style inline with the nonce, no style attributes, nothing to fetch', () => {
  for (const [name, html] of Object.entries(pages('n0nce42'))) {
    assert.ok(html.startsWith('<!DOCTYPE html>'), name);
    assert.match(
      html,
      joinedPattern([
        /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; /,
        /script-src &#39;nonce-n0nce42&#39;; style-src &#39;nonce-n0nce42&#39;; img-src data:">/,
      ]),
      name,
    );
    const scripts = html.match(/<script[^>]*>/g) ?? [];
    assert.deepEqual(
      scripts,
      ['<script nonce="n0nce42">', '<script type="application/json" id="mmb-charts">', '<script nonce="n0nce42">'],
      name,
    );
    assert.deepEqual(html.match(/<style[^>]*>/g), ['<style nonce="n0nce42">'], name);
    assert.doesNotMatch(html, /\sstyle="/, `${name}: inline style attributes break under the CSP`);
    assert.doesNotMatch(html, /\s(?:src|href)="(?:https?:)?\/\//i, `${name}: nothing loaded from the network`);
    assert.doesNotMatch(html, /sourceMappingURL/, name);
    assert.match(html, /Chart\.js v4\./, `${name}: the charting library is inlined`);
  }
  const fresh = [renderRunReport(runView(run('chatbot-1'), multiday())), renderRunReport(runView(run('chatbot-1'), multiday()))].map(
    (h) => /nonce-([^&]+)&/.exec(h)?.[1],
  );
  assert.ok(fresh[0] && fresh[0] !== fresh[1], 'a random nonce per page when none is given');
});

test('an answer carrying markup is shown as text, never as markup', () => {
  const { run: html, compare } = pages('x');
  for (const page of [html, compare]) {
    assert.ok(!page.includes('<img src=x'), 'no img element from the answer');
    assert.ok(!page.includes('<script>alert(2)'), 'no script element from the answer');
    assert.ok(page.includes('About 5 km, I think &lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;'));
  }
  assert.ok(html.includes('right number, but hedged &amp; &quot;a guess&quot;'));
  const state = run('chatbot-1');
  state.run = '</script><script>alert(3)</script>';
  const hostile = renderRunReport(runView(state, multiday()), { nonce: 'x' });
  assert.ok(!hostile.includes('<script>alert(3)'));
  assert.ok(!/<\/script><script>alert/.test(hostile));
});

test('the run page: figures, charts, imperfect answers linked to their checks and trap writes, the conversation by chapter, cost', () => {
  const html = pages('x').run;
  assert.match(html, /<div class="v">2\.40\/10<\/div><div class="k">average<\/div>/);
  for (const id of ['chart-distribution', 'chart-types', 'chart-chapters']) assert.match(html, new RegExp(`<canvas id="${id}"`));
  assert.equal(html.match(/<article class="answer/g)?.length, 8);
  assert.match(html, /<article class="answer fair" data-check="15\.4">/);
  assert.ok(
    html.includes(
      '<a class="src trap-link" href="../../benchmarks/multiday/week2.md" data-file="benchmarks/multiday/week2.md" data-line="11" ' +
        'title="benchmarks/multiday/week2.md:11">LATE-ADD week2.md:11</a> — Sunday&#39;s run, told a day late',
    ),
  );
  assert.ok(
    html.includes('check <a class="src" href="../../benchmarks/multiday/exam.md" data-file="benchmarks/multiday/exam.md" data-line="17"'),
  );
  assert.deepEqual(
    [...html.matchAll(/<details class="chapter"><summary>([^<]+)<\/summary>/g)].map((m) => m[1]),
    ['week1.md — 28 messages', 'week2.md — 20 messages, 1 grade', 'exam.md — 20 messages, 2 events, 10 grades (9 failed)'],
  );
  assert.match(html, /<div class="marker m-session">⟳ the agent switches to a new conversation<\/div>/);
  assert.match(html, /<div class="marker m-compaction">✂ The persona&#39;s context was compacted: 6150 → 3353 tokens<\/div>/);
  assert.match(html, /<div class="marker m-time">⏩ Virtual time jumps to 2026-03-01 20:30 \(30 min skipped\)<\/div>/);
  assert.match(
    html,
    joinedPattern([
      /<td>stand-in<\/td><td class="num">94<\/td><td class="num">440,860<\/td>/,
      /<td class="num">1,413<\/td><td class="num">\$0 \/ \$0<\/td><td class="num">\$0\.0000<\/td>/,
    ]),
  );
});

test('in a webview: links carry only their data attributes, clicks post a message, the host may add its own script', () => {
  const html = renderRunReport(runView(run('chatbot-2'), multiday()), {
    nonce: 'abc',
    postMessageLinks: true,
    extraScript: 'window.hostReady = true;',
  });
  assert.match(html, /<body data-post-message="true">/);
  assert.ok(html.includes('<a class="src" href="#" data-file="benchmarks/multiday/exam.md" data-line="13"'));
  assert.ok(html.includes('<script nonce="abc">window.hostReady = true;</script>'));
  assert.match(
    html,
    joinedPattern([
      /vscode\.postMessage\(\{ type: 'mmb\.openSource', file: link\.getAttribute\('data-file'\), /,
      /line: Number\(link\.getAttribute\('data-line'\)\) \}\)/,
    ]),
  );
});

test('the comparison and trends pages: differing checks first; flaky checks marked', () => {
  const { compare, trends } = pages('x');
  assert.deepEqual(
    [...compare.matchAll(/<tr class="(differs)?" data-check="([\d.]+)">/g)].map((m) => `${m[2]}${m[1] ? '*' : ''}`),
    ['15.4*', '12.1', '15.1', '15.2', '15.3', '15.5', '15.6', '15.7', '15.8', '15.9'],
  );
  assert.match(compare, /Graded the same in every run \(9\)/);
  assert.match(trends, /<tr class="flaky" data-check="15\.4">/);
  assert.match(trends, /<tr class="failing" data-trap-type="LATE-ADD">/);
  assert.match(trends, /<canvas id="chart-checks-0"/);
});
