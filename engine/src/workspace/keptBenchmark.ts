/**
 * The benchmark kept with a run: `results/<run>/benchmark/` holds the files the run read (the
 * manifest and the top-level markdown, as `readBenchmarkFolder` read them) and `kept.json`, their
 * digests, written last. Reports read it back so that they outlive the benchmark folder; what they
 * read back is untrusted like every file of results/ (a truncated file, a missing one, a link
 * planted in the copy's place), so each problem is one line, never an exception.
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readFolderFile, isBenchmarkFileName } from '../../../scenario/node/safeRead';
import { RunDamaged } from '../errors';
import { keptBenchmarkDir, KEPT_BENCHMARK_DIR, KEPT_MANIFEST_FILE } from '../protocol/layout';
import { count, object, record, string } from '../protocol/shape';
import { readRunJson } from '../runFile';
import { writingFile } from '../diskFull';
import type { Benchmark } from '../../../scenario/src';
import type { RunState } from '../state/runState';

/**
 * The most a kept copy may hold: 32 MiB in at most 5,000 files. The bundled benchmarks hold some
 * 240 KB; a generated world of years is the one benchmark past it, and its run goes on without a
 * copy (the run says so) rather than writing tens of megabytes at every start.
 */
export const MAX_KEPT_BYTES = 32 * 1024 * 1024;
export const MAX_KEPT_FILES = 5_000;

const MANIFEST_SHAPE = object({
  benchmark: string(),
  /** `benchmarkDigest` of the files. */
  digest: string(),
  keptAt: string(),
  files: record(object({ bytes: count(), sha256: string() })),
});

/** What `kept.json` says. */
export interface KeptManifest {
  benchmark: string;
  digest: string;
  keptAt: string;
  files: Record<string, { bytes: number; sha256: string }>;
}

/** What keeping did: written afresh, left as it was (the same files), or not kept (too large, said why). */
export type KeepOutcome = { kept: 'written' | 'unchanged' } | { skipped: string };

/** The copy read back: its files, absent (a run from before copies were kept, or too large), or its problem in one line. */
export type KeptRead =
  | { kind: 'kept'; files: Map<string, string>; digest: string }
  /** A copy whose digest the caller knows already (`known`): its files were checked by size only, and not read. */
  | { kind: 'known'; digest: string }
  | { kind: 'absent' }
  | { kind: 'damaged'; problem: string; manifest?: KeptManifest };

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** One digest of a benchmark's files, names and texts, in name order: equal digests, equal benchmarks. */
export function benchmarkDigest(files: ReadonlyMap<string, string>): string {
  const hash = createHash('sha256');
  for (const name of [...files.keys()].sort()) hash.update(`${name}\0${sha256(files.get(name)!)}\n`);
  return hash.digest('hex');
}

/** The manifest of a kept copy, or undefined when there is none; a damaged one is `RunDamaged`. */
function readManifest(dirOfRun: string): KeptManifest | undefined {
  return readRunJson(join(keptBenchmarkDir(dirOfRun), KEPT_MANIFEST_FILE), MANIFEST_SHAPE)?.value;
}

/**
 * Keeps `files` (the benchmark the run plays) in `<run dir>/benchmark/`: written aside and renamed
 * into place, `kept.json` last, so a kill or a full disk leaves the old copy, or none, never half
 * of one. A copy with the same digest is left as it is. A full or read-only disk is `DiskFull`
 * naming the file, as every other write of a run.
 */
export function keepBenchmark(dirOfRun: string, name: string, files: ReadonlyMap<string, string>, now = new Date()): KeepOutcome {
  const bytes = [...files.values()].reduce((sum, text) => sum + Buffer.byteLength(text, 'utf8'), 0);
  if (files.size > MAX_KEPT_FILES || bytes > MAX_KEPT_BYTES)
    return {
      skipped:
        `the benchmark is not kept with the run: its ${files.size} files hold ${Math.ceil(bytes / 1024 / 1024)} MiB, ` +
        `more than the ${MAX_KEPT_FILES} files or ${MAX_KEPT_BYTES / 1024 / 1024} MiB kept; its reports read benchmarks/${name}/`,
    };
  const digest = benchmarkDigest(files);
  if (readKeptBenchmark(dirOfRun).kind === 'kept' && safeManifest(dirOfRun)?.digest === digest) return { kept: 'unchanged' };
  const manifest: KeptManifest = { benchmark: name, digest, keptAt: now.toISOString(), files: {} };
  const aside = join(dirOfRun, `.${KEPT_BENCHMARK_DIR}.${process.pid}.tmp`);
  const old = join(dirOfRun, `.${KEPT_BENCHMARK_DIR}.${process.pid}.old`);
  const target = keptBenchmarkDir(dirOfRun);
  try {
    rmSync(aside, { recursive: true, force: true });
    writingFile(aside, () => mkdirSync(aside, { recursive: true }));
    for (const [file, text] of files) {
      writingFile(join(target, file), () => writeFileSync(join(aside, file), text));
      manifest.files[file] = { bytes: Buffer.byteLength(text, 'utf8'), sha256: sha256(text) };
    }
    const manifestPath = join(target, KEPT_MANIFEST_FILE);
    writingFile(manifestPath, () => writeFileSync(join(aside, KEPT_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`));
    // Whatever stands in the copy's place (an older copy, or a link planted there) goes aside first: rename never follows it.
    if (lstatSync(target, { throwIfNoEntry: false })) writingFile(target, () => renameSync(target, old));
    writingFile(target, () => renameSync(aside, target));
  } finally {
    rmSync(aside, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
  return { kept: 'written' };
}

function safeManifest(dirOfRun: string): KeptManifest | undefined {
  try {
    return readManifest(dirOfRun);
  } catch {
    return undefined;
  }
}

/**
 * The kept copy of a run, read as untrusted: the folder must be a real folder (not a link), each
 * file `kept.json` names must be there, a regular file inside it, with the bytes and digest it
 * names. The first problem found is the answer, one line naming the file. `known`: digests whose
 * files the caller has read and checked already (a listing of many runs of one benchmark): a copy
 * whose `kept.json` names one is checked by its files' sizes only, so a list reads each benchmark once.
 */
export function readKeptBenchmark(dirOfRun: string, known: (digest: string) => boolean = () => false): KeptRead {
  const dir = keptBenchmarkDir(dirOfRun);
  const stat = lstatSync(dir, { throwIfNoEntry: false });
  if (!stat) return { kind: 'absent' };
  const where = `${KEPT_BENCHMARK_DIR}/`;
  if (stat.isSymbolicLink()) return { kind: 'damaged', problem: `damaged: ${where}: a link where the kept copy goes (never followed)` };
  if (!stat.isDirectory()) return { kind: 'damaged', problem: `damaged: ${where}: not a folder` };
  let manifest: KeptManifest | undefined;
  try {
    manifest = readManifest(dirOfRun);
  } catch (e) {
    if (!(e instanceof RunDamaged)) throw e;
    return { kind: 'damaged', problem: `damaged: ${where}${KEPT_MANIFEST_FILE}: ${e.what}` };
  }
  if (!manifest) return { kind: 'damaged', problem: `damaged: ${where}${KEPT_MANIFEST_FILE}: missing` };
  const files = new Map<string, string>();
  const real = realpathSync(dir);
  const sizesOnly = known(manifest.digest);
  for (const [name, expected] of Object.entries(manifest.files)) {
    // The names come from a file of results/: only a benchmark file's own name, never a path.
    if (!isBenchmarkFileName(name) || /[\\/]/.test(name) || name.startsWith('.'))
      return { kind: 'damaged', problem: `damaged: ${where}${KEPT_MANIFEST_FILE}: names a file that is no benchmark file`, manifest };
    if (sizesOnly) {
      const problem = sizeProblem(join(real, name), expected.bytes);
      if (problem) return { kind: 'damaged', problem: `damaged: ${where}${name}: ${problem}`, manifest };
      continue;
    }
    const read = readFolderFile(real, name);
    const problem =
      'refused' in read
        ? read.refused
        : Buffer.byteLength(read.text, 'utf8') !== expected.bytes
          ? `it holds ${Buffer.byteLength(read.text, 'utf8')} bytes, not the ${expected.bytes} kept`
          : sha256(read.text) !== expected.sha256
            ? 'it is not the text that was kept (its digest differs)'
            : undefined;
    if (problem || 'refused' in read) return { kind: 'damaged', problem: `damaged: ${where}${name}: ${problem}`, manifest };
    files.set(name, read.text);
  }
  return sizesOnly ? { kind: 'known', digest: manifest.digest } : { kind: 'kept', files, digest: benchmarkDigest(files) };
}

/** Why a file of a copy is not the size kept (`readFolderFile`'s words), without reading it; undefined when it is. */
function sizeProblem(path: string, bytes: number): string | undefined {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat) return 'it cannot be read (it is gone)';
  if (!stat.isFile()) return stat.isSymbolicLink() ? 'it is a symbolic link, never followed here' : 'it is not a regular file';
  return stat.size === bytes ? undefined : `it holds ${stat.size} bytes, not the ${bytes} kept`;
}

/**
 * Keeps the benchmark a run is about to play, at its start and at a resume that plays on: a
 * resume plays the folder as it is then (as it always did: an author fixes a chapter and resumes),
 * so the copy becomes that folder, and a notice says the benchmark changed. A run that has nothing
 * left to play (finished), or cannot resume where it stopped, keeps the copy of what it played.
 * Returns the notices for the user, one line each.
 */
export function keepPlayedBenchmark(
  dirOfRun: string,
  name: string,
  played: { whole: Benchmark; files: ReadonlyMap<string, string> },
  before: RunState | undefined,
): string[] {
  if (before && !resumePlays(before, played.whole)) return [];
  const earlier = before ? readKeptBenchmark(dirOfRun).kind : 'absent';
  const outcome = keepBenchmark(dirOfRun, name, played.files);
  if ('skipped' in outcome) return [outcome.skipped];
  if (outcome.kept === 'written' && earlier !== 'absent')
    return [
      `the benchmark has changed since the run started: the run goes on with it as it is now, ` +
        `and the copy kept with the run (${KEPT_BENCHMARK_DIR}/ of its results folder) is now this one`,
    ];
  return [];
}

/** Whether a resume of `state` plays a phase of `whole`: where it stopped is still there, and something is left to play. */
function resumePlays(state: RunState, whole: Benchmark): boolean {
  const chapter = whole.chapters.findIndex((c) => c.file === state.position.chapter);
  const phases = whole.chapters[chapter]?.phases.length ?? 0;
  if (chapter < 0 || state.position.phase >= phases) return false;
  if (state.status !== 'finished') return true;
  // A finished full run goes on when its benchmark has grown since (`resumeRun`).
  return !state.phases && (chapter < whole.chapters.length - 1 || state.position.phase < phases - 1);
}
