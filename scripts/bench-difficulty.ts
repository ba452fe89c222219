/**
 * The difficulty curve of generated worlds (issue #31, "Measured"): on each preset, the average
 * score of the in-context chatbot (session breaks ignored; with no window, and with an 8k window
 * shorter than a hard world), the chatbot with its session switches
 * and the notebook; then the notebook's average as edits per checked fact go 1/2/4/8 and as the
 * distance from a trap to its checks goes 1/5/20 chapters, one knob of the max-like preset at a
 * time. Every model is the stand-in, persona and agents, over HTTP as `mmb run` plays them; each
 * cell is several seeds, with the mean of their averages (95 % Student t interval) and the checks
 * passed pooled (95 % Wilson interval), as `mmb report`'s trends give them. Prints a markdown
 * table and the load it ran at; asserts nothing. `npm run bench:difficulty [-- --seeds N]`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBenchmark, parseConfig } from '../scenario/src';
import { generateBenchmark } from '../engine/src/generate';
import type { WorldSpec } from '../engine/src/generate/model';
import { PRESET_NAMES, PRESETS } from '../engine/src/generate/spec';
import { DEFAULT_PASS_SCORE, passes } from '../engine/src/protocol/scores';
import { meanInterval, pooledRates, rate, type Rate } from '../engine/src/report/rates';
import type { Summary } from '../engine/src/report/summary';
import { launchRuns, type LaunchRun } from '../engine/src/workspace/launch';

const ZERO = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
const seedsArgument = process.argv.indexOf('--seeds');
const SEEDS = Array.from({ length: seedsArgument > 0 ? Number(process.argv[seedsArgument + 1]) : 3 }, (_, i) => i + 1);

/** How an agent is played: its name in config.jsonc and whether the engine ignores the session switches. */
interface AgentSetting {
  label: string;
  agent: string;
  ignoreSessionBreak: boolean;
  /** Its run keys; `name` tells its runs from another setting's of the same agent. */
  options?: Record<string, unknown>;
  name?: string;
}

/**
 * The chatbot's window in the bench: more than a max-like world's whole conversation and less than a
 * hard one's (at seed 1 on the stand-in, whose persona is terse: max-like 6.9k tokens, month 8.3k,
 * hard 34k), as a real persona's hours of chat outgrow a real model's window.
 */
const WINDOW = 8_000;

const AGENTS: readonly AgentSetting[] = [
  { label: 'chatbot, in context', agent: 'chatbot', ignoreSessionBreak: true },
  {
    label: `chatbot, ${WINDOW / 1000}k window`,
    agent: 'chatbot',
    ignoreSessionBreak: true,
    options: { chatbot_context_tokens: WINDOW },
    name: 'window',
  },
  { label: 'chatbot, session switches', agent: 'chatbot', ignoreSessionBreak: false },
  { label: 'notebook', agent: 'notebook', ignoreSessionBreak: false },
];
const NOTEBOOK = AGENTS[3]!;
const WINDOWED = AGENTS[1]!;

/**
 * The curve's base: the max-like preset with 40 chapters, so that a check can stand 20 chapters
 * after its trap and still leave the trap past the chapters where the topics are introduced.
 */
const CURVE_BASE: WorldSpec = { ...PRESETS['max-like'], chapters: 40 };

/** One cell of a table: a world (a spec over the seeds) played by one agent. */
interface Cell {
  row: string;
  column: string;
  spec: WorldSpec;
  setting: AgentSetting;
  summaries: Summary[];
  /** What its table cell shows: the average and the checks passed, or only its RECALL and HIST checks passed. */
  shows: 'average' | 'memory';
  /** Per finished run, its checks passed and graded by check type. */
  byType: Rate[][];
  problems: string[];
}

const workspace = mkdtempSync(join(tmpdir(), 'mmb-bench-difficulty-'));
const benchmarks = join(workspace, 'benchmarks');
let worlds = 0;

/** Each check's type by id, in each world written: what a run's grades are counted by. */
const checkTypes = new Map<string, Map<string, string>>();

/** Writes each seed's world of `spec` under benchmarks/ and returns the folders' names. */
function writeWorlds(spec: WorldSpec): string[] {
  return SEEDS.map((seed) => {
    const name = `world-${++worlds}-seed-${seed}`;
    const { files } = generateBenchmark(spec, seed);
    mkdirSync(join(benchmarks, name), { recursive: true });
    for (const [file, text] of files) writeFileSync(join(benchmarks, name, file), text);
    checkTypes.set(name, new Map(loadBenchmark({ name, files }).checks.map((c) => [c.check.id, c.check.type ?? 'untyped'])));
    return name;
  });
}

/** A run's checks passed by type: every graded check passes unless an imperfect answer of it scored under the pass score. */
function ratesByType(summary: Summary, types: ReadonlyMap<string, string>): Rate[] {
  const missing = new Set(summary.coverage.missing);
  const failed = new Set(summary.imperfect.filter((answer) => !passes(answer.score, DEFAULT_PASS_SCORE)).map((answer) => answer.id));
  const counts = new Map<string, { passed: number; graded: number }>();
  for (const [id, type] of types) {
    if (missing.has(id)) continue;
    const count = counts.get(type) ?? { passed: 0, graded: 0 };
    counts.set(type, { passed: count.passed + (failed.has(id) ? 0 : 1), graded: count.graded + 1 });
  }
  return [...counts].map(([type, count]) => rate(type, count.passed, count.graded));
}

/** Plays every cell's runs, two at a time (the 2-core machine), with the persona and the agents on the stand-in. */
async function play(cells: readonly Cell[]): Promise<void> {
  const config = { ...parseConfig('{}').config, persona: { model: 'stand-in' }, parallel: 2 };
  const runs: { run: LaunchRun; cell: Cell }[] = [];
  for (const cell of cells)
    for (const benchmark of writeWorlds(cell.spec))
      runs.push({
        cell,
        run: {
          name: [
            benchmark,
            cell.setting.agent,
            ...(cell.setting.ignoreSessionBreak ? ['in-context'] : []),
            ...(cell.setting.name ? [cell.setting.name] : []),
          ].join('-'),
          benchmark,
          agent: cell.setting.agent,
          ignore_session_break: cell.setting.ignoreSessionBreak,
          options: cell.setting.options ?? {},
          range: ZERO,
        },
      });
  const outcomes = await launchRuns({ root: workspace, benchmarksDir: benchmarks, config, runs: runs.map((r) => r.run), env: {} });
  outcomes.forEach((outcome, index) => {
    const { cell, run } = runs[index]!;
    if (outcome.summary && outcome.state?.status === 'finished') {
      cell.summaries.push(outcome.summary);
      cell.byType.push(ratesByType(outcome.summary, checkTypes.get(run.benchmark) ?? new Map()));
    } else cell.problems.push(`${run.name}: ${outcome.problem ?? outcome.state?.status ?? 'no outcome'}`);
  });
}

/** `6.32 (5.90–6.74) · 63% (58–68%) of 453`: the mean average with its t interval, the checks passed with Wilson's. */
function cellText(cell: Cell): string {
  const averages = cell.summaries.flatMap((s) => (s.average === null ? [] : [s.average]));
  const mean = meanInterval(averages);
  const pooled = pooledRates(
    cell.summaries.map((s) => {
      const passed = s.scores.reduce((n, [grade, count]) => n + (passes(grade, DEFAULT_PASS_SCORE) ? count : 0), 0);
      return [rate('checks', passed, s.coverage.graded)];
    }),
  )[0];
  const percent = (x: number) => `${Math.round(100 * x)}%`;
  const averageText = mean
    ? `${mean.mean.toFixed(2)} (${mean.interval[0].toFixed(2)}–${mean.interval[1].toFixed(2)})`
    : (averages[0]?.toFixed(2) ?? '–');
  const passedText =
    pooled?.rate != null && pooled.interval
      ? ` · ${percent(pooled.rate)} (${percent(pooled.interval[0])}–${percent(pooled.interval[1])}) of ${pooled.graded}`
      : '';
  const missing = cell.problems.length ? ` (${cell.problems.length} run${cell.problems.length > 1 ? 's' : ''} not finished)` : '';
  const compactions = cell.summaries.reduce((n, s) => n + s.agentCompactions.length, 0) / Math.max(1, cell.summaries.length);
  const compacted = compactions > 0 ? ` · ${compactions.toFixed(1)} compactions` : '';
  return `${averageText}${passedText}${compacted}${missing}`;
}

/** A markdown table of `cells`, rows and columns in the order first met. */
function table(corner: string, cells: readonly Cell[]): string {
  const rows = [...new Set(cells.map((c) => c.row))];
  const columns = [...new Set(cells.map((c) => c.column))];
  const lines = [`| ${corner} | ${columns.join(' | ')} |`, `|${'---|'.repeat(columns.length + 1)}`];
  for (const row of rows)
    lines.push(
      `| ${row} | ${columns
        .map((column) => cells.find((c) => c.row === row && c.column === column))
        .map((c) => (c ? (c.shows === 'memory' ? typesText(c, MEMORY_TYPES) : cellText(c)) : ''))
        .join(' | ')} |`,
    );
  return lines.join('\n');
}

/**
 * The check types a stand-in model can answer by quoting what it was told (it cannot add up, list
 * or rule out): where memory alone decides the grade.
 */
const MEMORY_TYPES = ['RECALL', 'HIST'];

/** The checks of `types` passed in a cell's runs, pooled, with their Wilson interval. */
function typesText(cell: Cell, types: readonly string[]): string {
  const rates = cell.byType.map((run) => {
    const chosen = run.filter((r) => types.includes(r.key));
    return [
      rate(
        'chosen',
        chosen.reduce((n, r) => n + r.passed, 0),
        chosen.reduce((n, r) => n + r.graded, 0),
      ),
    ];
  });
  const pooled = pooledRates(rates)[0];
  const percent = (x: number) => `${Math.round(100 * x)}%`;
  return pooled?.rate != null && pooled.interval
    ? `${percent(pooled.rate)} (${percent(pooled.interval[0])}–${percent(pooled.interval[1])}) of ${pooled.graded}`
    : '';
}

/** The checks passed by check type, each agent's runs of every preset pooled: where the scores come from. */
function byTypeTable(cells: readonly Cell[]): string {
  const columns = [...new Set(cells.map((c) => c.column))];
  const pooled = new Map(columns.map((column) => [column, pooledRates(cells.filter((c) => c.column === column).flatMap((c) => c.byType))]));
  const types = [...new Set([...pooled.values()].flatMap((rates) => rates.map((r) => r.key)))];
  const percent = (x: number) => `${Math.round(100 * x)}%`;
  const text = (r: Rate | undefined) =>
    r?.rate != null && r.interval ? `${percent(r.rate)} (${percent(r.interval[0])}–${percent(r.interval[1])}) of ${r.graded}` : '';
  const lines = [`| check type | ${columns.join(' | ')} |`, `|${'---|'.repeat(columns.length + 1)}`];
  for (const type of types) lines.push(`| ${type} | ${columns.map((c) => text(pooled.get(c)?.find((r) => r.key === type))).join(' | ')} |`);
  return lines.join('\n');
}

const cell = (row: string, column: string, spec: WorldSpec, setting: AgentSetting): Cell => ({
  row,
  column,
  spec,
  setting,
  shows: 'average',
  summaries: [],
  byType: [],
  problems: [],
});

const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

void (async () => {
  const started = performance.now();
  console.log(`\ndifficulty of generated worlds, seeds ${SEEDS.join(', ')}, every model the stand-in; load average ${load()}`);
  console.log(
    `each cell: the mean of the runs' averages (0–10, 95% t interval) · the checks passed (score ≥ ${DEFAULT_PASS_SCORE}, 95% Wilson)\n`,
  );
  const presets = PRESET_NAMES.flatMap((name) => AGENTS.map((setting) => cell(name, setting.label, PRESETS[name], setting)));
  await play(presets);
  console.log(table('preset', presets));
  console.log(`\nthe checks passed by type, every preset and seed pooled\n`);
  console.log(byTypeTable(presets));
  // The curve for the notebook and for the chatbot in its window: an agent whose context is bounded
  // is the one that more distance should hurt.
  const curve = [NOTEBOOK, WINDOWED].flatMap((setting) => [
    ...[1, 2, 4, 8].map((edits) =>
      cell(`editsPerCheckedFact ${edits}`, setting.label, { ...CURVE_BASE, editsPerCheckedFact: edits }, setting),
    ),
    ...[1, 5, 20].map((chapters) =>
      cell(`distance.chapters ${chapters}`, setting.label, { ...CURVE_BASE, distance: { ...CURVE_BASE.distance, chapters } }, setting),
    ),
  ]);
  await play(curve);
  console.log(`\nmax-like with 40 chapters, one knob at a time (the others as max-like: 2 edits, 3 chapters)\n`);
  const memory = curve.map((c): Cell => ({ ...c, column: `${c.column}: RECALL and HIST passed`, shows: 'memory' }));
  console.log(table('setting', [...curve, ...memory]));
  for (const problem of [...presets, ...curve].flatMap((c) => c.problems)) console.log(`  not finished: ${problem}`);
  console.log(`\n${((performance.now() - started) / 60_000).toFixed(1)} min; load average at the end ${load()}`);
  rmSync(workspace, { recursive: true, force: true });
})();
