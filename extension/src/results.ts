/**
 * What the editor shows of runs, read from `results/` alone: which runs exist, which are running
 * (by their lock), how far each got, and the latest grade of every check. No VS Code here, so
 * that it is tested on plain folders; the panel, lenses, decorations and tests all read this.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseConfig, type Benchmark, type Config } from '../../scenario/src';
import {
  BENCHMARKS_DIR,
  JOURNAL_FILE,
  memorySnapshotNumbers,
  memorySnapshotsDir,
  readConfigText,
  isPartialState,
  readLock,
  standInNote,
  readMemorySnapshots,
  readRunState,
  resultsDir,
  runRegrades,
  type RegradeView,
  runDir,
  RunDamaged,
  STATE_FILE,
  waitText,
  type Grade,
  type MemorySnapshot,
  type PhaseRange,
  type RunState,
  workspaceMasker,
} from '../../engine/src/api';

/** `damaged`: a file of the run is not what the engine writes; it is shown with what, and harms no other run. */
export type RunStatus = 'not started' | 'running' | 'stopped' | 'finished' | 'crashed' | 'damaged';

export interface RunView {
  name: string;
  benchmark: string;
  agent: string;
  status: RunStatus;
  /** In config.jsonc; otherwise a phase run or rehearsal started from the editor. */
  configured: boolean;
  /** Mean of the standing grades, 0–10, or null before any. */
  average: number | null;
  graded: number;
  error?: string;
  pid?: number;
  /** Where the persona is: `chapter2.md`, phase 1-based, and the phase's title. */
  chapter?: string;
  phase?: number;
  /** The virtual clock, wall-clock `YYYY-MM-DD HH:MM`, for multi-day runs. */
  virtualTime?: string;
  lastEventAt?: string;
  /** A running run waiting on its agent: `waiting for the agent's reply: 40 s of 300`, as of its last `waiting` event. */
  waiting?: string;
  finishedAt?: string;
  /** What a stand-in run's scores mean and what to try next (the engine's one line), once it has a grade. */
  standInNote?: string;
}

export interface LatestGrade {
  run: string;
  grade: Grade;
  /** How many times the check was graded in that run. */
  attempts: number;
  /** The phases the run played when it played some only (`--only`, `--from`, a phase run). */
  phases?: PhaseRange;
  /** The run's templates as written → as expanded, and its start moment: how its texts read. */
  templates: Readonly<Record<string, string>>;
  startTime: string;
  /** What a stand-in run's scores mean, the engine's one line: said beside a red mark, which alone reads as a broken tool. */
  standInNote?: string;
}

/** A run's standing grade of a check, with what the marks need to know of the run. */
function latestOf(run: string, state: RunState, id: string): LatestGrade | undefined {
  const grades = Object.hasOwn(state.grades, id) ? state.grades[id] : undefined;
  const grade = grades?.[grades.length - 1];
  if (!grades || !grade) return undefined;
  const note = standInNote(state);
  return {
    run,
    grade,
    attempts: grades.length,
    templates: state.templates,
    startTime: state.startTime,
    ...(state.phases && isPartialState(state) ? { phases: state.phases } : {}),
    ...(note ? { standInNote: note } : {}),
  };
}

/** A run of some phases only: it may not have played the phases that tell a check's facts or trap it (the engine's one rule). */
export function isPartialRun(state: RunState): boolean {
  return isPartialState(state);
}

/** The folder holding config.jsonc (or the workspace folder itself), where `results/` goes. */
export class ResultsFolder {
  private states = new Map<string, { mtime: string; state: RunState | undefined; error?: string; damaged?: boolean }>();

  constructor(readonly root: string) {}

  get resultsDir(): string {
    return resultsDir(this.root);
  }

  get benchmarksDir(): string {
    return join(this.root, BENCHMARKS_DIR);
  }

  /** config.jsonc's runs, or an empty config when it is missing or broken (the language server reports why). */
  config(): Config {
    const path = join(this.root, 'config.jsonc');
    if (!existsSync(path)) return parseConfig('{}').config;
    // The engine's reader: a FIFO named config.jsonc would block the extension host forever.
    try {
      return parseConfig(readConfigText(path, 'config.jsonc')).config;
    } catch {
      return parseConfig('{}').config;
    }
  }

  /** The state of a run, re-read only when its files changed; undefined for a run never started. */
  state(name: string): RunState | undefined {
    const dir = runDir(this.root, name);
    const mtime = [STATE_FILE, JOURNAL_FILE].map((f) => stamp(join(dir, f))).join('|');
    const cached = this.states.get(name);
    if (cached && cached.mtime === mtime) return cached.state;
    let state: RunState | undefined;
    let error: string | undefined;
    try {
      state = readRunState(dir);
    } catch (e) {
      // Named by the run's folder: one damaged run is a row of its own and hides no other.
      error = e instanceof RunDamaged ? `damaged: ${name}/${e.file}: ${e.what}` : (e as Error).message;
    }
    this.states.set(name, { mtime, state, ...(error ? { error, damaged: error.startsWith('damaged: ') } : {}) });
    return state;
  }

  /** Every run: config.jsonc's in its order, then the others found in `results/`, newest first. */
  runs(): RunView[] {
    const config = this.config();
    const found = existsSync(this.resultsDir)
      ? readdirSync(this.resultsDir, { withFileTypes: true })
          .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
          .map((d) => d.name)
      : [];
    const views = config.runs.map((r) => this.view(r.name, { benchmark: r.benchmark, agent: r.agent, configured: true }));
    const others = found
      .filter((n) => !config.runs.some((r) => r.name === n))
      .map((n) => this.view(n, { benchmark: '', agent: '', configured: false }))
      .filter((v) => v.status !== 'not started')
      .sort((a, b) => (b.lastEventAt ?? '').localeCompare(a.lastEventAt ?? ''));
    return [...views, ...others];
  }

  view(name: string, base: { benchmark: string; agent: string; configured: boolean }): RunView {
    const lock = readLock(runDir(this.root, name));
    const state = this.state(name);
    const { error, damaged } = this.states.get(name) ?? {};
    const v: RunView = { name, ...base, status: 'not started', average: null, graded: 0 };
    if (lock) v.pid = lock.pid;
    if (error) {
      v.status = damaged ? 'damaged' : 'crashed';
      v.error = error;
      return v;
    }
    if (!state) {
      if (lock) v.status = 'running';
      return v;
    }
    v.benchmark = state.benchmark || v.benchmark;
    v.agent = state.agent || v.agent;
    v.status = lock ? 'running' : state.status === 'running' ? 'stopped' : state.status;
    if (state.error) v.error = state.error;
    const standing = Object.values(state.grades).flatMap((g) => (g.length ? [g[g.length - 1]!] : []));
    v.graded = standing.length;
    v.average = standing.length ? Math.round((standing.reduce((a, g) => a + g.effective, 0) / standing.length) * 100) / 100 : null;
    v.chapter = state.position.chapter;
    v.phase = state.position.phase + 1;
    if (state.virtualTime) v.virtualTime = state.virtualTime.slice(0, 16).replace('T', ' ');
    v.lastEventAt = state.lastEventAt;
    if (lock && state.agentWait) v.waiting = waitText(state.agentWait.waitedMs, state.agentWait.timeoutMs);
    if (state.finishedAt) v.finishedAt = state.finishedAt;
    const note = standing.length ? standInNote(state) : undefined;
    if (note) v.standInNote = note;
    return v;
  }

  /** The latest grade of each check of `benchmark` over all its runs, by check id. */
  latestGrades(benchmark: string): Map<string, LatestGrade> {
    const out = new Map<string, LatestGrade>();
    for (const run of this.runs()) {
      if (run.benchmark !== benchmark) continue;
      const state = this.state(run.name);
      if (!state) continue;
      for (const id of Object.keys(state.grades)) {
        const latest = latestOf(run.name, state, id);
        if (!latest) continue;
        const known = out.get(id);
        if (!known || known.grade.at < latest.grade.at) out.set(id, latest);
      }
    }
    return out;
  }

  /** The standing grade of a check in one run. */
  grade(run: string, checkId: string): LatestGrade | undefined {
    const state = this.state(run);
    return state ? latestOf(run, state, checkId) : undefined;
  }

  /** The newest memory snapshot of a run (`results/<id>/memory/<n>/`), if its agent keeps a memory folder. */
  latestSnapshot(run: string): string | undefined {
    // Only a real folder inside results/: a planted link out of it is never shown.
    const n = memorySnapshotNumbers(runDir(this.root, run)).at(-1);
    return n === undefined ? undefined : join(memorySnapshotsDir(runDir(this.root, run)), String(n));
  }

  /** Every memory snapshot of a run, bounded, for its report page (as `mmb report --html` reads them). */
  memorySnapshots(run: string): MemorySnapshot[] {
    return readMemorySnapshots(runDir(this.root, run));
  }

  /** The judges' grades of a run beside its persona's (`mmb regrade`), for its report page; null when it has none. */
  regrades(state: RunState, benchmark: Benchmark): RegradeView | null {
    return runRegrades(runDir(this.root, state.run), state, benchmark);
  }

  /** A page with every key of the editor's environment and of config.jsonc masked, as `mmb view` masks its pages. */
  masked(html: string): string {
    return workspaceMasker(join(this.root, 'config.jsonc'), process.env).mask(html);
  }

  relative(path: string): string {
    return relative(this.root, path);
  }
}

/** A file's modification time and size: a change of either means it was written. */
function stamp(path: string): string {
  try {
    const st = statSync(path);
    return `${st.mtimeMs}:${st.size}`;
  } catch {
    return '-';
  }
}
