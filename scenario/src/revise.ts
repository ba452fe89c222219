/**
 * A folder's model after some of its texts changed, built from the previous model: a changed
 * chapter or sheet is parsed again and put in its place, and the play indexes (checks, traps,
 * session switches) are spliced at that chapter, so a keystroke costs one parse, not the folder.
 */
import {
  loadBenchmark,
  type Benchmark,
  type BenchmarkFiles,
  type LocatedCheck,
  type LocatedTrap,
  type ParseCache,
  type PlayPosition,
} from './benchmark';
import { parseChapter } from './chapter';
import { isPrototypeName, stripBom } from './limits';
import type { Chapter } from './model';
import { parseSheet, sheetName } from './sheet';

/**
 * The model of `source`, equal to `loadBenchmark(source, cache)`. When every file named in
 * `changed` is a chapter or a sheet of `previous` that is still there and readable, only those
 * files are parsed again; any other change (benchmark.json, a file added, removed or refused,
 * instructions.md, a file that is both a chapter and a sheet) loads the whole folder, through
 * the parse cache. `changed` must name every file whose text differs from `previous`'s.
 */
export function updateBenchmark(
  previous: Benchmark | undefined,
  source: BenchmarkFiles,
  changed: ReadonlySet<string>,
  cache: ParseCache,
): Benchmark {
  if (!previous) return loadBenchmark(source, cache);
  let b: Benchmark = previous;
  for (const file of changed) {
    const revised = reviseFile(b, source, file, cache);
    if (!revised) return loadBenchmark(source, cache);
    b = revised;
  }
  return b;
}

/** The model with one file's new text, or undefined when that file is not simply a chapter or a sheet. */
function reviseFile(benchmark: Benchmark, source: BenchmarkFiles, file: string, cache: ParseCache): Benchmark | undefined {
  const raw = source.files.get(file);
  if (raw === undefined || source.refused?.has(file) || !/\.md$/i.test(file) || isPrototypeName(sheetName(file))) return undefined;
  const text = stripBom(raw);
  const chapterIndexes: number[] = [];
  benchmark.chapters.forEach((chapter, index) => {
    if (chapter.file === file) chapterIndexes.push(index);
  });
  const isSheet = benchmark.sheets.get(sheetName(file))?.file === file;
  const [chapterIndex] = chapterIndexes;
  if (chapterIndexes.length === 1 && !isSheet && chapterIndex !== undefined) return withChapter(benchmark, chapterIndex, text, cache);
  if (chapterIndexes.length === 0 && isSheet) return withSheet(benchmark, file, text, cache);
  return undefined;
}

function withChapter(benchmark: Benchmark, chapterIndex: number, text: string, cache: ParseCache): Benchmark {
  const old = benchmark.chapters[chapterIndex];
  if (!old) return benchmark;
  const hit = cache.get(old.file);
  const chapter = hit?.text === text && hit.chapter ? hit.chapter : parseChapter(text, old.file);
  cache.set(old.file, { text, chapter });
  if (chapter === old) return benchmark;
  const chapters = [...benchmark.chapters];
  chapters[chapterIndex] = chapter;
  const lines = new Map(benchmark.lines);
  lines.set(chapter.file, chapter.lines);
  const own = playIndexes(chapter, chapterIndex);
  return {
    ...benchmark,
    chapters,
    lines,
    checks: splice(benchmark.checks, chapterIndex, own.checks),
    traps: splice(benchmark.traps, chapterIndex, own.traps),
    sessionSwitches: splice(benchmark.sessionSwitches, chapterIndex, own.sessionSwitches),
  };
}

function withSheet(benchmark: Benchmark, file: string, text: string, cache: ParseCache): Benchmark {
  const hit = cache.get(file);
  const sheet = hit?.text === text && hit.sheet ? hit.sheet : parseSheet(text, file);
  cache.set(file, { text, sheet });
  if (benchmark.sheets.get(sheet.name) === sheet) return benchmark;
  const sheets = new Map(benchmark.sheets);
  sheets.set(sheet.name, sheet);
  const lines = new Map(benchmark.lines);
  lines.set(file, sheet.lines);
  return { ...benchmark, sheets, lines };
}

/** One chapter's entries of the play indexes, as `loadBenchmark` makes them. */
function playIndexes(
  chapter: Chapter,
  chapterIndex: number,
): { checks: LocatedCheck[]; traps: LocatedTrap[]; sessionSwitches: PlayPosition[] } {
  const own = { checks: [] as LocatedCheck[], traps: [] as LocatedTrap[], sessionSwitches: [] as PlayPosition[] };
  for (const phase of chapter.phases) {
    for (const check of phase.checks) own.checks.push({ check, file: chapter.file, chapter: chapterIndex, phase: phase.index });
    for (const trap of phase.traps) own.traps.push({ trap, file: chapter.file, chapter: chapterIndex, phase: phase.index });
    if (phase.js?.newSession) own.sessionSwitches.push({ chapter: chapterIndex, phase: phase.index });
  }
  return own;
}

/** One chapter's entries of a play-ordered list, found by bisection. */
export function chapterEntries<T extends PlayPosition>(list: readonly T[], chapterIndex: number): T[] {
  return list.slice(firstAtOrAfter(list, chapterIndex), firstAtOrAfter(list, chapterIndex + 1));
}

/** A play-ordered list with one chapter's entries replaced. */
function splice<T extends PlayPosition>(list: readonly T[], chapterIndex: number, own: readonly T[]): T[] {
  const from = firstAtOrAfter(list, chapterIndex);
  const to = firstAtOrAfter(list, chapterIndex + 1);
  const out = list.slice(0, from);
  for (const entry of own) out.push(entry);
  for (let i = to; i < list.length; i++) out.push(list[i] as T);
  return out;
}

function firstAtOrAfter(list: readonly PlayPosition[], chapterIndex: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((list[middle]?.chapter ?? 0) < chapterIndex) low = middle + 1;
    else high = middle;
  }
  return low;
}
