/**
 * The timeline rule (time anchors move forward through the whole play order) as a walk one
 * chapter at a time: a chapter's diagnostics and the state it hands on depend only on its own
 * parse and on the state it starts from, so an unchanged chapter entered in an unchanged state
 * is never walked again.
 */
import type { Benchmark } from './benchmark';
import { diagnostic, type Diagnostic } from './diagnostics';
import { dayNumber } from './inline';
import type { Chapter } from './model';
import { lineRange } from './text';

/** Where virtual time stands between two chapters: the day reached and the latest moment, with what set it. */
export interface TimelineState {
  day: number | undefined;
  last: { key: number; what: string } | undefined;
}

/** The state before the first chapter: the manifest's `start_time`, if it has one. */
export function timelineStart(benchmark: Benchmark): TimelineState {
  const start = benchmark.manifest?.start_time;
  const day = start ? dayNumber(start.slice(0, 10)) : undefined;
  const last =
    start && day !== undefined
      ? { key: day * 1440 + Number(start.slice(11, 13)) * 60 + Number(start.slice(14, 16)), what: `start_time ${start}` }
      : undefined;
  return { day, last };
}

/** A state as one string, equal exactly when the states are: what a cache compares. */
export function timelineKey(state: TimelineState): string {
  return `${state.day ?? 'none'}\u0000${state.last ? `${state.last.key}\u0000${state.last.what}` : 'none'}`;
}

interface Walked {
  entry: string;
  exit: TimelineState;
  diagnostics: Diagnostic[];
}

/** The last walk of each chapter parse, by the state it began in. Parses are immutable, so the walk is too. */
const walks = new WeakMap<Chapter, Walked>();

/** One chapter's timeline diagnostics and the state after it, from the state before it. */
export function walkChapter(chapter: Chapter, entry: TimelineState): { exit: TimelineState; diagnostics: Diagnostic[] } {
  const key = timelineKey(entry);
  const memo = walks.get(chapter);
  if (memo?.entry === key) return memo;
  const walked: Walked = { entry: key, ...walk(chapter, entry) };
  walks.set(chapter, walked);
  return walked;
}

function walk(chapter: Chapter, entry: TimelineState): { exit: TimelineState; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  let { day, last } = entry;
  for (const phase of chapter.phases) {
    const events = [
      ...phase.dateLines.map((d) => ({ line: d.range.start.line, date: d })),
      ...phase.timeAnchors.map((a) => ({ line: a.range.start.line, anchor: a })),
    ].sort((x, y) => x.line - y.line);
    for (const e of events) {
      if ('date' in e && e.date) {
        const n = dayNumber(e.date.date) ?? 0;
        if (day !== undefined && n < day) {
          diagnostics.push(
            diagnostic(
              'time-anchor-order',
              chapter.file,
              e.date.range,
              `${e.date.date} comes before the day already reached (${last?.what ?? 'an earlier date line'}): ` +
                `virtual time only moves forward; fix the date.`,
            ),
          );
        }
        day = n;
        if (!last || last.key < n * 1440) last = { key: n * 1440, what: e.date.date };
      } else if ('anchor' in e && e.anchor) {
        const key = (day ?? 0) * 1440 + e.anchor.minutes;
        const what = `${e.anchor.time} (${chapter.file} line ${e.anchor.range.start.line + 1})`;
        if (last && key < last.key) {
          diagnostics.push(
            diagnostic(
              'time-anchor-order',
              chapter.file,
              lineRange(e.anchor.range.start.line, e.anchor.range.start.character, e.anchor.range.start.character + 5),
              `${e.anchor.time} is earlier than ${last.what}: ` +
                `virtual time only moves forward. Start a new day with a date line (\`YYYY-MM-DD, Ddd\`) or fix the time.`,
            ),
          );
        }
        // The latest moment reached stays the one named: an earlier anchor does not move it back.
        if (!last || key >= last.key) last = { key, what };
      }
    }
  }
  return { exit: { day, last }, diagnostics };
}
