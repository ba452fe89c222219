/**
 * Why a check may have failed and where to rerun it: the trap writes its run played, the lines of
 * the memory snapshot that hold its expected or a planted value, and the first phase to replay.
 * No VS Code here, like results.ts, so that it is tested on plain folders.
 */
import { basename, dirname } from 'node:path';
import type { Benchmark, LocatedTrap } from '../../scenario/src';
import { readMemorySnapshot } from '../../engine/src/api';
import { asInRun, playedBefore, playedRange, trapsAimedAt } from './chapterMarks';
import type { LatestGrade } from './results';

/** Where a check, a trap write or a phase is: file in the benchmark folder, 0-based line. */
export interface SourcePlace {
  file: string;
  line: number;
}

export interface CheckCause {
  /** The trap writes aimed at the check that its run played, in play order. */
  traps: (SourcePlace & { type: string; note?: string; text: string })[];
  /** The trap writes aimed at the check that its run did not play (a partial run): listed apart, never a cause. */
  unplayed: (SourcePlace & { type: string; note?: string; text: string })[];
  /** What the unplayed trap writes are: one line naming the run and what it played. */
  trapsNote?: string;
  /** Lines of the agent's memory snapshot that hold the expected value or a value the traps planted. */
  memory: (SourcePlace & { kind: 'expected' | 'stale'; value: string; text: string })[];
  /** Why there is nothing to show in the memory, when there is not. */
  memoryNote?: string;
}

/**
 * What may have made a check fail: the trap writes aimed at it that its run played, and the places
 * in the memory snapshot where its expected value and the values those traps planted appear, both
 * with the templates expanded as in that run (notes hold "19 August", never `{{FUTURE:3:weeks}}`).
 * Without a grade, every trap write counts and templates stay as written.
 */
export function checkCause(benchmark: Benchmark, checkId: string, snapshot: string | undefined, grade?: LatestGrade): CheckCause {
  const located = benchmark.checks.find((c) => c.check.id === checkId);
  const aimed = trapsAimedAt(benchmark, checkId);
  const traps = grade ? aimed.filter((t) => playedBefore(benchmark, t, grade)) : aimed;
  const read = (text: string) => (grade ? asInRun(text, grade) : text);
  const place = (t: LocatedTrap) => ({
    file: t.file,
    line: t.trap.range.start.line,
    type: t.trap.type,
    text: read(benchmark.lines.get(t.file)?.lineText(t.trap.range.start.line).trim() ?? ''),
    ...(t.trap.note ? { note: read(t.trap.note) } : {}),
  });
  const cause: CheckCause = { traps: traps.map(place), unplayed: aimed.filter((t) => !traps.includes(t)).map(place), memory: [] };
  const skipped = aimed.length - traps.length;
  if (grade && skipped > 0) {
    const writes = `${skipped} trap write${skipped === 1 ? '' : 's'} aimed at it ${skipped === 1 ? 'was' : 'were'}`;
    const played = grade.phases ? ` (it played ${playedRange(grade)})` : '';
    cause.trapsNote = `${writes} not played by ${grade.run}${played}.`;
  }
  if (!snapshot) {
    cause.memoryNote = 'The run left no memory snapshot: its agent keeps no memory folder (the chatbot has none).';
    return cause;
  }
  const expected = distinctive(read(located?.check.answer ?? ''));
  const stale = new Set<string>();
  for (const t of traps) {
    for (const ref of t.trap.facts) {
      const fact = benchmark.sheets.get(ref.sheet)?.facts.find((f) => f.id === ref.id);
      for (const v of distinctive(read(fact?.text ?? ''))) if (!expected.includes(v)) stale.add(v);
    }
    for (const v of distinctive(read(t.trap.note ?? ''))) if (!expected.includes(v)) stale.add(v);
  }
  for (const file of snapshotTextFiles(snapshot)) {
    const lines = file.text.split('\n');
    lines.forEach((text, line) => {
      const lower = text.toLowerCase();
      const hit = (values: Iterable<string>, kind: 'expected' | 'stale') => {
        for (const value of values) {
          if (lower.includes(value.toLowerCase())) {
            cause.memory.push({ file: file.name, line, kind, value, text: text.trim().slice(0, 200) });
            return;
          }
        }
      };
      hit(expected, 'expected');
      hit(stale, 'stale');
    });
  }
  if (cause.memory.length === 0)
    cause.memoryNote = `Neither the expected value nor a planted one appears in the memory snapshot: the fact was never stored.`;
  return cause;
}

/** Numbers and capitalised or long words: the parts of a value worth looking for in notes. */
export function distinctive(text: string): string[] {
  const out = new Set<string>();
  // Numbers of two digits or more, without currency marks: notes write £340, 340 or 340 GBP.
  for (const m of text.matchAll(/\d[\d.,:]*\d/g)) out.add(m[0]);
  for (const m of text.matchAll(/\b[\p{Lu}][\p{L}'-]{2,}(?:\s+[\p{Lu}][\p{L}'-]+)*/gu)) {
    if (!COMMON.has(m[0].toLowerCase())) out.add(m[0]);
  }
  return [...out];
}

const COMMON = new Set([
  'the',
  'she',
  'her',
  'his',
  'and',
  'what',
  'which',
  'when',
  'where',
  'who',
  'how',
  'yes',
  'not',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
]);

/**
 * The notes of a snapshot (`results/<id>/memory/<n>`) as the engine's reader gives them: bounded,
 * masked, no link followed, nothing outside results/.
 */
function snapshotTextFiles(snapshot: string): { name: string; text: string }[] {
  const files = readMemorySnapshot(dirname(dirname(snapshot)), Number(basename(snapshot)))?.files ?? [];
  return files.filter((file) => /\.(md|txt|json|jsonl|ya?ml)$/i.test(file.name));
}

/**
 * Where a rerun of some checks starts: the earliest trap write aimed at any of them, in play
 * order; undefined (a whole run) when one of them has no trap write to start from.
 */
export function rerunStart(benchmark: Benchmark, ids: readonly string[]): { chapter: string; phase: number } | undefined {
  let best: { chapter: number; phase: number; file: string } | undefined;
  for (const id of ids) {
    const traps = trapsAimedAt(benchmark, id);
    if (traps.length === 0) return undefined;
    for (const t of traps)
      if (!best || t.chapter < best.chapter || (t.chapter === best.chapter && t.phase < best.phase))
        best = { chapter: t.chapter, phase: t.phase, file: t.file };
  }
  return best && { chapter: best.file, phase: best.phase + 1 };
}
