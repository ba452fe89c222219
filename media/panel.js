// The conversation of a run: renders the model the extension posts, with DOM calls only (no HTML
// from data), and posts the user's clicks back. Runs under a CSP that allows this file alone.
// The messages both ways are declared in engine/src/protocol/messages.ts (`PanelMessage` out,
// `{ type: 'model', model: PanelModel }` in, PanelModel in extension/src/panel.ts); this file,
// plain JS, posts only those shapes. Checks come with their band and tone (`panelChecks.ts`), so no colour rule lives here.
// The run shown is kept with `setState`, so that a window reload brings the same run back.
// @ts-check
(function () {
  const vscode = acquireVsCodeApi();
  const app = /** @type {HTMLElement} */ (document.getElementById('app'));
  let stick = true;

  const LABELS = { start: 'Start', resume: 'Resume', restart: 'Restart', stop: 'Stop', report: 'Report', log: 'Log' };
  const PRIMARY = new Set(['start', 'resume', 'stop']);
  const GLYPHS = {
    running: '●',
    finished: '✓',
    crashed: '✕',
    stopped: '❚❚',
    'not started': '○',
    'could not start': '⚠',
    starting: '◌',
    resuming: '◌',
  };

  /** @param {string} tag @param {Record<string, string>} [attrs] @param {(Node|string)[]} [kids] */
  function el(tag, attrs = {}, kids = []) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    for (const k of kids) node.append(k);
    return node;
  }
  /** @param {string} type @param {string} run */
  function button(type, run) {
    const label = LABELS[/** @type {keyof typeof LABELS} */ (type)] ?? type;
    const b = el('button', { class: PRIMARY.has(type) ? 'primary' : '', 'data-action': type, title: `${label} ${run}` }, [label]);
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
    if (!m.trusted)
      app.append(
        el('p', { class: 'notice' }, ['This workspace is not trusted: runs are off (benchmarks run JS blocks). Authoring works as usual.']),
      );
    const d = m.detail;
    if (!d) {
      app.append(el('p', { class: 'empty' }, [m.empty ?? '']));
      return;
    }
    vscode.setState({ run: d.run });
    const status = d.status.replace(/ /g, '-');
    const progress = d.planned ? Math.round((100 * d.checks.length) / d.planned) : 0;
    app.append(
      el('section', { class: 'head', 'data-run': d.run }, [
        el('div', { class: 'title' }, [
          el('h2', {}, [d.run]),
          el('span', { class: `status ${status}` }, [`${GLYPHS[d.status] ?? ''} ${d.status}`]),
          ...(d.average ? [el('span', { class: 'average' }, [d.average])] : []),
        ]),
        ...(d.about ? [el('div', { class: 'about' }, [d.about])] : []),
        el(
          'div',
          { class: 'actions' },
          d.actions.map((/** @type {string} */ a) => button(a, d.run)),
        ),
        ...(d.where ? [el('div', { class: 'where' }, [d.where])] : []),
        ...(d.note ? [el('p', { class: 'note' }, [`💡 ${d.note}`])] : []),
        ...(d.virtualTime
          ? [el('div', { class: 'clock' }, [el('span', { class: 'label' }, ['Virtual clock ']), `🕒 ${d.virtualTime}`])]
          : []),
        ...(d.planned
          ? [
              el(
                'div',
                {
                  class: 'progress',
                  role: 'progressbar',
                  'aria-valuenow': String(progress),
                  'aria-valuemin': '0',
                  'aria-valuemax': '100',
                  title: `${d.checks.length} of ${d.planned} checks graded`,
                },
                [el('div', { class: 'bar' }), el('span', {}, [`${d.checks.length}/${d.planned} checks graded`])],
              ),
            ]
          : []),
        ...(d.error ? [el('p', { class: `error ${status}` }, [d.error])] : []),
      ]),
    );
    const bar = /** @type {HTMLElement | null} */ (app.querySelector('.progress .bar'));
    if (bar) bar.style.width = `${progress}%`;
    if (d.transcript.length === 0 && d.checks.length === 0) return;
    const grid = el('div', { class: 'grid' });
    const convo = el('section', { class: 'conversation', 'aria-label': 'Conversation' });
    if (d.earlier) convo.append(el('p', { class: 'earlier' }, [`${d.earlier} earlier messages`]));
    for (const t of d.transcript) {
      if (t.marker) convo.append(el('div', { class: 'marker' }, [t.marker]));
      convo.append(
        el('div', { class: `msg ${t.from}` }, [
          el('span', { class: 'who' }, [t.from === 'persona' ? '🧑 persona' : t.from === 'agent' ? '🤖 agent' : '⚙ engine']),
          el('p', {}, [t.text]),
        ]),
      );
    }
    const checks = el('section', { class: 'checks', 'aria-label': 'Checks graded' }, [el('h3', {}, ['Checks graded'])]);
    // "None yet." promises checks to come: not for a run whose phases hold none, nor for one that is over.
    if (d.checks.length === 0)
      checks.append(
        el('p', { class: 'empty' }, [
          d.planned === 0 ? 'No checks in the phases this run plays.' : d.status === 'running' ? 'None yet.' : 'No check was graded.',
        ]),
      );
    for (const c of d.checks) {
      // The tone, not the band, picks the colour: a failure not counted against the agent is muted, never red.
      const card = el('div', { class: `check ${c.tone}`, 'data-check': c.id }, [
        el('div', { class: 'score' }, [`${c.score}/10`, c.attempt === 2 ? ' · 2nd attempt' : '']),
        el('div', { class: 'q' }, [`❓ ${c.id} ${c.question}`]),
        el('div', {}, [el('span', { class: 'label' }, ['Expected ']), c.expected]),
        el('div', {}, [el('span', { class: 'label' }, ['Agent ']), c.got]),
        el('div', { class: 'comment' }, [c.comment]),
        ...(c.notCounted ? [el('div', { class: 'not-counted' }, [c.notCounted])] : []),
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
