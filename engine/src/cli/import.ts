/**
 * `mmb import <dataset> <file> [--ids …|--types …|--sample N --seed S] [--haystack oracle|full|N]`:
 * a published dataset's items written as benchmarks under benchmarks/, one folder each (what each
 * dataset's items are and become: `importers.ts`). The file, a JSON array or JSON Lines, is
 * streamed twice: once to check every item against the schema (a file of another schema is one
 * line, before anything is written) and to pick the items, once to write them.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { didYouMeanSentence } from '../didYouMean';
import { UsageError } from '../errors';
import { shuffled } from '../generate/draw';
import { DatasetFormatError, streamJsonArray } from '../import/jsonArrayStream';
import type { Haystack } from '../import/longmemeval';
import { DATASET_KEYS, type DatasetKey, type Provenance } from '../import/provenance';
import { safeText } from '../import/safeText';
import { IMPORTERS, summaryLines, type Importer, type Picked, type Rendered } from './importers';
import { seededRandom } from '../random';
import { describeFsError, shownPath } from '../workspace/folders';
import { writeFolderWhole } from './generateWrite';
import { clip } from './options';

export interface ImportInput {
  /** The words after `import`: the dataset and the file. */
  words: readonly string[];
  ids: string | undefined;
  types: string | undefined;
  sample: string | undefined;
  seed: string | undefined;
  haystack: string | undefined;
  cwd: string;
}

/** The seed of `--sample` when none is given: fixed, so the same command picks the same questions. */
export const DEFAULT_SAMPLE_SEED = 1;
const MAX_SAMPLE = 100_000;

export async function importCommand(input: ImportInput, out: (text: string) => void): Promise<number> {
  const [dataset, file, extra] = input.words;
  if (dataset === undefined || file === undefined)
    throw new UsageError(
      `mmb import needs a dataset and its file: mmb import longmemeval longmemeval_s.json (datasets: ${DATASET_KEYS.join(', ')}).`,
    );
  if (!(DATASET_KEYS as string[]).includes(dataset))
    throw new UsageError(
      `unknown dataset ${JSON.stringify(clip(dataset))}: the datasets are ${DATASET_KEYS.join(', ')}.` +
        didYouMeanSentence(dataset, DATASET_KEYS),
    );
  if (extra !== undefined) throw new UsageError(`mmb import takes one file (got ${clip(extra)} too).`);
  const importer = IMPORTERS[dataset as DatasetKey];
  const choice = choiceOf(input, importer);
  if (input.haystack !== undefined && !importer.haystack)
    throw new UsageError(`--haystack goes with longmemeval: ${importer.info.name} has no haystack, each item is told whole.`);
  const haystack = haystackOf(input.haystack);
  const path = resolve(input.cwd, file);
  const shown = shownPath(file);
  try {
    if (!statSync(path).isFile()) throw new UsageError(`${shown} is not a file: give the dataset's JSON or JSON Lines file.`);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read ${shown}: ${describeFsError(e)}`);
  }
  const { picked, sha256, total } = await readPicks(importer, path, shown, choice);
  const provenance: Provenance = {
    dataset: importer.info,
    fileName: safeText(basename(file), 200),
    sha256,
    options: optionsText(choice, importer.haystack ? haystack : undefined),
  };
  const benchmarks = join(input.cwd, 'benchmarks');
  const names = folderNames(importer, picked, benchmarks, input.cwd);
  const written = await writePicks(importer, { path, shown }, names, haystack, provenance, benchmarks);
  const into = relative(input.cwd, benchmarks) || '.';
  const first = written[0];
  out(
    [
      `Imported ${written.length} benchmark${written.length === 1 ? '' : 's'} from ${provenance.fileName} ` +
        `(${total} items, sha256 ${provenance.sha256.slice(0, 12)}…) into ${into}/, ${provenance.options}:`,
      ...summaryLines(importer, picked, written),
      ...(first ? [`Next: mmb check --audit ${into}/${first.name}; mmb run --benchmark ${first.name} --rehearse.`] : []),
      '',
    ].join('\n'),
  );
  return 0;
}

interface Choice {
  ids?: string[];
  types?: string[];
  sample?: { size: number; seed: number };
}

function listOf(text: string, option: string): string[] {
  const list = [...new Set(text.split(',').map((part) => part.trim()))].filter(Boolean);
  if (list.length === 0) throw new UsageError(`${option} needs a comma-separated list, as in ${option} e47becba,0a995998.`);
  return list;
}

function choiceOf(input: ImportInput, importer: Importer): Choice {
  const choice: Choice = {};
  if (input.ids !== undefined) choice.ids = listOf(input.ids, '--ids');
  if (input.types !== undefined) {
    choice.types = listOf(input.types, '--types');
    if (importer.types.length === 0) throw new UsageError(`--types goes with longmemeval: ${importer.info.name}'s items have no type.`);
    for (const type of choice.types)
      if (!importer.types.includes(type))
        throw new UsageError(
          `--types: ${JSON.stringify(clip(type))} is no question type of ${importer.info.name}: ${importer.types.join(', ')}.` +
            didYouMeanSentence(type, importer.types),
        );
  }
  if (input.ids !== undefined && (input.types !== undefined || input.sample !== undefined))
    throw new UsageError('--ids picks the questions itself: drop --types and --sample.');
  if (input.seed !== undefined && input.sample === undefined)
    throw new UsageError('--seed goes with --sample N: mmb import … --sample 20 --seed 7.');
  if (input.sample !== undefined) {
    const size = /^\d{1,6}$/.test(input.sample) ? Number(input.sample) : NaN;
    if (!(size >= 1 && size <= MAX_SAMPLE))
      throw new UsageError(`--sample needs a whole number from 1 to ${MAX_SAMPLE}, as in --sample 20 (got ${clip(input.sample)}).`);
    const seed = input.seed === undefined ? DEFAULT_SAMPLE_SEED : /^\d{1,9}$/.test(input.seed) ? Number(input.seed) : NaN;
    if (Number.isNaN(seed)) throw new UsageError(`--seed needs a whole number, as in --seed 7 (got ${clip(input.seed ?? '')}).`);
    choice.sample = { size, seed };
  }
  return choice;
}

function haystackOf(given: string | undefined): Haystack {
  if (given === undefined || given === 'full') return { kind: 'full' };
  if (given === 'oracle') return { kind: 'oracle' };
  if (/^\d{1,5}$/.test(given)) return { kind: 'some', others: Number(given) };
  throw new UsageError(`--haystack takes oracle, full or a number of other sessions, as in --haystack 10 (got ${clip(given)}).`);
}

function optionsText(choice: Choice, haystack: Haystack | undefined): string {
  return (
    [
      ...(haystack ? [`--haystack ${haystack.kind === 'some' ? haystack.others : haystack.kind}`] : []),
      ...(choice.ids ? [`--ids ${choice.ids.join(',')}`] : []),
      ...(choice.types ? [`--types ${choice.types.join(',')}`] : []),
      ...(choice.sample ? [`--sample ${choice.sample.size} --seed ${choice.sample.seed}`] : []),
    ]
      .map((part) => safeText(part, 400))
      .join(' ') || 'no options'
  );
}

/** The first pass: every item checked against the schema, the file hashed, the items picked. */
async function readPicks(
  importer: Importer,
  path: string,
  shown: string,
  choice: Choice,
): Promise<{ picked: Picked[]; sha256: string; total: number }> {
  const hash = createHash('sha256');
  const candidates: Picked[] = [];
  let total = 0;
  try {
    for await (const { index, value } of streamJsonArray(path, shown, { onChunk: (chunk) => hash.update(chunk), jsonLines: true })) {
      total++;
      const difference = importer.difference(value);
      if (difference)
        throw new DatasetFormatError(
          `${shown}: item ${index}: field ${difference.field}: expected ${difference.expected}, found ${difference.found} ` +
            `(not a ${importer.info.name} item; docs/datasets.md gives the schema).`,
        );
      const refusal = importer.refusal?.(value);
      if (refusal) throw new DatasetFormatError(`${shown}: item ${index} is ${refusal}`);
      const { id, type } = importer.describe(value);
      if (choice.ids && !choice.ids.includes(id)) continue;
      if (choice.types && !choice.types.includes(type)) continue;
      candidates.push({ index, id, type });
    }
  } catch (e) {
    if (e instanceof DatasetFormatError) throw new UsageError(e.message);
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read ${shown}: ${describeFsError(e)}`);
  }
  const missing = (choice.ids ?? []).filter((id) => !candidates.some((c) => c.id === id));
  if (missing.length) throw new UsageError(`--ids: ${shown} has no item ${missing.slice(0, 5).map(clip).join(', ')}.`);
  const sample = choice.sample;
  const picked = sample ? shuffled(candidates, seededRandom(sample.seed)).slice(0, sample.size) : candidates;
  return { picked: picked.sort((a, b) => a.index - b.index), sha256: hash.digest('hex'), total };
}

/** The folder of each picked item that is played, numbered when two share an id; every one free, or nothing is written. */
function folderNames(importer: Importer, picked: readonly Picked[], benchmarks: string, cwd: string): Map<number, string> {
  const names = new Map<number, string>();
  const taken = new Set<string>();
  for (const pick of picked) {
    if (importer.leftOut(pick) !== undefined) continue;
    const base = importer.folder(pick.id);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
    taken.add(name);
    const target = join(benchmarks, name);
    if (!isFreeFolder(target))
      throw new UsageError(`${relative(cwd, target)} exists: remove it, or import in another workspace (nothing was imported).`);
    names.set(pick.index, name);
  }
  return names;
}

/** Absent, or an empty folder: what an item may be written into. */
function isFreeFolder(target: string): boolean {
  try {
    return lstatSync(target).isDirectory() && readdirSync(target).length === 0;
  } catch {
    return true;
  }
}

/** The second pass: each picked item rendered and written whole as it streams by. */
async function writePicks(
  importer: Importer,
  file: { path: string; shown: string },
  names: ReadonlyMap<number, string>,
  haystack: Haystack,
  provenance: Provenance,
  benchmarks: string,
): Promise<(Rendered & { name: string })[]> {
  const written: (Rendered & { name: string })[] = [];
  try {
    for await (const { index, value } of streamJsonArray(file.path, file.shown, { jsonLines: true })) {
      const name = names.get(index);
      if (name === undefined) continue;
      const rendered = importer.render(value, haystack, provenance);
      if (!rendered) continue;
      writeFolderWhole(join(benchmarks, name), rendered.files);
      written.push({ ...rendered, name });
    }
  } catch (e) {
    if (e instanceof DatasetFormatError) throw new UsageError(`${e.message} (it changed since it was first read)`);
    throw e;
  }
  return written;
}
