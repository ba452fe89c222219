/** The phases of a benchmark in play order, and what entering one means for the persona. */
import {
  phaseInstructions,
  startMoment,
  expandTemplate,
  templateMoment,
  type Benchmark,
  type Chapter,
  type Phase,
  type TimeAnchor,
} from '../../../scenario/src';
import type { Position } from '../state/runState';

export interface PlayPhase {
  chapter: Chapter;
  chapterIndex: number;
  phase: Phase;
  position: Position;
}

export function playOrder(benchmark: Benchmark): PlayPhase[] {
  return benchmark.chapters.flatMap((chapter, chapterIndex) =>
    chapter.phases.map((phase) => ({
      chapter,
      chapterIndex,
      phase,
      position: { chapter: chapter.file, chapterIndex, phase: phase.index },
    })),
  );
}

/** Where a saved position is in the benchmark as it is now (chapters may have been appended). */
export function indexOf(order: readonly PlayPhase[], position: Position): number {
  return order.findIndex((x) => x.chapter.file === position.chapter && x.phase.index === position.phase);
}

/**
 * Where the virtual clock starts for a run that starts at the phase `from` of the play order: the
 * benchmark's start for the first phase; for a later one, its first dated time anchor, else the
 * latest dated anchor before it in play order (so a run from `week2.md:1` starts on that day, not
 * two weeks early), never before the benchmark's start.
 */
export function clockStart(order: readonly PlayPhase[], from: number, startTime: string): Date {
  const start = startMoment(startTime);
  if (from <= 0) return start;
  const moment = (anchor: TimeAnchor | undefined) => (anchor?.date ? new Date(`${anchor.date}T${anchor.time}:00Z`) : undefined);
  let at = moment(order[from]?.phase.timeAnchors.find((a) => a.date));
  for (let i = from - 1; !at && i >= 0; i--) at = moment(order[i]?.phase.timeAnchors.findLast((a) => a.date));
  return at && at > start ? at : start;
}

/** Expansions for the templates of `phases` not yet in `known`. */
export function expandTemplates(
  phases: readonly PlayPhase[],
  startTime: string,
  known: Record<string, string> = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  const start = startMoment(startTime);
  for (const p of phases) {
    for (const t of p.phase.templates) {
      if (Object.hasOwn(known, t.raw) || Object.hasOwn(out, t.raw)) continue;
      // The checker bounds template amounts; a date that still comes out invalid must stop the
      // run with its place rather than reach the persona as "NaN undefined NaN".
      if (Number.isNaN(templateMoment(t, start).getTime())) {
        const where = `${p.chapter.file}:${t.range.start.line + 1}`;
        throw new Error(
          `${where}: the date template ${t.raw} gives no valid date from the start time ${startTime}; fix the template or start_time.`,
        );
      }
      out[t.raw] = expandTemplate(t, start);
    }
  }
  return out;
}

/** The phase's text for the persona, templates expanded. */
export function phaseText(phase: PlayPhase, templates: Record<string, string>): string {
  let text = phaseInstructions(phase.chapter, phase.phase);
  for (const [raw, value] of Object.entries(templates)) text = text.split(raw).join(value);
  return text;
}

/** Where each check sits, by id. */
export function checkPositions(order: readonly PlayPhase[]): Map<string, Position> {
  const map = new Map<string, Position>();
  for (const p of order) for (const c of p.phase.checks) if (!map.has(c.id)) map.set(c.id, p.position);
  return map;
}
