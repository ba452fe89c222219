/**
 * The cross-file indexes a validation reads (sheets and their facts, check ids, trap targets, the
 * timeline), and `Reads`, the one door through which a file's validation reads them. Every read
 * is logged with a fingerprint of its answer, so a file's diagnostics can be kept for as long as
 * every read, asked again of a newer index, answers the same: that is the whole of incremental
 * validation's correctness.
 */
import type { Benchmark, LocatedCheck } from './benchmark';
import type { Fact, Sheet } from './model';
import { liveFacts } from './sheet';
import { timelineKey, timelineStart, walkChapter, type TimelineState } from './timeline';

/** A sheet's facts as the validation asks for them. Parses are immutable, so this is kept per parse. */
interface FactIndex {
  current: Map<string, Fact | undefined>;
  live: string[];
  /** The live ids and the file, as one string: what a read of them is compared by. */
  key: string;
}
const factIndexes = new WeakMap<Sheet, FactIndex>();

/** What other files can read of a sheet: its file, and each fact id with whether it is deleted, in order. */
export function sheetExports(sheet: Sheet): string {
  let key = `${sheet.name}\u0000${sheet.file}`;
  for (const f of sheet.facts) key += `\u0000${f.id}${f.deleted ? '-' : '+'}`;
  return key;
}

function factIndex(sheet: Sheet): FactIndex {
  let index = factIndexes.get(sheet);
  if (!index) {
    const current = new Map<string, Fact | undefined>();
    for (const f of sheet.facts) current.set(f.id, f.deleted ? undefined : f);
    const live = liveFacts(sheet).map((f) => f.id);
    index = { current, live, key: `${sheet.file}\u0000${live.join('\u0000')}` };
    factIndexes.set(sheet, index);
  }
  return index;
}

/** Where a check stands, as one string: file, play position and the id's range. */
export function checkPlaceKey(located: LocatedCheck): string {
  const r = located.check.idRange;
  return `${located.file}\u0000${located.chapter}\u0000${located.phase}\u0000${r.start.line},${r.start.character},${r.end.line},${r.end.character}`;
}

const placeKeys = new WeakMap<LocatedCheck, string>();
function locatedKey(located: LocatedCheck | undefined): string {
  if (!located) return '';
  let key = placeKeys.get(located);
  if (key === undefined) {
    key = checkPlaceKey(located);
    placeKeys.set(located, key);
  }
  return key;
}

export type FactState = 'no-sheet' | 'live' | 'deleted' | 'absent';

/** The indexes of one benchmark, built once per model (linear, and cheap beside validating). */
export class CrossIndex {
  readonly sheetNames: string[];
  private current: Benchmark;
  private readonly firstChecks = new Map<string, LocatedCheck>();
  private readonly lastChecks = new Map<string, LocatedCheck>();
  private readonly highestBySeries = new Map<string, number>();
  private readonly targeted = new Set<string>();
  private readonly told = new Set<string>();
  /** The timeline state each chapter starts from, in play order. */
  private readonly entries: TimelineState[] = [];
  private readonly entryKeys: string[] = [];
  private sheetNamesKeyMemo: string | undefined;
  private checkIdsMemo: { ids: string[]; key: string } | undefined;

  constructor(benchmark: Benchmark) {
    const b = benchmark;
    this.current = b;
    this.sheetNames = [...b.sheets.keys()];
    for (const located of b.checks) {
      const id = located.check.id;
      if (!this.firstChecks.has(id)) this.firstChecks.set(id, located);
      this.lastChecks.set(id, located);
      const [series = '1', number] = id.split('.');
      this.highestBySeries.set(series, Math.max(this.highestBySeries.get(series) ?? 0, Number(number)));
    }
    for (const t of b.traps) for (const target of t.trap.targets) this.targeted.add(target.name);
    let state = timelineStart(b);
    for (const chapter of b.chapters) {
      this.entries.push(state);
      this.entryKeys.push(timelineKey(state));
      for (const phase of chapter.phases) for (const ref of phase.sheetRefs) if (b.sheets.has(ref.sheet)) this.told.add(ref.sheet);
      state = walkChapter(chapter, state).exit;
    }
  }

  get benchmark(): Benchmark {
    return this.current;
  }

  /**
   * The index of a newer model whose changed chapters and sheets expose to other files exactly
   * what the ones they replace did (same check ids at the same places, same trap targets, sheet
   * refs, timeline and facts): every answer stays, only the changed chapters' own located checks
   * take their predecessors' places, so their validation finds itself as the first of its id.
   */
  rebase(b: Benchmark, replaced: readonly { before: readonly LocatedCheck[]; now: readonly LocatedCheck[] }[]): void {
    this.current = b;
    for (const { before, now } of replaced) {
      before.forEach((old, i) => {
        const located = now[i];
        if (!located) return;
        if (this.firstChecks.get(old.check.id) === old) this.firstChecks.set(old.check.id, located);
        if (this.lastChecks.get(old.check.id) === old) this.lastChecks.set(old.check.id, located);
      });
    }
  }

  sheetNamesKey(): string {
    this.sheetNamesKeyMemo ??= this.sheetNames.join('\u0000');
    return this.sheetNamesKeyMemo;
  }

  /** Every check id once, in the order of its first check. */
  checkIds(): { ids: string[]; key: string } {
    if (!this.checkIdsMemo) {
      const ids = [...this.firstChecks.keys()];
      this.checkIdsMemo = { ids, key: ids.join('\u0000') };
    }
    return this.checkIdsMemo;
  }

  factState(sheetName: string, id: string): FactState {
    const sheet = this.benchmark.sheets.get(sheetName);
    if (!sheet) return 'no-sheet';
    const current = factIndex(sheet).current;
    return current.get(id) ? 'live' : current.has(id) ? 'deleted' : 'absent';
  }

  /** Answers a logged read again, as the fingerprint it was logged with. */
  answer(kind: ReadKind, key: string): string | number | boolean {
    const b = this.benchmark;
    switch (kind) {
      case 'name': return b.name;
      case 'refused': return b.refusedSheets?.has(key) ?? false;
      case 'has-sheet': return b.sheets.has(key);
      case 'fact': {
        const cut = key.lastIndexOf('\u0000');
        return this.factState(key.slice(0, cut), key.slice(cut + 1));
      }
      case 'live-facts': {
        const sheet = b.sheets.get(key);
        return sheet ? factIndex(sheet).key : '';
      }
      case 'sheet-names': return this.sheetNamesKey();
      case 'first': return locatedKey(this.firstChecks.get(key));
      case 'last': return locatedKey(this.lastChecks.get(key));
      case 'highest': return this.highestBySeries.get(key) ?? 0;
      case 'check-ids': return this.checkIds().key;
      case 'targeted': return this.targeted.has(key);
      case 'told': return this.told.has(key);
      case 'timeline': return this.entryKeys[Number(key)] ?? '';
    }
  }

  /** For `Reads` only: the objects behind the answers. */
  lookup(): {
    firstChecks: ReadonlyMap<string, LocatedCheck>; lastChecks: ReadonlyMap<string, LocatedCheck>; highest: ReadonlyMap<string, number>;
    targeted: ReadonlySet<string>; told: ReadonlySet<string>; entries: readonly TimelineState[];
  } {
    return { firstChecks: this.firstChecks, lastChecks: this.lastChecks, highest: this.highestBySeries, targeted: this.targeted, told: this.told, entries: this.entries };
  }
}

export type ReadKind =
  | 'name' | 'refused' | 'has-sheet' | 'fact' | 'live-facts' | 'sheet-names'
  | 'first' | 'last' | 'highest' | 'check-ids' | 'targeted' | 'told' | 'timeline';

/** What a file's validation read: kind, key and fingerprint, three entries per read. */
export type ReadLog = (string | number | boolean)[];

/** Whether every read of the log answers the same from `index`: then the file's diagnostics still stand. */
export function readsHold(index: CrossIndex, log: ReadLog): boolean {
  for (let i = 0; i < log.length; i += 3) {
    if (index.answer(log[i] as ReadKind, log[i + 1] as string) !== log[i + 2]) return false;
  }
  return true;
}

/**
 * The cross-file facts one file's validation may use, each logged as it is read. A validation
 * that reached the benchmark any other way could keep diagnostics that a change made wrong.
 */
export class Reads {
  readonly log: ReadLog = [];
  private readonly maps: ReturnType<CrossIndex['lookup']>;

  constructor(private readonly index: CrossIndex) {
    this.maps = index.lookup();
  }

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
    const index = sheet ? factIndex(sheet) : undefined;
    this.note('live-facts', sheetName, index?.key ?? '');
    return { name: sheet?.name ?? sheetName, file: sheet?.file ?? '', live: index?.live ?? [] };
  }

  sheetNames(): string[] {
    this.note('sheet-names', '', this.index.sheetNamesKey());
    return this.index.sheetNames;
  }

  firstCheck(id: string): LocatedCheck | undefined {
    const located = this.maps.firstChecks.get(id);
    this.note('first', id, locatedKey(located));
    return located;
  }

  /** The check a trap aimed at `id` is compared with: the last one of that id in play order. */
  lastCheck(id: string): LocatedCheck | undefined {
    const located = this.maps.lastChecks.get(id);
    this.note('last', id, locatedKey(located));
    return located;
  }

  highestInSeries(series: string): number {
    const highest = this.maps.highest.get(series) ?? 0;
    this.note('highest', series, highest);
    return highest;
  }

  checkIds(): string[] {
    const { ids, key } = this.index.checkIds();
    this.note('check-ids', '', key);
    return ids;
  }

  isTargeted(id: string): boolean {
    const targeted = this.maps.targeted.has(id);
    this.note('targeted', id, targeted);
    return targeted;
  }

  isTold(sheetName: string): boolean {
    const told = this.maps.told.has(sheetName);
    this.note('told', sheetName, told);
    return told;
  }

  timelineEntry(chapterIndex: number): TimelineState {
    this.note('timeline', String(chapterIndex), this.index.answer('timeline', String(chapterIndex)));
    return this.maps.entries[chapterIndex] ?? { day: undefined, last: undefined };
  }
}
