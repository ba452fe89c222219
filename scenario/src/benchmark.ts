/** A whole benchmark folder: its manifest, chapters and sheets, parsed and cross-indexed. */
import { parseChapter } from './chapter';
import { diagnostic, type Diagnostic } from './diagnostics';
import { MANIFEST_FILE, parseManifest, type Manifest, type ManifestParse } from './manifest';
import type { Chapter, Check, Phase, Sheet, Trap } from './model';
import { parseSheet, sheetName } from './sheet';
import { isPrototypeName, stripBom } from './limits';
import { didYouMeanText, nearNames, suggestionBudget, type SuggestionBudget } from './suggest';
import { LineIndex, lineRange, type Range } from './text';

/**
 * Parsed files by name, reused while their text is unchanged: an editor re-parses only the file
 * being typed in. Pass the same object to every `loadBenchmark` of one folder.
 */
export type ParseCache = Map<string, { text: string; chapter?: Chapter; sheet?: Sheet; manifest?: ManifestParse }>;

/** The files of one benchmark folder: top-level file name → text. No file system here. */
export interface BenchmarkFiles {
  /** The folder's name, which is the benchmark's name. */
  name: string;
  files: ReadonlyMap<string, string>;
  /**
   * Files of the folder the reader did not read, by name, with why, as a clause such as "it is a
   * link that leads out of the benchmark folder". Each is an `unsafe-file` error and is
   * otherwise treated as absent (a listed chapter that was refused gets no `missing-chapter`).
   */
  refused?: ReadonlyMap<string, string>;
}

/** Where in the play order something sits. */
export interface PlayPosition {
  chapter: number;
  phase: number;
}

export interface LocatedCheck extends PlayPosition {
  check: Check;
  file: string;
}

export interface LocatedTrap extends PlayPosition {
  trap: Trap;
  file: string;
}

export interface Benchmark {
  name: string;
  title: string;
  manifest?: Manifest;
  /** The chapters that exist, in play order. */
  chapters: Chapter[];
  sheets: Map<string, Sheet>;
  instructions?: string;
  profile?: string;
  /** Problems of the folder as a whole: manifest, missing files. */
  diagnostics: Diagnostic[];
  /** Every check, in play order. */
  checks: LocatedCheck[];
  /** Every trap write, in play order. */
  traps: LocatedTrap[];
  /** The line index of every file read, by name (chapters, sheets, benchmark.json). */
  lines: Map<string, LineIndex>;
  /** The phases whose JS block switches the agent to a new conversation, in play order. */
  sessionSwitches: PlayPosition[];
  /** Names of sheets whose file was refused: their `unsafe-file` error says it all, refs to them are not reported again. */
  refusedSheets?: Set<string>;
}

const NOT_SHEETS = new Set(['instructions.md', 'readme.md']);
const CHAPTER_NAME = /^chapter\d+\.md$/i;

/** The readable files, BOM-free, and the refused ones, reserved names among them. */
function screenFiles(source: BenchmarkFiles): { files: Map<string, string>; refused: Map<string, string> } {
  const refused = new Map(source.refused ?? []);
  const files = new Map<string, string>();
  for (const [name, text] of source.files) {
    if (refused.has(name)) continue;
    if (/\.md$/i.test(name) && isPrototypeName(sheetName(name))) {
      refused.set(name, `its name \`${sheetName(name)}\` is reserved (the engine keys sheets by name): rename the file`);
    } else files.set(name, stripBom(text));
  }
  return { files, refused };
}

export function loadBenchmark(source: BenchmarkFiles, cache?: ParseCache): Benchmark {
  const diagnostics: Diagnostic[] = [];
  const { files, refused } = screenFiles(source);
  const budget = suggestionBudget();
  const b: Benchmark = {
    name: source.name,
    title: source.name,
    chapters: [],
    sheets: new Map(),
    diagnostics,
    checks: [],
    traps: [],
    sessionSwitches: [],
    lines: new Map(),
  };
  b.refusedSheets = new Set([...refused.keys()].filter((f) => /\.md$/i.test(f)).map(sheetName));
  for (const [name, why] of refused) {
    diagnostics.push(
      diagnostic(
        'unsafe-file',
        name,
        lineRange(0, 0, 0),
        `\`${name}\` is not read: ${why.replace(/[\r\n]+/g, ' ')}. A benchmark reads only regular files inside its own folder.`,
      ),
    );
  }
  loadManifest(b, files, refused, cache);
  const manifest = b.manifest;
  if (manifest?.title) b.title = manifest.title;
  const markdown = [...files.keys()].filter((f) => /\.md$/i.test(f)).sort();
  const listedChapters = new Set(manifest?.chapters.map((c) => c.file) ?? []);
  const unlistedMarkdown = markdown.filter((f) => !listedChapters.has(f));

  loadChapters(b, files, refused, unlistedMarkdown, budget, cache);
  const unlisted = new Set(markdown.filter((f) => CHAPTER_NAME.test(f) && !listedChapters.has(f)));
  if (manifest) {
    for (const f of unlisted) {
      diagnostics.push(
        diagnostic(
          'unlisted-chapter',
          f,
          lineRange(0, 0, 0),
          `\`${f}\` looks like a chapter but ${MANIFEST_FILE} does not list it, so it is never played: add it to \`chapters\`.`,
        ),
      );
    }
  }
  loadSheets(b, files, refused, unlisted, budget, cache);
  loadPersonaTexts(b, files, refused);
  indexPlay(b);
  return b;
}

/** benchmark.json, parsed (or reused from the cache); its absence is an error unless the reader refused it. */
function loadManifest(
  benchmark: Benchmark,
  files: ReadonlyMap<string, string>,
  refused: ReadonlyMap<string, string>,
  cache?: ParseCache,
): void {
  const manifestText = files.get(MANIFEST_FILE);
  if (manifestText === undefined) {
    if (!refused.has(MANIFEST_FILE)) {
      benchmark.diagnostics.push(
        diagnostic(
          'invalid-manifest',
          MANIFEST_FILE,
          lineRange(0, 0, 0),
          `The folder \`${benchmark.name}\` has no ${MANIFEST_FILE}: ` +
            `create one that lists the chapters, as in { "chapters": ["chapter1.md"] }.`,
        ),
      );
    }
  } else {
    const hit = cache?.get(MANIFEST_FILE);
    const parsed = hit?.text === manifestText && hit.manifest ? hit.manifest : parseManifest(manifestText);
    cache?.set(MANIFEST_FILE, { text: manifestText, manifest: parsed });
    benchmark.lines.set(MANIFEST_FILE, parsed.lines);
    for (const d of parsed.diagnostics) benchmark.diagnostics.push(d);
    if (parsed.manifest) benchmark.manifest = parsed.manifest;
  }
}

/** A file benchmark.json lists that the folder lacks, with near names of the files it has. */
function listedButMissing(
  benchmark: Benchmark,
  code: 'missing-chapter' | 'missing-sheet',
  listed: { file: string; range: Range },
  suggestions: string[],
): Diagnostic {
  const what = code === 'missing-chapter' ? 'Chapter' : 'Sheet';
  const message =
    `${what} \`${listed.file}\` is listed but there is no such file in \`${benchmark.name}\`: ` +
    `create it or fix the name.${didYouMeanText(suggestions)}`;
  return diagnostic(code, MANIFEST_FILE, listed.range, message, { suggestions });
}

/** The chapters benchmark.json lists, in its order; a listed file that is missing gets near names of the unlisted ones. */
function loadChapters(
  benchmark: Benchmark,
  files: ReadonlyMap<string, string>,
  refused: ReadonlyMap<string, string>,
  unlistedMarkdown: readonly string[],
  budget: SuggestionBudget,
  cache?: ParseCache,
): void {
  for (const listed of benchmark.manifest?.chapters ?? []) {
    const text = files.get(listed.file);
    if (text === undefined) {
      if (refused.has(listed.file)) continue;
      benchmark.diagnostics.push(
        listedButMissing(benchmark, 'missing-chapter', listed, nearNames(listed.file, unlistedMarkdown, 3, budget)),
      );
      continue;
    }
    const hit = cache?.get(listed.file);
    const chapter = hit?.text === text && hit.chapter ? hit.chapter : parseChapter(text, listed.file);
    cache?.set(listed.file, { text, chapter });
    benchmark.chapters.push(chapter);
    benchmark.lines.set(listed.file, chapter.lines);
  }
}

function loadSheets(
  benchmark: Benchmark,
  files: ReadonlyMap<string, string>,
  refused: ReadonlyMap<string, string>,
  unlisted: ReadonlySet<string>,
  budget: SuggestionBudget,
  cache?: ParseCache,
): void {
  const manifest = benchmark.manifest;
  const markdown = [...files.keys()].filter((f) => /\.md$/i.test(f)).sort();
  const listedChapters = new Set(manifest?.chapters.map((c) => c.file) ?? []);
  let sheetFiles: string[];
  if (manifest?.sheets) {
    sheetFiles = [];
    for (const listed of manifest.sheets) {
      if (files.has(listed.file)) sheetFiles.push(listed.file);
      else if (!refused.has(listed.file)) {
        benchmark.diagnostics.push(listedButMissing(benchmark, 'missing-sheet', listed, nearNames(listed.file, markdown, 3, budget)));
      }
    }
  } else {
    sheetFiles = markdown.filter((f) => !listedChapters.has(f) && !unlisted.has(f) && !NOT_SHEETS.has(f.toLowerCase()));
  }
  for (const f of sheetFiles) {
    const text = files.get(f) ?? '';
    const hit = cache?.get(f);
    const sheet = hit?.text === text && hit.sheet ? hit.sheet : parseSheet(text, f);
    cache?.set(f, { text, sheet });
    benchmark.sheets.set(sheetName(f), sheet);
    benchmark.lines.set(f, sheet.lines);
  }
}

function loadPersonaTexts(benchmark: Benchmark, files: ReadonlyMap<string, string>, refused: ReadonlyMap<string, string>): void {
  const instructions = files.get('instructions.md');
  if (instructions !== undefined) benchmark.instructions = instructions;
  else if (benchmark.manifest && !refused.has('instructions.md')) {
    benchmark.diagnostics.push(
      diagnostic(
        'missing-instructions',
        MANIFEST_FILE,
        lineRange(0, 0, 0),
        `\`${benchmark.name}\` has no instructions.md: write who the persona is there; it goes into the persona's system prompt.`,
      ),
    );
  }
  const profile = files.get('profile.md');
  if (profile !== undefined) benchmark.profile = profile;
}

function indexPlay(benchmark: Benchmark): void {
  benchmark.chapters.forEach((chapter, ci) => {
    for (const phase of chapter.phases) {
      for (const check of phase.checks) benchmark.checks.push({ check, file: chapter.file, chapter: ci, phase: phase.index });
      for (const trap of phase.traps) benchmark.traps.push({ trap, file: chapter.file, chapter: ci, phase: phase.index });
      if (phase.js?.newSession) benchmark.sessionSwitches.push({ chapter: ci, phase: phase.index });
    }
  });
}

export function comparePlay(left: PlayPosition, right: PlayPosition): number {
  return left.chapter - right.chapter || left.phase - right.phase;
}

/** Every phase of the benchmark with its chapter, in play order. */
export function* allPhases(benchmark: Benchmark): Generator<{ chapter: Chapter; chapterIndex: number; phase: Phase }> {
  for (const [chapterIndex, chapter] of benchmark.chapters.entries()) {
    for (const phase of chapter.phases) yield { chapter, chapterIndex, phase };
  }
}

/**
 * How far a check lies from a trap write: chapters apart, and whether the agent switches to a
 * new conversation in between (which makes the check a test of memory rather than of context).
 */
export function distance(benchmark: Benchmark, from: PlayPosition, to: PlayPosition): { chapters: number; sessionSwitch: boolean } {
  // The switches are in play order: the first one after `from` decides, found by bisection.
  let low = 0;
  let high = benchmark.sessionSwitches.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (comparePlay(benchmark.sessionSwitches[middle]!, from) > 0) high = middle;
    else low = middle + 1;
  }
  const next = benchmark.sessionSwitches[low];
  const sessionSwitch = next !== undefined && comparePlay(next, to) <= 0;
  return { chapters: to.chapter - from.chapter, sessionSwitch };
}
