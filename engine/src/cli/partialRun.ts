/**
 * The runs of `mmb run` made up on the command line: `--from <chapter.md>:<phase>` (maybe `--only`),
 * `--filter <terms>` and `--rehearse` alone (the whole benchmark), of a run of config.jsonc or,
 * rehearsed, of a benchmark alone. Each is a fresh run under a name of its own (`<run>.from-…`,
 * `<run>.phase-…`, `<run>.filter-…`, `<run>.rehearsal`), its settings saved in `run.json` so that
 * `mmb run <name>` resumes it. Whether one is partial is the one rule of `state/partialRule.ts`.
 */
import { join, relative } from 'node:path';
import { folderNameProblem, type Config, type RunConfig } from '../../../scenario/src';
import { rehearsalOf } from '../adapters/registry';
import { UsageError } from '../errors';
import { clipName, MAX_RUN_ID_LENGTH, partialRunName, wholeRehearsalName } from '../protocol/runRequest';
import { filterBenchmark, parseFilter } from '../protocol/runFilter';
import { loadValidBenchmark } from '../workspace/launch';
import { isBenchmarkFolder } from '../workspace/folders';
import type { SavedPartial } from '../workspace/partial';
import { fromPhase } from './fromPhase';
import { unknownBenchmarkError, unknownRunError } from './unknownRun';

export interface PartialRequest {
  /** `chapter2.md:1`; absent for a filtered run. */
  from?: string;
  only: boolean;
  rehearse: boolean;
  /** A benchmark to rehearse with no run of config.jsonc behind it. */
  benchmark?: string;
  /** `--filter`'s terms, as typed. */
  filter?: string;
}

const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** The run for `--from` or `--filter`: a config run (or the benchmark alone) limited to some phases, renamed. */
export function partialRun(
  request: PartialRequest,
  ids: string[],
  config: Config,
  benchmarksDir: string,
  configPath: string,
): SavedPartial {
  const option = request.filter !== undefined ? '--filter' : request.from !== undefined ? '--from' : '--rehearse';
  if (ids.length > 1) throw new UsageError(`${option} runs one run: give one run id.`);
  if (request.filter !== undefined && request.from !== undefined)
    throw new UsageError(
      '--filter and --from do not go together: --filter chapter3 plays that chapter, --from chapter3.md:1 from there to the end.',
    );
  const base = baseRun(request, ids, config, configPath);
  const dir = join(benchmarksDir, base.benchmark);
  if (request.benchmark !== undefined && !isBenchmarkFolder(dir)) throw unknownBenchmarkError(request.benchmark, benchmarksDir);
  const benchmark = loadValidBenchmark(dir, relative(process.cwd(), dir) || dir);
  const mode = request.rehearse ? 'rehearsal' : 'real';
  let run: SavedPartial;
  if (request.filter !== undefined) {
    const filter = parseFilter(request.filter);
    // Refuses, before anything is deleted, a term that names nothing in the benchmark.
    filterBenchmark(benchmark, filter);
    run = { ...base, name: filteredRunName(base.name, filter.text, mode), phases: { from: 0 }, filter: filter.text };
  } else if (request.from === undefined) {
    // The whole benchmark from its first phase: a full run, saved in run.json like the others so that it resumes.
    run = { ...base, name: wholeRehearsalName(base.name), phases: { from: 0 } };
  } else {
    const { chapter, phase, index } = fromPhase(request.from ?? '', benchmark, base.benchmark);
    const name = partialRunName(base.name, { chapter, phase }, request.only ? 'phase-only' : 'to-end', mode);
    run = { ...base, name, phases: request.only ? { from: index, to: index } : { from: index } };
  }
  if (run.name.length > MAX_RUN_ID_LENGTH)
    throw new UsageError(
      `the partial run's name would be ${run.name.length} characters long, more than the ${MAX_RUN_ID_LENGTH} a run id may have: ` +
        "shorten the run's name, the chapter's or the filter.",
    );
  return request.rehearse ? rehearsed({ ...run, rehearse: true }) : run;
}

/** `<base>.filter-chapter3_HIST`: a filter's terms, commas made underscores, as a folder name. */
export function filteredRunName(base: string, filterText: string, mode: 'real' | 'rehearsal'): string {
  return `${base}.filter-${filterText.replace(/,/g, '_')}${mode === 'rehearsal' ? '.rehearsal' : ''}`;
}

/** The run a partial run takes its agent from: a run of config.jsonc, or for a rehearsal the benchmark alone. */
function baseRun(request: PartialRequest, ids: string[], config: Config, configPath: string): RunConfig {
  if (request.benchmark) {
    checkName(request.benchmark, 'the benchmark');
    if (ids.length) throw new UsageError('give a run id or --benchmark, not both.');
    if (!request.rehearse)
      throw new UsageError('--benchmark without a run of config.jsonc has no agent to run for real: add --rehearse, or name a run.');
    return {
      name: request.benchmark,
      benchmark: request.benchmark,
      agent: 'chatbot',
      ignore_session_break: false,
      options: {},
      range: zero,
    };
  }
  const option = request.filter !== undefined ? '--filter HIST' : request.from !== undefined ? '--from chapter1.md:1' : '--rehearse';
  const id = ids[0];
  if (!id)
    throw new UsageError(
      `${option.split(' ')[0]} needs the run to take the agent from: mmb run <run-id> ${option} (or --benchmark <name> --rehearse).`,
    );
  const found = config.runs.find((r) => r.name === id);
  if (!found) throw unknownRunError([id], config, configPath);
  return found;
}

/** A benchmark's name becomes a folder name: no path in it. */
function checkName(name: string, what: string): string {
  const problem = folderNameProblem(name);
  if (problem) throw new UsageError(`${what} "${clipName(name)}" cannot be a folder name: ${problem}.`);
  return name;
}

/** The same run on the stand-in model: no key, no cost; its agent's registry entry says what it plays instead. */
function rehearsed(run: SavedPartial): SavedPartial {
  return { ...run, ...rehearsalOf(run.agent, run.options) };
}
