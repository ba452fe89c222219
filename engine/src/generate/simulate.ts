/**
 * The simulation of one block: its items played in order against the live sheets. An edit draws a
 * new value (never one the topic has used, so an old value cannot hide in another answer), changes
 * or deletes the fact and writes the phase's words; a check's question and answer are computed from
 * the facts as they are at that moment. What comes out is the block's phases, ready to render.
 */
import { numbers } from '../standin/text';
import { factText, refOf, valueText, type Fact, type FactKind, type LiveSheet } from './facts';
import { addDays, dayText } from './layout';
import type { Slot } from './layout';
import type { CheckType, TopicModel, TrapType } from './model';
import type { Phraser } from './phrasing';
import type { BlockPlan, CheckItem, EditItem, Item } from './plan';
import { answerOf, type Recipe } from './answers';
import { addLine, changeValue, targetOf } from './edits';
import { decimalsOf as decimalsOfStep, drawValue as drawOn, formatValue } from './units';

export interface PhaseLine {
  /** `HH:MM` on virtual time (multi-day). */
  at?: string;
  text: string;
  /** Sheet edits in the forms the persona and the audit read. */
  edits: string[];
}

export interface TrapOut {
  type: TrapType;
  /** `sheet#N.M` of the facts it changes; none for a fact it adds. */
  facts: string[];
  /** Its edit: the checks it aims at are `edit.checks` when the block is done. */
  edit: EditItem;
  note: string;
}

export interface CheckOut {
  item: CheckItem;
  type: CheckType;
  question: string;
  answer: string;
  recipe: Recipe;
}

/** What one item of a slot became. */
export interface Happening {
  item: Item;
  slot: Slot;
  lines: PhaseLine[];
  trap?: TrapOut;
  check?: CheckOut;
  /** Sheets whose every fact must be told before the phase may end. */
  require?: string;
}

/** The world while it is simulated: the live sheets, the values each topic has used, the pools left. */
export interface WorldState {
  sheets: Map<string, LiveSheet>;
  used: Map<string, Set<string>>;
  /** Ledger labels not yet in the world, by topic sheet. */
  freeLabels: Map<string, number[]>;
  /** Ledger lines deleted so far, by topic sheet (a NEG answer names them). */
  retired: Map<string, Fact[]>;
  /** The facts the sheet files hold: only these may be named in a trap line (an added fact's id is the run's). */
  initialFacts: Set<Fact>;
  /** Single-day: the last day a topic's event fell on; the next one falls after it, one event a day. */
  lastEventDay: Map<string, Date>;
  /** The values of each topic's last events, written as told: a new event's value is none of them. */
  recentEvents: Map<string, string[]>;
  multiDay: boolean;
  random: () => number;
  phraser: Phraser;
  topics: readonly TopicModel[];
}

/** Plays the block's items in slot order. */
export function simulateBlock(world: WorldState, plan: BlockPlan): Happening[] {
  const aims = new Map<CheckItem, EditItem[]>();
  for (const fact of plan.facts)
    for (const edit of fact.edits) for (const check of edit.checks) aims.set(check, [...(aims.get(check) ?? []), edit]);
  const out: Happening[] = [];
  for (const slot of plan.layout.slots) {
    const items = plan.items.get(slot.number) ?? [];
    // By index: a check added for a trap left without one is played in this slot too.
    for (let index = 0; index < items.length; index++) {
      const item = items[index]!;
      const happening = play(world, item, slot, plan.layout.slots);
      if (happening) out.push(happening);
      if (!happening?.check) continue;
      for (const orphan of unlinkStale(world, happening.check, aims.get(item as CheckItem) ?? [])) {
        const check = ownCheck(world, orphan, slot.number);
        check.id = `${slot.number}.${items.filter((other) => other.kind === 'check').length + 1}`;
        items.push(check);
        orphan.checks.push(check);
      }
    }
  }
  return out;
}

/**
 * The check of its own a trap left aiming at nothing gets: a RECALL of its fact, or, when a later
 * trap deleted the fact (a RETIRE), a HIST of the value it replaced, since a RECALL would ask for a
 * line that is gone.
 */
function ownCheck(world: WorldState, orphan: EditItem, slot: number): CheckItem {
  const { plan } = orphan;
  if (plan.fact && world.sheets.get(plan.topic.sheet)?.has(plan.fact))
    return { kind: 'check', type: 'RECALL', subject: { on: 'fact', plan }, slot, id: '' };
  return { kind: 'check', type: 'HIST', subject: { on: 'before', edit: orphan }, slot, id: '' };
}

function play(world: WorldState, item: Item, slot: Slot, slots: readonly Slot[]): Happening | undefined {
  const phraser = world.phraser;
  switch (item.kind) {
    case 'intro':
      return { item, slot, lines: [{ text: phraser.tell(item.topic), edits: [] }], require: item.topic.sheet };
    case 'filler':
      return { item, slot, lines: [{ text: phraser.filler(item.topic), edits: [] }] };
    case 'events':
      return tellEvents(world, item, slots);
    case 'edit':
      return playEdit(world, item, slot);
    case 'check': {
      const computed = answerOf(world, item, slot);
      const question = phraser.question(computed.type, { topic: subjectTopic(item), ...computed.slots });
      return { item, slot, lines: [], check: { item, type: computed.type, question, answer: computed.answer, recipe: computed.recipe } };
    }
  }
}

function subjectTopic(item: CheckItem): TopicModel {
  const subject = item.subject;
  if (subject.on === 'fact') return subject.plan.topic;
  if (subject.on === 'before') return subject.edit.plan.topic;
  return subject.topic;
}

/** A value for `fact`'s range that its topic has never used, on the grid (after 40 draws, any). */
export function freshValue(world: WorldState, topic: TopicModel, draw: () => number, unitText: (value: number) => string): number {
  const used = world.used.get(topic.sheet) ?? new Set<string>();
  world.used.set(topic.sheet, used);
  let value = draw();
  for (let tries = 0; tries < 40 && numbers(unitText(value)).some((n) => used.has(n)); tries++) value = draw();
  for (const n of numbers(unitText(value))) used.add(n);
  return value;
}

function sheetOf(world: WorldState, topic: TopicModel): LiveSheet {
  const sheet = world.sheets.get(topic.sheet);
  if (!sheet) throw new Error(`generate: no live sheet ${topic.sheet}`);
  return sheet;
}

function tellEvents(world: WorldState, item: Extract<Item, { kind: 'events' }>, slots: readonly Slot[]): Happening {
  const topic = item.topic;
  const sheet = sheetOf(world, topic);
  const happened = slots.find((slot) => slot.number === item.happened)?.day ?? slots[0]!.day;
  const caughtUp = item.happened !== item.slot;
  const lines: PhaseLine[] = [];
  for (let n = 0; n < item.count; n++) {
    const day = spreadDay(world, topic, happened);
    const fact = addEvent(world, topic, sheet, day, item.happened);
    const when = caughtUp ? `yesterday, ${fact.day}` : `on ${fact.day}`;
    lines.push({
      text: world.phraser.event(topic, { value: valueText(fact), when }),
      edits: [`Add to the \`${topic.sheet}\` sheet, category ${fact.category}: "${factText(fact)}".`],
    });
  }
  return { item, slot: slots.find((slot) => slot.number === item.slot)!, lines };
}

/**
 * The day an event falls on. On virtual time it is the day it happened; told in one sitting, a
 * chapter's events of one topic take one day each from the chapter's day on, after the topic's
 * last event, so that a log reads in order and a SERIES question's period names distinct days.
 */
function spreadDay(world: WorldState, topic: TopicModel, happened: Date): Date {
  if (world.multiDay) return happened;
  const last = world.lastEventDay.get(topic.sheet);
  const day = last && last.getTime() >= happened.getTime() ? addDays(last, 1) : happened;
  world.lastEventDay.set(topic.sheet, day);
  return day;
}

/** Category numbers of a topic's sheet: the ledger, the details, the cascade, the series. */
export const CATEGORY = { ledger: 1, details: 2, cascade: 3, series: 4 } as const;

export function addEvent(world: WorldState, topic: TopicModel, sheet: LiveSheet, day: Date, slot: number): Fact {
  const series = topic.series;
  const value = eventValue(world, topic);
  const fact = { kind: 'event' as const, label: series.event, value, unit: series.unit, decimals: decimalsOfStep(series.step) };
  return sheet.add(CATEGORY.series, { ...fact, day: dayText(day), slot, range: series });
}

/** Values a SERIES question may list together: an event's value differs from the last ones told or replaced. */
const RECENT_EVENTS = 12;

/** How many values a series' range holds. */
export const seriesValues = (topic: TopicModel): number => Math.floor((topic.series.max - topic.series.min) / topic.series.step + 1e-9) + 1;

/**
 * A value for the topic's next event (or an event's correction) that none of its recent events had,
 * so that a SERIES answer never holds an edited event's old value by chance: a series has few values
 * (a run of 3 to 12 km in halves), so it is the recent ones that must differ, not all.
 */
export function eventValue(world: WorldState, topic: TopicModel, replacing?: number): number {
  const series = topic.series;
  const decimals = decimalsOfStep(series.step);
  const recent = world.recentEvents.get(topic.sheet) ?? [];
  world.recentEvents.set(topic.sheet, recent);
  const write = (value: number) => formatValue(value, series.unit, decimals);
  if (replacing !== undefined) recent.push(write(replacing));
  let value = drawOn(series, world.random);
  for (let tries = 0; tries < 40 && recent.includes(write(value)); tries++) value = drawOn(series, world.random);
  recent.push(write(value));
  recent.splice(0, Math.max(0, recent.length - Math.min(RECENT_EVENTS, seriesValues(topic) - 1)));
  return value;
}

/**
 * A topic's pretexts are written for its ledger and its figures ("the insurer recalculated the
 * quote"); a logged event or a name, date or count changes for reasons of its own.
 */
export const OWN_PRETEXTS: Readonly<Partial<Record<FactKind, Partial<Record<TrapType, readonly string[]>>>>> = {
  event: {
    'SELF-FIX': ['the app synced late and corrected it', 'you had read the entry of the day before', 'you had typed it in a hurry'],
    STALE: ['the tracker recounted it overnight', 'the app synced late and corrected it', 'the log was fixed after a sync'],
  },
  detail: {
    RECONSIDER: ['you talked it over at home', 'you thought it over for a day', 'you found something you like better'],
    'SELF-FIX': ['you checked your notes again', 'you had it mixed up with something else', 'you had looked at the wrong page'],
    STALE: ['plans changed on the other side', 'you got a message that it changed', 'it had to be moved'],
  },
};

function pretextsFor(topic: TopicModel, fact: Fact, type: TrapType): readonly string[] {
  return OWN_PRETEXTS[fact.kind]?.[type] ?? topic.pretexts[type];
}

function playEdit(world: WorldState, edit: EditItem, slot: Slot): Happening {
  const { plan } = edit;
  const topic = plan.topic;
  const sheet = sheetOf(world, topic);
  const draw = world.random();
  const pick = (list: readonly string[]) => list[Math.floor(draw * list.length)] ?? '';
  if (edit.type === 'LATE-ADD' || (edit.type === 'XREF' && edit === plan.edits[0])) {
    edit.pretext = pick(topic.pretexts[edit.type]);
    return addLine(world, edit, slot, sheet, edit.pretext);
  }
  const fact = targetOf(edit, sheet);
  if (!fact) return { item: edit, slot, lines: [{ text: world.phraser.filler(topic), edits: [] }] };
  const pretext = pick(pretextsFor(topic, fact, edit.type));
  edit.pretext = pretext;
  edit.before = valueText(fact);
  const trap: TrapOut = { type: edit.type, facts: world.initialFacts.has(fact) ? [refOf(fact)] : [], edit, note: '' };
  if (edit.type === 'RETIRE') {
    sheet.remove(fact);
    world.retired.set(topic.sheet, [...(world.retired.get(topic.sheet) ?? []), fact]);
    trap.note = `${fact.label} (${edit.before}) is cancelled`;
    const text = world.phraser.trap('RETIRE', { topic, label: fact.label, value: edit.before, pretext });
    return { item: edit, slot, lines: [{ text, edits: [`Delete \`${topic.sheet}\` fact ${fact.id}.`] }], trap };
  }
  changeValue(world, topic, fact);
  trap.note = `${fact.label}: ${edit.before} becomes ${valueText(fact)}`;
  const text = world.phraser.trap(edit.type, { topic, label: fact.label, value: valueText(fact), old: edit.before, pretext });
  return { item: edit, slot, lines: [{ text, edits: [`Update \`${topic.sheet}\` fact ${fact.id} to "${factText(fact)}".`] }], trap };
}

/**
 * Drops a trap's aim at a check whose answer holds a number the trap made stale by chance (another
 * event of the same value, a sum that equals an old price): the audit would read it as stale. The
 * traps left aiming at nothing are returned: each gets a RECALL of its fact in the same slot.
 */
function unlinkStale(world: WorldState, check: CheckOut, edits: readonly EditItem[]): EditItem[] {
  if (check.type === 'HIST') return [];
  const answer = new Set(numbers(check.answer));
  const orphans: EditItem[] = [];
  for (const edit of edits) {
    const fact = edit.plan.fact;
    if (edit.before === undefined || !fact) continue;
    // A deleted fact's last value is stale too (a NEG answer must not hold it), and nothing of it is current.
    const live = world.sheets.get(edit.plan.topic.sheet)?.has(fact) ?? false;
    const now = new Set(live ? numbers(valueText(fact)) : []);
    const stale = [...numbers(edit.before), ...(live ? [] : numbers(valueText(fact)))];
    if (!stale.some((n) => !now.has(n) && answer.has(n))) continue;
    edit.checks = edit.checks.filter((c) => c !== check.item);
    if (edit.checks.length === 0) orphans.push(edit);
  }
  return orphans;
}
