/**
 * What a chapter's marks say, decided once for the lenses, the gutter, the hovers and the Test
 * Explorer: which checks failed in a run that played the trap writes aimed at them (the only red),
 * which were graded by a partial run that never played them, and which trap lines caught a check.
 * No VS Code here, so that it is tested on plain values.
 */
import {
  expandTemplatesIn,
  parseChapter,
  startMoment,
  type Benchmark,
  type LocatedCheck,
  type LocatedTrap,
  type PlayPosition,
} from '../../scenario/src';
import {
  countsAgainstAgent,
  passes,
  scoreBand,
  trapPlayedBefore,
  type GradePlay,
  type Position,
  type ScoreBand,
} from '../../engine/src/api';
import type { LatestGrade } from './results';

/** The gutter icon of a graded check: its score band, or `unplayed` for a failure its run cannot be blamed for. */
export type CheckIcon = ScoreBand | 'unplayed';

export interface CheckMark {
  located: LocatedCheck;
  grade: LatestGrade;
  icon: CheckIcon;
  passed: boolean;
  /** Failed in a run that played every trap write aimed at the check before grading it. */
  blamed: boolean;
  /** The trap writes aimed at the check that its run did not play before grading it. */
  unplayed: LocatedTrap[];
}

export interface TrapMark {
  located: LocatedTrap;
  /** The checks it aims at that failed in a run that played it, by id. */
  caught: CheckMark[];
}

/** Where a saved position is in the benchmark as it is now, by its chapter's file (chapters may have moved). */
function playPosition(benchmark: Benchmark, position: Position): PlayPosition {
  const index = benchmark.chapters.findIndex((c) => c.file === position.chapter);
  return { chapter: index >= 0 ? index : position.chapterIndex, phase: position.phase };
}

/** Where and from where the run a grade came from played, for the engine's one count rule (`countsAgainstAgent`). */
function gradePlay(benchmark: Benchmark, grade: LatestGrade, traps: readonly LocatedTrap[] = []): GradePlay {
  const partialFrom = grade.phases ? playPosition(benchmark, grade.phases.from) : undefined;
  return { traps, gradedAt: playPosition(benchmark, grade.grade.position), partialFrom };
}

/** Whether the run a grade came from played a trap write before it graded the check. */
export function playedBefore(benchmark: Benchmark, trap: LocatedTrap, grade: LatestGrade): boolean {
  return trapPlayedBefore(trap, gradePlay(benchmark, grade));
}

/** The trap writes aimed at a check, in play order. */
export function trapsAimedAt(benchmark: Benchmark, checkId: string): LocatedTrap[] {
  return benchmark.traps.filter((t) => t.trap.targets.some((x) => x.name === checkId));
}

/**
 * A graded check's mark. A failure is blamed on the agent when its run played the trap writes
 * aimed at the check; a partial run is blamed only when there were trap writes and it played them
 * all, since it may have skipped the phases that told the facts too.
 */
export function checkMark(benchmark: Benchmark, located: LocatedCheck, grade: LatestGrade, passScore: number): CheckMark {
  const traps = trapsAimedAt(benchmark, located.check.id);
  const unplayed = traps.filter((t) => !playedBefore(benchmark, t, grade));
  const passed = passes(grade.grade.effective, passScore);
  // The one rule of the report, the runs index and the panel too (engine/src/report/counted.ts).
  const blamed = !passed && countsAgainstAgent(gradePlay(benchmark, grade, traps));
  const icon: CheckIcon = passed || blamed ? scoreBand(grade.grade.effective, passScore) : 'unplayed';
  return { located, grade, icon, passed, blamed, unplayed };
}

/**
 * Why a graded check's failure is not counted against the agent, as one sentence (the hover, the
 * Test Explorer); undefined when it passed or is blamed.
 */
export function notCountedReason(mark: CheckMark): string | undefined {
  if (mark.passed || mark.blamed) return undefined;
  if (mark.unplayed.length === 0)
    return 'Not counted against the agent: no trap write aims at this check, and the partial run may not have told its facts.';
  const what = mark.unplayed.length === 1 ? 'the trap write' : `${mark.unplayed.length} of the trap writes`;
  const places = mark.unplayed.map((t) => `${t.file}:${t.trap.range.start.line + 1}`).join(', ');
  return `Not counted against the agent: the run did not play ${what} aimed at this check (${places}).`;
}

/** The marks of one chapter file: its graded checks, and its trap lines that caught a check (each once). */
export function chapterMarks(
  benchmark: Benchmark,
  file: string,
  latest: ReadonlyMap<string, LatestGrade>,
  passScore: number,
): { checks: CheckMark[]; traps: TrapMark[] } {
  const checks: CheckMark[] = [];
  for (const located of benchmark.checks) {
    if (located.file !== file) continue;
    const grade = latest.get(located.check.id);
    if (grade) checks.push(checkMark(benchmark, located, grade, passScore));
  }
  const traps: TrapMark[] = [];
  for (const located of benchmark.traps) {
    if (located.file !== file) continue;
    const caught: CheckMark[] = [];
    for (const target of new Set(located.trap.targets.map((t) => t.name))) {
      const c = benchmark.checks.find((x) => x.check.id === target);
      const grade = latest.get(target);
      if (!c || !grade) continue;
      const mark = checkMark(benchmark, c, grade, passScore);
      if (mark.blamed && playedBefore(benchmark, located, grade)) caught.push(mark);
    }
    if (caught.length) traps.push({ located, caught });
  }
  return { checks, traps };
}

/** A text of the benchmark as it read in the run a grade came from: its templates written out with that run's dates. */
export function asInRun(text: string, grade: Pick<LatestGrade, 'templates' | 'startTime'>): string {
  return expandTemplatesIn(text, grade.templates, grade.startTime ? startMoment(grade.startTime) : undefined);
}

/** `chapter3.md phase 1 → chapter3.md phase 2`: what a partial run played. */
export function playedRange(grade: Pick<LatestGrade, 'phases'>): string | undefined {
  const range = grade.phases;
  if (!range) return undefined;
  const at = (p: Position) => `${p.chapter} phase ${p.phase + 1}`;
  return range.from.chapter === range.to.chapter && range.from.phase === range.to.phase
    ? `only ${at(range.from)}`
    : `${at(range.from)} → ${at(range.to)}`;
}

/**
 * The benchmark with one chapter as the editor holds it now, unsaved edits included: marks and
 * lenses sit on the lines the author sees, never on the lines of the saved file (a lens would
 * jump onto the line being typed). Checks are matched to grades by id, trap lines by their place.
 */
export function withChapterText(benchmark: Benchmark, file: string, text: string): Benchmark {
  const chapterIndex = benchmark.chapters.findIndex((c) => c.file === file);
  if (chapterIndex < 0) return benchmark;
  const chapter = parseChapter(text, file);
  const checks = chapter.phases.flatMap((phase) =>
    phase.checks.map((check) => ({ check, file, chapter: chapterIndex, phase: phase.index })),
  );
  const traps = chapter.phases.flatMap((phase) => phase.traps.map((trap) => ({ trap, file, chapter: chapterIndex, phase: phase.index })));
  const inPlayOrder = <T extends PlayPosition & { file: string }>(others: readonly T[], own: T[]) => {
    const before = others.filter((x) => x.file !== file && x.chapter < chapterIndex);
    const after = others.filter((x) => x.file !== file && x.chapter > chapterIndex);
    return [...before, ...own, ...after];
  };
  const lines = new Map(benchmark.lines);
  lines.set(file, chapter.lines);
  return {
    ...benchmark,
    lines,
    chapters: benchmark.chapters.map((c, i) => (i === chapterIndex ? chapter : c)),
    checks: inPlayOrder(benchmark.checks, checks),
    traps: inPlayOrder(benchmark.traps, traps),
  };
}
