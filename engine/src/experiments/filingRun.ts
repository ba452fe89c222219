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
  words: number;
  conflicting: number;
  scannedPerQuestion: number;
  correct: number;
  corrected: number;
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
  for (const [name, text] of filingBenchmark(simulate(seed))) writeFileSync(join(bench, name), text);
  const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const runs: RunConfig[] = POLICIES.map((p) => ({ name: p.agent, benchmark: 'filing', agent: p.agent, ignore_session_break: false, options: {}, range: zero }));
  const outcomes = await launchRuns({ root: home, benchmarksDir: join(home, 'benchmarks'), config: { ...parseConfig('{}').config, parallel: 3 }, runs, env: {} });
  return POLICIES.map((p, i) => {
    const agent = join(resultsDir(home), p.agent, 'agent');
    const notes = existsSync(join(agent, 'notes')) ? readdirSync(join(agent, 'notes')) : [];
    const words = notes.reduce((n, f) => n + readFileSync(join(agent, 'notes', f), 'utf8').split(/\s+/).filter(Boolean).length, 0);
    const answers = readJsonLines<FilingAnswer>(join(agent, 'answers.jsonl'));
    const firstAnswers = [...new Map(answers.map((a) => [a.room, a])).values()];
    const summary = outcomes[i]?.summary;
    return {
      policy: p.policy,
      agent: p.agent,
      files: notes.length,
      words,
      conflicting: firstAnswers.filter((a) => a.conflict).length,
      scannedPerQuestion: firstAnswers.length ? firstAnswers.reduce((n, a) => n + a.scanned, 0) / firstAnswers.length : 0,
      correct: summary ? Object.values(outcomes[i]?.state?.grades ?? {}).filter((g) => g.at(-1)?.effective === 10).length : 0,
      corrected: readJsonLines(join(agent, 'corrections.jsonl')).length,
      status: summary?.status ?? outcomes[i]?.problem ?? 'did not run',
    };
  });
}

export function formatFilingTable(rows: PolicyRow[], seed: number): string {
  const out = [
    `Filing-system experiment, seed ${seed}: ${ROOMS} rooms, ${ROUNDS} rounds, ${DRIFTS} drifts and ${OBSERVATIONS} observations a round`,
    '',
    `${'policy'.padEnd(26)}${'files'.padStart(6)}${'words'.padStart(7)}${'conflicting'.padStart(13)}${'scanned/question'.padStart(18)}  ${'accuracy'.padEnd(15)}${'corrected'.padStart(9)}`,
  ];
  for (const r of rows) {
    const accuracy = `${r.correct}/${ROOMS} (${((100 * r.correct) / ROOMS).toFixed(1)}%)`;
    out.push(`${r.policy.padEnd(26)}${String(r.files).padStart(6)}${String(r.words).padStart(7)}${`${r.conflicting}/${ROOMS}`.padStart(13)}${r.scannedPerQuestion.toFixed(1).padStart(18)}  ${accuracy.padEnd(15)}${(r.agent === 'filing-dreaming' ? String(r.corrected) : '—').padStart(9)}${r.status === 'finished' ? '' : `  (${r.status})`}`);
  }
  return `${out.join('\n')}\n`;
}
