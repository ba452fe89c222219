/**
 * The frames of the Phraser: sentence patterns with slots, at least five per trap type, per check
 * type and for telling, filler and events. A frame is a plain function of its words, so a frame
 * cannot forget a slot silently (the compiler names each one) and `phrasing.ts` only picks and fills.
 * Frames avoid verbs that agree with the label ("the winter tyres is") by using past tenses,
 * imperatives and "the figure for …"; they never start with a slot, so no line starts with a digit.
 */
import type { CheckType, TrapType } from './model';

/** The words a trap frame is filled with, already shaped for the middle of a sentence. */
export interface TrapWords {
  /** The label as a noun phrase: "the insurance", "Mum's birthday". */
  the: string;
  value: string;
  /** The replaced value, or "the old figure" when the world gave none. */
  old: string;
  /** The pretext, starting lower case: "the insurer recalculated the quote". */
  pretext: string;
  /** The same pretext capitalised, for a frame that starts a sentence with it. */
  Pretext: string;
  /** XREF: what the value refers to, "the bathroom wall tile". */
  referent: string;
  /** The topic, as after "about": "the car we are buying". */
  about: string;
  /** CASCADE: what depends on the base fact, "the floor tile for the hallway". */
  derived: string;
}

/** The words a question frame is filled with. */
export interface QuestionWords {
  /** RECALL, HIST: the label as a noun phrase. */
  the: string;
  /** HIST: the edit in the first person: "before I talked it over with my partner". */
  edit: string;
  /** AGG, NEG: what the sum is called. */
  total: string;
  /** VOID: what was never told. */
  unknown: string;
  /** SERIES: the log's title in the middle of a sentence, "runs", and one event, "run". */
  series: string;
  event: string;
  /** SERIES: "this month", "from 3 to 9 March". */
  period: string;
}

/** The words a tell, filler or event frame is filled with. */
export interface TopicWords {
  sheet: string;
  about: string;
  About: string;
  series: string;
  event: string;
  /** The event with its article: "a run", "an evening walk". */
  anEvent: string;
  /** An event's value and its date words ("this morning", "on 3 March"). */
  value: string;
  when: string;
}

type Frame<Words> = (words: Words) => string;

/**
 * Trap frames. Each carries `value` verbatim, and `old` where the type replaces a value; XREF frames
 * carry the referent and tell the persona to leave the number out (the value is never in the text).
 */
export const TRAP_FRAMES: Readonly<Record<TrapType, readonly Frame<TrapWords>[]>> = {
  RECONSIDER: [
    (w) => `Say ${w.pretext}, so you changed your mind: put ${w.the} down as ${w.value} instead of ${w.old}.`,
    (w) => `Tell the assistant you thought it over, since ${w.pretext}: make ${w.the} ${w.value} rather than ${w.old}.`,
    (w) => `Mention that ${w.pretext}; you decided on ${w.value} for ${w.the} now, not ${w.old}.`,
    (w) => `Say you had second thoughts about ${w.the}: ${w.pretext}, so it becomes ${w.value} instead of ${w.old}.`,
    (w) => `Explain that ${w.pretext}; in the end you went for ${w.value} for ${w.the}, where you had said ${w.old}.`,
    (w) => `Change of plan. ${w.Pretext}, so ask the assistant to switch ${w.the} from ${w.old} to ${w.value}.`,
  ],
  STALE: [
    (w) => `Say ${w.pretext}: ${w.the} went from ${w.old} to ${w.value}.`,
    (w) => `Mention that ${w.pretext}, so the entry for ${w.the} is ${w.value} now instead of ${w.old}.`,
    (w) => `Tell the assistant the news: ${w.pretext}. The entry for ${w.the} is now ${w.value}, where it was ${w.old}.`,
    (w) => `Say you just heard that ${w.pretext}; the entry for ${w.the} no longer stands at ${w.old} but at ${w.value}.`,
    (w) => `Bring up an update: ${w.pretext}, so ${w.the} moved from ${w.old} to ${w.value}.`,
    (w) => `Say ${w.pretext}, and ${w.the} came back at ${w.value} instead of the ${w.old} you had noted.`,
  ],
  'SELF-FIX': [
    (w) => `Mention that you misremembered ${w.the}: ${w.pretext}. It should say ${w.value}, not ${w.old}.`,
    (w) => `Say you got ${w.the} wrong earlier, since ${w.pretext}: it is really ${w.value}, not ${w.old}.`,
    (w) => `Correct yourself: ${w.pretext}, so ${w.the} should read ${w.value} instead of ${w.old}.`,
    (w) => `Tell the assistant you made a mistake about ${w.the}, because ${w.pretext}. Write ${w.value}, not ${w.old}.`,
    (w) => `Admit a slip: ${w.pretext}; what you gave as ${w.old} for ${w.the} is actually ${w.value}.`,
    (w) => `Say you need to fix something you told earlier. ${w.Pretext}, so ${w.the} should be ${w.value}, not ${w.old}.`,
  ],
  XREF: [
    (w) => `Say ${w.pretext}: for ${w.the}, it is the same as ${w.referent}. Do not say the number.`,
    (w) => `Tell the assistant that ${w.the} is the same as ${w.referent}, since ${w.pretext}; give no figure.`,
    (w) => `Mention that ${w.pretext}, so for ${w.the} say only that it is the same as ${w.referent}, with no number.`,
    (w) => `About ${w.the}: say it is the same as ${w.referent}, because ${w.pretext}. Leave the number out.`,
    (w) => `Keep it short, since ${w.pretext}: for ${w.the} say "the same as ${w.referent}" and never the figure.`,
    (w) => `Say that ${w.the} should be put down as the same as ${w.referent}. ${w.Pretext}, so do not name the amount aloud.`,
  ],
  CASCADE: [
    (w) => `Say ${w.pretext}: ${w.the} is now ${w.value}, not ${w.old}; ask the assistant to redo ${w.derived}.`,
    (w) => `Mention that ${w.pretext}, so ${w.the} changed from ${w.old} to ${w.value}; ${w.derived} needs working out again.`,
    (w) => `Tell the assistant ${w.pretext}: ${w.the} went from ${w.old} to ${w.value}, so recompute ${w.derived}.`,
    (w) => `Say ${w.pretext}. The new figure for ${w.the} is ${w.value} instead of ${w.old}; fix it everywhere it is used.`,
    (w) => `Bring up a change at the root: ${w.pretext}, so ${w.the} becomes ${w.value} where it was ${w.old}.`,
    (w) => `Explain that ${w.pretext}; update ${w.the} from ${w.old} to ${w.value} and everything built on it.`,
  ],
  'LATE-ADD': [
    (w) => `Go back to ${w.about} for a moment: ${w.pretext}. Add ${w.the}, ${w.value}.`,
    (w) => `Say that the list for ${w.about} has one more item, since ${w.pretext}: ask the assistant to add ${w.the} at ${w.value}.`,
    (w) => `Mention, as an afterthought about ${w.about}, that ${w.pretext}: add ${w.the} for ${w.value} to the list.`,
    (w) => `Reopen the list for ${w.about}: ${w.pretext}, so there is a new line, ${w.the} at ${w.value}.`,
    (w) => `Say you almost forgot something for ${w.about}. ${w.Pretext}; it is ${w.the}, ${w.value}.`,
    (w) => `One more thing for ${w.about}, long after you closed it: ${w.pretext}. Put in ${w.the} at ${w.value}.`,
  ],
  RETIRE: [
    (w) => `Say ${w.pretext}: strike ${w.the} (${w.value}) off the list.`,
    (w) => `Tell the assistant ${w.the} at ${w.value} is cancelled, because ${w.pretext}.`,
    (w) => `Mention that ${w.pretext}, so drop ${w.the}; its ${w.value} comes off the plan for ${w.about}.`,
    (w) => `Cancel ${w.the}: ${w.pretext}. Ask the assistant to take its ${w.value} out of the plan.`,
    (w) => `Say you decided against ${w.the} after all, since ${w.pretext}; the ${w.value} line goes.`,
    (w) => `Cross one item off the list for ${w.about}. ${w.Pretext}, so ${w.the} at ${w.value} is gone.`,
  ],
};

/** Check questions, as she would ask them (first person), each holding its label, total, unknown or log. */
export const QUESTION_FRAMES: Readonly<Record<CheckType, readonly Frame<QuestionWords>[]>> = {
  RECALL: [
    (w) => `What do we have for ${w.the} now?`,
    (w) => `Remind me: what did we settle on for ${w.the}?`,
    (w) => `What is written down for ${w.the} at the moment?`,
    (w) => `Quick one about ${w.the}: what was it again?`,
    (w) => `Where do we stand on ${w.the} now?`,
    (w) => `How did we leave ${w.the} in the end?`,
  ],
  AGG: [
    (w) => `What does ${w.total} come to now?`,
    (w) => `Add it all up for me: how much is ${w.total} at this point?`,
    (w) => `What is ${w.total} with every line as it stands now?`,
    (w) => `Can you work out ${w.total} for me, with the latest changes?`,
    (w) => `Where are we on ${w.total}, all lines counted?`,
  ],
  NEG: [
    (w) => `What does ${w.total} come to now, without what we cancelled?`,
    (w) => `Leaving out anything we dropped, how much is ${w.total}?`,
    (w) => `After the cancellations, what is ${w.total}?`,
    (w) => `Can you total ${w.total} again, only with what is still on?`,
    (w) => `What is ${w.total} now that some things are off the list?`,
  ],
  VOID: [
    (w) => `What is ${w.unknown}?`,
    (w) => `Do you remember ${w.unknown}? What was it?`,
    (w) => `I need ${w.unknown} for a form. What is it?`,
    (w) => `Can you look up ${w.unknown} in what I told you?`,
    (w) => `Remind me of ${w.unknown}, please?`,
  ],
  HIST: [
    (w) => `What did we have down for ${w.the} ${w.edit}?`,
    (w) => `Going back a bit: what was the entry for ${w.the} ${w.edit}?`,
    (w) => `Think back: ${w.edit}, what had we written for ${w.the}?`,
    (w) => `Remind me what we had for ${w.the} ${w.edit}.`,
    (w) => `What did I tell you about ${w.the} ${w.edit}?`,
    (w) => `Just for the record, what did ${w.the} say ${w.edit}?`,
  ],
  SERIES: [
    (w) => `List my ${w.series} ${w.period}, in order.`,
    (w) => `Which ${w.series} did I log ${w.period}? In order, please.`,
    (w) => `Go through my ${w.series} ${w.period}, oldest first.`,
    (w) => `Can you give me every ${w.event} ${w.period}, with dates and values, in order?`,
    (w) => `Read me back the ${w.series} ${w.period}, one by one in order.`,
  ],
};

/** AGG over a cascade's derived value (quantity × rate): no "lines" to count, a product to work out. */
export const DERIVED_FRAMES: readonly Frame<QuestionWords>[] = [
  (w) => `What does ${w.total} come to now?`,
  (w) => `Can you work out ${w.total} with the latest numbers?`,
  (w) => `With the figures as they stand, what is ${w.total}?`,
  (w) => `Remind me what ${w.total} adds up to now.`,
  (w) => `How much is ${w.total} at this point, worked out from the current figures?`,
];

/** Monthly recaps (an AGG over a log): `recap` completes "How", "far did I run in March?". */
export const RECAP_FRAMES: readonly Frame<{ recap: string; series: string }>[] = [
  (w) => `How ${w.recap}`,
  (w) => `Quick tally from my ${w.series}: how ${w.recap}`,
  (w) => `Looking back over my ${w.series}, how ${w.recap}`,
  (w) => `Sum it up for me: how ${w.recap}`,
  (w) => `I am curious, how ${w.recap}`,
];

/** Telling a topic the first time: each names the sheet in backticks, the form the stand-in and the audit read. */
export const TELL_FRAMES: readonly Frame<TopicWords>[] = [
  (w) => `Bring up ${w.about}: tell the \`${w.sheet}\` sheet.`,
  (w) => `Now talk about ${w.about}. Tell the \`${w.sheet}\` sheet over a few messages.`,
  (w) => `Say you want the assistant to know about ${w.about}, and tell the \`${w.sheet}\` sheet.`,
  (w) => `Time for ${w.about}: tell the \`${w.sheet}\` sheet, a few facts at a time.`,
  (w) => `Mention that you have been thinking about ${w.about}; tell the \`${w.sheet}\` sheet.`,
];

/** Small talk about a topic: no facts, no numbers, no backticks (never checked). */
export const FILLER_FRAMES: readonly Frame<TopicWords>[] = [
  (w) => `Chat a little about ${w.about}: how it is going, nothing to note down.`,
  (w) => `Make small talk about ${w.about}; say it is on your mind, with no new facts.`,
  (w) => `Say something light about ${w.about}, just how you feel about it today.`,
  (w) => `Share a passing thought about ${w.about}, nothing the assistant needs to keep.`,
  (w) => `Grumble a little about ${w.about}, the usual, with no figures.`,
  (w) => `Tell the assistant a small story about ${w.about}, without any new numbers.`,
];

/** A new event of a topic's log: each holds the value and the date words. */
export const EVENT_FRAMES: readonly Frame<TopicWords>[] = [
  (w) => `Log a new ${w.event} ${w.when}: ${w.value}.`,
  (w) => `Mention a new ${w.event} ${w.when}: ${w.value}.`,
  (w) => `Add to the log of ${w.series}: ${w.anEvent} ${w.when}, ${w.value}.`,
  (w) => `Say there was another ${w.event} ${w.when}: ${w.value}; ask the assistant to keep it in the log.`,
  (w) => `Report your latest ${w.event}, ${w.when}: ${w.value}.`,
  (w) => `Quick update for the ${w.series}: ${w.value}, ${w.when}.`,
];
