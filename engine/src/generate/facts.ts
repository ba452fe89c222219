/**
 * The world's facts as a run's live sheets hold them: categories of facts with ids, where an added
 * fact takes the next id after the highest live one of its category and a deleted fact leaves (its
 * id free again), exactly as the persona's `facts_add` and `facts_edit` do. Each fact keeps the
 * value behind its text, so answers are computed from values, never parsed back from prose.
 */
import { nounPhrase } from './phrasing';
import type { Range, UnitName } from './model';
import { formatValue } from './units';

export type FactKind = 'line' | 'detail' | 'quantity' | 'rate' | 'event';

export interface Fact {
  sheet: string;
  category: number;
  id: string;
  kind: FactKind;
  label: string;
  /** A number for lines, quantities, rates, events and counts; the written value for names and dates. */
  value: number | string;
  unit: UnitName;
  decimals: number;
  /** Words after the value: "a year", "per m²", "bottles". */
  suffix?: string;
  /** Where a new value is drawn: a number's range, or a name's choices. */
  range?: Range;
  choices?: readonly string[];
  /** XREF: the fact whose value this one takes ("the same as the winter tyres"). */
  refersTo?: Fact;
  /** Events: the day it happened, as written ("3 March"), and the slot it happened on. */
  day?: string;
  slot?: number;
}

/** `sheet#id`, as chapters and trap lines name a fact. */
export const refOf = (fact: Pick<Fact, 'sheet' | 'id'>): string => `${fact.sheet}#${fact.id}`;

/** The fact's value as written: `$430 a year`, `Casa Azul`, `6.4 km`. A reference takes its referent's. */
export function valueText(fact: Fact): string {
  if (fact.refersTo) return valueText(fact.refersTo);
  const value = typeof fact.value === 'number' ? formatValue(fact.value, fact.unit, fact.decimals) : fact.value;
  return fact.suffix ? `${value} ${fact.suffix}` : value;
}

/** The number a sum adds for this fact (a reference's is its referent's); 0 for names and dates. */
export function amountOf(fact: Fact): number {
  if (fact.refersTo) return amountOf(fact.refersTo);
  return typeof fact.value === 'number' ? fact.value : 0;
}

/** The fact's line in a sheet, without its id. */
export function factText(fact: Fact): string {
  if (fact.refersTo) return `${fact.label}, the same as ${nounPhrase(fact.refersTo.label)}`;
  if (fact.kind === 'event') return `${fact.label}, ${fact.day ?? ''}: ${valueText(fact)}`;
  if (fact.kind === 'detail') return `${fact.label}: ${valueText(fact)}`;
  return `${fact.label}, ${valueText(fact)}`;
}

export interface Category {
  number: number;
  title: string;
  facts: Fact[];
}

/** One topic's live sheet. */
export class LiveSheet {
  readonly categories: Category[] = [];
  constructor(
    readonly name: string,
    readonly title: string,
  ) {}

  category(number: number, title: string): Category {
    let category = this.categories.find((c) => c.number === number);
    if (!category) this.categories.push((category = { number, title, facts: [] }));
    return category;
  }

  /** Adds a fact under the id `facts_add` would give it: one past the highest live id of its category. */
  add(number: number, fact: Omit<Fact, 'sheet' | 'category' | 'id'>): Fact {
    const category = this.category(number, '');
    const highest = category.facts.reduce((top, f) => Math.max(top, Number(f.id.split('.')[1])), 0);
    const added: Fact = { ...fact, sheet: this.name, category: number, id: `${number}.${highest + 1}` };
    category.facts.push(added);
    return added;
  }

  remove(fact: Fact): void {
    const category = this.category(fact.category, '');
    category.facts = category.facts.filter((f) => f !== fact);
  }

  has(fact: Fact): boolean {
    return this.categories.some((c) => c.facts.includes(fact));
  }
}
