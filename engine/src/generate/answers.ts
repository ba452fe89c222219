/**
 * A check's correct answer, computed from the live sheets at the moment it is asked: RECALL the
 * fact's value now (a reference's is its referent's), HIST the value before the named edit, AGG
 * and NEG the ledger's live lines and their sum (NEG naming what was cancelled), a derived value
 * from its quantity and rate, SERIES the events in order, a recap their sum, VOID "you never told
 * me". Each answer comes with its recipe: what a second computation reads to check it.
 */
import { midSentence } from './phrasing';
import { amountOf, factText, refOf, valueText, type Fact } from './facts';
import type { Slot } from './layout';
import { monthName } from './layout';
import type { CheckType, TopicModel } from './model';
import type { CheckItem } from './plan';
import { CATEGORY, seriesValues, type WorldState } from './simulate';
import { formatValue } from './units';

/** What a second computation reads to check an answer, from the live sheets when the check is graded. */
export type Recipe =
  | { kind: 'value'; fact: string }
  | { kind: 'before'; fact: string; value: string }
  | { kind: 'ledger'; sheet: string; total: string; retired: string[] }
  | { kind: 'derived'; quantity: string; rate: string; total: string }
  | { kind: 'series'; sheet: string; facts: string[] }
  | { kind: 'recap'; sheet: string; facts: string[]; total: string }
  | { kind: 'void'; sheet: string; unknown: string };

export interface Computed {
  type: CheckType;
  answer: string;
  /** What the question names: the label, the edit, the total, the unknown, the period. */
  slots: { label?: string; edit?: string; total?: string; unknown?: string; period?: string };
  recipe: Recipe;
}

const SERIES_WINDOW = 8;

export function answerOf(world: WorldState, item: CheckItem, slot: Slot): Computed {
  const subject = item.subject;
  const sheet = world.sheets.get(subjectSheet(item))!;
  switch (subject.on) {
    case 'fact': {
      const fact = subject.plan.fact!;
      const live = fact.refersTo ?? fact;
      const answer = fact.refersTo ? `${valueText(fact)} (${factText(fact)})` : valueText(fact);
      const label = fact.kind === 'event' ? `${midSentence(fact.label)} on ${fact.day}` : fact.label;
      return { type: item.type, answer, slots: { label }, recipe: { kind: 'value', fact: refOf(live) } };
    }
    case 'before': {
      const { edit } = subject;
      const fact = edit.plan.first === 'XREF' && edit !== edit.plan.edits[0] ? edit.plan.referent! : edit.plan.fact!;
      const label = fact.kind === 'event' ? `${midSentence(fact.label)} on ${fact.day}` : fact.label;
      const before = edit.before ?? '';
      return {
        type: 'HIST',
        answer: before,
        slots: { label, edit: edit.pretext ?? '' },
        recipe: { kind: 'before', fact: refOf(fact), value: before },
      };
    }
    case 'ledger':
      return ledgerAnswer(world, subject.topic, item.type);
    case 'derived': {
      const facts = sheet.categories.find((c) => c.number === CATEGORY.cascade)?.facts ?? [];
      const quantity = facts.find((f) => f.kind === 'quantity')!;
      const rate = facts.find((f) => f.kind === 'rate')!;
      const total = sum([amountOf(quantity) * amountOf(rate)], subject.topic);
      const answer = `${total}: ${valueText(quantity)} at ${valueText(rate)}`;
      const recipe: Recipe = { kind: 'derived', quantity: refOf(quantity), rate: refOf(rate), total };
      return { type: 'AGG', answer, slots: { total: subject.topic.cascade.derived }, recipe };
    }
    case 'series':
    case 'recap': {
      const logged = sheet.categories.find((c) => c.number === CATEGORY.series)?.facts ?? [];
      if (subject.on === 'recap') {
        // The question names a calendar month: every event the log holds in it, whenever it was told
        // (a block may start mid-month, a sheet opens with events logged before the world, and a
        // single-day world's events run on a day each past the chapters' days).
        const month = ` ${monthName(slot.day)}`;
        const all = logged.filter((f) => f.day?.endsWith(month) && (f.slot ?? 0) >= subject.from);
        const total = sum(all.map(amountOf), subject.topic, subject.topic.series.unit, decimalsOfAll(all));
        const answer = `${total} in all: ${all.map(valueText).join(', ') || 'nothing logged'}`;
        const recipe: Recipe = { kind: 'recap', sheet: sheet.name, facts: all.map(refOf), total };
        return { type: 'AGG', answer, slots: { period: `in ${monthName(slot.day)}` }, recipe };
      }
      const all = logged.filter((f) => (f.slot ?? 0) >= subject.from && (f.slot ?? 0) <= slot.number);
      const start = subject.on === 'series' && subject.plan?.fact ? all.indexOf(subject.plan.fact) : -1;
      // A window short enough that its events and the old values of an edited one can all differ.
      const edits = subject.on === 'series' ? (subject.plan?.edits.length ?? 0) : 0;
      const size = Math.max(2, Math.min(SERIES_WINDOW, seriesValues(subject.topic) - 1 - edits));
      const window = start >= 0 ? all.slice(start, start + size) : all.slice(-size);
      const period = window.length ? `from ${window[0]!.day} to ${window[window.length - 1]!.day}` : 'lately';
      const answer = window.length ? window.map((f) => `${valueText(f)} (${f.day})`).join(', ') : 'you never told me';
      return { type: 'SERIES', answer, slots: { period }, recipe: { kind: 'series', sheet: sheet.name, facts: window.map(refOf) } };
    }
    case 'void':
      return {
        type: 'VOID',
        answer: 'you never told me',
        slots: { unknown: subject.unknown },
        recipe: { kind: 'void', sheet: sheet.name, unknown: subject.unknown },
      };
  }
}

function subjectSheet(item: CheckItem): string {
  const subject = item.subject;
  if (subject.on === 'fact') return subject.plan.topic.sheet;
  if (subject.on === 'before') return subject.edit.plan.topic.sheet;
  return subject.topic.sheet;
}

function decimalsOfAll(facts: readonly Fact[]): number {
  return facts.reduce((most, f) => Math.max(most, f.decimals), 0);
}

/** A sum in the topic's ledger unit (or `unit`), written with as many decimals as its parts need. */
function sum(parts: readonly number[], topic: TopicModel, unit = topic.ledger.unit, decimals?: number): string {
  const total = parts.reduce((acc, part) => acc + part, 0);
  const places = decimals ?? (Number.isInteger(Math.round(total * 100) / 100) ? 0 : 2);
  return formatValue(Number(total.toFixed(places)), unit, places);
}

/** AGG or NEG over the ledger: its live lines, their sum, and (NEG) what was cancelled. */
function ledgerAnswer(world: WorldState, topic: TopicModel, type: CheckType): Computed {
  const sheet = world.sheets.get(topic.sheet)!;
  const lines = sheet.categories.find((c) => c.number === CATEGORY.ledger)?.facts ?? [];
  const retired = world.retired.get(topic.sheet) ?? [];
  const total = sum(lines.map(amountOf), topic, topic.ledger.unit, decimalsOfAll(lines));
  // Every line cancelled (a small sheet): the sum is 0, and the answer says so rather than list nothing.
  const parts = lines.map((line) => `${line.label} ${valueText(line)}`).join(', ') || 'nothing left';
  const negative = type === 'NEG' || retired.length > 0;
  const none = retired.length ? `; no ${retired.map((f) => midSentence(f.label)).join(', no ')}` : '';
  return {
    type: negative ? 'NEG' : 'AGG',
    answer: `${total} in all: ${parts}${none}`,
    slots: { total: topic.ledger.total },
    recipe: { kind: 'ledger', sheet: topic.sheet, total, retired: retired.map((f) => f.label) },
  };
}
