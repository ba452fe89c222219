/**
 * What a validation's reads are compared by: the kinds of read, a read as one string, a sheet's
 * facts as an index kept per parse, and a located check as one string. The cross index
 * (crossIndex.ts) and the per-file reads (reads.ts) both key on these.
 */
import type { LocatedCheck } from './benchmark';
import type { Fact, Sheet } from './model';
import { liveFacts } from './sheet';

export type ReadKind =
  | 'name'
  | 'refused'
  | 'has-sheet'
  | 'fact'
  | 'live-facts'
  | 'sheet-names'
  | 'same-id'
  | 'last'
  | 'highest'
  | 'check-ids'
  | 'targeted'
  | 'told'
  | 'timeline';

/** A read as one string, kind and key: what the reverse index of readers is keyed by. */
export function readKey(kind: ReadKind, key: string): string {
  return `${kind}\u0001${key}`;
}

/** A sheet's facts as the validation asks for them. Parses are immutable, so this is kept per parse. */
interface FactIndex {
  current: Map<string, Fact | undefined>;
  live: string[];
  /** The live ids and the file, as one string: what a read of them is compared by. */
  key: string;
}
const factIndexes = new WeakMap<Sheet, FactIndex>();

export function factIndex(sheet: Sheet): FactIndex {
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

export type FactState = 'no-sheet' | 'live' | 'deleted' | 'absent';

/** Whether a fact id is live, deleted or absent in a sheet, or the sheet is missing. */
export function factStateIn(sheet: Sheet | undefined, id: string): FactState {
  if (!sheet) return 'no-sheet';
  const current = factIndex(sheet).current;
  return current.get(id) ? 'live' : current.has(id) ? 'deleted' : 'absent';
}

const placeKeys = new WeakMap<LocatedCheck, string>();
/** Where a located check stands, as one string: file, play position and the id's range. */
export function locatedKey(located: LocatedCheck | undefined): string {
  if (!located) return '';
  let key = placeKeys.get(located);
  if (key === undefined) {
    const { start, end } = located.check.idRange;
    const range = `${start.line},${start.character},${end.line},${end.character}`;
    key = `${located.file}\u0000${located.chapter}\u0000${located.phase}\u0000${range}`;
    placeKeys.set(located, key);
  }
  return key;
}

/** Where every check of a list stands, as one string. */
export function locatedListKey(list: readonly LocatedCheck[]): string {
  return list.map(locatedKey).join('\u0001');
}
