/**
 * Which runs one `mmb run` plays and how many at once: `--repeat N` makes N independent runs of
 * each run named (`<id>#1` … `<id>#N`), `--shard I/N` keeps this machine's share of them, and
 * `-j, --max-concurrency N` overrides the config's `parallel`.
 */
import type { Config } from '../../../scenario/src';
import { UsageError } from '../errors';
import { MAX_REPEATS, repeatId, repeatOf } from '../protocol/runRequest';
import type { SavedPartial } from '../workspace/partial';

export interface RunSelection {
  repeat?: number;
  /** 1-based: shard `index` of `total`. */
  shard?: { index: number; total: number };
  maxConcurrency?: number;
}

export const SELECTION_OPTIONS = { repeat: '--repeat', shard: '--shard', maxConcurrency: '--max-concurrency' } as const;

/** The most machines a shard count may name, and the most runs played at once. */
const MAX_SHARDS = 1000;
const MAX_CONCURRENCY = 64;

/** The selection options of a command line, checked. */
export function runSelectionOf(option: (name: string) => string | undefined): RunSelection {
  const selection: RunSelection = {};
  const repeat = option(SELECTION_OPTIONS.repeat);
  if (repeat !== undefined) selection.repeat = wholeNumber(SELECTION_OPTIONS.repeat, repeat, MAX_REPEATS, '3');
  const concurrency = option(SELECTION_OPTIONS.maxConcurrency);
  if (concurrency !== undefined) selection.maxConcurrency = wholeNumber('-j, --max-concurrency', concurrency, MAX_CONCURRENCY, '4');
  const shard = option(SELECTION_OPTIONS.shard);
  if (shard !== undefined) {
    const match = /^(\d{1,4})\/(\d{1,4})$/.exec(shard);
    const index = Number(match?.[1]);
    const total = Number(match?.[2]);
    if (!match || total < 1 || total > MAX_SHARDS || index < 1 || index > total) {
      throw new UsageError(
        `--shard needs this machine's number and the number of machines, as in --shard 1/3 (1 to 3; got "${shard.slice(0, 40)}").`,
      );
    }
    selection.shard = { index, total };
  }
  return selection;
}

function wholeNumber(name: string, value: string, max: number, example: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < 1 || number > max)
    throw new UsageError(
      `${name} needs a whole number from 1 to ${max}, as in ${name.split(' ').pop()} ${example} (got "${value.slice(0, 40)}").`,
    );
  return number;
}

/** Each run `repeat` times, as `<id>#1` … `<id>#N`, in order: every repeat of the first run, then of the next. */
export function repeated(runs: readonly SavedPartial[], repeat: number | undefined): SavedPartial[] {
  if (repeat === undefined) return [...runs];
  const nested = runs.find((run) => repeatOf(run.name));
  if (nested)
    throw new UsageError(`"${nested.name}" is a repeat already: --repeat takes the run it repeats (${repeatOf(nested.name)!.base}).`);
  return runs.flatMap((run) => Array.from({ length: repeat }, (_, i) => ({ ...run, name: repeatId(run.name, i + 1) })));
}

/** The runs of shard I/N: the k-th run (0-based) goes to shard k mod N + 1, so every machine computes the same split. */
export function sharded<Run>(runs: readonly Run[], shard: RunSelection['shard']): Run[] {
  if (!shard) return [...runs];
  return runs.filter((_, k) => k % shard.total === shard.index - 1);
}

/** `mmb run chatbot-1#2`: the second repeat of a run of config.jsonc, to resume or restart by its id. */
export function repeatedConfigRun(config: Config, id: string): SavedPartial | undefined {
  const repeat = repeatOf(id);
  const base = repeat ? config.runs.find((run) => run.name === repeat.base) : undefined;
  return base ? { ...base, name: id } : undefined;
}

/** The config with `-j`'s concurrency in place of its `parallel`. */
export function withConcurrency(config: Config, selection: RunSelection): Config {
  return selection.maxConcurrency === undefined ? config : { ...config, parallel: selection.maxConcurrency };
}
