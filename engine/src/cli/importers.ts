/**
 * What `mmb import` knows of each dataset, one entry each: its schema check, how an item is named
 * and typed for `--ids`, `--types` and the summary, whether it can be played, its folder, its
 * rendering, and the summary's lines. `import.ts` streams and writes; this table says what.
 */
import {
  checkTypeOf,
  longMemEvalDifference,
  LONGMEMEVAL_TYPES,
  NOT_ON_POLICY,
  type Haystack,
  type LongMemEvalItem,
} from '../import/longmemeval';
import { renderLongMemEval } from '../import/longmemevalRender';
import { locomoDifference, type LocomoItem } from '../import/locomo';
import { renderLocomo } from '../import/locomoRender';
import { hopOf, mabDifference, mabRefusal, type MabRow } from '../import/memoryAgentBench';
import { renderMemoryAgentBench } from '../import/memoryAgentBenchRender';
import { DATASETS, type DatasetInfo, type DatasetKey, type Provenance } from '../import/provenance';
import { safeName } from '../import/safeText';
import type { ShapeDifference } from '../import/shape';

/** An item as the first pass keeps it: its place, id and type. */
export interface Picked {
  index: number;
  id: string;
  type: string;
}

/** A rendered item: its files, and the words the summary counts it by (`check RECALL`, `STALE written`, `category temporal`). */
export interface Rendered {
  files: Map<string, string>;
  tallies: string[];
}

export interface Importer {
  info: DatasetInfo;
  /** The item types `--types` may name; none: the option is refused. */
  types: readonly string[];
  /** Whether `--haystack` means anything for the dataset. */
  haystack: boolean;
  difference(value: unknown): ShapeDifference | undefined;
  /** Why an item that fits the schema is refused, with the whole file (a row of a split that is not played). */
  refusal?(value: unknown): string | undefined;
  describe(value: unknown): { id: string; type: string };
  /** Why a picked item is not played, or undefined when it is. */
  leftOut(pick: Picked): string | undefined;
  folder(id: string): string;
  render(value: unknown, haystack: Haystack, provenance: Provenance): Rendered | undefined;
  /** The summary's line on the updates played as STALE traps, from the renderings' tallies; none when there were none. */
  updatesLine?(tallies: readonly string[]): string | undefined;
}

/** The tallies that start with `prefix `, without it. */
const prefixed = (tallies: readonly string[], prefix: string) =>
  tallies.filter((t) => t.startsWith(`${prefix} `)).map((t) => t.slice(prefix.length + 1));

const LONGMEMEVAL: Importer = {
  info: DATASETS.longmemeval,
  types: LONGMEMEVAL_TYPES,
  haystack: true,
  difference: longMemEvalDifference,
  describe: (value) => {
    const item = value as LongMemEvalItem;
    return { id: item.question_id, type: item.question_type };
  },
  leftOut: (pick) => (checkTypeOf({ question_id: pick.id, question_type: pick.type, question: '' }) ? undefined : `it ${NOT_ON_POLICY}`),
  folder: (id) => `longmemeval-${safeName(id)}`,
  render: (value, haystack, provenance) => {
    const question = renderLongMemEval(value as LongMemEvalItem, haystack, provenance);
    if (!question) return undefined;
    const stale = question.stale ? [`knowledge update ${question.stale === 'written' ? 'with a STALE trap' : 'RECALL alone'}`] : [];
    return { files: question.files, tallies: [`check ${question.checkType}`, ...stale] };
  },
  updatesLine: (tallies) => {
    const updates = prefixed(tallies, 'knowledge update');
    if (updates.length === 0) return undefined;
    const trapped = updates.filter((u) => u === 'with a STALE trap').length;
    return (
      `  knowledge updates: ${trapped} with a STALE trap, ${updates.length - trapped} RECALL alone ` +
      '(no number tells the earlier value from the later)'
    );
  },
};

const LOCOMO: Importer = {
  info: DATASETS.locomo,
  types: [],
  haystack: false,
  difference: locomoDifference,
  describe: (value) => ({ id: String((value as LocomoItem).sample_id), type: 'conversation' }),
  leftOut: () => undefined,
  folder: (id) => `locomo-${safeName(id)}`,
  render: (value, _haystack, provenance) => {
    const conversation = renderLocomo(value as LocomoItem, provenance);
    return {
      files: conversation.files,
      tallies: [...conversation.categories].flatMap(([name, n]) => Array<string>(n).fill(`category ${name}`)),
    };
  },
};

const MEMORYAGENTBENCH: Importer = {
  info: DATASETS.memoryagentbench,
  types: [],
  haystack: false,
  difference: mabDifference,
  refusal: mabRefusal,
  describe: (value) => {
    const source = (value as MabRow).metadata.source;
    return { id: source, type: hopOf(source) ?? 'other' };
  },
  leftOut: () => undefined,
  folder: (id) => `memoryagentbench-${safeName(id)}`,
  render: (value, _haystack, provenance) => {
    const row = renderMemoryAgentBench(value as MabRow, provenance);
    const updates = row.checks.map((check) => `update ${check.trapped ? 'with a STALE trap' : 'not found'}`);
    return { files: row.files, tallies: [...row.checks.map((check) => `check ${check.type}`), ...updates] };
  },
  updatesLine: (tallies) => {
    const updates = prefixed(tallies, 'update');
    const trapped = updates.filter((u) => u === 'with a STALE trap').length;
    return (
      `  questions asking for an update: ${trapped} with a STALE trap, ${updates.length - trapped} without ` +
      '(no earlier fact of the same subject and relation found, or multi-hop)'
    );
  },
};

export const IMPORTERS: Readonly<Record<DatasetKey, Importer>> = {
  longmemeval: LONGMEMEVAL,
  locomo: LOCOMO,
  memoryagentbench: MEMORYAGENTBENCH,
};

function counted(keys: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const key of [...keys].sort()) counts.set(key, (counts.get(key) ?? 0) + 1);
  return [...counts].map(([key, count]) => `${key} ${count}`).join(', ') || 'none';
}

/** The summary's lines after the first: by item type, by what the rendering counted, what was left out and why. */
export function summaryLines(importer: Importer, picked: readonly Picked[], written: readonly Rendered[]): string[] {
  const tallies = written.flatMap((w) => w.tallies);
  const played = picked.filter((p) => importer.leftOut(p) === undefined);
  const lines: string[] = [];
  if (importer.types.length) lines.push(`  by question type: ${counted(played.map((p) => p.type))}`);
  const [checks, categories] = [prefixed(tallies, 'check'), prefixed(tallies, 'category')];
  if (checks.length) lines.push(`  by check type: ${counted(checks)}`);
  if (categories.length) lines.push(`  questions by category: ${counted(categories)}`);
  const updates = written.length ? importer.updatesLine?.(tallies) : undefined;
  if (updates) lines.push(updates);
  const reasons = new Map<string, string[]>();
  for (const pick of picked) {
    const why = importer.leftOut(pick);
    if (why) reasons.set(pick.type, [...(reasons.get(pick.type) ?? []), why]);
  }
  if (importer.types.length || reasons.size)
    lines.push(`  left out: ${[...reasons].map(([type, whys]) => `${whys.length} ${type} (${whys[0]})`).join('; ') || 'none'}`);
  return lines;
}
