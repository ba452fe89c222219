/**
 * The cross-file indexes a validation reads: sheets and their facts, check ids, trap targets,
 * the sheets phases name, the timeline. Built once for a folder's model, then kept up to date
 * chapter by chapter and sheet by sheet (`update`), which says which answers may have changed,
 * so that only the files that read those are asked again. Files read it through `Reads` (reads.ts).
 */
import type { Benchmark, LocatedCheck } from './benchmark';
import type { Chapter, Sheet } from './model';
import { factIndex, factStateIn, locatedKey, locatedListKey, readKey, type FactState, type ReadKind } from './readKeys';
import { timelineKey, timelineStart, walkChapter, type TimelineState } from './timeline';

/** A chapter or a sheet replaced in place: same file, same place. */
export interface ChapterChange {
  index: number;
  before: Chapter;
  now: Chapter;
  checksBefore: readonly LocatedCheck[];
  checksNow: readonly LocatedCheck[];
}
export interface SheetChange {
  before: Sheet;
  now: Sheet;
}

const count = (counts: Map<string, number>, key: string, by: number) => {
  const n = (counts.get(key) ?? 0) + by;
  if (n === 0) counts.delete(key);
  else counts.set(key, n);
};

export class CrossIndex {
  private current: Benchmark;
  readonly sheetNames: string[];
  /** Every check of an id, in play order: more than one is a duplicate; the last is the one traps are compared with. */
  private readonly byId = new Map<string, LocatedCheck[]>();
  /** Per `N.` series, how many checks have each number. */
  private readonly numbers = new Map<string, Map<number, number>>();
  private readonly targets = new Map<string, number>();
  private readonly told = new Map<string, number>();
  /** The timeline state each chapter starts from, in play order, and its key. */
  private readonly entries: TimelineState[] = [];
  private readonly entryKeys: string[] = [];
  private sheetNamesKeyMemo: string | undefined;
  private checkIdsMemo: { ids: string[]; key: string } | undefined;

  constructor(b: Benchmark) {
    this.current = b;
    this.sheetNames = [...b.sheets.keys()];
    for (const located of b.checks) {
      const list = this.byId.get(located.check.id);
      if (list) list.push(located);
      else this.byId.set(located.check.id, [located]);
      this.countNumber(located.check.id, 1);
    }
    let state = timelineStart(b);
    for (const chapter of b.chapters) {
      this.entries.push(state);
      this.entryKeys.push(timelineKey(state));
      this.countChapter(chapter, 1);
      state = walkChapter(chapter, state).exit;
    }
  }

  get benchmark(): Benchmark {
    return this.current;
  }

  private countNumber(id: string, by: number): void {
    const [series = '1', number] = id.split('.');
    let numbers = this.numbers.get(series);
    if (!numbers) this.numbers.set(series, (numbers = new Map()));
    const n = (numbers.get(Number(number)) ?? 0) + by;
    if (n === 0) numbers.delete(Number(number));
    else numbers.set(Number(number), n);
  }

  /** A chapter's trap targets and its refs to existing sheets, counted in or out. */
  private countChapter(chapter: Chapter, by: number): void {
    for (const phase of chapter.phases) {
      for (const trap of phase.traps) for (const target of trap.targets) count(this.targets, target.name, by);
      for (const ref of phase.sheetRefs) if (this.current.sheets.has(ref.sheet)) count(this.told, ref.sheet, by);
    }
  }

  /** Every check of an id, in play order. */
  checksWithId(id: string): readonly LocatedCheck[] {
    return this.byId.get(id) ?? [];
  }

  lastCheck(id: string): LocatedCheck | undefined {
    return this.byId.get(id)?.at(-1);
  }

  highestInSeries(series: string): number {
    let highest = 0;
    for (const n of this.numbers.get(series)?.keys() ?? []) highest = Math.max(highest, n);
    return highest;
  }

  isTargeted(id: string): boolean {
    return this.targets.has(id);
  }

  isTold(sheet: string): boolean {
    return this.told.has(sheet);
  }

  timelineEntry(chapterIndex: number): TimelineState {
    return this.entries[chapterIndex] ?? { day: undefined, last: undefined };
  }

  sheetNamesKey(): string {
    this.sheetNamesKeyMemo ??= this.sheetNames.join('\u0000');
    return this.sheetNamesKeyMemo;
  }

  /** Every check id once, in the order of its first check. */
  checkIds(): { ids: string[]; key: string } {
    if (!this.checkIdsMemo) {
      const ids = [...new Set(this.current.checks.map((c) => c.check.id))];
      this.checkIdsMemo = { ids, key: ids.join('\u0000') };
    }
    return this.checkIdsMemo;
  }

  factState(sheetName: string, id: string): FactState {
    return factStateIn(this.current.sheets.get(sheetName), id);
  }

  /** Answers a logged read again, as the fingerprint it was logged with. */
  answer(kind: ReadKind, key: string): string | number | boolean {
    const b = this.current;
    switch (kind) {
      case 'name':
        return b.name;
      case 'refused':
        return b.refusedSheets?.has(key) ?? false;
      case 'has-sheet':
        return b.sheets.has(key);
      case 'fact': {
        const cut = key.lastIndexOf('\u0000');
        return this.factState(key.slice(0, cut), key.slice(cut + 1));
      }
      case 'live-facts': {
        const sheet = b.sheets.get(key);
        return sheet ? factIndex(sheet).key : '';
      }
      case 'sheet-names':
        return this.sheetNamesKey();
      case 'same-id':
        return locatedListKey(this.checksWithId(key));
      case 'last':
        return locatedKey(this.lastCheck(key));
      case 'highest':
        return this.highestInSeries(key);
      case 'check-ids':
        return this.checkIds().key;
      case 'targeted':
        return this.isTargeted(key);
      case 'told':
        return this.isTold(key);
      case 'timeline':
        return this.entryKeys[Number(key)] ?? '';
    }
  }

  /**
   * Brings the index up to `b`, a model of the same files in the same places (same sheets, same
   * chapters in the same order, same manifest) in which the given chapters and sheets were
   * replaced. Returns the reads (`readKey`) whose answers may differ now; all others stand.
   */
  update(b: Benchmark, chapters: readonly ChapterChange[], sheets: readonly SheetChange[]): Set<string> {
    const changed = new Set<string>();
    for (const { before, now } of sheets) {
      for (const fact of [...before.facts, ...now.facts]) {
        if (factStateIn(before, fact.id) !== factStateIn(now, fact.id)) changed.add(readKey('fact', `${now.name}\u0000${fact.id}`));
      }
      if (factIndex(before).key !== factIndex(now).key) changed.add(readKey('live-facts', now.name));
    }
    this.current = b;
    for (const change of chapters) this.replaceChapter(change, changed);
    const first = chapters.reduce((lowest, c) => Math.min(lowest, c.index), Infinity);
    const last = chapters.reduce((highest, c) => Math.max(highest, c.index), -1);
    if (last >= 0) this.rewalkTimeline(first, last, changed);
    return changed;
  }

  private replaceChapter(change: ChapterChange, changed: Set<string>): void {
    const { index, before, now, checksBefore, checksNow } = change;
    const idsBefore = checksBefore.map((c) => c.check.id);
    const idsNow = checksNow.map((c) => c.check.id);
    if (idsBefore.join('\u0000') !== idsNow.join('\u0000')) {
      this.checkIdsMemo = undefined;
      changed.add(readKey('check-ids', ''));
    }
    for (const id of [...idsBefore, ...idsNow]) {
      changed
        .add(readKey('same-id', id))
        .add(readKey('last', id))
        .add(readKey('highest', id.split('.')[0] ?? '1'));
    }
    for (const id of new Set(idsBefore)) {
      const kept = (this.byId.get(id) ?? []).filter((c) => c.chapter !== index);
      if (kept.length) this.byId.set(id, kept);
      else this.byId.delete(id);
    }
    for (const id of idsBefore) this.countNumber(id, -1);
    for (const located of checksNow) {
      const list = this.byId.get(located.check.id) ?? [];
      let at = 0;
      while (at < list.length && (list[at]?.chapter ?? 0) <= index) at++;
      list.splice(at, 0, located);
      this.byId.set(located.check.id, list);
      this.countNumber(located.check.id, 1);
    }
    const targetsBefore = new Set(this.targets.keys());
    const toldBefore = new Set(this.told.keys());
    this.countChapter(before, -1);
    this.countChapter(now, 1);
    for (const phase of [...before.phases, ...now.phases]) {
      for (const trap of phase.traps)
        for (const target of trap.targets)
          if (targetsBefore.has(target.name) !== this.targets.has(target.name)) changed.add(readKey('targeted', target.name));
      for (const ref of phase.sheetRefs)
        if (toldBefore.has(ref.sheet) !== this.told.has(ref.sheet)) changed.add(readKey('told', ref.sheet));
    }
  }

  /** Walks the timeline again from the first changed chapter, until it meets the old states past the last one. */
  private rewalkTimeline(first: number, last: number, changed: Set<string>): void {
    const chapters = this.current.chapters;
    for (let i = first; i + 1 < chapters.length; i++) {
      const chapter = chapters[i];
      if (!chapter) break;
      const exit = walkChapter(chapter, this.timelineEntry(i)).exit;
      const key = timelineKey(exit);
      if (key === this.entryKeys[i + 1]) {
        if (i >= last) break;
        continue;
      }
      this.entries[i + 1] = exit;
      this.entryKeys[i + 1] = key;
      changed.add(readKey('timeline', String(i + 1)));
    }
  }
}
