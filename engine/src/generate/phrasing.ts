/**
 * The Phraser: natural English for the persona of a generated world. It fills the frames of
 * `phrasingFrames.ts` with a topic's words and the world's values, picking frames from a shuffled
 * deck per method and type, so every frame comes round before one repeats and two neighbours never
 * match. Deterministic: it draws only from the `random` it was given, and only when a deck runs out.
 */
import type { CheckType, TopicModel, TrapType } from './model';
import {
  DERIVED_FRAMES,
  EVENT_FRAMES,
  FILLER_FRAMES,
  QUESTION_FRAMES,
  RECAP_FRAMES,
  TELL_FRAMES,
  TRAP_FRAMES,
  type QuestionWords,
  type TopicWords,
  type TrapWords,
} from './phrasingFrames';

export interface TrapSlots {
  topic: TopicModel;
  /** The fact's label as written in the sheet: "Insurance". */
  label: string;
  /** The new value, formatted: "$430 a year"; for RETIRE the deleted line's value; for XREF never written. */
  value: string;
  /** The value it replaces (RECONSIDER, STALE, SELF-FIX, CASCADE). */
  old?: string;
  /** One of `topic.pretexts[type]`. */
  pretext: string;
  /** XREF: what the value refers to, "the bathroom wall tile". */
  referent?: string;
}

export interface CheckSlots {
  topic: TopicModel;
  /** RECALL, HIST: the fact's label. */
  label?: string;
  /**
   * HIST: the edit named by its pretext, "before the insurer recalculated the quote", or the bare pretext
   * ("before " is put in front); turned to the first person here.
   */
  edit?: string;
  /**
   * AGG, NEG: `topic.ledger.total` or `topic.cascade.derived` (the default: the ledger's total; the derived
   * value gets frames of its own, with no "lines" to count). An AGG
   * check with a `period` and no `total` is a monthly recap: it asks `topic.series.recap` over the period.
   */
  total?: string;
  /** VOID: one of `topic.unknowns` (the default: the first). */
  unknown?: string;
  /** SERIES: "from 3 to 9 March", "this month", "in March" (the default: "so far"). */
  period?: string;
}

/** What stands for a missing `old`: the frames still read as English. */
const NO_OLD = 'the old figure';

export class Phraser {
  private readonly decks = new Map<string, { order: number[]; last: number }>();

  constructor(private readonly random: () => number) {}

  /** Sentences to the persona for a trap write, holding `value` verbatim (and `old` where given); XREF never holds `value`. */
  trap(type: TrapType, slots: TrapSlots): string {
    const frames = TRAP_FRAMES[type];
    const words: TrapWords = {
      the: nounPhrase(slots.label),
      value: slots.value,
      old: slots.old ?? NO_OLD,
      pretext: slots.pretext,
      Pretext: capitalise(slots.pretext),
      referent: slots.referent ? referentPhrase(slots.referent) : 'what it was matched to',
      about: slots.topic.about,
      derived: slots.topic.cascade.derived,
    };
    return oneLine(frames[this.pick(`trap ${type}`, frames.length)]!(words));
  }

  /** A check's question as she asks it, holding the label, the total, the unknown or the log's name. */
  question(type: CheckType, slots: CheckSlots): string {
    const topic = slots.topic;
    if (type === 'AGG' && slots.period && !slots.total) {
      const recap = topic.series.recap.replace(/\bthis month\b/, slots.period);
      return oneLine(RECAP_FRAMES[this.pick('question recap', RECAP_FRAMES.length)]!({ recap, series: midSentence(topic.series.title) }));
    }
    const derived = type === 'AGG' && slots.total === topic.cascade.derived;
    const frames = derived ? DERIVED_FRAMES : QUESTION_FRAMES[type];
    const words: QuestionWords = {
      the: nounPhrase(slots.label ?? topic.ledger.lines[0]?.label ?? topic.title),
      edit: firstPerson(editWords(slots.edit)),
      total: slots.total ?? topic.ledger.total,
      unknown: slots.unknown ?? topic.unknowns[0] ?? `the details of ${nounPhrase(topic.title)}`,
      series: midSentence(topic.series.title),
      event: midSentence(topic.series.event),
      period: slots.period ?? 'so far',
    };
    return oneLine(frames[this.pick(derived ? 'question derived' : `question ${type}`, frames.length)]!(words));
  }

  /** Telling a topic the first time: names the sheet in backticks ("tell the `car` sheet"). */
  tell(topic: TopicModel): string {
    return oneLine(TELL_FRAMES[this.pick('tell', TELL_FRAMES.length)]!(topicWords(topic)));
  }

  /** Small talk about a topic, never checked: no backtick, no number of its own. */
  filler(topic: TopicModel): string {
    return oneLine(FILLER_FRAMES[this.pick('filler', FILLER_FRAMES.length)]!(topicWords(topic)));
  }

  /** A new event of the topic's log, holding `value` and `when` ("this morning", "on 3 March") verbatim. */
  event(topic: TopicModel, slots: { value: string; when: string }): string {
    const words = { ...topicWords(topic), value: slots.value, when: slots.when };
    return oneLine(EVENT_FRAMES[this.pick('event', EVENT_FRAMES.length)]!(words));
  }

  /**
   * The next frame's index for `key`: decks are shuffled permutations, drawn from the front; a new
   * deck never opens with the frame the old one closed with, so neighbours always differ.
   */
  private pick(key: string, count: number): number {
    const deck = this.decks.get(key) ?? { order: [], last: -1 };
    this.decks.set(key, deck);
    if (deck.order.length === 0) {
      deck.order = shuffled(count, this.random);
      if (deck.order[0] === deck.last && count > 1) [deck.order[0], deck.order[1]] = [deck.order[1]!, deck.order[0]!];
    }
    deck.last = deck.order.shift()!;
    return deck.last;
  }
}

function topicWords(topic: TopicModel): TopicWords {
  return {
    sheet: topic.sheet,
    about: topic.about,
    About: capitalise(topic.about),
    series: midSentence(topic.series.title),
    event: midSentence(topic.series.event),
    anEvent: `${/^[aeiou]/i.test(topic.series.event) ? 'an' : 'a'} ${midSentence(topic.series.event)}`,
    value: '',
    when: '',
  };
}

/** 0..count-1 in a Fisher–Yates order from `random`. */
function shuffled(count: number, random: () => number): number[] {
  const order = Array.from({ length: count }, (_, index) => index);
  for (let index = count - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [order[index], order[other]] = [order[other]!, order[index]!];
  }
  return order;
}

/**
 * A label in the middle of a sentence: "Winter tyres" becomes "the winter tyres"; a label that
 * opens with a possessive ("Mum's birthday") or an acronym ("GP visit") keeps its own first word.
 */
export function nounPhrase(label: string): string {
  const first = label.split(' ')[0] ?? '';
  if (/['’]s$/.test(first)) return label;
  return `the ${midSentence(label)}`;
}

/** What a HIST question names: "before …" in front of a bare pretext, which is how an edit is dated. */
function editWords(edit: string | undefined): string {
  if (!edit) return 'before the last change';
  return /^(before|after|when|until|since)\b/i.test(edit) ? edit : `before ${edit}`;
}

/** An XREF referent with its article: "bathroom wall tile" becomes "the bathroom wall tile"; "the hallway" stays. */
function referentPhrase(referent: string): string {
  return /^(the|a|an|my|your|our|his|her|their|this|that)\b/i.test(referent) ? referent : nounPhrase(referent);
}

/** Lower-cases the first letter unless the first word is an acronym or a name with inner capitals ("GP", "iPad"). */
export function midSentence(text: string): string {
  const first = text.split(' ')[0] ?? '';
  if (/[A-Z]/.test(first.slice(1))) return text;
  return text.charAt(0).toLowerCase() + text.slice(1);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A pretext told in the second person ("before you talked it over with your partner") as the
 * persona asks it ("before I talked it over with my partner"). The library writes "you" only as a
 * subject (its test holds that), so "you" always becomes "I".
 */
export function firstPerson(text: string): string {
  const swaps: readonly [RegExp, string][] = [
    [/\byou['’]re\b/g, "I'm"],
    [/\byou['’]ve\b/g, "I've"],
    [/\byou['’]d\b/g, "I'd"],
    [/\byou['’]ll\b/g, "I'll"],
    [/\byou were\b/g, 'I was'],
    [/\byou are\b/g, 'I am'],
    [/\byourself\b/g, 'myself'],
    [/\byours\b/g, 'mine'],
    [/\byour\b/g, 'my'],
    [/\bYour\b/g, 'My'],
    [/\b[Yy]ou\b/g, 'I'],
  ];
  return swaps.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

/** Whatever the world passed in, one line with single spaces. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
