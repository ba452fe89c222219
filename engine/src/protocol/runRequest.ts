/**
 * The `mmb run` command line as a typed request: the editor builds a `RunRequest`, this module
 * turns it into the arguments of `mmb run` and names the results folder the run will write,
 * and the CLI parses those arguments (a test round-trips requests through both). Partial runs and
 * whole rehearsals are named here alone, so the editor finds the folder the engine writes.
 */
import { shorten } from '../../../scenario/src/plainText';

/** A phase of a benchmark: the chapter's file and the phase, 1-based, as `--from` takes it. */
export interface PhaseRef {
  chapter: string;
  phase: number;
}

/** A run of config.jsonc: started or resumed where it stopped, or restarted (its results deleted first). */
export interface ConfiguredRunRequest {
  kind: 'configured';
  run: string;
  start: 'resume' | 'restart';
}

/**
 * A fresh run of some phases: from one phase to the end, or that phase only; for real with a run's
 * agent, or rehearsed on the stand-in model. A benchmark alone, with no run of config.jsonc to take
 * the agent from, can only be rehearsed (the CLI refuses it for real).
 */
export interface PartialRunRequest {
  kind: 'partial';
  base: { run: string } | { benchmark: string };
  from: PhaseRef;
  scope: 'phase-only' | 'to-end';
  mode: 'real' | 'rehearsal';
}

/**
 * The whole benchmark on the stand-in, from its first phase to its last: `mmb run <run> --rehearse`
 * or `mmb run --benchmark <name> --rehearse`. A full run (`state/partialRule.ts`), named `<base>.rehearsal`.
 */
export interface WholeRehearsalRequest {
  kind: 'rehearsal';
  base: { run: string } | { benchmark: string };
}

export type RunRequest = ConfiguredRunRequest | PartialRunRequest | WholeRehearsalRequest;

/** The `mmb run` options the requests use; the CLI's option table declares the same names. */
export const RUN_OPTIONS = {
  restart: '--restart',
  from: '--from',
  only: '--only',
  rehearse: '--rehearse',
  benchmark: '--benchmark',
} as const;

/** `--from`'s value: `chapter2.md:1`. */
export function phaseArgument(from: PhaseRef): string {
  return `${from.chapter}:${from.phase}`;
}

/** The arguments after `mmb run` that make the engine do what the request says. */
export function runArguments(request: RunRequest): string[] {
  if (request.kind === 'configured') return [request.run, ...(request.start === 'restart' ? [RUN_OPTIONS.restart] : [])];
  const base = 'run' in request.base ? [request.base.run] : [RUN_OPTIONS.benchmark, request.base.benchmark];
  if (request.kind === 'rehearsal') return [...base, RUN_OPTIONS.rehearse];
  return [
    ...base,
    RUN_OPTIONS.from,
    phaseArgument(request.from),
    ...(request.scope === 'phase-only' ? [RUN_OPTIONS.only] : []),
    ...(request.mode === 'rehearsal' ? [RUN_OPTIONS.rehearse] : []),
  ];
}

/**
 * The name of a partial run, its folder under `results/`: `<base>.phase-chapter2-1` for one
 * phase, `<base>.from-chapter2-1` to the end, `.rehearsal` added on the stand-in. `base` is the
 * run of config.jsonc, or the benchmark for a rehearsal of the benchmark alone.
 */
export function partialRunName(base: string, from: PhaseRef, scope: PartialRunRequest['scope'], mode: PartialRunRequest['mode']): string {
  const chapter = from.chapter.replace(/\.md$/i, '');
  return `${base}.${scope === 'phase-only' ? 'phase' : 'from'}-${chapter}-${from.phase}${mode === 'rehearsal' ? '.rehearsal' : ''}`;
}

/** `<base>.rehearsal`: the run of `mmb run --benchmark <name> --rehearse` (or `<run> --rehearse`), every phase on the stand-in. */
export function wholeRehearsalName(base: string): string {
  return `${base}.rehearsal`;
}

/** The run the request makes: the folder of `results/` it writes, and the name the editor shows. */
export function requestedRunName(request: RunRequest): string {
  if (request.kind === 'configured') return request.run;
  const base = 'run' in request.base ? request.base.run : request.base.benchmark;
  if (request.kind === 'rehearsal') return wholeRehearsalName(base);
  return partialRunName(base, request.from, request.scope, request.mode);
}

/**
 * The longest run id: a config name of up to MAX_NAME_LENGTH plus a partial run's suffix, well
 * under the 255 bytes a file system gives one name (ids are ASCII, so characters are bytes).
 */
export const MAX_RUN_ID_LENGTH = 200;

/** Why a run id given to `mmb run` or `mmb report` cannot name one folder of results/; undefined when it can. */
export function runIdProblem(id: string): string | undefined {
  const notAFolder = `the run "${clipName(id)}" cannot be a folder name`;
  if (id.length > MAX_RUN_ID_LENGTH)
    return `${notAFolder}: it must be at most ${MAX_RUN_ID_LENGTH} characters long (this one has ${id.length})`;
  if (!/^[A-Za-z0-9][\w.-]*(?:#[1-9]\d{0,2})?$/.test(id)) {
    const allowed =
      'it may hold only letters, digits, `.`, `_` and `-` (a repeat ends in `#<n>`), starting with a letter or digit (no path)';
    return `${notAFolder}: ${allowed}`;
  }
  return undefined;
}

/** The most repeats `--repeat` makes of one run. */
export const MAX_REPEATS = 100;

/**
 * The repeat a run id names: `chatbot-1#3` is the third of `mmb run chatbot-1 --repeat N`. `#`
 * never appears in a config's run names, is safe in a folder name on every common file system,
 * and is written `%23` wherever an id becomes part of a URL.
 */
export function repeatOf(id: string): { base: string; index: number } | undefined {
  const match = /^(.+)#([1-9]\d{0,2})$/.exec(id);
  return match ? { base: match[1]!, index: Number(match[2]) } : undefined;
}

/** The id of the `index`th repeat (1-based) of a run. */
export function repeatId(base: string, index: number): string {
  return `${base}#${index}`;
}

/** A name (or any untrusted text) cut for a one-line message. */
export function clipName(name: string, max = 60): string {
  return shorten(name, max);
}
