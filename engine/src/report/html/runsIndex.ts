/**
 * The runs index page: every run of a workspace in a table, filterable by benchmark, agent,
 * status and date with a plain GET form (it works with no script), each row linked to its run's
 * page, checkboxes and a GET form to `/compare?run=a&run=b` and `/trends?run=…`. A small nonce'd
 * script filters at once as a filter changes; in the editor's webview the links and buttons post
 * `IndexMessage`s instead (`protocol/messages.ts`), and the filters and ticks are kept in the
 * webview's state across renders.
 */
import { COMPARE_RUNS, OPEN_RUN, SHOW_TRENDS } from '../../protocol/messages';
import type { IndexFilter, IndexRow, RunsIndex } from '../runsIndex';
import { INDEX_STATUSES } from '../runsIndex';
import { escapeHtml, fmtGrade, gradeClass, page, type RenderOptions } from './page';

/** The path of a run's page on `mmb view`'s server: the id is a folder name, `#` written `%23`. */
export function runPath(id: string): string {
  return `/run/${encodeURIComponent(id)}`;
}

function options(values: readonly string[], chosen: string | undefined): string {
  return [
    `<option value="">any</option>`,
    ...values.map((v) => `<option value="${escapeHtml(v)}"${v === chosen ? ' selected' : ''}>${escapeHtml(v)}</option>`),
  ].join('');
}

function filters(index: RunsIndex): string {
  const f: IndexFilter = index.filter;
  const date = (name: 'from' | 'to') => `<label>${name} <input type="date" name="${name}" value="${escapeHtml(f[name] ?? '')}"></label>`;
  return `<form class="filters" id="mmb-filters" method="get" action="/">
<label>benchmark <select name="benchmark">${options(index.benchmarks, f.benchmark)}</select></label>
<label>agent <select name="agent">${options(index.agents, f.agent)}</select></label>
<label>status <select name="status">${options(INDEX_STATUSES, f.status)}</select></label>
${date('from')} ${date('to')}
<button type="submit">Filter</button> <a href="/" id="mmb-clear">clear</a>
</form>`;
}

/** The start's day and minute, each kept whole: a narrow column breaks between them, never inside a date. */
function when(startedAt: string): string {
  return `<span>${escapeHtml(startedAt.slice(0, 10))}</span> <span>${escapeHtml(startedAt.slice(11, 16))}</span>`;
}

function row(r: IndexRow, o: RenderOptions): string {
  const href = o.postMessageLinks ? '#' : runPath(r.id);
  const data = `data-run="${escapeHtml(r.id)}" data-benchmark="${escapeHtml(r.benchmark)}" data-agent="${escapeHtml(r.agent)}" data-status="${r.status}" data-day="${escapeHtml(r.startedAt.slice(0, 10))}"`;
  const status = `<span class="status st-${r.status}">${r.status}</span>${r.partial ? '<span class="tag">partial</span>' : ''}`;
  if (r.status === 'damaged') {
    return `<tr ${data}><td></td><td><a href="${escapeHtml(href)}" data-open-run="${escapeHtml(r.id)}">${escapeHtml(r.id)}</a></td><td colspan="3" class="note">${escapeHtml(r.problem ?? '')}</td><td class="state">${status}</td><td></td><td></td><td></td></tr>`;
  }
  return `<tr ${data}>
<td><input type="checkbox" name="run" value="${escapeHtml(r.id)}" aria-label="select ${escapeHtml(r.id)}"></td>
<td><a href="${escapeHtml(href)}" data-open-run="${escapeHtml(r.id)}">${escapeHtml(r.id)}</a></td>
<td>${escapeHtml(r.benchmark)}</td><td>${escapeHtml(r.agent)}</td><td class="models">${r.models.map(escapeHtml).join('<br>') || '—'}</td>
<td class="state">${status}</td><td class="when">${when(r.startedAt)}</td>
<td class="num"><span class="grade ${gradeClass(r.average, o.passScore)}">${fmtGrade(r.average)}</span></td>
<td class="num">${r.graded}/${r.planned ?? '?'}</td>
</tr>`;
}

function table(index: RunsIndex, o: RenderOptions): string {
  if (index.total === 0)
    return '<p class="note empty">No runs yet: <code>mmb demo</code> plays the bundled benchmarks on the stand-in model (no key), <code>mmb run</code> the runs of config.jsonc.</p>';
  return `<form id="mmb-selection" method="get" action="/compare">
<div class="toolbar"><button type="submit" formaction="/compare" data-action="compare">Compare</button><button type="submit" formaction="/trends" data-action="trends">Trends</button><span class="note">Compare: two runs or more of one benchmark. Trends: the full runs selected, or every one when none is.</span></div>
<div class="table-scroll"><table class="runs"><thead><tr><th></th><th>run</th><th>benchmark</th><th>agent</th><th>models</th><th>status</th><th>started (UTC)</th><th class="num">average</th><th class="num">checks graded</th></tr></thead>
<tbody id="mmb-rows">
${index.rows.map((r) => row(r, o)).join('\n')}
</tbody></table></div>
<p class="note" id="mmb-none"${index.rows.length ? ' hidden' : ''}>No run matches these filters.</p>
</form>`;
}

/**
 * Instant filtering (rows hidden by their data attributes, the query string kept in step) and, in
 * a webview, the links and buttons as messages to the editor.
 */
const INDEX_SCRIPT = `(function () {
  var form = document.getElementById('mmb-filters');
  var rows = function () { return Array.prototype.slice.call(document.querySelectorAll('#mmb-rows tr')); };
  function apply() {
    var data = new FormData(form);
    var shown = 0;
    rows().forEach(function (tr) {
      var day = tr.getAttribute('data-day') || '';
      var ok = ['benchmark', 'agent', 'status'].every(function (k) { var v = data.get(k); return !v || tr.getAttribute('data-' + k) === v; })
        && (!data.get('from') || day >= data.get('from')) && (!data.get('to') || (day && day <= data.get('to')));
      tr.hidden = !ok;
      if (ok) shown++;
    });
    var none = document.getElementById('mmb-none');
    if (none) none.hidden = shown > 0;
    var query = new URLSearchParams();
    data.forEach(function (v, k) { if (v) query.append(k, v); });
    if (!window.mmbVscode) history.replaceState(null, '', location.pathname + (query.toString() ? '?' + query : ''));
  }
  if (form) form.addEventListener('change', apply);
  var vscode = window.mmbVscode;
  if (!vscode) return;
  var selection = document.getElementById('mmb-selection');
  var boxes = function () { return Array.prototype.slice.call(document.querySelectorAll('#mmb-rows input[name=run]')); };
  // The editor renders the page again when a run changes, and a hidden tab loses its document:
  // the filters and the ticked runs live in the webview's state, which outlasts both.
  function remember() {
    var filter = {};
    if (form) new FormData(form).forEach(function (v, k) { if (v) filter[k] = v; });
    vscode.setState({ filter: filter, ticked: boxes().filter(function (b) { return b.checked; }).map(function (b) { return b.value; }) });
  }
  var saved = vscode.getState() || {};
  if (form && saved.filter) Object.keys(saved.filter).forEach(function (k) { var field = form.elements.namedItem(k); if (field && typeof saved.filter[k] === 'string') field.value = saved.filter[k]; });
  if (Array.isArray(saved.ticked)) boxes().forEach(function (b) { b.checked = saved.ticked.indexOf(b.value) >= 0; });
  if (form) { apply(); form.addEventListener('change', remember); }
  if (selection) selection.addEventListener('change', remember);
  if (form) form.addEventListener('submit', function (e) { e.preventDefault(); apply(); });
  var clear = document.getElementById('mmb-clear');
  if (clear) clear.addEventListener('click', function (e) { e.preventDefault(); form.reset(); form.querySelectorAll('select').forEach(function (s) { s.value = ''; }); form.querySelectorAll('input').forEach(function (i) { i.value = ''; }); apply(); remember(); });
  document.addEventListener('click', function (e) {
    var link = e.target.closest('[data-open-run]');
    if (link) { e.preventDefault(); vscode.postMessage({ type: '${OPEN_RUN}', run: link.getAttribute('data-open-run') }); }
  });
  if (selection) selection.addEventListener('submit', function (e) {
    e.preventDefault();
    var runs = Array.prototype.map.call(selection.querySelectorAll('input[name=run]:checked'), function (i) { return i.value; });
    var action = e.submitter && e.submitter.getAttribute('data-action');
    vscode.postMessage({ type: action === 'trends' ? '${SHOW_TRENDS}' : '${COMPARE_RUNS}', runs: runs });
  });
})();`;

/** The whole index document; `o.extraScript` (the server's live updates) runs after the index's own script. */
export function renderRunsIndex(index: RunsIndex, o: RenderOptions = {}): string {
  const shown =
    index.rows.length === index.total
      ? `${index.total} run${index.total === 1 ? '' : 's'}`
      : `${index.rows.length} of ${index.total} runs shown`;
  const body = `<header>
<h1>MarathonMemBench — runs</h1>
<p class="sub">${shown} in results/, newest first</p>
</header>
${index.total ? filters(index) : ''}
${table(index, o)}`;
  return page('MarathonMemBench — runs', body, [], { ...o, extraScript: `${INDEX_SCRIPT}\n${o.extraScript ?? ''}` });
}

/** A page of one line: what went wrong (a damaged run, an unknown one, runs that cannot be compared). */
export function renderProblem(title: string, problem: string, o: RenderOptions = {}): string {
  return page(
    `MarathonMemBench — ${title}`,
    `<header><h1>${escapeHtml(title)}</h1></header>\n<p class="problem">${escapeHtml(problem)}</p>`,
    [],
    { ...o, indexHref: '/' },
  );
}
