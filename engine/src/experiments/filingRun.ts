/** `mmb experiment filing`: the three filing policies run through the platform, and the seed's table. */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfig, type RunConfig } from '../../../scenario/src';
import type { FilingAnswer } from '../adapters/filing';
import { readJsonLines } from '../jsonl';
import { resultsDir } from '../protocol/layout';
import { launchRuns } from '../workspace/launch';
import { filingBenchmark, ROOMS, simulate, DEFAULT_SEED, ROUNDS, DRIFTS, OBSERVATIONS } from './filing';

export interface PolicyRow {
  policy: string;
  agent: string;
  files: number;
  /** Whether one of the files is the policy's `global.md` (the goal), not a room note. */
  hasGlobalNote: boolean;
  words: number;
  conflicting: number;
  scannedPerQuestion: number;
  correct: number;
  corrected: number;
  /** The rooms answered wrong: what the agent said (`notes disagree` or none) and the truth. */
  misses: { room: string; recorded: string; truth: string }[];
  /** The dreaming pass's rewrites, as `corrections.jsonl` lists them. */
  corrections: { room: string; from: string; to: string }[];
  status: string;
}

const POLICIES = [
  { agent: 'filing-log', policy: 'log everything' },
  { agent: 'filing-consolidated', policy: 'consolidated' },
  { agent: 'filing-dreaming', policy: 'consolidated + dreaming' },
] as const;

/** Runs the experiment in `<root>/results/experiments/filing-<seed>/` and returns one row a policy. */
export async function runFilingExperiment(root: string, seed = DEFAULT_SEED): Promise<PolicyRow[]> {
  const home = join(resultsDir(root), 'experiments', `filing-${seed}`);
  rmSync(home, { recursive: true, force: true });
  const bench = join(home, 'benchmarks', 'filing');
  mkdirSync(bench, { recursive: true });
  const world = simulate(seed);
  for (const [name, text] of filingBenchmark(world)) writeFileSync(join(bench, name), text);
  const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const runs: RunConfig[] = POLICIES.map((p) => ({
    name: p.agent,
    benchmark: 'filing',
    agent: p.agent,
    ignore_session_break: false,
    options: {},
    range: zero,
  }));
  const outcomes = await launchRuns({
    root: home,
    benchmarksDir: join(home, 'benchmarks'),
    config: { ...parseConfig('{}').config, parallel: 3 },
    runs,
    env: {},
  });
  return POLICIES.map((p, i) => {
    const agent = join(resultsDir(home), p.agent, 'agent');
    const notes = existsSync(join(agent, 'notes')) ? readdirSync(join(agent, 'notes')) : [];
    const words = notes.reduce(
      (n, f) =>
        n +
        readFileSync(join(agent, 'notes', f), 'utf8')
          .split(/\s+/)
          .filter(Boolean).length,
      0,
    );
    const answers = readJsonLines<FilingAnswer>(join(agent, 'answers.jsonl'));
    const firstAnswers = [...new Map(answers.map((a) => [a.room, a])).values()];
    const summary = outcomes[i]?.summary;
    // The agent wrote this file: each value is cut short and no more corrections than rooms are read.
    const corrections = readJsonLines<{ room?: unknown; from?: unknown; to?: unknown }>(join(agent, 'corrections.jsonl'))
      .slice(0, ROOMS)
      .map((c) => ({ room: short(c.room), from: short(c.from), to: short(c.to) }));
    return {
      policy: p.policy,
      agent: p.agent,
      files: notes.length,
      hasGlobalNote: notes.includes('global.md'),
      words,
      conflicting: firstAnswers.filter((a) => a.conflict).length,
      scannedPerQuestion: firstAnswers.length ? firstAnswers.reduce((n, a) => n + a.scanned, 0) / firstAnswers.length : 0,
      correct: summary ? Object.values(outcomes[i]?.state?.grades ?? {}).filter((g) => g.at(-1)?.effective === 10).length : 0,
      corrected: corrections.length,
      misses: firstAnswers
        .filter((a) => recordedState(a) !== truthOf(world.final, a.room))
        .map((a) => ({ room: short(a.room), recorded: recordedState(a), truth: truthOf(world.final, a.room) })),
      corrections,
      status: summary?.status ?? outcomes[i]?.problem ?? 'did not run',
    };
  });
}

const short = (value: unknown) => String(value).slice(0, 40);
const truthOf = (final: Record<string, string>, room: string) => (Object.hasOwn(final, room) ? (final[room] ?? 'unknown') : 'unknown');

/** The state an answer gives ("room-07 is open." gives `open`); a doubt or a blank says so. */
function recordedState(answer: FilingAnswer): string {
  if (answer.conflict) return 'notes disagree';
  return /\bis ([a-z]+)\.?$/.exec(String(answer.answer).slice(0, 200))?.[1] ?? 'no note';
}

export function formatFilingTable(rows: PolicyRow[], seed: number): string {
  const out = [
    `Filing-system experiment, seed ${seed}: ${ROOMS} rooms, ${ROUNDS} rounds, ${DRIFTS} drifts and ${OBSERVATIONS} observations a round`,
    '',
    tableRow(['policy', 'files', 'words', 'conflicting', 'scanned/question', 'accuracy', 'corrected']),
  ];
  for (const r of rows) {
    const accuracy = `${r.correct}/${ROOMS} (${((100 * r.correct) / ROOMS).toFixed(1)}%)`;
    const corrected = r.agent === 'filing-dreaming' ? String(r.corrected) : '—';
    const cells: TableCells = [
      r.policy,
      String(r.files),
      String(r.words),
      `${r.conflicting}/${ROOMS}`,
      r.scannedPerQuestion.toFixed(1),
      accuracy,
      corrected,
    ];
    out.push(`${tableRow(cells)}${r.status === 'finished' ? '' : `  (${r.status})`}`);
  }
  return `${out.join('\n')}\n\n${formatFilingFindings(rows)}`;
}

type TableCells = [string, string, string, string, string, string, string];

/** One line of the table, its cells padded to their columns: policy, files, words, conflicting, scanned, accuracy, corrected. */
function tableRow([policy, files, words, conflicting, scanned, accuracy, corrected]: TableCells): string {
  return [
    policy.padEnd(26),
    files.padStart(6),
    words.padStart(7),
    conflicting.padStart(13),
    scanned.padStart(18),
    '  ',
    accuracy.padEnd(15),
    corrected.padStart(9),
  ].join('');
}

const ratio = (a: number | undefined, b: number | undefined) => (a !== undefined && b ? `${(a / b).toFixed(1)}×` : '—');

/** The lines under the table that the seed article prints: the ratios, the misses, the corrections. */
export function formatFilingFindings(rows: PolicyRow[]): string {
  const log = rows.find((r) => r.agent === 'filing-log');
  const consolidated = rows.find((r) => r.agent === 'filing-consolidated');
  const dreaming = rows.find((r) => r.agent === 'filing-dreaming');
  const ratios = [
    `A/B files ${ratio(log?.files, consolidated?.files)}`,
    `A/B words ${ratio(log?.words, consolidated?.words)}`,
    `A/B scanned per question ${ratio(log?.scannedPerQuestion, consolidated?.scannedPerQuestion)}`,
  ];
  const out = [`Ratios: ${ratios.join(', ')} (A: log everything, B: consolidated)`];
  if (consolidated) {
    const misses = consolidated.misses.map(
      (m) => `${m.room}, recorded ${JSON.stringify(m.recorded)}, true value ${JSON.stringify(m.truth)}`,
    );
    const files = consolidated.hasGlobalNote
      ? `${consolidated.files - 1} room notes + global.md = ${consolidated.files} files`
      : `${consolidated.files} files`;
    const missed = misses.length === 1 ? `the one miss: ${misses[0]}` : `${misses.length} misses: ${misses.join('; ')}`;
    out.push(`consolidated: ${files}; ${misses.length === 0 ? 'no miss' : missed}`);
  }
  if (dreaming) {
    const rooms = dreaming.corrections.map((c) => `${c.room}, ${JSON.stringify(c.from)} → ${JSON.stringify(c.to)}`);
    out.push(`consolidated + dreaming: notes corrected: ${rooms.length}${rooms.length ? ` (${rooms.join('; ')})` : ''}`);
  }
  return `${out.join('\n')}\n`;
}
