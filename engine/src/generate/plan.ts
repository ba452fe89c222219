/**
 * What happens in one block, before anything is said: which topics are introduced where, when
 * each topic's events are told, which facts are checked, the trap writes that change each one (a
 * type and a slot each), and where every check is asked. Facts a trap creates (a LATE-ADD, an
 * XREF) are planned as handles and made when the simulation reaches them.
 */
import type { Fact, FactKind } from './facts';
import type { BlockLayout, Slot } from './layout';
import { shuffled } from './draw';
import type { CheckType, TopicModel, TrapType, WorldSpec } from './model';
import { planFacts, planLooseChecks } from './planFacts';

export interface FactPlan {
  topic: TopicModel;
  target: FactKind;
  /** How the fact enters the block: an edit of a live fact, or a LATE-ADD or XREF that creates it. */
  first: TrapType;
  edits: EditItem[];
  /** The live fact, once known (picked at planning, or made by the first edit). */
  fact?: Fact;
  /** XREF: the line it refers to, whose later edits the XREF's check must follow. */
  referent?: Fact;
}

export type CheckSubject =
  | { on: 'fact'; plan: FactPlan }
  | { on: 'before'; edit: EditItem }
  | { on: 'ledger'; topic: TopicModel }
  | { on: 'derived'; topic: TopicModel }
  /** The events from slot `from` on; from `plan`'s event when a trap changed it. */
  | { on: 'series'; topic: TopicModel; from: number; plan?: FactPlan }
  /** A month's sum: `from` is the first slot whose events may be of that month (the previous block's first; 0 takes the sheet's own). */
  | { on: 'recap'; topic: TopicModel; from: number }
  | { on: 'void'; topic: TopicModel; unknown: string };

export interface CheckItem {
  kind: 'check';
  type: CheckType;
  subject: CheckSubject;
  slot: number;
  /** Set when the block's checks are numbered: `12.3`. */
  id: string;
}

export interface EditItem {
  kind: 'edit';
  plan: FactPlan;
  type: TrapType;
  slot: number;
  /** The checks this trap is aimed at. */
  checks: CheckItem[];
  /** The fact's value text before this edit, set by the simulation (HIST asks it). */
  before?: string;
  pretext?: string;
}

export type Item =
  | { kind: 'intro'; topic: TopicModel; slot: number }
  /** Events that happened on slot `happened` (the day before, after a day without signal), told on `slot`. */
  | { kind: 'events'; topic: TopicModel; count: number; slot: number; happened: number }
  | { kind: 'filler'; topic: TopicModel; slot: number }
  | EditItem
  | CheckItem;

const ORDER: Record<Item['kind'], number> = { intro: 0, events: 1, edit: 2, filler: 3, check: 4 };

export interface BlockPlan {
  layout: BlockLayout;
  /** Items by slot number, in the order they happen. */
  items: Map<number, Item[]>;
  facts: FactPlan[];
}

export interface PlanContext {
  spec: WorldSpec;
  topics: readonly TopicModel[];
  /** Topics of the library not in the world: filler talks about them. */
  fillerTopics: readonly TopicModel[];
  random: () => number;
  /** Picks a live fact of the topic of this kind that no plan of the block holds yet. */
  pickFact: (topic: TopicModel, kind: FactKind, taken: ReadonlySet<Fact>) => Fact | undefined;
  /** Whether the topic has a ledger label left for a new line; `reserve` takes it for this block. */
  hasFreeLabel: (topic: TopicModel, reserve?: 'reserve') => boolean;
}

/** The block's items, slot by slot. */
export function planBlock(context: PlanContext, layout: BlockLayout): BlockPlan {
  const { spec, topics, random } = context;
  const slots = layout.slots;
  const items = new Map<number, Item[]>(slots.map((slot) => [slot.number, []]));
  const put = (item: Item) => items.get(item.slot)?.push(item);
  const open = slots.filter((slot) => !slot.offline && !slot.exam);
  const firstSlot = slots[0]?.number ?? 1;
  const introOf = new Map<TopicModel, number>();
  topics.forEach((topic, index) => {
    const slot = layout.introSlots ? firstSlot + Math.floor((index * layout.introSlots) / topics.length) : firstSlot - 1;
    introOf.set(topic, slot);
    if (layout.introSlots) put({ kind: 'intro', topic, slot });
  });
  const firstEvents = planEvents(context, layout, introOf, put);
  const facts = planFacts(context, layout, introOf, firstEvents, put);
  planLooseChecks(context, layout, facts, put);
  const fillerPool = context.fillerTopics.length ? context.fillerTopics : topics;
  for (const slot of open) {
    const count = Math.floor(spec.filler) + (random() < spec.filler % 1 ? 1 : 0);
    for (let n = 0; n < count; n++)
      put({ kind: 'filler', topic: fillerPool[Math.floor(random() * fillerPool.length)]!, slot: slot.number });
  }
  for (const list of items.values()) list.sort((left, right) => ORDER[left.kind] - ORDER[right.kind]);
  numberChecks(items);
  return { layout, items, facts };
}

/** Each topic's events: on its weekdays (multi-day) or spread over the chapters; the first slot with one, by topic. */
function planEvents(
  context: PlanContext,
  layout: BlockLayout,
  introOf: ReadonlyMap<TopicModel, number>,
  put: (item: Item) => void,
): Map<TopicModel, number> {
  const first = new Map<TopicModel, number>();
  const multiDay = context.spec.shape === 'multi-day';
  for (const topic of context.topics) {
    const weekdays = new Set(shuffled([0, 1, 2, 3, 4, 5, 6], context.random).slice(0, Math.min(7, topic.series.perWeek)));
    const eligible = layout.slots.filter((slot) => slot.number > (introOf.get(topic) ?? 0) && !slot.exam);
    const perSlot = new Map<number, number>();
    if (multiDay) {
      for (const slot of eligible)
        if (weekdays.has(slot.day.getUTCDay())) perSlot.set(slot.number, 1 + Math.floor(topic.series.perWeek / 7));
    } else {
      const total = Math.max(1, Math.round((topic.series.perWeek * 30) / 7));
      for (let n = 0; n < total && eligible.length; n++) {
        const slot = eligible[Math.floor(context.random() * eligible.length)]!;
        perSlot.set(slot.number, (perSlot.get(slot.number) ?? 0) + 1);
      }
    }
    for (const [number, count] of [...perSlot].sort((a, b) => a[0] - b[0])) {
      const told = toldOn(layout.slots, number);
      put({ kind: 'events', topic, count, slot: told, happened: number });
      if (!first.has(topic)) first.set(topic, told);
    }
  }
  return first;
}

/** The slot a thing of slot `number` is told on: the next day when that day has no signal. */
function toldOn(slots: readonly Slot[], number: number): number {
  const slot = slots.find((s) => s.number === number);
  return slot?.offline ? number + 1 : number;
}

function numberChecks(items: ReadonlyMap<number, Item[]>): void {
  for (const [slot, list] of items) {
    let next = 1;
    for (const item of list) if (item.kind === 'check') item.id = `${slot}.${next++}`;
  }
}
