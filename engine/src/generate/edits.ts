/**
 * The changes a trap write makes to the live sheets: a new value for a fact (drawn in its range,
 * never one its topic used before), and the lines a LATE-ADD or an XREF adds, with the persona's
 * words for each.
 */
import { nounPhrase } from './phrasing';
import { factText, valueText, type Fact, type LiveSheet } from './facts';
import { addDays, dayText } from './layout';
import type { Slot } from './layout';
import type { EditItem } from './plan';
import { CATEGORY, eventValue, freshValue, type Happening, type WorldState } from './simulate';
import type { TopicModel } from './model';
import { decimalsOf, drawValue, formatValue } from './units';

/** The fact an edit changes: the XREF's referent after its first edit, a series' latest event, or the plan's fact. */
export function targetOf(edit: EditItem, sheet: LiveSheet): Fact | undefined {
  const plan = edit.plan;
  if (plan.first === 'XREF' && edit !== plan.edits[0]) return plan.referent && sheet.has(plan.referent) ? plan.referent : undefined;
  if (plan.target === 'event' && !plan.fact) plan.fact = sheet.categories.find((c) => c.number === CATEGORY.series)?.facts.at(-1);
  return plan.fact && sheet.has(plan.fact) ? plan.fact : undefined;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Gives the fact a new value: a fresh number in its range, another name, or a day one to three weeks off. */
export function changeValue(world: WorldState, topic: TopicModel, fact: Fact): void {
  if (fact.choices) {
    const others = fact.choices.filter((choice) => choice !== fact.value);
    fact.value = others[Math.floor(world.random() * others.length)] ?? fact.value;
    return;
  }
  if (typeof fact.value === 'string') {
    const [day = '1', month = 'January'] = fact.value.split(' ');
    const date = new Date(Date.UTC(2026, Math.max(0, MONTHS.indexOf(month)), Number(day)));
    fact.value = dayText(addDays(date, 1 + Math.floor(world.random() * 20)));
    return;
  }
  if (fact.kind === 'event' && typeof fact.value === 'number') {
    const before = fact.value;
    for (let tries = 0; tries < 5 && fact.value === before; tries++) fact.value = eventValue(world, topic, before);
    return;
  }
  const range = fact.range;
  if (!range) return;
  const before = fact.value;
  const write = (value: number) => formatValue(value, fact.unit, fact.decimals);
  let value = before;
  for (let tries = 0; tries < 5 && value === before; tries++) value = freshValue(world, topic, () => drawValue(range, world.random), write);
  fact.value = value;
}

/** A LATE-ADD's new line, or an XREF's line priced as another: added to the ledger, told by the persona. */
export function addLine(world: WorldState, edit: EditItem, slot: Slot, sheet: LiveSheet, pretext: string): Happening {
  const { plan } = edit;
  const topic = plan.topic;
  const free = world.freeLabels.get(topic.sheet) ?? [];
  const model = topic.ledger.lines[free.shift() ?? 0]!;
  const decimals = decimalsOf(model.step);
  const referent = edit.type === 'XREF' ? plan.referent : undefined;
  const value = referent
    ? 0
    : freshValue(
        world,
        topic,
        () => drawValue(model, world.random),
        (v) => formatValue(v, topic.ledger.unit, decimals),
      );
  const fact = sheet.add(CATEGORY.ledger, {
    kind: 'line',
    label: model.label,
    value,
    unit: topic.ledger.unit,
    decimals,
    range: model,
    ...(model.suffix ? { suffix: model.suffix } : {}),
    ...(referent ? { refersTo: referent } : {}),
  });
  plan.fact = fact;
  const slots = referent
    ? { topic, label: fact.label, value: valueText(referent), pretext, referent: referent.label }
    : { topic, label: fact.label, value: valueText(fact), pretext };
  const text = world.phraser.trap(edit.type, slots);
  const note = referent
    ? `${fact.label} is "the same as" ${nounPhrase(referent.label)} (${valueText(referent)})`
    : `${fact.label}, ${valueText(fact)}, added late`;
  return {
    item: edit,
    slot,
    lines: [{ text, edits: [`Add to the \`${topic.sheet}\` sheet, category ${CATEGORY.ledger}: "${factText(fact)}".`] }],
    trap: { type: edit.type, facts: [], edit, note },
  };
}
