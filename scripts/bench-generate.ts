/**
 * Generated worlds at scale (issue #31, "At scale"): how long `generateBenchmark` takes on each
 * preset and on a world of 10,000 facts over twelve months, how long `mmb check` (validation, a
 * cold process as a user runs it) takes on that world and what it finds, and the language server's
 * latencies on one of its weeks beside the goals bench-server.ts holds the 2,000-chapter benchmark
 * to, and `mmb check --audit` of it cut to 1, 3 and 12 months. Medians with min–max and the load
 * average it ran at; prints figures, asserts nothing.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateBenchmark, type Generated } from '../engine/src/generate';
import type { WorldSpec } from '../engine/src/generate/model';
import { DEFAULT_SEED, PRESET_NAMES, PRESETS } from '../engine/src/generate/spec';
import { median, summary, timed } from './benchStats';
import { burst, completionAfterKeystroke, editToDiagnostics, hoverAfterKeystroke, readsPerKeystroke, stdioSession } from './lspBench';

const CLI = join(__dirname, '..', 'dist', 'cli.js');

/**
 * Twelve months of days on virtual time with every topic of the library: the month preset's mix,
 * 620 facts a sheet (the ledger, details, the cascade's two facts and the series' past events)
 * and the series' events told over the year bring it past 10,000 facts. 360 days, not 365: the
 * generator's month is a block of 30 days, and 365 would make a thirteenth (390 days).
 */
const YEAR_SPEC: WorldSpec = { ...PRESETS.month, topics: 14, factsPerTopic: 620, checkedFacts: 100, days: 360 };

const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

function countsOf(generated: Generated): string {
  const { facts, checks, traps, chapters, sessionSwitches } = generated.summary;
  const inSheets = generated.world.initial.reduce((sum, sheet) => sum + sheet.categories.reduce((n, c) => n + c.facts.length, 0), 0);
  const bytes = [...generated.files.values()].reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  return (
    `${facts.toLocaleString('en-US')} facts (${inSheets.toLocaleString('en-US')} in the sheets, ` +
    `${(facts - inSheets).toLocaleString('en-US')} added as the days go), ${checks.toLocaleString('en-US')} checks, ` +
    `${traps.toLocaleString('en-US')} trap writes, ${chapters} chapters, ${sessionSwitches} session switches; ` +
    `${generated.files.size} files, ${(bytes / 1e6).toFixed(1)} MB`
  );
}

/** Generates `spec` `rounds` times (after one warm-up); prints the times and the world's counts. */
async function generationTimes(label: string, spec: WorldSpec, rounds: number): Promise<Generated> {
  let generated = generateBenchmark(spec, DEFAULT_SEED);
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) times.push(await timed(() => (generated = generateBenchmark(spec, DEFAULT_SEED))));
  console.log(`  ${label.padEnd(10)} ${summary(times)}: ${countsOf(generated)}`);
  return generated;
}

/** `mmb check <folder>` (with `--audit` when asked) in a cold process, as a user runs it: its times and its last line. */
function checkTimes(
  folder: string,
  rounds: number,
  flags: readonly string[] = [],
): { times: number[]; verdict: string; status: number | null } {
  const times: number[] = [];
  let verdict = '';
  let status: number | null = null;
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    const result = spawnSync(process.execPath, [CLI, 'check', ...flags, folder], { encoding: 'utf8' });
    times.push(performance.now() - started);
    verdict = result.stdout.trim().split('\n').at(-1) ?? '';
    status = result.status;
  }
  return { times, verdict, status };
}

/** `mmb generate` of the year's spec in a cold process, writing the folder: what a user waits for. */
function cliGenerateTimes(workspace: string, rounds: number): number[] {
  const spec = join(workspace, 'year.jsonc');
  writeFileSync(spec, JSON.stringify(YEAR_SPEC, null, 2));
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    rmSync(join(workspace, 'benchmarks'), { recursive: true, force: true });
    const started = performance.now();
    const result = spawnSync(process.execPath, [CLI, 'generate', 'year', '--spec', spec], { cwd: workspace, encoding: 'utf8' });
    times.push(performance.now() - started);
    if (result.status !== 0) console.log(`  (mmb generate exited ${result.status}: ${result.stderr.trim()})`);
  }
  return times;
}

/** The first trap line's fact reference (`🪤 RECONSIDER pets#1.8 → …`): where a hover has something to say. */
function trapReference(text: string): { line: number; character: number } {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => /^🪤 [A-Z-]+ [a-z0-9-]+#\d+\.\d+/u.test(l));
  const character = (lines[line] ?? '').search(/[a-z0-9-]+#\d+\.\d+/);
  if (line < 0 || character < 0) throw new Error('no trap line with a fact reference in the week');
  return { line, character: character + 1 };
}

/**
 * `mmb check --audit` (the whole world rehearsed on the stand-in, every answer compared) of the
 * year's spec cut to its first 1, 3 and 12 months, a cold process each. The sheets are the same at
 * every length (620 facts a topic, told once), so the first month costs the most; the months after
 * it add days, traps and checks, and in linear time each costs about the same: the two rates
 * printed (months 2–3, months 4–12) are equal when the time grows linearly.
 */
function auditTimes(workspace: string, rounds: number): void {
  console.log(`\n\`mmb check --audit\` of the year's spec at 1, 3 and 12 months, a cold process; load average ${load()}`);
  const seconds = new Map<number, number>();
  for (const months of [1, 3, 12]) {
    const world = generateBenchmark({ ...YEAR_SPEC, days: 30 * months }, DEFAULT_SEED);
    const folder = join(workspace, `audit-${months}`);
    mkdirSync(folder);
    for (const [name, text] of world.files) writeFileSync(join(folder, name), text);
    const audit = checkTimes(folder, rounds, ['--audit']);
    const times = audit.times.map((ms) => ms / 1000);
    seconds.set(months, median(times));
    const label = `${months} month${months > 1 ? 's' : ''}`.padEnd(9);
    console.log(`  ${label} ${summary(times, 's')}; exit ${audit.status}, "${audit.verdict.replace(/^.*: /, '')}"; ${countsOf(world)}`);
  }
  const [one = 0, three = 0, twelve = 0] = [1, 3, 12].map((months) => seconds.get(months));
  console.log(
    `  each month after the first: ${((three - one) / 2).toFixed(1)} s a month (months 2–3), ` +
      `${((twelve - three) / 9).toFixed(1)} s a month (months 4–12); goal: the 12 months under 60 s, the two rates alike`,
  );
}

async function languageServer(folder: string, file: string, text: string): Promise<void> {
  const session = await stdioSession(folder, file);
  const label = `  ${file} of the year`;
  await editToDiagnostics(session, 5);
  console.log(`${label}: keystroke → every file's diagnostics: ${summary(await editToDiagnostics(session, 30))} (goal ≤ 30 ms)`);
  console.log(`${label}: 10 keystrokes 50 ms apart, the last → its diagnostics: ${summary(await burst(session, 5))} (goal ≤ 60 ms)`);
  const completion = await completionAfterKeystroke(session, 20);
  console.log(`${label}: completion sent right after a keystroke: ${summary(completion)} (goal ≤ 20 ms)`);
  const hover = await hoverAfterKeystroke(session, 20, trapReference(text));
  console.log(`${label}: hover on a trap's fact reference right after a keystroke: ${summary(hover)} (completion's goal, ≤ 20 ms)`);
  session.close();
  const { reads, files } = await readsPerKeystroke(folder, file);
  console.log(`${label}: files read from disk per keystroke: ${reads} (the folder has ${files}; goal: none)`);
}

void (async () => {
  console.log(`\ngenerated worlds (generateBenchmark, seed ${DEFAULT_SEED}, in process); load average ${load()}`);
  for (const name of PRESET_NAMES) await generationTimes(name, PRESETS[name], 5);
  const year = await generationTimes('12 months', YEAR_SPEC, 3);
  const workspace = mkdtempSync(join(tmpdir(), 'mmb-bench-generate-'));
  const folder = join(workspace, 'year');
  mkdirSync(folder);
  for (const [name, text] of year.files) writeFileSync(join(folder, name), text);
  console.log(
    `  \`mmb generate year --spec year.jsonc\` (12 months), a cold process writing the folder: ${summary(cliGenerateTimes(workspace, 3))}`,
  );
  const check = checkTimes(folder, 3);
  console.log(`  \`mmb check\` of the 12-month world, a cold process: ${summary(check.times)}; exit ${check.status}, "${check.verdict}"`);
  auditTimes(workspace, 1);
  console.log(`\nlanguage server over stdio (dist/server.js) on the 12-month world; load average ${load()}`);
  // The middle chapter of the manifest: a week, or a part of a dense week.
  const chapters = (JSON.parse((year.files.get('benchmark.json') ?? '').replace(/^\/\/.*$/gm, '')) as { chapters: string[] }).chapters;
  const middle = chapters[Math.floor(chapters.length / 2)] ?? 'week1.md';
  await languageServer(folder, middle, year.files.get(middle) ?? '');
  console.log(`  (load average at the end ${load()})`);
  rmSync(workspace, { recursive: true, force: true });
  // The protocol connection keeps the event loop alive after its server is gone.
  process.exit(0);
})();
