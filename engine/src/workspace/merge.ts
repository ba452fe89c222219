/**
 * `mmb report --merge FOLDER…`: the results/ folders of other machines (after `mmb run --shard`)
 * brought into this workspace's results/, as Playwright's merge-reports brings its shards'
 * reports together. Every input is untrusted: only folders whose names are run ids are taken, only
 * the files a run keeps (no lock, which names a process of another machine), no links, every file
 * and every run bounded in size; nothing is copied until every input has been checked.
 */
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { RunDamaged, UsageError } from '../errors';
import { JOURNAL_FILE, KEPT_BENCHMARK_DIR, MEMORY_DIR, PARTIAL_FILE, RESULTS_DIR, resultsDir, STATE_FILE } from '../protocol/layout';
import { clipName, runIdProblem } from '../protocol/runRequest';
import { copyMemoryFolder } from '../run/memorySnapshot';
import { FileRunStore } from '../run/store';
import { readRunBytes } from '../runFile';
import { runSecrets } from '../secrets';
import type { RunState } from '../state/runState';
import { shown } from './results';

/** The files of a run folder that travel; summary.json and report.html are made again here, run.lock never moves. */
const RUN_FILES = new Set([STATE_FILE, JOURNAL_FILE, PARTIAL_FILE]);
const MAX_FILE_BYTES = 256 * 1024 * 1024;
const MAX_RUN_BYTES = 1024 * 1024 * 1024;
const MAX_RUN_ENTRIES = 20_000;
const MAX_DEPTH = 16;
const MAX_RUNS = 5_000;

export interface MergedRun {
  id: string;
  state: RunState;
}

export interface MergeResult {
  merged: MergedRun[];
  /** Runs already here with the same state, left as they are. */
  alreadyHere: string[];
  /** What was left out of the inputs, and why, one line each. */
  leftOut: string[];
}

interface Incoming {
  id: string;
  from: string;
  entries: string[];
  state: RunState;
}

/** Checks every input, then copies each run into `<root>/results/`, each whole or not at all. */
export function mergeResults(root: string, folders: readonly string[]): MergeResult {
  if (folders.length === 0)
    throw new UsageError('--merge needs the results folders to bring in: mmb report --merge shard-1/results shard-2/results');
  const target = resultsDir(root);
  const leftOut: string[] = [];
  const alreadyHere: string[] = [];
  const incoming = new Map<string, Incoming>();
  for (const folder of folders) {
    for (const run of runsIn(resultsFolder(folder), leftOut)) {
      const earlier = incoming.get(run.id);
      if (earlier && !sameState(earlier.from, run.from))
        throw new UsageError(`run "${run.id}" is in both ${shown(earlier.from)} and ${shown(run.from)}, not the same: merge one of them.`);
      if (existsSync(join(target, run.id))) {
        if (!sameState(join(target, run.id), run.from))
          throw new UsageError(
            `run "${run.id}" of ${shown(run.from)} is already in ${shown(target)} with other results: delete one of them first.`,
          );
        if (!alreadyHere.includes(run.id)) alreadyHere.push(run.id);
        continue;
      }
      incoming.set(run.id, run);
    }
  }
  if (incoming.size > MAX_RUNS) throw new UsageError(`--merge brings ${incoming.size} runs, more than ${MAX_RUNS}.`);
  mkdirSync(target, { recursive: true });
  const merged = [...incoming.values()]
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map((run) => {
      copyRun(run, target);
      return { id: run.id, state: run.state };
    });
  return { merged, alreadyHere, leftOut };
}

/** A results folder, or a workspace holding one. */
function resultsFolder(folder: string): string {
  const inner = join(folder, RESULTS_DIR);
  const dir = isDirectory(inner) ? inner : folder;
  if (!isDirectory(dir)) throw new UsageError(`--merge: ${shown(folder)} is not a folder: give the results/ folder of each machine.`);
  return dir;
}

/** The run folders of a results folder, checked; anything else is said in `leftOut` (files such as report.md silently). */
function runsIn(dir: string, leftOut: string[]): Incoming[] {
  const names = readdirSync(dir);
  if (names.length > MAX_RUNS * 2)
    throw new UsageError(`--merge: ${shown(dir)} holds ${names.length} entries, more than a results folder may.`);
  const runs: Incoming[] = [];
  for (const name of names) {
    const from = join(dir, name);
    if (!lstatSync(from).isDirectory()) continue;
    if (name.startsWith('.')) continue;
    const problem = runIdProblem(name);
    if (problem) {
      leftOut.push(`${shown(dir)}/${clipName(name)}: not a run id`);
      continue;
    }
    if (!FileRunStore.exists(from)) {
      leftOut.push(`${shown(from)}: no state.json or journal.jsonl`);
      continue;
    }
    runs.push({ id: name, from, entries: checkedEntries(from), state: loadedState(name, from) });
  }
  return runs;
}

/** The entries of a run folder that travel, each a regular file or a folder (memory snapshots, the kept benchmark), all bounded. */
function checkedEntries(runDir: string): string[] {
  const budget = { bytes: 0, entries: 0 };
  // The benchmark kept with the run travels with it: its reports here read it (`loadRunBenchmark` checks it again).
  const entries = readdirSync(runDir).filter((name) => RUN_FILES.has(name) || name === MEMORY_DIR || name === KEPT_BENCHMARK_DIR);
  for (const name of entries) checkTree(join(runDir, name), runDir, budget, 0);
  return entries;
}

function checkTree(path: string, runDir: string, budget: { bytes: number; entries: number }, depth: number): void {
  const stat = lstatSync(path);
  if (++budget.entries > MAX_RUN_ENTRIES) throw new UsageError(`--merge: ${shown(runDir)} holds more than ${MAX_RUN_ENTRIES} files.`);
  if (stat.isSymbolicLink()) throw new UsageError(`--merge: ${shown(path)} is a link: a run's files are never links.`);
  if (stat.isDirectory()) {
    if (depth >= MAX_DEPTH) throw new UsageError(`--merge: ${shown(path)} is nested deeper than ${MAX_DEPTH} folders.`);
    for (const name of readdirSync(path)) checkTree(join(path, name), runDir, budget, depth + 1);
    return;
  }
  if (!stat.isFile()) throw new UsageError(`--merge: ${shown(path)} is neither a file nor a folder.`);
  if (stat.size > MAX_FILE_BYTES)
    throw new UsageError(`--merge: ${shown(path)} is ${Math.round(stat.size / 1024 / 1024)} MiB, more than a run's file may be.`);
  budget.bytes += stat.size;
  if (budget.bytes > MAX_RUN_BYTES) throw new UsageError(`--merge: ${shown(runDir)} is over ${MAX_RUN_BYTES / 1024 / 1024 / 1024} GiB.`);
}

/** Whether two run folders hold the same run: the same state and journal, byte for byte. */
function sameState(left: string, right: string): boolean {
  // The run reader's own check: a FIFO or a folder in a file's place is damage, never opened.
  const read = (dir: string, name: string) => readRunBytes(join(dir, name)) ?? Buffer.alloc(0);
  return [STATE_FILE, JOURNAL_FILE].every((name) => read(left, name).equals(read(right, name)));
}

/** The state of an incoming run, read where it is (reading never writes); a damaged one, or one of another run, is refused. */
function loadedState(id: string, from: string): RunState {
  let state: RunState | undefined;
  try {
    state = new FileRunStore(from).load();
  } catch (e) {
    const what = e instanceof RunDamaged ? `${e.file}: ${e.what}` : (e as Error).message;
    throw new UsageError(`--merge: ${shown(from)} is damaged: ${clipName(what, 200)}`);
  }
  if (!state) throw new UsageError(`--merge: ${shown(from)} holds no run.`);
  if (state.run !== id)
    throw new UsageError(
      `--merge: ${shown(from)} holds the state of run "${clipName(String(state.run))}", not of "${id}": a run folder keeps its run's name.`,
    );
  return state;
}

/** Copies the run aside, then renames it into place: a stop halfway leaves no half run. */
function copyRun(run: Incoming, target: string): void {
  const aside = join(target, `.${run.id}.merging`);
  rmSync(aside, { recursive: true, force: true });
  try {
    mkdirSync(aside);
    for (const name of run.entries) {
      if (name === MEMORY_DIR) copySnapshots(join(run.from, name), join(aside, name));
      else cpSync(join(run.from, name), join(aside, name), { recursive: true });
    }
    renameSync(aside, join(target, run.id));
  } finally {
    rmSync(aside, { recursive: true, force: true });
  }
}

/**
 * The memory snapshots as a run writes them: text files only, masked with this process's keys,
 * which the other machine's engine may not have known.
 */
function copySnapshots(from: string, to: string): void {
  mkdirSync(to);
  for (const name of readdirSync(from)) {
    if (/^\d{1,6}$/.test(name)) copyMemoryFolder(join(from, name), join(to, name), runSecrets);
  }
}

function isDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}
