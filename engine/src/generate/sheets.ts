/**
 * A topic's sheet as the benchmark's file gives it, before anything happens: the ledger's lines
 * (a shuffled share of the library's, the rest kept for LATE-ADD and XREF), some details, the
 * cascade's quantity and rate, and, when the spec asks for more facts than that, events logged
 * before the world starts. Every number is fresh for its topic.
 */
import { LiveSheet } from './facts';
import { addDays, dayText, startDay } from './layout';
import type { TopicModel, WorldSpec } from './model';
import { shuffled } from './draw';
import { addEvent, CATEGORY, freshValue, type WorldState } from './simulate';
import { decimalsOf, drawValue, formatValue } from './units';

export function startSheet(state: WorldState, spec: WorldSpec, topic: TopicModel): LiveSheet {
  const sheet = new LiveSheet(topic.sheet, topic.title);
  const total = Math.max(4, spec.factsPerTopic);
  const details = Math.min(topic.details.facts.length, Math.max(1, Math.round(total / 4)));
  const reserve = Math.min(4, Math.floor(topic.ledger.lines.length / 3));
  const lines = Math.max(1, Math.min(topic.ledger.lines.length - reserve, total - 2 - details));
  startLedger(state, topic, sheet, lines);
  startDetails(state, spec, topic, sheet, details);
  startCascade(state, topic, sheet);
  sheet.category(CATEGORY.series, topic.series.title);
  const logged = Math.max(0, total - lines - details - 2);
  for (let n = 0; n < logged; n++) addEvent(state, topic, sheet, addDays(startDay(spec), n - logged), 0);
  return sheet;
}

function startLedger(state: WorldState, topic: TopicModel, sheet: LiveSheet, lines: number): void {
  const { random } = state;
  const order = shuffled(
    topic.ledger.lines.map((_, index) => index),
    random,
  );
  const unit = topic.ledger.unit;
  sheet.category(CATEGORY.ledger, topic.ledger.title);
  for (const index of order.slice(0, lines)) {
    const model = topic.ledger.lines[index]!;
    const decimals = decimalsOf(model.step);
    const value = freshValue(
      state,
      topic,
      () => drawValue(model, random),
      (v) => formatValue(v, unit, decimals),
    );
    const suffix = model.suffix ? { suffix: model.suffix } : {};
    sheet.add(CATEGORY.ledger, { kind: 'line', label: model.label, value, unit, decimals, range: model, ...suffix });
  }
  state.freeLabels.set(topic.sheet, order.slice(lines));
}

function startDetails(state: WorldState, spec: WorldSpec, topic: TopicModel, sheet: LiveSheet, count: number): void {
  const { random } = state;
  sheet.category(CATEGORY.details, topic.details.title);
  for (const detail of shuffled(topic.details.facts, random).slice(0, count)) {
    const base = { kind: 'detail' as const, label: detail.label, unit: 'count' as const, decimals: 0 };
    if (detail.kind === 'name') {
      const value = detail.choices[Math.floor(random() * detail.choices.length)]!;
      sheet.add(CATEGORY.details, { ...base, value, choices: detail.choices });
    } else if (detail.kind === 'date') {
      sheet.add(CATEGORY.details, { ...base, value: dayText(addDays(startDay(spec), 10 + Math.floor(random() * 110))) });
    } else {
      const value = freshValue(
        state,
        topic,
        () => drawValue(detail, random),
        (v) => `${v}`,
      );
      sheet.add(CATEGORY.details, { ...base, value, suffix: detail.noun, range: detail });
    }
  }
}

/** The base fact a CASCADE changes and the rate it is multiplied by; the derived value is never a fact. */
function startCascade(state: WorldState, topic: TopicModel, sheet: LiveSheet): void {
  const { random } = state;
  const { quantity, rate } = topic.cascade;
  const unit = topic.ledger.unit;
  sheet.category(CATEGORY.cascade, 'Figures');
  const amount = freshValue(
    state,
    topic,
    () => drawValue(quantity, random),
    (v) => `${v}`,
  );
  const decimals = decimalsOf(quantity.step);
  sheet.add(CATEGORY.cascade, { kind: 'quantity', label: quantity.label, value: amount, unit: quantity.unit, decimals, range: quantity });
  const price = freshValue(
    state,
    topic,
    () => drawValue(rate, random),
    (v) => formatValue(v, unit, decimalsOf(rate.step)),
  );
  const suffix = quantity.unit === 'count' ? 'each' : `per ${quantity.unit}`;
  sheet.add(CATEGORY.cascade, {
    kind: 'rate',
    label: rate.label,
    value: price,
    unit,
    decimals: decimalsOf(rate.step),
    suffix,
    range: rate,
  });
}
