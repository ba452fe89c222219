/**
 * The runs index page: every run of a workspace in a table, filterable by benchmark, agent,
 * status and date with a plain GET form (it works with no script), each row linked to its run's
 * page, checkboxes and a GET form to `/compare?run=a&run=b` and `/trends?run=…`. A small nonce'd
 * script filters at once as a filter changes; in the editor's webview the links and buttons post
 * `IndexMessage`s instead (`protocol/messages.ts`), and the filters and ticks are kept in the
 * webview's state across renders.
 */
import { COMPARE_RUNS, OPEN_RUN, SHOW_TRENDS } from '../../protocol/messages';
import { averageLabel } from '../../protocol/scores';
import type { IndexFilter, IndexRow, RunsIndex } from '../runsIndex';
import { INDEX_STATUSES } from '../runsIndex';
import { escapeHtml, page, type RenderOptions } from './page';
import { gradeBadge, numberCell, numberHead, PARTIAL_AVERAGES, tagLabel } from './markup';

/** The path of a run's page on `mmb view`'s server: the id is a folder name, `#` written `%23`. */
export function runPath(id: string): string {
  return `/run/${encodeURIComponent(id)}`;
}

function selectOptions(values: readonly string[], chosen: string | undefined): string {
  const option = (value: string) =>
    `<option value="${escapeHtml(value)}"${value === chosen ? ' selected' : ''}>${escapeHtml(value)}</option>`;
  return [`<option value="">any</option>`, ...values.map(option)].join('');
}

function filters(index: RunsIndex): string {
  const filter: IndexFilter = index.filter;
  const date = (name: 'from' | 'to') =>
    `<label>${name} <input type="date" name="${name}" value="${escapeHtml(filter[name] ?? '')}"></label>`;
  return `<form class="filters" id="mmb-filters" method="get" action="/">
<label>benchmark <select name="benchmark">${selectOptions(index.benchmarks, filter.benchmark)}</select></label>
<label>agent <select name="agent">${selectOptions(index.agents, filter.agent)}</select></label>
<label>status <select name="status">${selectOptions(INDEX_STATUSES, filter.status)}</select></label>
${date('from')} ${date('to')}
<button type="submit">Filter</button> <a href="/" id="mmb-clear">clear</a>
</form>`;
}

/** The start's day and minute, each kept whole: a narrow column breaks between them, never inside a date. */
function when(startedAt: string): string {
  return `<span>${escapeHtml(startedAt.slice(0, 10))}</span> <span>${escapeHtml(startedAt.slice(11, 16))}</span>`;
}

/** The attributes the filters read, on every row. */
function rowData(row: IndexRow): string {
  const names = `data-run="${escapeHtml(row.id)}" data-benchmark="${escapeHtml(row.benchmark)}" data-agent="${escapeHtml(row.agent)}"`;
  return `${names} data-status="${row.status}" data-day="${escapeHtml(row.startedAt.slice(0, 10))}"`;
}

function runRow(row: IndexRow, options: RenderOptions): string {
  const href = options.postMessageLinks ? '#' : runPath(row.id);
  const data = rowData(row);
  const status = `<span class="status st-${row.status}">${row.status}</span>${row.partial ? tagLabel('partial') : ''}`;
  // A long id (`starter.phase-chapter3-1.rehearsal`) may break after its dots in a narrow group, never inside a word.
  const name = escapeHtml(row.id).replace(/\./g, '.<wbr>');
  const link = `<a href="${escapeHtml(href)}" data-open-run="${escapeHtml(row.id)}">${name}</a>`;
  if (row.status === 'damaged') {
    const problem = `<td colspan="3" class="note">${escapeHtml(row.problem ?? '')}</td>`;
    return `<tr ${data}><td></td><td>${link}</td>${problem}<td class="state">${status}</td><td></td><td></td><td></td></tr>`;
  }
  const checkbox = `<input type="checkbox" name="run" value="${escapeHtml(row.id)}" aria-label="select ${escapeHtml(row.id)}">`;
  const models = row.models.map(escapeHtml).join('<br>') || '—';
  return `<tr ${data}>
<td>${checkbox}</td>
<td>${link}</td>
<td>${escapeHtml(row.benchmark)}</td><td>${escapeHtml(row.agent)}</td><td class="models">${models}</td>
<td class="state">${status}</td><td class="when">${when(row.startedAt)}</td>
${numberCell(gradeBadge(row.average, options.passScore, '', row.partial ? PARTIAL_AVERAGES : undefined, averageLabel(row.average)))}
${numberCell(`${row.graded}/${row.planned ?? '?'}`)}
</tr>`;
}

const RUN_HEADS = ['', 'run', 'benchmark', 'agent', 'models', 'status', 'started (UTC)'];

/** Compare and Trends for the ticked runs, with what each needs. */
function selectionToolbar(): string {
  const compare = '<button type="submit" formaction="/compare" data-action="compare">Compare</button>';
  const trends = '<button type="submit" formaction="/trends" data-action="trends">Trends</button>';
  const help = 'Compare: two runs or more of one benchmark. Trends: the full runs selected, or every one when none is.';
  return `<div class="toolbar">${compare}${trends}<span class="note">${help}</span></div>`;
}

function table(index: RunsIndex, options: RenderOptions): string {
  if (index.total === 0) {
    const demo = '<code>mmb demo</code> plays the bundled benchmarks on the stand-in model (no key)';
    return `<p class="note empty">No runs yet: ${demo}, <code>mmb run</code> the runs of config.jsonc.</p>`;
  }
  const head = `${RUN_HEADS.map((label) => `<th>${label}</th>`).join('')}${numberHead('average')}${numberHead('checks graded')}`;
  const rows = index.rows.map((row) => runRow(row, options)).join('\n');
  return `<form id="mmb-selection" method="get" action="/compare">
${selectionToolbar()}
<div class="table-scroll"><table class="runs"><thead><tr>${head}</tr></thead>
<tbody id="mmb-rows">
${rows}
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
      var ok = ['benchmark', 'agent', 'status'].every(function (k) {
        var v = data.get(k);
        return !v || tr.getAttribute('data-' + k) === v;
      })
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
  if (form && saved.filter) Object.keys(saved.filter).forEach(function (k) {
    var field = form.elements.namedItem(k);
    if (field && typeof saved.filter[k] === 'string') field.value = saved.filter[k];
  });
  if (Array.isArray(saved.ticked)) boxes().forEach(function (b) { b.checked = saved.ticked.indexOf(b.value) >= 0; });
  if (form) { apply(); form.addEventListener('change', remember); }
  if (selection) selection.addEventListener('change', remember);
  if (form) form.addEventListener('submit', function (e) { e.preventDefault(); apply(); });
  var clear = document.getElementById('mmb-clear');
  if (clear) clear.addEventListener('click', function (e) {
    e.preventDefault();
    form.reset();
    form.querySelectorAll('select').forEach(function (s) { s.value = ''; });
    form.querySelectorAll('input').forEach(function (i) { i.value = ''; });
    apply();
    remember();
  });
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

/** The whole index document; `options.extraScript` (the server's live updates) runs after the index's own script. */
export function renderRunsIndex(index: RunsIndex, options: RenderOptions = {}): string {
  const shown =
    index.rows.length === index.total
      ? `${index.total} run${index.total === 1 ? '' : 's'}`
      : `${index.rows.length} of ${index.total} runs shown`;
  const body = `<header>
<h1>MarathonMemBench — runs</h1>
<p class="sub">${shown} in results/, newest first</p>
</header>
${index.total ? filters(index) : ''}
${table(index, options)}`;
  return page('MarathonMemBench — runs', body, [], { ...options, extraScript: `${INDEX_SCRIPT}\n${options.extraScript ?? ''}` });
}

/** A page of one line: what went wrong (a damaged run, an unknown one, runs that cannot be compared). */
export function renderProblem(title: string, problem: string, options: RenderOptions = {}): string {
  return page(
    `MarathonMemBench — ${title}`,
    `<header><h1>${escapeHtml(title)}</h1></header>\n<p class="problem">${escapeHtml(problem)}</p>`,
    [],
    { ...options, indexHref: '/' },
  );
}
