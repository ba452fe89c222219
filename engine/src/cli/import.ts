/**
 * `mmb import <dataset> <file> [--ids …|--types …|--sample N --seed S] [--haystack oracle|full|N]`:
 * a published dataset's questions written as benchmarks under benchmarks/, one folder each. The
 * file is streamed twice: once to check every item against the schema (a file of another schema is
 * one line, before anything is written) and to pick the items, once to write them.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { didYouMeanSentence } from '../didYouMean';
import { UsageError } from '../errors';
import { shuffled } from '../generate/draw';
import { DatasetFormatError, streamJsonArray } from '../import/jsonArrayStream';
import {
  checkTypeOf,
  longMemEvalDifference,
  LONGMEMEVAL_TYPES,
  NOT_ON_POLICY,
  type Haystack,
  type LongMemEvalItem,
} from '../import/longmemeval';
import { renderLongMemEval, type RenderedQuestion } from '../import/longmemevalRender';
import { DATASET_KEYS, DATASETS, type Provenance } from '../import/provenance';
import { safeName, safeText } from '../import/safeText';
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

interface Picked {
  index: number;
  id: string;
  type: string;
}

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
  const choice = choiceOf(input);
  const haystack = haystackOf(input.haystack);
  const path = resolve(input.cwd, file);
  const shown = shownPath(file);
  try {
    if (!statSync(path).isFile()) throw new UsageError(`${shown} is not a file: give the dataset's JSON file.`);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read ${shown}: ${describeFsError(e)}`);
  }
  const { picked, sha256, total } = await readPicks(path, shown, choice);
  const provenance: Provenance = {
    dataset: DATASETS.longmemeval,
    fileName: safeText(basename(file), 200),
    sha256,
    options: optionsText(choice, haystack),
  };
  const benchmarks = join(input.cwd, 'benchmarks');
  const names = folderNames(picked, benchmarks, input.cwd);
  const written = await writePicks(path, shown, names, haystack, provenance, benchmarks);
  out(summaryText(written, picked, total, provenance, relative(input.cwd, benchmarks) || '.'));
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

function choiceOf(input: ImportInput): Choice {
  const choice: Choice = {};
  if (input.ids !== undefined) choice.ids = listOf(input.ids, '--ids');
  if (input.types !== undefined) {
    choice.types = listOf(input.types, '--types');
    for (const type of choice.types)
      if (!(LONGMEMEVAL_TYPES as readonly string[]).includes(type))
        throw new UsageError(
          `--types: ${JSON.stringify(clip(type))} is no question type of LongMemEval: ${LONGMEMEVAL_TYPES.join(', ')}.` +
            didYouMeanSentence(type, LONGMEMEVAL_TYPES),
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

function optionsText(choice: Choice, haystack: Haystack): string {
  return [
    `--haystack ${haystack.kind === 'some' ? haystack.others : haystack.kind}`,
    ...(choice.ids ? [`--ids ${choice.ids.join(',')}`] : []),
    ...(choice.types ? [`--types ${choice.types.join(',')}`] : []),
    ...(choice.sample ? [`--sample ${choice.sample.size} --seed ${choice.sample.seed}`] : []),
  ]
    .map((part) => safeText(part, 400))
    .join(' ');
}

/** The first pass: every item checked against the schema, the file hashed, the questions picked. */
async function readPicks(path: string, shown: string, choice: Choice): Promise<{ picked: Picked[]; sha256: string; total: number }> {
  const hash = createHash('sha256');
  const candidates: Picked[] = [];
  let total = 0;
  try {
    for await (const { index, value } of streamJsonArray(path, shown, { onChunk: (chunk) => hash.update(chunk) })) {
      total++;
      const difference = longMemEvalDifference(value);
      if (difference)
        throw new DatasetFormatError(
          `${shown}: item ${index}: field ${difference.field}: expected ${difference.expected}, found ${difference.found} ` +
            '(not a LongMemEval item; docs/datasets.md gives the schema).',
        );
      const item = value as LongMemEvalItem;
      if (choice.ids && !choice.ids.includes(item.question_id)) continue;
      if (choice.types && !choice.types.includes(item.question_type)) continue;
      candidates.push({ index, id: item.question_id, type: item.question_type });
    }
  } catch (e) {
    if (e instanceof DatasetFormatError) throw new UsageError(e.message);
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read ${shown}: ${describeFsError(e)}`);
  }
  const missing = (choice.ids ?? []).filter((id) => !candidates.some((c) => c.id === id));
  if (missing.length)
    throw new UsageError(
      `--ids: ${shown} has no question ${missing
        .slice(0, 5)
        .map((id) => clip(id))
        .join(', ')}.`,
    );
  const sample = choice.sample;
  const picked = sample ? shuffled(candidates, seededRandom(sample.seed)).slice(0, sample.size) : candidates;
  return { picked: picked.sort((a, b) => a.index - b.index), sha256: hash.digest('hex'), total };
}

/** The folder of each picked question that is played, numbered when two share an id; every one free, or nothing is written. */
function folderNames(picked: readonly Picked[], benchmarks: string, cwd: string): Map<number, string> {
  const names = new Map<number, string>();
  const taken = new Set<string>();
  for (const pick of picked) {
    if (checkTypeOf({ question_id: pick.id, question_type: pick.type, question: '' }) === undefined) continue;
    const base = `longmemeval-${safeName(pick.id)}`;
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

/** Absent, or an empty folder: what a question may be written into. */
function isFreeFolder(target: string): boolean {
  try {
    return lstatSync(target).isDirectory() && readdirSync(target).length === 0;
  } catch {
    return true;
  }
}

/** The second pass: each picked question rendered and written whole as it streams by. */
async function writePicks(
  path: string,
  shown: string,
  names: ReadonlyMap<number, string>,
  haystack: Haystack,
  provenance: Provenance,
  benchmarks: string,
): Promise<RenderedQuestion[]> {
  const written: RenderedQuestion[] = [];
  try {
    for await (const { index, value } of streamJsonArray(path, shown)) {
      const name = names.get(index);
      if (name === undefined) continue;
      const question = renderLongMemEval(value as LongMemEvalItem, haystack, provenance);
      if (!question) continue;
      writeFolderWhole(join(benchmarks, name), question.files);
      written.push({ ...question, name });
    }
  } catch (e) {
    if (e instanceof DatasetFormatError) throw new UsageError(`${e.message} (it changed since it was first read)`);
    throw e;
  }
  return written;
}

function counted(counts: ReadonlyMap<string, number>): string {
  return [...counts].map(([key, count]) => `${key} ${count}`).join(', ') || 'none';
}

function tally(keys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of [...keys].sort()) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

function summaryText(
  written: readonly RenderedQuestion[],
  picked: readonly Picked[],
  total: number,
  provenance: Provenance,
  into: string,
): string {
  const leftOut = picked.filter((p) => p.type === 'single-session-assistant').length;
  const staleWritten = written.filter((q) => q.stale === 'written').length;
  const staleMissing = written.filter((q) => q.stale === 'not found').length;
  const lines = [
    `Imported ${written.length} benchmark${written.length === 1 ? '' : 's'} from ${provenance.fileName} ` +
      `(${total} questions, sha256 ${provenance.sha256.slice(0, 12)}…) into ${into}/, ${provenance.options}:`,
    `  by question type: ${counted(tally(picked.filter((p) => p.type !== 'single-session-assistant').map((p) => p.type)))}`,
    `  by check type: ${counted(tally(written.map((q) => q.checkType)))}`,
  ];
  if (staleWritten + staleMissing > 0)
    lines.push(
      `  knowledge updates: ${staleWritten} with a STALE trap, ${staleMissing} RECALL alone ` +
        '(no number tells the earlier value from the later)',
    );
  lines.push(`  left out: ${leftOut} single-session-assistant${leftOut ? ` (it ${NOT_ON_POLICY})` : ''}`);
  const first = written[0];
  if (first) lines.push(`Next: mmb check --audit ${into}/${first.name}; mmb run --benchmark ${first.name} --rehearse.`);
  return `${lines.join('\n')}\n`;
}
