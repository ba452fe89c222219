/**
 * The second computation of a generated world's answers: each check's correct answer worked out
 * again from the facts' texts a rehearsal recorded (the engine's own sheet edits, as a run makes
 * them), never from the generator's world. Only the recipe's kind and the fact ids it names are
 * taken from the generator; every value, sum and list is read off the rehearsal's texts and
 * written in the benchmark's number style, so a generator that tracks a fact, a sum or a period
 * differently from the chapters it writes gives a different answer here.
 */
import type { Benchmark, LocatedCheck } from '../../scenario/src';
import { phaseKey, type FactValues, type Rehearsal } from '../src/audit/rehearsal';
import type { Recipe } from '../src/generate/answers';
import { keywords } from '../src/standin/text';

/** A fact's text split as the sheets write it: `Label, value`, `Label: value`, `Event, 3 March: value`, a reference. */
export interface FactParts {
  label: string;
  value: string;
  day?: string;
  /** "X, the same as the y": y, lowercase as written. */
  sameAs?: string;
}

export function factParts(id: string, text: string): FactParts {
  const category = id.split('#')[1]?.split('.')[0];
  const reference = /^(.+?), the same as the (.+)$/.exec(text);
  if (reference) return { label: reference[1]!, value: '', sameAs: reference[2]! };
  const event = /^([^,:]+), (\d{1,2} [A-Z][a-z]+): (.+)$/.exec(text);
  if (category === '4' && event) return { label: event[1]!, day: event[2]!, value: event[3]! };
  const detail = /^([^,:]+): (.+)$/.exec(text);
  if (category === '2' && detail) return { label: detail[1]!, value: detail[2]! };
  const line = /^([^,:]+), (.+)$/.exec(text);
  if (line) return { label: line[1]!, value: line[2]! };
  throw new Error(`recompute: cannot read fact ${id} "${text}"`);
}

/** An amount as written: `$1,250 a year` → 1250 in `$` with 0 decimals; `6.4 km` → 6.4 in km. */
export interface Amount {
  number: number;
  decimals: number;
  money?: string;
  unit?: string;
}

const UNITS = new Set(['km', 'kg', 'g', 'mg', 'IU', 'min', 'h', 'm²', 'm', 'l', 'ml']);

export function amountOf(value: string): Amount {
  const match = /^([$€£]?)(\d[\d,]*)(?:\.(\d+))?(?: (\S+))?/.exec(value);
  if (!match) throw new Error(`recompute: no amount in "${value}"`);
  const number = Number(`${match[2]!.replace(/,/g, '')}${match[3] ? `.${match[3]}` : ''}`);
  const unit = !match[1] && match[4] && UNITS.has(match[4]) ? match[4] : undefined;
  return { number, decimals: match[3]?.length ?? 0, ...(match[1] ? { money: match[1] } : {}), ...(unit ? { unit } : {}) };
}

/** A total written like `like`: money grouped from four digits (`$1,404`), measures from five (`4000 IU`). */
export function written(total: number, like: Amount, decimals: number): string {
  const [whole = '0', fraction] = total.toFixed(decimals).split('.');
  const groupFrom = like.money ? 4 : 5;
  const grouped = whole.length >= groupFrom ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : whole;
  const number = `${grouped}${fraction ? `.${fraction}` : ''}`;
  if (like.money) return `${like.money}${number}`;
  return like.unit ? `${number} ${like.unit}` : number;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `3 March` as a number that orders days within one year. */
export function dayOrder(day: string): number {
  const [date = '0', month = ''] = day.split(' ');
  return MONTHS.indexOf(month) * 32 + Number(date);
}

/** A sheet's facts of one category at a moment, in id order, each parsed. */
export function categoryFacts(values: FactValues, sheet: string, category: number): { id: string; parts: FactParts }[] {
  const prefix = `${sheet}#${category}.`;
  return [...values]
    .filter(([id]) => id.startsWith(prefix))
    .sort(([a], [b]) => Number(a.slice(prefix.length)) - Number(b.slice(prefix.length)))
    .map(([id, text]) => ({ id, parts: factParts(id, text) }));
}

/** Where a check sits and what the rehearsal saw around it. */
export interface CheckContext {
  located: LocatedCheck;
  benchmark: Benchmark;
  rehearsal: Rehearsal;
}

/** What the answer must be, recomputed: the exact text, or (references, NEG) the pieces it must hold. */
export interface Expected {
  exact?: string;
  contains?: string[];
  /** A recap of an empty log: the unit of the 0 is nowhere in the sheets. */
  pattern?: RegExp;
  /** Pieces the answer must hold, compared without case. */
  mentions?: string[];
  /** NEG: the type the check must carry. */
  type?: string;
}

export function recompute(recipe: Recipe, context: CheckContext): Expected {
  const { located, rehearsal } = context;
  const at = rehearsal.atGrade.get(located.check.id);
  if (!at) throw new Error(`recompute: ${located.check.id} was never graded`);
  switch (recipe.kind) {
    case 'value':
      return valueAnswer(recipe.fact, at, located.check.answer);
    case 'before':
      return { exact: factParts(recipe.fact, beforeText(recipe.fact, context)).value };
    case 'ledger':
      return ledgerAnswer(recipe.sheet, at, context);
    case 'derived': {
      const quantity = factParts(recipe.quantity, textAt(at, recipe.quantity)).value;
      const rate = factParts(recipe.rate, textAt(at, recipe.rate)).value;
      const product = Math.round(amountOf(quantity).number * amountOf(rate).number * 100) / 100;
      return { exact: `${written(product, amountOf(rate), Number.isInteger(product) ? 0 : 2)}: ${quantity} at ${rate}` };
    }
    case 'series':
      return seriesAnswer(recipe.sheet, at, located.check.question);
    case 'recap':
      return recapAnswer(recipe.sheet, at, located.check.question);
    case 'void':
      return voidAnswer(recipe.unknown, at);
  }
}

function textAt(values: FactValues, id: string): string {
  const text = values.get(id);
  if (text === undefined) throw new Error(`recompute: no live fact ${id} when the check was graded`);
  return text;
}

/** RECALL: the live fact's value; a reference's answer is its referent's value and its own line. */
function valueAnswer(fact: string, at: FactValues, answer: string): Expected {
  const value = factParts(fact, textAt(at, fact)).value;
  const reference = /^(.*) \((.+, the same as the (.+))\)\.?$/.exec(answer);
  if (!reference) return { exact: value };
  const sheet = fact.split('#')[0]!;
  const lines = categoryFacts(at, sheet, 1);
  const line = lines.find((l) => l.parts.sameAs !== undefined && `${l.parts.label}, the same as the ${l.parts.sameAs}` === reference[2]);
  const referent = lines.find((l) => l.parts.label.toLowerCase() === reference[3]!.toLowerCase());
  if (!line || referent?.id !== fact) return { exact: `${value} (a live reference to ${fact})` };
  return { exact: `${value} (${reference[2]})` };
}

/** HIST: the fact's text when the phase of the trap aimed at this check began. */
function beforeText(fact: string, { located, benchmark, rehearsal }: CheckContext): string {
  const traps = benchmark.traps.filter((trap) => trap.trap.targets.some((target) => target.name === located.check.id));
  if (traps.length !== 1) throw new Error(`recompute: ${traps.length} traps aim at HIST check ${located.check.id}`);
  const trap = traps[0]!;
  const start = rehearsal.atPhaseStart.get(phaseKey(trap.chapter, trap.phase));
  const text = start?.get(fact);
  if (text === undefined) throw new Error(`recompute: ${fact} was not live when the trap aimed at ${located.check.id} began`);
  return text;
}

/** AGG and NEG over a ledger: its live lines, a reference taking its referent's amount, and the lines cancelled so far. */
function ledgerAnswer(sheet: string, at: FactValues, context: CheckContext): Expected {
  const lines = categoryFacts(at, sheet, 1);
  const valueOf = (parts: FactParts): string => {
    if (parts.sameAs === undefined) return parts.value;
    const referent = lines.find((line) => line.parts.label.toLowerCase() === parts.sameAs?.toLowerCase());
    if (!referent) throw new Error(`recompute: ${parts.label} refers to a line that is gone: ${parts.sameAs}`);
    return valueOf(referent.parts);
  };
  const values = lines.map((line) => valueOf(line.parts));
  const amounts = values.map(amountOf);
  const total = amounts.reduce((sum, amount) => sum + amount.number, 0);
  const decimals = amounts.reduce((most, amount) => Math.max(most, amount.decimals), 0);
  const like = amounts[0];
  const parts = lines.map((line, index) => `${line.parts.label} ${values[index]}`).join(', ');
  const cancelled = cancelledLabels(sheet, lines, context);
  // Every line cancelled: the live sheet no longer says the unit, and any unit after the 0 will do.
  if (!like)
    return { pattern: /^(?:[$€£]0|0(?: \S+)?) in all: nothing left; no /, mentions: cancelled.map((label) => `no ${label}`), type: 'NEG' };
  const head = `${written(total, like, decimals)} in all: ${parts}`;
  if (cancelled.length === 0) return { exact: head };
  // A label is written mid-sentence in lower case unless its first word keeps capitals (no GPS watch).
  return { contains: [head], mentions: cancelled.map((label) => `no ${label}`), type: 'NEG' };
}

/** Ledger labels the rehearsal saw at a phase start up to the check's phase that are not live at its grade. */
function cancelledLabels(sheet: string, live: readonly { parts: FactParts }[], { located, rehearsal }: CheckContext): string[] {
  const seen = new Set<string>();
  const note = (values: FactValues) => categoryFacts(values, sheet, 1).forEach((line) => seen.add(line.parts.label));
  note(rehearsal.initial);
  for (const [key, values] of rehearsal.atPhaseStart) {
    const [chapter = 0, phase = 0] = key.split(':').map(Number);
    if (chapter < located.chapter || (chapter === located.chapter && phase <= located.phase)) note(values);
  }
  const liveLabels = new Set(live.map((line) => line.parts.label));
  return [...seen].filter((label) => !liveLabels.has(label));
}

/** SERIES: the events the log holds in the period the question names ("from 3 March to 9 March"), in order. */
function seriesAnswer(sheet: string, at: FactValues, question: string): Expected {
  const period = /from (\d{1,2} [A-Z][a-z]+) to (\d{1,2} [A-Z][a-z]+)/.exec(question);
  if (!period) return { exact: 'you never told me' };
  const [from, to] = [dayOrder(period[1]!), dayOrder(period[2]!)];
  const events = categoryFacts(at, sheet, 4).filter((e) => e.parts.day && dayOrder(e.parts.day) >= from && dayOrder(e.parts.day) <= to);
  return { exact: events.map((e) => `${e.parts.value} (${e.parts.day})`).join(', ') };
}

/** A monthly recap: the sum of the events the log holds in the month the question names. */
function recapAnswer(sheet: string, at: FactValues, question: string): Expected {
  const month = MONTHS.find((name) => question.includes(`in ${name}`));
  if (!month) throw new Error(`recompute: the recap "${question}" names no month`);
  const events = categoryFacts(at, sheet, 4).filter((e) => e.parts.day?.endsWith(` ${month}`));
  const values = events.map((e) => e.parts.value);
  const amounts = values.map(amountOf);
  const total = amounts.reduce((sum, amount) => sum + amount.number, 0);
  const decimals = amounts.reduce((most, amount) => Math.max(most, amount.decimals), 0);
  // With nothing logged in the month, the sum is written in the unit of the log's other events:
  // with none at all, the sheets say nothing of the unit, and any unit after the 0 will do.
  const like = amounts[0] ?? categoryFacts(at, sheet, 4).map((e) => amountOf(e.parts.value))[0];
  if (!like) return { pattern: /^(?:[$€£]0|0(?: \S+)?) in all: nothing logged$/ };
  return { exact: `${written(total, like, decimals)} in all: ${values.join(', ') || 'nothing logged'}` };
}

/** VOID: no live fact holds all the unknown's key words; the answer says it was never told. */
function voidAnswer(unknown: string, at: FactValues): Expected {
  const words = keywords(unknown);
  const telling = [...at].filter(([, text]) => words.every((word) => keywords(text).includes(word)));
  return { exact: telling.length ? `told in ${telling.map(([id]) => id).join(', ')}` : 'you never told me' };
}
