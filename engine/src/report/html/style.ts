/**
 * The pages' one stylesheet. Colours come from VS Code's theme variables when the page is in a
 * webview, with light defaults in a browser. No inline style attributes: the CSP forbids them.
 */
export const STYLE = `
:root {
  --bg: var(--vscode-editor-background, #ffffff);
  --fg: var(--vscode-editor-foreground, #1f2328);
  --muted: var(--vscode-descriptionForeground, #656d76);
  --card: var(--vscode-sideBar-background, #f6f8fa);
  --border: var(--vscode-panel-border, #d0d7de);
  --link: var(--vscode-textLink-foreground, #0969da);
  --grid: rgba(128, 128, 128, 0.22);
  /* White text on good, poor and running, dark text on fair: each at least 4.5:1. */
  --good: #238636; --fair: #d29922; --poor: #cf222e; --on-fair: #1f2328; --poor-text: #cf222e;
  --flaky: #b8860b; --flaky-bg: rgba(237, 201, 72, 0.18);
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: var(--vscode-editor-background, #0d1117);
    --fg: var(--vscode-editor-foreground, #e6edf3);
    --muted: var(--vscode-descriptionForeground, #8d96a0);
    --card: var(--vscode-sideBar-background, #161b22);
    --border: var(--vscode-panel-border, #30363d);
    --link: var(--vscode-textLink-foreground, #4493f8);
    --poor-text: #ff7b72;
  }
}
/* A webview's native controls (checkboxes, date pickers, selects) follow VS Code's theme, not the system's. */
body.vscode-dark, body.vscode-high-contrast:not(.vscode-high-contrast-light) { color-scheme: dark; --poor-text: #ff7b72; }
body.vscode-light, body.vscode-high-contrast-light { color-scheme: light; --poor-text: #cf222e; }
* { box-sizing: border-box; }
body { margin: 0; padding: 24px 32px 48px; background: var(--bg); color: var(--fg);
  font: 14px/1.45 var(--vscode-font-family, system-ui, -apple-system, "Segoe UI", "Noto Sans", sans-serif); }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 32px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--border); }
h3 { font-size: 15px; margin: 20px 0 8px; }
a { color: var(--link); text-decoration: none; }
a:hover { text-decoration: underline; }
.sub { color: var(--muted); margin: 0 0 16px; }
.note { color: var(--muted); font-size: 13px; }
.kpis { display: flex; flex-wrap: wrap; gap: 10px; margin: 16px 0; }
.kpi {
  flex: 1 1 110px; max-width: 220px; background: var(--card); border: 1px solid var(--border);
  border-radius: 8px; padding: 10px 14px;
}
.kpi .v { font-size: 22px; font-weight: 600; }
.kpi .k { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: 0.04em; }
.kpi.big .v { font-size: 30px; }
/* min(300px, 100%): a group narrower than 300 px gets one column as wide as itself, not a cut one. */
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(300px, 100%), 1fr)); gap: 16px; }
.charts > * { min-width: 0; }
.chart { margin: 0; background: var(--card); border: 1px solid var(--border); border-radius: 8px; padding: 10px 12px; }
.chart figcaption { font-weight: 600; margin-bottom: 6px; }
.canvas-box { position: relative; height: 220px; }
.chart.wide { grid-column: 1 / -1; }
.chart.wide .canvas-box { height: 280px; }
table { border-collapse: collapse; width: 100%; margin: 8px 0; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--border); vertical-align: top; }
/* A word longer than its cell (an answer's URL) breaks rather than widen the page; a run id breaks at its dots (<wbr>). */
td { overflow-wrap: break-word; }
/* Badges stay whole however narrow their cell: a verdict never breaks into CAUGH / T. */
.grade, .verdict, .tag, .status { overflow-wrap: normal; white-space: nowrap; }
th { color: var(--muted); font-weight: 600; font-size: 12px; text-transform: uppercase; letter-spacing: 0.03em; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.grade { display: inline-block; min-width: 2.6em; text-align: center; border-radius: 10px; padding: 0 6px; font-weight: 600; color: #fff; }
.g-good { background: var(--good); } .g-fair { background: var(--fair); color: var(--on-fair); } .g-poor { background: var(--poor); }
.g-none { background: transparent; color: var(--muted); border: 1px dashed var(--border); }
/* A failure not held against the agent (a partial run that did not play the trap writes): grey, never red or amber. */
.g-muted { background: transparent; color: var(--muted); border: 1px solid var(--muted); }
.tag {
  display: inline-block; font-size: 11px; padding: 0 6px; border-radius: 8px;
  border: 1px solid var(--border); color: var(--muted); margin-left: 4px;
}
.answers { display: grid; gap: 10px; }
.answer {
  border: 1px solid var(--border); border-left: 4px solid var(--poor); border-radius: 6px;
  padding: 10px 14px; background: var(--card);
}
.answer.good { border-left-color: var(--good); } .answer.fair { border-left-color: var(--fair); }
.answer.muted { border-left-color: var(--muted); border-left-style: dashed; }
.answer header { display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; }
.answer .q { font-weight: 600; }
.answer dl { display: grid; grid-template-columns: 90px 1fr; gap: 2px 10px; margin: 8px 0 6px; }
.answer dt { color: var(--muted); }
.answer dd { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.answer footer { font-size: 13px; color: var(--muted); display: flex; gap: 14px; flex-wrap: wrap; }
.trap-link::before { content: "🪤 "; }
.toolbar { display: flex; gap: 8px; margin: 6px 0 10px; align-items: center; }
button {
  background: var(--card); color: var(--fg); border: 1px solid var(--border); border-radius: 4px;
  padding: 3px 10px; cursor: pointer; font: inherit; font-size: 12px;
}
details.chapter { border: 1px solid var(--border); border-radius: 6px; margin: 8px 0; background: var(--bg); }
details.chapter > summary { cursor: pointer; padding: 8px 12px; font-weight: 600; background: var(--card); border-radius: 6px; }
details.chapter[open] > summary { border-bottom: 1px solid var(--border); border-radius: 6px 6px 0 0; }
.chat { padding: 8px 12px; display: flex; flex-direction: column; gap: 6px; }
.msg { max-width: 78%; padding: 6px 10px; border-radius: 10px; white-space: pre-wrap; overflow-wrap: anywhere; }
.msg .who { font-size: 11px; color: var(--muted); margin-bottom: 2px; }
.msg.persona { align-self: flex-start; background: rgba(78, 121, 167, 0.13); }
.msg.agent { align-self: flex-end; background: rgba(89, 161, 79, 0.13); }
.marker { align-self: stretch; text-align: center; font-size: 12px; color: var(--muted); padding: 3px 0; }
.marker.m-phase { border-top: 1px solid var(--border); margin-top: 6px; padding-top: 6px; font-weight: 600; color: var(--fg); }
.marker.m-session { color: #fff; background: #7a5195; border-radius: 4px; }
.marker.m-compaction, .marker.m-agent-compaction { color: #fff; background: #bc5090; border-radius: 4px; }
.marker.m-time { font-style: italic; }
tr.differs td { background: rgba(225, 87, 89, 0.07); }
tr.flaky td { background: var(--flaky-bg); }
tr.sep td { color: var(--muted); font-size: 12px; padding-top: 14px; border-bottom: none; }
.run { text-align: center; }
.got {
  text-align: left; margin-top: 3px; font-size: 12px; color: var(--muted); white-space: pre-wrap;
  overflow-wrap: anywhere; max-width: 28em;
}
.trap-type { white-space: nowrap; }
.verdict { font-size: 11px; font-weight: 700; text-transform: uppercase; padding: 1px 7px; border-radius: 8px; }
.v-flaky { background: var(--flaky); color: var(--on-fair); }
.v-failing { background: var(--poor); color: #fff; }
.v-stable { background: var(--good); color: #fff; }
.v-ungraded { border: 1px dashed var(--border); color: var(--muted); }
.v-muted { border: 1px solid var(--muted); color: var(--muted); }
section.group { margin-bottom: 36px; }
.trap-check { margin: 2px 0 6px; }
details.memory { margin-top: 6px; }
details.memory > summary { cursor: pointer; color: var(--muted); }
.mem-file pre {
  margin: 2px 0 8px; max-height: 20em; overflow: auto; white-space: pre-wrap;
  overflow-wrap: anywhere;
  font: 12px/1.4 var(--vscode-editor-font-family, ui-monospace, monospace);
}
.mem-line.hit { background: rgba(237, 201, 72, 0.35); font-weight: 600; }
.mem-line.stale { background: rgba(118, 183, 178, 0.28); text-decoration: line-through; text-decoration-color: rgba(128, 128, 128, 0.8); }
.mem-line.hit.stale { text-decoration: none; box-shadow: inset 3px 0 0 rgba(118, 183, 178, 0.9); }
.mem-legend .mem-line { padding: 0 6px; border-radius: 3px; margin-right: 2px; }
.mem-legend .mem-line.stale { margin-left: 10px; }
details.tool-calls { margin-top: 4px; font-size: 12px; }
details.tool-calls > summary { cursor: pointer; color: var(--muted); }
details.tool-calls ol { margin: 4px 0 2px; padding-left: 22px; }
details.tool-calls li { margin: 2px 0 6px; }
.tool-name { font-weight: 600; }
details.tool-calls pre {
  margin: 2px 0; max-height: 12em; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere;
  font: 12px/1.4 var(--vscode-editor-font-family, ui-monospace, monospace); background: var(--bg);
  border: 1px solid var(--border); border-radius: 4px; padding: 3px 6px;
}
.msg.agent details.tool-calls pre { background: var(--card); }
.grade-inline { align-self: stretch; font-size: 13px; border: 1px dashed var(--border); border-radius: 6px; padding: 4px 10px; }
.grade-inline.failed { border: 1px solid var(--poor); border-left-width: 4px; }
.grade-inline.failed.uncounted { border-color: var(--muted); border-style: dashed; }
.grade-inline dl { display: grid; grid-template-columns: 90px 1fr; gap: 2px 10px; margin: 6px 0 2px; }
.grade-inline dt { color: var(--muted); }
.grade-inline dd { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.trap-check .note { margin-left: 3.2em; }
tr.trap-caught td:first-child { border-left: 4px solid var(--poor); }
tr.trap-held td:first-child { border-left: 4px solid var(--good); }
.answer.crash .error-text {
  margin: 6px 0 0; max-height: 24em; overflow: auto; white-space: pre-wrap;
  overflow-wrap: anywhere;
  font: 12px/1.4 var(--vscode-editor-font-family, ui-monospace, monospace);
}
form.filters {
  display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; margin: 8px 0 14px;
  padding: 8px 12px; background: var(--card); border: 1px solid var(--border); border-radius: 8px;
}
form.filters label { color: var(--muted); font-size: 12px; }
select, input[type="date"] {
  font: inherit; font-size: 13px; background: var(--bg); color: var(--fg);
  border: 1px solid var(--border); border-radius: 4px; padding: 2px 4px; margin-left: 4px;
}
table.runs td { vertical-align: middle; }
.table-scroll { overflow-x: auto; }
table.runs td.when, table.runs td.when span, table.runs td.models, table.runs td.num, table.runs td.state { white-space: nowrap; }
/* Narrower still (an editor group beside another): each trap write of the run page a block of its own, its cells stacked. */
@media (max-width: 560px) {
  table.traps thead { display: none; }
  table.traps, table.traps tbody, table.traps tr, table.traps td { display: block; }
  table.traps tr { border-bottom: 1px solid var(--border); padding: 4px 0; }
  table.traps td { border-bottom: none; padding: 2px 6px; }
  .trap-check .note { margin-left: 0; }
}
/* A narrow editor: the day and minute of a start, and a model's name, may take two lines; no column is cut. */
@media (max-width: 860px) {
  body { padding: 16px 14px 32px; }
  th, td { padding: 4px 5px; }
  .answer dl, .grade-inline dl { grid-template-columns: minmax(0, 1fr); }
  .msg { max-width: 92%; }
  table.runs th, table.runs td { padding: 4px 3px; }
  table.runs th { letter-spacing: 0; font-size: 11px; }
  table.runs td.when, table.runs td.models, table.runs td.state { white-space: normal; }
}
table.runs td.models { font-size: 12px; color: var(--muted); }
table.runs tbody tr:hover td { background: var(--card); }
.status {
  display: inline-block; font-size: 11px; font-weight: 700; text-transform: uppercase;
  padding: 1px 7px; border-radius: 8px; color: #fff;
}
.st-running { background: #0969da; } .st-finished { background: var(--good); } .st-crashed { background: var(--poor); }
.st-stopped { background: var(--fair); color: var(--on-fair); }
.st-damaged { background: transparent; color: var(--poor-text); border: 1px dashed var(--poor-text); }
.toolbar .note { align-self: center; }
nav.back { font-size: 13px; margin: -8px 0 10px; }
.problem { border-left: 4px solid var(--poor); padding: 6px 12px; background: var(--card); overflow-wrap: anywhere; }
`;
