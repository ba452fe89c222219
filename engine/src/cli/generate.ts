/**
 * `mmb generate <name> [--preset p] [--seed N] [--spec world.jsonc]`: a benchmark folder generated
 * from a world spec (docs/generate.md), written whole under benchmarks/ or not at all; and
 * `mmb generate --extend <folder> [--months N]`: a generated world carried on. What the options
 * mean is checked here; the world is `generate/index.ts`'s, the writing `generateWrite.ts`'s.
 */
import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { decodeConfigBytes } from '../../../scenario/src';
import { readBenchmarkFiles, readFolderBytes } from '../../../scenario/node/safeRead';
import { UsageError } from '../errors';
import { generateBenchmark, type GenerateSummary } from '../generate';
import { blocksOf } from '../generate/layout';
import { TOPICS } from '../generate/topics';
import type { WorldSpec } from '../generate/model';
import {
  DEFAULT_SEED,
  DEFAULT_SPEC,
  parseWorldSpec,
  PRESET_NAMES,
  PRESETS,
  type PresetName,
  type WorldSpecRead,
  worldSizeProblem,
} from '../generate/spec';
import { MAX_SEED } from '../generate/specKeys';
import { describeFsError, isBenchmarkFileName, shownPath } from '../workspace/folders';
import { checkBenchmarkName } from './new';
import { clip } from './options';
import { existingFolderProblem, fileGroups, listedNames, writeExtension, writeFolderWhole } from './generateWrite';
import { didYouMeanSentence } from '../didYouMean';

/** The file a generated world keeps its spec, seed and blocks in. */
export const WORLD_FILE = 'world.jsonc';
/** The most months one `--extend` appends: a decade; more is another command away. */
export const MAX_MONTHS = 120;

/** The library's topic names, which a spec's topics are checked against. */
const LIBRARY_TOPICS: readonly string[] = TOPICS.map((topic) => topic.sheet);

export interface GenerateInput {
  /** The words after `generate`: the benchmark's name, alone. */
  words: readonly string[];
  preset: string | undefined;
  seed: string | undefined;
  spec: string | undefined;
  extend: string | undefined;
  months: string | undefined;
  cwd: string;
}

export function generateCommand(input: GenerateInput, out: (text: string) => void): number {
  if (input.extend !== undefined) return extendCommand(input, out);
  if (input.months !== undefined)
    throw new UsageError('--months goes with --extend <folder>: mmb generate --extend benchmarks/my-world --months 1.');
  const [name, extra] = input.words;
  if (name === undefined) throw new UsageError('mmb generate needs a name: mmb generate my-world --preset hard.');
  if (extra !== undefined) throw new UsageError(`mmb generate takes one name (got ${clip(extra)} too).`);
  checkBenchmarkName(name);
  const preset = presetOf(input.preset);
  const commandSeed = seedOf(input.seed);
  const fromFile = input.spec !== undefined ? readSpecFile(resolve(input.cwd, input.spec), input.spec, preset) : undefined;
  const spec: WorldSpec = fromFile?.spec ?? (preset ? PRESETS[preset] : DEFAULT_SPEC);
  const seed = commandSeed ?? fromFile?.seed ?? DEFAULT_SEED;
  const target = join(input.cwd, 'benchmarks', name);
  const shown = relative(input.cwd, target);
  const problem = existingFolderProblem(target, shown);
  if (problem) throw new UsageError(problem);

  // A world.jsonc read back (one that was extended) keeps its blocks: the same file regenerates the same folder.
  const blocks = fromFile?.blocks ?? blocksOf(spec);
  const tooBig = worldSizeProblem(spec, blocks);
  if (tooBig) throw new UsageError(`${input.spec !== undefined ? `${clip(input.spec)}: ` : ''}${tooBig}`);
  const generated = generateBenchmark(spec, seed, blocks);
  writeFolderWhole(target, generated.files);
  const base = preset ?? fromFile?.preset;
  const origin = [input.spec !== undefined ? `spec ${clip(input.spec)}` : undefined, base ? `preset ${base}` : 'preset max-like']
    .filter(Boolean)
    .join(', ');
  const seedNote = commandSeed === undefined && fromFile?.seed === undefined ? ' (the default: --seed N for another world)' : '';
  out(`Generated ${shown} from ${origin}, seed ${seed}${seedNote}:\n`);
  for (const group of fileGroups([...generated.files.keys()])) out(`  ${group}\n`);
  out(`  ${summaryLine(generated.summary)}\n`);
  out(`Next: mmb check --audit ${shown}. The same command writes the same folder, byte for byte.\n`);
  return 0;
}

/** `--extend <folder> [--months N]`: the world read back from its folder, carried on, and the files that changed written. */
function extendCommand(input: GenerateInput, out: (text: string) => void): number {
  if (input.words.length)
    throw new UsageError(
      `--extend takes the folder, not a name (got ${clip(input.words[0]!)}): mmb generate --extend benchmarks/my-world.`,
    );
  if (input.preset !== undefined || input.seed !== undefined || input.spec !== undefined)
    throw new UsageError(`--extend carries a world on with its own spec and seed (its ${WORLD_FILE}): drop --preset, --seed and --spec.`);
  const months = monthsOf(input.months);
  const shown = input.extend!;
  const folder = resolve(input.cwd, shown);
  let files: Map<string, string>;
  try {
    if (!statSync(folder).isDirectory()) throw new UsageError(`${shownPath(shown)} is not a folder: give a generated world's folder.`);
    const read = readBenchmarkFiles(folder, (name) => isBenchmarkFileName(name) || name === WORLD_FILE);
    const [refused, why] = [...read.refused][0] ?? [];
    if (refused !== undefined) throw new UsageError(`${shownPath(join(shown, refused))} is not read: ${why}.`);
    files = read.files;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read ${shownPath(shown)}: ${describeFsError(e)}`);
  }
  const world = files.get(WORLD_FILE);
  if (world === undefined)
    throw new UsageError(`${shownPath(shown)} is not a generated world: it has no ${WORLD_FILE} (mmb generate writes one).`);
  const read = parseWorldSpec(world, join(shown, WORLD_FILE), LIBRARY_TOPICS);
  if ('error' in read) throw new UsageError(read.error);
  if (read.seed === undefined) throw new UsageError(`${join(shown, WORLD_FILE)} has no "seed": a generated world's has one; put it back.`);

  // Block k draws from its own generator seeded by (seed, k): the blocks there are re-simulate to the same files, and more follow.
  const blocks = read.blocks ?? blocksOf(read.spec);
  const tooBig = worldSizeProblem(read.spec, blocks + months);
  if (tooBig) throw new UsageError(`${join(shown, WORLD_FILE)} with ${months} more month${months === 1 ? '' : 's'}: ${tooBig}`);
  refuseEdited(shown, files, generateBenchmark(read.spec, read.seed, blocks).files);
  const extended = generateBenchmark(read.spec, read.seed, blocks + months);
  const written = writeExtension(folder, files, extended.files);
  const listed = (names: readonly string[]) => (names.length ? ` (${listedNames(names)})` : '');
  out(`Extended ${shownPath(shown)} by ${months} month${months === 1 ? '' : 's'}:\n`);
  out(`  ${written.added.length} new files${listed(written.added)}, ${written.changed.length} rewritten${listed(written.changed)}\n`);
  out(`  ${summaryLine(extended.summary)}\n`);
  out(`Next: mmb check --audit ${shownPath(shown)}; a finished run of it plays on into the new chapters.\n`);
  return 0;
}

const plural = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

function summaryLine(summary: GenerateSummary): string {
  return [
    plural(summary.facts, 'fact'),
    plural(summary.checks, 'check'),
    plural(summary.traps, 'trap write'),
    plural(summary.chapters, 'chapter'),
    plural(summary.sessionSwitches, 'session switch', 'session switches'),
  ].join(', ');
}

function presetOf(given: string | undefined): PresetName | undefined {
  if (given === undefined) return undefined;
  if ((PRESET_NAMES as readonly string[]).includes(given)) return given as PresetName;
  throw new UsageError(
    `unknown preset ${JSON.stringify(clip(given))}: the presets are ${PRESET_NAMES.join(', ')}.${didYouMeanSentence(given, PRESET_NAMES)}`,
  );
}

function seedOf(given: string | undefined): number | undefined {
  if (given === undefined) return undefined;
  const seed = /^\d{1,10}$/.test(given) ? Number(given) : NaN;
  if (Number.isInteger(seed) && seed <= MAX_SEED) return seed;
  throw new UsageError(`--seed needs a whole number from 0 to ${MAX_SEED}, as in --seed 7 (got ${clip(given)}).`);
}

function monthsOf(given: string | undefined): number {
  if (given === undefined) return 1;
  const months = /^\d{1,4}$/.test(given) ? Number(given) : NaN;
  if (months >= 1 && months <= MAX_MONTHS) return months;
  throw new UsageError(`--months needs a whole number from 1 to ${MAX_MONTHS}, as in --months 1 (got ${clip(given)}).`);
}

/** A spec file read as config.jsonc is (a regular file, under the size cap, UTF-8) and parsed; a problem is a UsageError. */
function readSpecFile(path: string, shown: string, preset: PresetName | undefined): WorldSpecRead {
  let bytes: Buffer;
  try {
    // A missing file is said as such; the reader's own refusal is for what stands there instead of a file.
    statSync(path);
    const read = readFolderBytes(realpathSync(dirname(path)), basename(path));
    if ('refused' in read) throw new UsageError(`${shownPath(shown)} is not read: ${read.refused}.`);
    bytes = read.bytes;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read ${shownPath(shown)}: ${describeFsError(e)}`);
  }
  const decoded = decodeConfigBytes(bytes);
  if ('problem' in decoded) throw new UsageError(`${shownPath(shown)} is not read: ${decoded.problem}.`);
  const read = parseWorldSpec(decoded.text, shownPath(shown), LIBRARY_TOPICS, preset);
  if ('error' in read) throw new UsageError(read.error);
  return read;
}

/**
 * An extension writes the world from its spec, so a file an author changed since it was generated
 * would be written over: refused, one line naming the files, before anything is written.
 */
function refuseEdited(shown: string, files: ReadonlyMap<string, string>, generated: ReadonlyMap<string, string>): void {
  const edited = [...generated.keys()].filter((name) => name !== WORLD_FILE && files.has(name) && files.get(name) !== generated.get(name));
  if (edited.length === 0) return;
  throw new UsageError(
    `${shownPath(shown)}: ${listedNames(edited)} changed since the world was generated, and --extend writes it from its spec: ` +
      'copy your changes aside and extend, or extend a fresh copy (mmb generate <name> --spec world.jsonc).',
  );
}
