/**
 * Partial runs (some phases of a run, maybe rehearsed) keep their settings in `results/<id>/run.json`,
 * so that `mmb run <id>` resumes them with no config.jsonc entry behind them. The file holds only
 * what a resume needs, picked by an allow-list: nothing that could hold a credential is copied.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENTS } from '../adapters/registry';
import { folderNameProblem, isCredentialKey, isCredentialValue } from '../../../scenario/src';
import { RunDamaged } from '../errors';
import { boolean, count, object, optional, record, string, unknownValue } from '../protocol/shape';
import { oneLine, readRunJson } from '../runFile';
import { PARTIAL_FILE, resultsDir } from '../protocol/layout';
import type { LaunchRun } from './launch';

/** A partial run as saved beside its results. */
export type SavedPartial = LaunchRun & { rehearse?: boolean };

/** The run keys a resume passes on to its adapter; any other key of the run is not saved. */
/** Every run key some agent declares: a partial run resumes with its agent's keys and nothing else. */
const RESUMABLE_KEYS = [...new Set(Object.values(AGENTS).flatMap((entry) => Object.keys(entry.runKeys)))];
const MODEL_KEYS = ['model', 'base_url', 'api_key_env'];
const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

export function savePartial(root: string, run: SavedPartial): void {
  const dir = join(resultsDir(root), run.name);
  mkdirSync(dir, { recursive: true });
  const saved = {
    name: run.name,
    benchmark: run.benchmark,
    agent: run.agent,
    ignore_session_break: run.ignore_session_break,
    options: resumableOptions(run.options),
    phases: run.phases,
    filter: run.filter,
    rehearse: run.rehearse,
  };
  writeFileSync(join(dir, PARTIAL_FILE), `${JSON.stringify(saved, null, 2)}\n`);
}

/**
 * The shape of `run.json` (`SavedPartial` as `savePartial` writes it). The folder names the run and
 * the options are picked again by the allow-list, so `name` and the options' own values are let be.
 */
const SAVED_PARTIAL_SHAPE = object({
  name: optional(string()),
  benchmark: string(),
  agent: string(),
  ignore_session_break: optional(boolean()),
  options: optional(record(unknownValue())),
  phases: optional(object({ from: count(), to: optional(count()) })),
  filter: optional(string()),
  rehearse: optional(boolean()),
});

/** The saved settings of partial run `id`, undefined when it has none; a damaged `run.json` is `RunDamaged`. */
export function loadPartial(root: string, id: string): SavedPartial | undefined {
  const file = join(resultsDir(root), id, PARTIAL_FILE);
  const saved = readRunJson(file, SAVED_PARTIAL_SHAPE)?.value;
  if (!saved) return undefined;
  const benchmark = saved.benchmark;
  const problem = folderNameProblem(benchmark);
  if (problem)
    throw new RunDamaged(file, PARTIAL_FILE, `it names the benchmark "${oneLine(benchmark)}", which cannot be a folder name: ${problem}`);
  // The folder names the run, whatever the file says (a copied folder must not act on another run),
  // and a file edited by hand gets no more than a saved one would hold.
  // A filter is parsed again as the run starts: a hand-edited one is bounded and checked like a typed one.
  const { options = {}, ignore_session_break = false, ...rest } = saved;
  return { ...rest, ignore_session_break, name: id, benchmark, options: resumableOptions(options), range: zero };
}

/** The allowed run keys, with no credential-named key and no URL with userinfo at any depth. */
export function resumableOptions(options: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of RESUMABLE_KEYS) {
    const value = options[key];
    if (value === undefined) continue;
    if (key === 'agent_model' && typeof value === 'object' && value !== null) {
      const model = value as Record<string, unknown>;
      out[key] = Object.fromEntries(
        MODEL_KEYS.filter((k) => typeof model[k] === 'string' && !isCredentialValue(model[k] as string)).map((k) => [k, model[k]]),
      );
      continue;
    }
    // A reviver drops what could hold a credential without recursing on the value's depth.
    const cleaned: unknown = JSON.parse(JSON.stringify(value), (name: string, inner: unknown) =>
      isCredentialKey(name) || (typeof inner === 'string' && isCredentialValue(inner)) ? undefined : inner,
    );
    if (cleaned !== undefined) out[key] = cleaned;
  }
  return out;
}
