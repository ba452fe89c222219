/**
 * A benchmark made from a run's state alone, for the report of a run whose benchmark is gone (or
 * broken) and was never kept with it: the chapters and phases the run went through, and a check
 * for each check it graded, at the phase it was graded in. Its questions and answers are not
 * known, and say so; what the report then shows (grades, answers, the conversation) is the state's.
 */
import { MANIFEST_FILE, loadBenchmark, type Benchmark } from '../../../scenario/src';
import type { Position, RunState } from '../state/runState';

/** Bounds on what is made from a state, which is a file of results/ like any other. */
const MAX_CHAPTERS = 20_000;
const MAX_PHASES = 1_000;
const CHECK_ID = /^\d{1,6}\.\d{1,6}$/;

/** What stands in a made check's place of a question and an answer. */
export const UNKNOWN_TEXT = 'not known: the benchmark is not at hand';

/** The chapters the state went through, in play order, each with as many phases as it reached. */
function chaptersOf(state: RunState): { file: string; phases: number }[] {
  const chapters = new Map<string, { index: number; phases: number }>();
  const seen = (position: Position | undefined) => {
    if (!position || typeof position.chapter !== 'string' || !Number.isInteger(position.phase)) return;
    if (position.phase < 0 || position.phase >= MAX_PHASES || /[\\/\n]/.test(position.chapter)) return;
    const known = chapters.get(position.chapter);
    if (!known && chapters.size >= MAX_CHAPTERS) return;
    const index = Number.isInteger(position.chapterIndex) ? position.chapterIndex : chapters.size;
    chapters.set(position.chapter, { index: known?.index ?? index, phases: Math.max(known?.phases ?? 0, position.phase + 1) });
  };
  seen(state.position);
  seen(state.phases?.from);
  seen(state.phases?.to);
  for (const entry of state.transcript) seen(entry.position);
  for (const grades of Object.values(state.grades)) for (const grade of grades) seen(grade.position);
  return [...chapters]
    .sort(([, a], [, b]) => a.index - b.index)
    .map(([file, { phases }]) => ({ file, phases }))
    .filter(({ file }) => file !== MANIFEST_FILE);
}

/** The benchmark the state tells of: chapters, phases and the graded checks, parsed as any benchmark is. */
export function stateBenchmark(state: RunState): Benchmark {
  const chapters = chaptersOf(state);
  const checksAt = new Map<string, string[]>();
  for (const [id, grades] of Object.entries(state.grades)) {
    const at = grades.at(-1)?.position;
    if (!at || !CHECK_ID.test(id)) continue;
    const key = `${at.chapter}\n${at.phase}`;
    checksAt.set(key, [...(checksAt.get(key) ?? []), id]);
  }
  const files = new Map<string, string>();
  files.set(MANIFEST_FILE, JSON.stringify({ chapters: chapters.map((c) => c.file), title: String(state.benchmark) }));
  for (const chapter of chapters) {
    const phases = Array.from({ length: chapter.phases }, (_, phase) => {
      const checks = (checksAt.get(`${chapter.file}\n${phase}`) ?? []).map(
        (id) => `❓ ${id} ${UNKNOWN_TEXT}. Correct answer: ${UNKNOWN_TEXT}.`,
      );
      return [`## Phase ${phase + 1}`, '', ...checks].join('\n');
    });
    files.set(chapter.file, `${phases.join('\n\n')}\n`);
  }
  return loadBenchmark({ name: String(state.benchmark), files });
}
