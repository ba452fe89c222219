/**
 * `Reads`, the one door through which a file's validation reads the cross-file indexes. Every
 * read is logged with a fingerprint of its answer, so a file's diagnostics can be kept for as
 * long as every read, asked again of a newer index, answers the same: that is the whole of
 * incremental validation's correctness. A validation that reached the benchmark any other way
 * could keep diagnostics that a change made wrong.
 */
import type { LocatedCheck } from './benchmark';
import type { CrossIndex } from './crossIndex';
import { factIndex, locatedKey, locatedListKey, type FactState, type ReadKind } from './readKeys';
import type { TimelineState } from './timeline';

/** What a file's validation read: kind, key and fingerprint, three entries per read. */
export type ReadLog = (string | number | boolean)[];

/** Whether every read of the log answers the same from `index`: then the file's diagnostics still stand. */
export function readsHold(index: CrossIndex, log: ReadLog): boolean {
  for (let i = 0; i < log.length; i += 3) {
    if (index.answer(log[i] as ReadKind, log[i + 1] as string) !== log[i + 2]) return false;
  }
  return true;
}

export class Reads {
  readonly log: ReadLog = [];

  constructor(private readonly index: CrossIndex) {}

  private note(kind: ReadKind, key: string, answer: string | number | boolean): void {
    this.log.push(kind, key, answer);
  }

  benchmarkName(): string {
    const name = this.index.benchmark.name;
    this.note('name', '', name);
    return name;
  }

  isRefusedSheet(name: string): boolean {
    const refused = this.index.benchmark.refusedSheets?.has(name) ?? false;
    this.note('refused', name, refused);
    return refused;
  }

  hasSheet(name: string): boolean {
    const has = this.index.benchmark.sheets.has(name);
    this.note('has-sheet', name, has);
    return has;
  }

  factState(sheet: string, id: string): FactState {
    const state = this.index.factState(sheet, id);
    this.note('fact', `${sheet}\u0000${id}`, state);
    return state;
  }

  /** A sheet's name, file and live fact ids (the sheet exists: `factState` said so). */
  liveFacts(sheetName: string): { name: string; file: string; live: string[] } {
    const sheet = this.index.benchmark.sheets.get(sheetName);
    const facts = sheet ? factIndex(sheet) : undefined;
    this.note('live-facts', sheetName, facts?.key ?? '');
    return { name: sheet?.name ?? sheetName, file: sheet?.file ?? '', live: facts?.live ?? [] };
  }

  sheetNames(): string[] {
    this.note('sheet-names', '', this.index.sheetNamesKey());
    return this.index.sheetNames;
  }

  /** Every check of `id` in play order: two or more are duplicates, each reported. */
  checksWithId(id: string): readonly LocatedCheck[] {
    const located = this.index.checksWithId(id);
    this.note('same-id', id, locatedListKey(located));
    return located;
  }

  /** The check a trap aimed at `id` is compared with: the last one of that id in play order. */
  lastCheck(id: string): LocatedCheck | undefined {
    const located = this.index.lastCheck(id);
    this.note('last', id, locatedKey(located));
    return located;
  }

  highestInSeries(series: string): number {
    const highest = this.index.highestInSeries(series);
    this.note('highest', series, highest);
    return highest;
  }

  checkIds(): string[] {
    const { ids, key } = this.index.checkIds();
    this.note('check-ids', '', key);
    return ids;
  }

  isTargeted(id: string): boolean {
    const targeted = this.index.isTargeted(id);
    this.note('targeted', id, targeted);
    return targeted;
  }

  isTold(sheetName: string): boolean {
    const told = this.index.isTold(sheetName);
    this.note('told', sheetName, told);
    return told;
  }

  timelineEntry(chapterIndex: number): TimelineState {
    this.note('timeline', String(chapterIndex), this.index.answer('timeline', String(chapterIndex)));
    return this.index.timelineEntry(chapterIndex);
  }
}
