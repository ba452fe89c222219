// The run panel's view: renders the model the extension posts, with DOM calls only (no HTML
// from data), and posts the user's clicks back. Runs under a CSP that allows this file alone.
// The messages both ways are declared in engine/src/protocol/messages.ts (`PanelMessage` out,
// `{ type: 'model', model: PanelModel }` in, PanelModel in extension/src/panel.ts); this file,
// plain JS, posts only those shapes. Scores come with their band, so no band rule lives here.
// @ts-check
(function () {
  const vscode = acquireVsCodeApi();
  const app = /** @type {HTMLElement} */ (document.getElementById('app'));
  let stick = true;

  /** @param {string} tag @param {Record<string, string>} [attrs] @param {(Node|string)[]} [kids] */
  function el(tag, attrs = {}, kids = []) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    for (const k of kids) node.append(k);
    return node;
  }
  /** @param {string} label @param {string} type @param {string} run @param {boolean} [primary] */
  function button(label, type, run, primary) {
    const b = el('button', { class: primary ? 'primary' : '', 'data-action': type, title: `${label} ${run}` }, [label]);
    b.addEventListener('click', (e) => {
      e.stopPropagation();
      vscode.postMessage({ type, run });
    });
    return b;
  }
  function render(/** @type {any} */ m) {
    const log = document.querySelector('.conversation');
    if (log) stick = log.scrollTop + log.clientHeight >= log.scrollHeight - 30;
    app.replaceChildren();
    if (!m.trusted) app.append(el('p', { class: 'notice' }, ['This workspace is not trusted: runs are off (benchmarks run JS blocks). Authoring works as usual.']));
    if (m.runs.length === 0) {
      app.append(el('p', { class: 'empty' }, ['No runs yet. Add runs to config.jsonc, or rehearse a phase from the code lens above its ## heading.']));
      return;
    }
    const table = el('table', { class: 'runs' });
    table.append(el('tr', {}, ['Run', 'Benchmark', 'Agent', 'Status', 'Average', 'Graded', ''].map((h) => el('th', {}, [h]))));
    for (const r of m.runs) {
      const actions = el('td', { class: 'actions' });
      if (m.trusted) {
        if (r.status === 'running') actions.append(button('Stop', 'stop', r.name));
        else if (r.status === 'not started') actions.append(button('Start', 'start', r.name, true));
        else if (r.status === 'stopped' || r.status === 'crashed') actions.append(button('Resume', 'resume', r.name, true), button('Restart', 'restart', r.name));
        else actions.append(button('Restart', 'restart', r.name));
      }
      if (r.status !== 'not started') actions.append(button('Report', 'report', r.name));
      actions.append(button('Log', 'log', r.name));
      const row = el('tr', { class: `run ${r.name === m.selected ? 'selected' : ''}`, 'data-run': r.name, tabindex: '0' }, [
        el('td', { class: 'name' }, [r.name]),
        el('td', {}, [r.benchmark]),
        el('td', {}, [r.agent]),
        el('td', { class: `status ${r.status.replace(' ', '-')}` }, [r.status === 'running' ? `● ${r.status}` : r.status]),
        el('td', { class: 'average' }, [r.average === null ? '—' : `${r.average.toFixed(2)}/10`]),
        el('td', {}, [String(r.graded)]),
        actions,
      ]);
      row.addEventListener('click', () => vscode.postMessage({ type: 'select', run: r.name }));
      table.append(row);
    }
    app.append(table);
    const views = el('div', { class: 'views' }, [button('Compare runs…', 'compare', ''), button('Trends', 'trends', '')]);
    app.append(views);
    const d = m.detail;
    if (!d) return;
    const progress = d.planned ? Math.round((100 * d.checks.length) / d.planned) : 0;
    app.append(el('section', { class: 'head' }, [
      el('h2', {}, [d.run]),
      el('div', { class: 'where' }, [el('span', { class: 'label' }, ['Now ']), d.position]),
      ...(d.virtualTime ? [el('div', { class: 'clock' }, [el('span', { class: 'label' }, ['Virtual clock ']), `🕒 ${d.virtualTime}`])] : []),
      el('div', { class: 'progress', role: 'progressbar', 'aria-valuenow': String(progress), 'aria-valuemin': '0', 'aria-valuemax': '100', title: `${d.checks.length} of ${d.planned} checks graded` },
        [el('div', { class: 'bar' }), el('span', {}, [`${d.checks.length}/${d.planned} checks graded`])]),
      ...(d.error ? [el('p', { class: 'error' }, [d.error])] : []),
    ]));
    const bar = /** @type {HTMLElement} */ (app.querySelector('.progress .bar'));
    bar.style.width = `${progress}%`;
    const grid = el('div', { class: 'grid' });
    const convo = el('section', { class: 'conversation', 'aria-label': 'Conversation' });
    if (d.earlier) convo.append(el('p', { class: 'earlier' }, [`${d.earlier} earlier messages`]));
    for (const t of d.transcript) {
      if (t.marker) convo.append(el('div', { class: 'marker' }, [t.marker]));
      convo.append(el('div', { class: `msg ${t.from}` }, [el('span', { class: 'who' }, [t.from === 'persona' ? '🧑 persona' : t.from === 'agent' ? '🤖 agent' : '⚙ engine']), el('p', {}, [t.text])]));
    }
    const checks = el('section', { class: 'checks', 'aria-label': 'Checks graded' }, [el('h3', {}, ['Checks graded'])]);
    // "None yet." promises checks to come: not for a run whose phases hold none, nor for one that is over.
    const over = d.status === 'finished' || d.status === 'crashed' || d.status === 'stopped';
    if (d.checks.length === 0) checks.append(el('p', { class: 'empty' }, [d.planned === 0 ? 'No checks in the phases this run plays.' : over ? 'None graded.' : 'None yet.']));
    for (const c of d.checks) {
      const card = el('div', { class: `check ${c.band}`, 'data-check': c.id }, [
        el('div', { class: 'score' }, [`${c.score}/10`, c.attempt === 2 ? ' · 2nd attempt' : '']),
        el('div', { class: 'q' }, [`❓ ${c.id} ${c.question}`]),
        el('div', {}, [el('span', { class: 'label' }, ['Expected ']), c.expected]),
        el('div', {}, [el('span', { class: 'label' }, ['Agent ']), c.got]),
        el('div', { class: 'comment' }, [c.comment]),
      ]);
      if (c.band !== 'good') {
        const link = el('a', { href: '#', class: 'cause', 'data-check': c.id }, ['What caught it →']);
        link.addEventListener('click', (e) => {
          e.preventDefault();
          vscode.postMessage({ type: 'cause', check: c.id });
        });
        card.append(link);
      }
      checks.append(card);
    }
    grid.append(convo, checks);
    app.append(grid);
    if (stick) convo.scrollTop = convo.scrollHeight;
  }

  window.addEventListener('message', (e) => {
    if (e.data?.type === 'model') render(e.data.model);
  });
  vscode.postMessage({ type: 'ready' });
})();
