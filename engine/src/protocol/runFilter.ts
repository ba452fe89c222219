/**
 * `mmb run --filter`: a partial run of some chapters or checks of a benchmark. The filter is a
 * list of terms, each a chapter (`chapter3`, `chapter3.md`), a check id (`20.16`) or a check type
 * (`HIST`). Chapter terms pick where, check and type terms pick what; both given, the picked checks
 * of the picked chapters. The filtered benchmark keeps every chapter (so chapter indexes stay
 * those of the whole benchmark, as saved positions need) but only the phases that hold something
 * picked, and in them only the picked checks: the lines of the others are hidden from the persona.
 */
import { CHECK_TYPES, type Benchmark, type Phase } from '../../../scenario/src';
import { didYouMeanSentence } from '../didYouMean';
import { UsageError } from '../errors';

/** A filter as the command line gives it, taken apart. */
export interface RunFilter {
  /** The filter as written, terms trimmed and joined by `,`: what state.json and the run's name keep. */
  text: string;
  /** Chapter files, lower case: `chapter3.md`. */
  chapters: string[];
  checkIds: string[];
  /** Check types, upper case. */
  types: string[];
}

/** Bounds of a filter: it comes from a command line or a saved run.json. */
const MAX_FILTER_CHARS = 500;
const MAX_TERMS = 50;
const CHAPTER_TERM = /^chapter\d{1,4}(?:\.md)?$/i;
const CHECK_ID_TERM = /^\d{1,5}\.\d{1,5}$/;
const TYPE_TERM = /^[A-Za-z][A-Za-z_-]{0,30}$/;

/** Parses `chapter3,HIST,20.16`; a term of none of the three forms is a usage error. */
export function parseFilter(text: string): RunFilter {
  if (text.length > MAX_FILTER_CHARS)
    throw new UsageError(`--filter is ${text.length} characters long, more than ${MAX_FILTER_CHARS}: pick fewer terms.`);
  const terms = text
    .split(',')
    .map((term) => term.trim())
    .filter(Boolean);
  if (terms.length === 0)
    throw new UsageError(
      '--filter needs a term: a chapter (chapter3), a check id (20.16) or a check type (HIST), several joined by commas.',
    );
  if (terms.length > MAX_TERMS) throw new UsageError(`--filter has ${terms.length} terms, more than ${MAX_TERMS}.`);
  const filter: RunFilter = { text: terms.join(','), chapters: [], checkIds: [], types: [] };
  for (const term of terms) {
    if (CHAPTER_TERM.test(term)) filter.chapters.push(term.toLowerCase().replace(/(?:\.md)?$/, '.md'));
    else if (CHECK_ID_TERM.test(term)) filter.checkIds.push(term);
    else if (TYPE_TERM.test(term)) filter.types.push(term.toUpperCase());
    else
      throw new UsageError(
        `--filter: "${term.slice(0, 40)}" is neither a chapter (chapter3), a check id (20.16) nor a check type (HIST).` +
          // `chaptr3.md` was meant as a chapter: the chapter term of the same number is the one candidate.
          didYouMeanSentence(term, [term.replace(/^[a-z]+/i, 'chapter')]),
      );
  }
  return filter;
}

/** The checks a filter picks, wherever they are: also of a benchmark that changed since the run (no term is checked). */
export function pickedChecks(checks: Benchmark['checks'], filter: RunFilter): Benchmark['checks'] {
  const anyCheckTerm = filter.checkIds.length > 0 || filter.types.length > 0;
  return checks.filter(
    (located) =>
      (filter.chapters.length === 0 || filter.chapters.includes(located.file.toLowerCase())) &&
      (!anyCheckTerm || filter.checkIds.includes(located.check.id) || filter.types.includes(located.check.type ?? '')),
  );
}

/** The benchmark as the filtered run plays it; a term that names nothing there is a usage error naming what there is. */
export function filterBenchmark(benchmark: Benchmark, filter: RunFilter): Benchmark {
  checkTermsExist(benchmark, filter);
  const pickedChapter = (file: string) => filter.chapters.length === 0 || filter.chapters.includes(file.toLowerCase());
  const anyCheckTerm = filter.checkIds.length > 0 || filter.types.length > 0;
  const pickedCheck = (check: Phase['checks'][number]) =>
    !anyCheckTerm || filter.checkIds.includes(check.id) || filter.types.includes(check.type ?? '');
  const chapters = benchmark.chapters.map((chapter) => {
    if (!pickedChapter(chapter.file)) return { ...chapter, phases: [] };
    const phases = chapter.phases
      .filter((phase) => !anyCheckTerm || phase.checks.some(pickedCheck))
      .map((phase) => hideChecks(phase, pickedCheck));
    return { ...chapter, phases };
  });
  const kept = new Set(chapters.flatMap((chapter) => chapter.phases.map((phase) => `${chapter.file}\n${phase.index}`)));
  const inKept = (located: { file: string; phase: number }) => kept.has(`${located.file}\n${located.phase}`);
  if (kept.size === 0)
    throw new UsageError(`--filter ${filter.text} picks no phase of ${benchmark.name}: its chapters and its checks do not meet.`);
  return {
    ...benchmark,
    chapters,
    checks: benchmark.checks.filter((located) => inKept(located) && pickedCheck(located.check)),
    traps: benchmark.traps.filter(inKept),
    sessionSwitches: benchmark.sessionSwitches.filter((position) =>
      kept.has(`${benchmark.chapters[position.chapter]?.file}\n${position.phase}`),
    ),
  };
}

/** The phase with only its picked checks; the lines of the others are hidden, so the persona never asks them. */
function hideChecks(phase: Phase, picked: (check: Phase['checks'][number]) => boolean): Phase {
  const dropped = phase.checks.filter((check) => !picked(check));
  if (dropped.length === 0) return phase;
  const lines = dropped.flatMap((check) =>
    Array.from({ length: check.range.end.line - check.range.start.line + 1 }, (_, i) => check.range.start.line + i),
  );
  return { ...phase, checks: phase.checks.filter(picked), hiddenLines: [...new Set([...phase.hiddenLines, ...lines])] };
}

function checkTermsExist(benchmark: Benchmark, filter: RunFilter): void {
  const files = benchmark.chapters.map((chapter) => chapter.file);
  for (const chapter of filter.chapters) {
    if (!files.some((file) => file.toLowerCase() === chapter))
      throw new UsageError(
        `--filter: ${benchmark.name} has no chapter ${chapter}; its chapters: ${files.join(', ')}.${didYouMeanSentence(chapter, files)}`,
      );
  }
  const ids = benchmark.checks.map((located) => located.check.id);
  for (const id of filter.checkIds) {
    if (!ids.includes(id)) throw new UsageError(`--filter: ${benchmark.name} has no check ${id}.${didYouMeanSentence(id, ids)}`);
  }
  const types = new Set(benchmark.checks.flatMap((located) => (located.check.type ? [located.check.type] : [])));
  for (const type of filter.types) {
    if ((types as Set<string>).has(type)) continue;
    const known = Object.hasOwn(CHECK_TYPES, type) ? `${benchmark.name} has no check of type ${type}` : `${type} is not a check type`;
    throw new UsageError(
      `--filter: ${known}; its checks' types: ${[...types].join(', ') || 'none'}.${didYouMeanSentence(type, [...types])}`,
    );
  }
}
