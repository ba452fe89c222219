/**
 * Each preset as `mmb generate <name> --preset <p>` writes it (the default seed): the folder
 * validates with no diagnostic, its answer audit is clean, it is what a second generation gives
 * byte for byte, and it plays to its end on the stand-in (persona and chatbot) with every check
 * graded. Then each preset's promises (issue #31), counted in the folder and the rehearsal: hard
 * has 500 facts or more, at least 4 edits on every checked fact, every check 20 chapters or more
 * after each trap aimed at it, 10 session switches or more; month is 30 days on virtual time with
 * days without signal and a monthly recap.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { coverage, loadBenchmark, validateBenchmark, type Benchmark, type Diagnostic } from '../../scenario/src';
import { auditRehearsal } from '../src/audit/answerAudit';
import { phaseKey, rehearse, type Rehearsal } from '../src/audit/rehearsal';
import { generateCommand } from '../src/cli/generate';
import { generateBenchmark, type GenerateSummary } from '../src/generate';
import { DEFAULT_SEED, PRESETS, type PresetName } from '../src/generate/presets';
import { summarize } from '../src/report/summary';
import { readBenchmarkFolder } from '../src/workspace/folders';
import { runOnStandIn, tempDir } from './helpers';

/** Virtual time skips every wait at once: the test measures the run, not the clock. */
const FAST = { timeMaster: { minSleepToSkipMs: 0, preWakeDelayMs: 0, pollIntervalMs: 1 } };

const lines = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((d) => `${d.file}:${d.range.start.line + 1} ${d.severity} ${d.code} ${d.message}`);

interface Played {
  benchmark: Benchmark;
  summary: GenerateSummary;
  rehearsal: Rehearsal;
  files: ReadonlyMap<string, string>;
}

/** The preset written by `mmb generate`'s command, read back, validated, audited, and played on the stand-in. */
async function generateAndPlay(preset: PresetName): Promise<Played> {
  const cwd = tempDir('mmb-preset-');
  const printed: string[] = [];
  const input = { words: [preset], preset, seed: undefined, spec: undefined, extend: undefined, months: undefined, cwd };
  assert.equal(
    generateCommand(input, (text) => printed.push(text)),
    0,
  );
  assert.match(printed.join(''), new RegExp(`seed ${DEFAULT_SEED}`));
  const folder = join(cwd, 'benchmarks', preset);
  const benchmark = loadBenchmark(readBenchmarkFolder(folder));
  assert.deepEqual(lines([...benchmark.diagnostics, ...validateBenchmark(benchmark)]), []);
  const { files, summary } = generateBenchmark(PRESETS[preset], DEFAULT_SEED);
  for (const [file, text] of files) assert.equal(readFileSync(join(folder, file), 'utf8'), text, `${file} is the same twice`);

  const rehearsal = await rehearse(benchmark);
  assert.equal(rehearsal.state.status, 'finished', rehearsal.state.error);
  assert.deepEqual(lines(auditRehearsal(benchmark, rehearsal)), []);

  const run = await runOnStandIn(benchmark, { extra: FAST });
  assert.equal(run.state.status, 'finished', run.state.error);
  const { coverage: graded } = summarize(run.state, benchmark);
  assert.deepEqual(graded.missing, []);
  assert.equal(graded.planned, benchmark.checks.length);
  assert.equal(benchmark.checks.length, summary.checks);
  return { benchmark, summary, rehearsal, files };
}

/**
 * The edits on each checked fact, read off the rehearsal: the facts each trap's phase changed, a
 * line told as "the same as" another counted as the other (its value is the other's).
 */
function editsPerFact({ benchmark, rehearsal }: Played): Map<string, number> {
  const edits = new Map<string, number>();
  const sameAs = (sheet: string, text: string | undefined): string | undefined => {
    const referent = /, the same as the (.+)$/.exec(text ?? '')?.[1];
    if (!referent) return undefined;
    const lines = [...(rehearsal.state.sheets[sheet]?.facts ?? [])];
    const line = lines.find((fact) => fact.text.toLowerCase().startsWith(`${referent.toLowerCase()},`));
    return line ? `${sheet}#${line.id}` : undefined;
  };
  // The phases in play order, to read a fact as the phase after a trap's found it.
  const phases = [...rehearsal.atPhaseStart.keys()];
  for (const trap of benchmark.traps) {
    const key = phaseKey(trap.chapter, trap.phase);
    const changed = rehearsal.changedInPhase.get(key) ?? new Set<string>();
    assert.ok(changed.size > 0, `the ${trap.trap.type} at ${trap.file}:${trap.trap.range.start.line + 1} changed a fact`);
    const next = rehearsal.atPhaseStart.get(phases[phases.indexOf(key) + 1] ?? '');
    for (const fact of changed) {
      const [sheet = ''] = fact.split('#');
      const after = (next ?? new Map(rehearsal.state.sheets[sheet]?.facts.map((f) => [`${sheet}#${f.id}`, f.text]))).get(fact);
      const counted = sameAs(sheet, after) ?? fact;
      edits.set(counted, (edits.get(counted) ?? 0) + 1);
    }
  }
  return edits;
}

test('max-like: written, valid, audited clean, the same twice, and played to the end with every check graded', async () => {
  const { summary, benchmark } = await generateAndPlay('max-like');
  assert.equal(summary.chapters, 20);
  assert.equal(benchmark.sessionSwitches.length, 1);
  assert.ok(summary.traps >= 24, JSON.stringify(summary));
});

test('hard: 500 facts or more, 4 edits or more on every checked fact, checks 20 chapters after their traps, 10 switches', async () => {
  const played = await generateAndPlay('hard');
  const { summary, benchmark } = played;
  assert.ok(summary.facts >= 500, JSON.stringify(summary));
  const edits = editsPerFact(played);
  const few = [...edits].filter(([, count]) => count < 4);
  assert.deepEqual(few, [], `${edits.size} checked facts`);
  assert.ok(edits.size >= 50, `${edits.size} checked facts`);
  const near = coverage(benchmark).traps.list.flatMap((trap) =>
    trap.checks.filter((check) => !check.found || (check.chapters ?? 0) < 20).map((check) => `${trap.file}:${trap.line} → ${check.id}`),
  );
  assert.deepEqual(near, []);
  assert.ok(benchmark.sessionSwitches.length >= 10, `${benchmark.sessionSwitches.length} session switches`);
});

test('month: 30 days on virtual time, days without signal caught up, a monthly recap', async () => {
  const { benchmark, files } = await generateAndPlay('month');
  assert.equal(benchmark.manifest?.time_master, true);
  const days = new Set(benchmark.chapters.flatMap((chapter) => chapter.phases.flatMap((phase) => phase.dateLines.map((d) => d.date))));
  assert.equal(days.size, 30);
  const text = [...files].filter(([file]) => /^week\d+\.md$/.test(file)).map(([, body]) => body);
  assert.ok(
    text.some((body) => /no signal: send nothing today/.test(body)),
    'a day without signal',
  );
  assert.ok(
    text.some((body) => /\byesterday, \d{1,2} [A-Z][a-z]+/.test(body)),
    'a day without signal caught up the next day',
  );
  const recaps = benchmark.checks.filter(
    ({ check }) =>
      check.type === 'AGG' &&
      /\bin (January|February|March|April|May|June|July|August|September|October|November|December)\b/.test(check.question),
  );
  assert.ok(recaps.length >= 1, 'a monthly recap');
});
