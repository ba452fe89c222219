/**
 * A fold over a list that only grows, carried on from where it stopped. The stand-in persona reads
 * her whole conversation again at every turn, and `facts_mark_told` the whole transcript at every
 * call: folded from the start each time, a run of a year took quadratic time. Each fold remembers
 * the items it has folded, by identity, under the list's first item; a list that does not begin
 * with exactly those items is folded afresh, so the result is always the fold of the whole list.
 */
export class GrowingFold<Item extends object, Folded> {
  private readonly folds = new WeakMap<Item, { items: Item[]; folded: Folded }>();

  /** `start` makes an empty fold; `step` folds one more item into it, reading nothing but the two. */
  constructor(
    private readonly start: () => Folded,
    private readonly step: (folded: Folded, item: Item) => void,
  ) {}

  /** The fold of the whole list: kept by this object and changed by later calls, so the caller reads it and lets it go. */
  of(items: readonly Item[]): Folded {
    const first = items[0];
    if (first === undefined) return this.start();
    let kept = this.folds.get(first);
    if (!kept || !startsWith(items, kept.items)) {
      kept = { items: [], folded: this.start() };
      this.folds.set(first, kept);
    }
    for (let index = kept.items.length; index < items.length; index++) {
      const item = items[index]!;
      this.step(kept.folded, item);
      kept.items.push(item);
    }
    return kept.folded;
  }
}

/** Whether `items` begins with `prefix`, item for item (a pointer comparison each: cheap beside any fold). */
function startsWith<Item>(items: readonly Item[], prefix: readonly Item[]): boolean {
  if (prefix.length > items.length) return false;
  for (let index = 0; index < prefix.length; index++) if (items[index] !== prefix[index]) return false;
  return true;
}
