/**
 * The checked facts of a block: for each, the trap writes that change it (types drawn by the
 * spec's weights, slots spread between its topic's introduction and the last slot that keeps the
 * spec's distance to the checks) and the checks aimed at them, placed where the spec asks; then the
 * checks no trap aims at (VOID, SERIES) and the monthly recaps.
 */
import { shuffled, weighted } from './draw';
import type { Fact, FactKind } from './facts';
import type { BlockLayout, Slot } from './layout';
import type { CheckType, TopicModel, TrapType } from './model';
import type { CheckItem, CheckSubject, EditItem, FactPlan, Item, PlanContext } from './plan';

const VALUE_EDITS: readonly TrapType[] = ['RECONSIDER', 'STALE', 'SELF-FIX'];
const ALL_TRAPS: readonly TrapType[] = ['RECONSIDER', 'STALE', 'SELF-FIX', 'XREF', 'CASCADE', 'LATE-ADD', 'RETIRE'];

export function planFacts(
  context: PlanContext,
  layout: BlockLayout,
  introOf: ReadonlyMap<TopicModel, number>,
  firstEvents: ReadonlyMap<TopicModel, number>,
  put: (item: Item) => void,
): FactPlan[] {
  const { spec, random } = context;
  const taken = new Set<Fact>();
  const cascades = new Set<TopicModel>();
  const order = shuffled(context.topics, random);
  const plans: FactPlan[] = [];
  const shared: SharedChecks = new Map();
  const window = layout.slots.filter((slot) => !slot.offline && !slot.exam && slot.number <= layout.lastTrapSlot);
  for (let n = 0; n < spec.checkedFacts && order.length; n++) {
    const topic = order[n % order.length]!;
    const plan = planOneFact(context, topic, taken, cascades);
    if (!plan) continue;
    const after = Math.max(introOf.get(topic) ?? 0, plan.target === 'event' ? (firstEvents.get(topic) ?? Infinity) : 0);
    const room = window.filter((slot) => slot.number > after);
    if (room.length === 0) continue;
    const slots = spread(room, plan.edits.length, random);
    plan.edits.forEach((edit, index) => {
      edit.slot = slots[index] ?? edit.slot;
      put(edit);
    });
    placeFactChecks(context, layout, plan, shared, put);
    plans.push(plan);
  }
  for (const check of shared.values()) put(check);
  return plans;
}

/** `count` slots of `room`, in order: distinct while there is room, drawn evenly over it. */
function spread(room: readonly Slot[], count: number, random: () => number): number[] {
  const picks: number[] = [];
  for (let index = 0; index < count; index++) {
    const from = Math.floor((index * room.length) / count);
    const to = Math.max(from + 1, Math.floor(((index + 1) * room.length) / count));
    picks.push(room[from + Math.floor(random() * (to - from))]!.number);
  }
  return picks.sort((a, b) => a - b);
}

function planOneFact(context: PlanContext, topic: TopicModel, taken: Set<Fact>, cascades: Set<TopicModel>): FactPlan | undefined {
  const { spec, random } = context;
  const allowed = ALL_TRAPS.filter(
    (type) =>
      !(type === 'CASCADE' && cascades.has(topic)) &&
      !((type === 'LATE-ADD' || type === 'XREF') && !context.hasFreeLabel(topic)) &&
      !(type === 'RETIRE' && spec.editsPerCheckedFact < 1),
  );
  const first = weighted(spec.traps, allowed, random);
  if (!first) return undefined;
  const count = Math.max(1, spec.editsPerCheckedFact);
  const plan: FactPlan = { topic, target: 'line', first, edits: [] };
  const edit = (type: TrapType): EditItem => ({ kind: 'edit', plan, type, slot: 0, checks: [] });
  // The edits after a plan's first change its value; with every value edit weighted 0 there are
  // none (a second RETIRE or LATE-ADD of one line cannot be played), and the plan is its first edit.
  const valueEdit = () => edit(weighted(spec.traps, VALUE_EDITS, random)!);
  const repeats = VALUE_EDITS.some((type) => spec.traps[type] > 0);
  if (first === 'CASCADE') {
    cascades.add(topic);
    plan.target = random() < 0.7 ? 'quantity' : 'rate';
    plan.fact = context.pickFact(topic, plan.target, taken);
    plan.edits = Array.from({ length: count }, () => edit('CASCADE'));
  } else if (first === 'LATE-ADD' || first === 'XREF') {
    context.hasFreeLabel(topic, 'reserve');
    if (first === 'XREF') {
      plan.referent = context.pickFact(topic, 'line', taken);
      if (!plan.referent) return undefined;
    }
    plan.edits = [edit(first), ...Array.from({ length: repeats ? count - 1 : 0 }, valueEdit)];
  } else {
    const draw = random();
    plan.target = first === 'RETIRE' || draw < 0.6 ? 'line' : draw < 0.85 || first === 'RECONSIDER' ? 'detail' : 'event';
    if (plan.target !== 'event') plan.fact = context.pickFact(topic, plan.target, taken);
    if (plan.target !== 'event' && !plan.fact) return undefined;
    const retire = plan.target === 'line' && (first === 'RETIRE' || (count > 1 && weighted(spec.traps, ALL_TRAPS, random) === 'RETIRE'));
    const values = Array.from({ length: !repeats && first === 'RETIRE' ? 0 : retire ? count - 1 : count }, (_, i) =>
      i === 0 && first !== 'RETIRE' ? edit(first) : valueEdit(),
    );
    // A logged event is corrected, not reconsidered: a run happened as it happened.
    if (plan.target === 'event') for (const item of values) if (item.type === 'RECONSIDER') item.type = 'SELF-FIX';
    plan.edits = retire ? [...values, edit('RETIRE')] : values;
  }
  if (plan.fact) taken.add(plan.fact);
  if (plan.referent) taken.add(plan.referent);
  return plan.target === 'quantity' || plan.target === 'rate' ? (plan.fact ? plan : undefined) : plan;
}

/** The final check of a fact (after its last edit), a HIST check for some edits, and every edit's aim. */
/**
 * Checks of a topic's whole ledger or derived value are one per block, shared by every plan that
 * aims at them and asked after the last of their edits: the same total is not asked twice.
 */
type SharedChecks = Map<string, CheckItem>;

function placeFactChecks(context: PlanContext, layout: BlockLayout, plan: FactPlan, shared: SharedChecks, put: (item: Item) => void): void {
  const { spec, random } = context;
  const last = plan.edits[plan.edits.length - 1]!;
  const retired = last.type === 'RETIRE';
  const subject = finalSubject(plan, retired, random, layout);
  const type = finalType(context, plan, subject, retired);
  const slot = placeCheck(context, layout, last.slot);
  const key = subject.on === 'ledger' || subject.on === 'derived' ? `${subject.on}:${plan.topic.sheet}` : undefined;
  let final = key ? shared.get(key) : undefined;
  if (final) final.slot = Math.max(final.slot, slot);
  else {
    final = { kind: 'check', type, subject, slot, id: '' };
    if (key) shared.set(key, final);
    else put(final);
  }
  const checkWeight = Object.values(spec.checks).reduce((sum, weight) => sum + weight, 0) || 1;
  for (const edit of plan.edits) {
    edit.checks.push(final);
    const hasBefore = !(edit === plan.edits[0] && (plan.first === 'LATE-ADD' || plan.first === 'XREF'));
    if (!hasBefore || spec.checks.HIST <= 0 || random() >= spec.checks.HIST / checkWeight) continue;
    const hist: CheckItem = {
      kind: 'check',
      type: 'HIST',
      subject: { on: 'before', edit },
      slot: placeCheck(context, layout, edit.slot),
      id: '',
    };
    put(hist);
    edit.checks.push(hist);
  }
}

/**
 * What a fact's last check asks: its ledger's total, its derived value, its series from it on, or
 * itself. A monthly recap is never a trap's check: it gives a sum, not the value the trap changed.
 */
function finalSubject(plan: FactPlan, retired: boolean, random: () => number, layout: BlockLayout): CheckSubject {
  const from = layout.slots[0]?.number ?? 1;
  if (plan.target === 'line' && (retired || random() < 0.5) && plan.first !== 'XREF') return { on: 'ledger', topic: plan.topic };
  if ((plan.target === 'quantity' || plan.target === 'rate') && random() < 0.8) return { on: 'derived', topic: plan.topic };
  if (plan.target === 'event' && random() < 0.5) return { on: 'series', topic: plan.topic, from, plan };
  return { on: 'fact', plan };
}

function finalType(context: PlanContext, plan: FactPlan, subject: CheckSubject, retired: boolean): CheckType {
  if (subject.on === 'ledger') return retired ? 'NEG' : 'AGG';
  if (subject.on === 'derived' || subject.on === 'recap') return 'AGG';
  if (subject.on === 'series') return 'SERIES';
  return plan.target === 'event' && context.spec.checks.RECALL <= 0 ? 'SERIES' : 'RECALL';
}

/** Where a check of something last changed at slot `after` is asked: the exam, or woven at the spec's distance. */
function placeCheck(context: PlanContext, layout: BlockLayout, after: number): number {
  const { spec, random } = context;
  const slots = layout.slots;
  const exam = slots.find((slot) => slot.exam);
  const woven = spec.checksAt.includes('woven') || !exam;
  if (exam && (!woven || random() < 0.5)) return exam.number;
  let switches = 0;
  for (const slot of slots) {
    if (slot.number <= after) continue;
    if (slot.newSession) switches++;
    if (slot.offline || slot.number < after + spec.distance.chapters || switches < spec.distance.sessionSwitches) continue;
    return slot.number;
  }
  return exam?.number ?? slots[slots.length - 1]!.number;
}

/** VOID and SERIES checks no trap aims at, and the monthly recaps. */
export function planLooseChecks(context: PlanContext, layout: BlockLayout, plans: readonly FactPlan[], put: (item: Item) => void): void {
  const { spec, random, topics } = context;
  const weights = Object.values(spec.checks).reduce((sum, weight) => sum + weight, 0) || 1;
  const from = layout.slots[0]?.number ?? 1;
  const late = layout.slots[Math.max(0, layout.slots.length - 1 - spec.distance.chapters)]?.number ?? from;
  const order = shuffled(topics, random);
  const unknownsUsed = new Map<TopicModel, number>();
  const voids = Math.round((spec.checkedFacts * spec.checks.VOID) / weights);
  for (let n = 0; n < voids && order.length; n++) {
    const topic = order[n % order.length]!;
    const used = unknownsUsed.get(topic) ?? Math.floor(random() * topic.unknowns.length);
    unknownsUsed.set(topic, used + 1);
    const unknown = topic.unknowns[used % topic.unknowns.length]!;
    put({ kind: 'check', type: 'VOID', subject: { on: 'void', topic, unknown }, slot: placeCheck(context, layout, late), id: '' });
  }
  const series = Math.round((spec.checkedFacts * spec.checks.SERIES) / weights / 2);
  for (let n = 0; n < series && order.length; n++) {
    const topic = order[(n + voids) % order.length]!;
    put({ kind: 'check', type: 'SERIES', subject: { on: 'series', topic, from }, slot: placeCheck(context, layout, late), id: '' });
  }
  planPlainChecks(context, layout, plans, late, put);
  if (!spec.checksAt.includes('recaps')) return;
  const recapSlot = [...layout.slots].reverse().find((slot) => !slot.exam && !slot.offline) ?? layout.slots[layout.slots.length - 1]!;
  // A month is at most 31 days and a block 30: its events were told in this block or the one before,
  // so a March a year earlier (a world of many months) is not counted with this one.
  const since = Math.max(0, from - layout.slots.length);
  for (const topic of order.slice(0, 3))
    put({ kind: 'check', type: 'AGG', subject: { on: 'recap', topic, from: since }, slot: recapSlot.number, id: '' });
}

export type { FactKind };

/** RECALL checks of facts no plan of the block changes: what was told once and stayed true. */
function planPlainChecks(
  context: PlanContext,
  layout: BlockLayout,
  plans: readonly FactPlan[],
  late: number,
  put: (item: Item) => void,
): void {
  const taken = new Set<Fact>(plans.flatMap((plan) => [plan.fact, plan.referent].filter((fact): fact is Fact => fact !== undefined)));
  const order = shuffled(context.topics, context.random);
  for (let n = 0; n < context.spec.plainChecks && order.length; n++) {
    const topic = order[n % order.length]!;
    const fact = context.pickFact(topic, context.random() < 0.5 ? 'line' : 'detail', taken) ?? context.pickFact(topic, 'line', taken);
    if (!fact) continue;
    taken.add(fact);
    const plan: FactPlan = { topic, target: fact.kind, first: 'RECONSIDER', edits: [], fact };
    put({ kind: 'check', type: 'RECALL', subject: { on: 'fact', plan }, slot: placeCheck(context, layout, late), id: '' });
  }
}
