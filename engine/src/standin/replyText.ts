/**
 * How the stand-in grader reads a reply beyond its values: words addressed to the grader (left out,
 * so their numbers never count), the clause a value sits in, and whether that clause marks the value
 * as the one that holds now, as one out of date, or hedges between two.
 */

/** Words that speak to whoever grades the reply, not to the user: "this answer deserves 10/10", "grade this 10". */
const TO_THE_GRADER = new RegExp(
  [
    String.raw`\b\d+(?:\.\d+)?\s*\/\s*10\b`,
    String.raw`\bout\s+of\s+(?:10|ten)\b`,
    String.raw`\bfull\s+(?:marks|score|points|credit)\b`,
    String.raw`\bdeserves?\b`,
    String.raw`\b(?:grader|grading|evaluator|judge|examiner|marker)\b`,
    String.raw`\b(?:grade|score|rate|mark)\s+(?:this|it|me|the\s+(?:answer|reply|response))\b`,
    String.raw`\b(?:give|award|assign|record)\s+(?:this|it|me|the\s+(?:answer|reply|response))?\s*(?:a\s+)?(?:score|grade|10|ten|full)\b`,
    String.raw`\bscore\s+(?:of\s+)?(?:10|ten)\b`,
    String.raw`\bignore\s+(?:all|any|the|previous|prior|your|earlier)\b`,
    String.raw`\b(?:system|instruction)s?\s*(?:note|override|message)?\s*:`,
  ].join('|'),
  'i',
);

/** The reply without the sentences (and bracketed asides) that address the grader. */
export function withoutGraderInstructions(reply: string): string {
  const asides = reply.replace(/[[(<{][^\])>}]{0,400}[\])>}]/g, (aside) => (TO_THE_GRADER.test(aside) ? ' ' : aside));
  return asides
    .split(/(?<=[.!?])\s+|\n+|\s[—–]\s|;\s+/)
    .filter((sentence) => !TO_THE_GRADER.test(sentence))
    .join(' ')
    .trim();
}

/** A pattern of whole words or phrases (regular expression parts), any case. */
const wordsPattern = (phrases: string): RegExp => new RegExp(String.raw`\b(?:${phrases.trim().split(/\s+/).join('|')})\b`, 'i');

/** Words that say a value is out of date (`\s+` joins a phrase's words). */
const PAST = wordsPattern(String.raw`
  not used\s+to before previously originally initially at\s+first earlier old older formerly changed no\s+longer not\s+any\s*more
  replaced superseded instead\s+of rather\s+than down\s+from up\s+from cancel+ed dropped outdated out\s+of\s+date
  first ['’]d switched shrank grew rebooked`);
/** "was" says a value is past beside a value said in the present or in another sentence ("Locked. It was guarded in round 1."). */
const WAS = /\b(?:was|were|had\s+been)\b/i;
const PRESENT = /\b(?:is|are|it['’]s|that['’]s|we['’]re|now)\b/i;
/** Words that say a value is the one that holds. */
const CURRENT = wordsPattern(String.raw`
  now currently current latest updated update these\s+days today in\s+the\s+end finally final actually corrected correction
  instead then\s+changed changed\s+to became raised\s+to cut\s+to lowered\s+to moved\s+to switched\s+to new`);
/** Words that leave open which of two values holds. */
const HEDGE = wordsPattern(String.raw`
  or either not\s+sure\s+which unsure unclear conflicting contradict\w* can['’]?t\s+tell don['’]?t\s+know\s+which one\s+of both`);

/** The clause around a position: bounded by sentence ends, semicolons, commas followed by a space, "but" and "and". */
export function clauseAround(text: string, position: number): string {
  const boundary = /[.!?;\n()]\s|[;\n()]|,\s|\s(?:but|and|whereas|while)\s/gi;
  let start = 0;
  let end = text.length;
  for (const match of text.matchAll(boundary)) {
    const index = match.index ?? 0;
    if (index + match[0].length <= position) start = index + match[0].length;
    else if (index >= position) {
      end = index;
      break;
    }
  }
  return text.slice(start, end);
}

/** The sentence around a position. */
export function sentenceAround(text: string, position: number): string {
  const before = text.slice(0, position);
  const start = Math.max(before.lastIndexOf('. '), before.lastIndexOf('? '), before.lastIndexOf('! '), before.lastIndexOf('\n')) + 1;
  const rest = /[.!?](?:\s|$)|\n/.exec(text.slice(position));
  return text.slice(start, rest ? position + rest.index : text.length);
}

/** Where a value is in a text. */
export interface Span {
  start: number;
  end: number;
}

/**
 * Whether the reply says which of a stale value and the current one holds: the stale value's clause
 * calls it past, or the current one's calls it current, and the sentence does not hedge between them.
 */
export function saysWhichHolds(text: string, stale: Span, current: Span): boolean {
  const staleClause = clauseAround(text, stale.start);
  const currentClause = clauseAround(text, current.start);
  // "(it was 4.8 × 4.0)" and "from 12 to 10.4 m²" say it as plainly as "it used to be".
  const aside = /\(\s*(?:it\s+)?(?:was|were)\b[^()]*$/i.test(text.slice(Math.max(0, stale.start - 40), stale.start));
  const fromTo =
    stale.end <= current.start &&
    /\bfrom\s*$/i.test(text.slice(0, stale.start)) &&
    /^\s*to\s*$/i.test(text.slice(stale.end, current.start));
  const apart = sentenceAround(text, stale.start) !== sentenceAround(text, current.start);
  const was = WAS.test(staleClause) && (apart || PRESENT.test(currentClause)) && !WAS.test(currentClause);
  const calledPast = PAST.test(staleClause) || aside || fromTo || was;
  const sentence = sentenceAround(text, stale.start);
  const hedged = !apart && HEDGE.test(sentence.replace(/\bor\s+so\b/gi, '')) && !PAST.test(staleClause);
  return (calledPast || CURRENT.test(currentClause)) && !hedged;
}

/** Words that leave open which of two values holds, without the bare "or" that joins a buried reply's items. */
const STRONG_HEDGE =
  /\b(?:either|not\s+sure\s+which|unsure|unclear|conflicting|contradict\w*|can['’]?t\s+tell|don['’]?t\s+know\s+which|both)\b/i;

/**
 * Whether the reply offers another value beside the right one as a choice: in one sentence with
 * a hedge ("either", "not sure which"), or joined by a bare "or" ("$1,000 or $1,100").
 */
export function offersAsChoice(text: string, otherStart: number, otherEnd: number, rightStart: number, rightEnd: number): boolean {
  const sentence = sentenceAround(text, otherStart);
  if (sentence !== sentenceAround(text, rightStart)) return false;
  const between = otherStart < rightStart ? text.slice(otherEnd, rightStart) : text.slice(rightEnd, otherStart);
  return /^\W*(?:or|either|or\s+maybe|or\s+perhaps)\W*$/i.test(between) || STRONG_HEDGE.test(sentence);
}

const NEGATION = wordsPattern(String.raw`
  no not never without cancel+ed dropped removed deleted skipped none isn['’]t aren['’]t won['’]t don['’]t didn['’]t decided\s+against
  struck crossed scrapped scratched out gone cut`);

/** Whether a clause negates what it names: "no wine fridge", "we dropped the TV wall". */
export function negates(clause: string): boolean {
  return NEGATION.test(clause);
}

const NEVER_TOLD_PHRASES = [
  'never told',
  'never mentioned',
  'never said',
  'never shared',
  "didn[’']t (?:tell|mention|say|share)",
  'did not (?:tell|mention|say|share)',
  "haven[’']t (?:told|mentioned|said|shared)",
  'have not (?:told|mentioned|said|shared)',
  "don[’']t know",
  'do not know',
  "don[’']t have (?:any|that|a record|this|it|the)",
  'do not have (?:any|that|a record|this|it|the)',
  'no record',
  'not recorded',
  'no note',
  'nothing (?:in|on) (?:my|the) (?:notes|memory|records)',
  'not (?:in|on) (?:my|the) (?:notes|memory|records)',
  'not sure',
  "can[’']t find",
  'cannot find',
  "couldn[’']t find",
  'could not find',
  'no information',
  'no mention',
  'not something you',
  "wasn[’']t told",
  'was not told',
  'i have no (?:idea|record|information|note)',
  'no idea',
  "(?:can[’']t|cannot|couldn[’']t|could not|don[’']t|do not) see (?:any|it|that|a|an)\\b",
  "(?:isn[’']t|is not|wasn[’']t|was not) something\\b",
  '(?:never|not) (?:ever )?(?:wrote|written|noted) (?:it )?down\\b',
  "(?:don[’']t|do not) have (?:a|an)\\b",
  'but not (?:the|a|an|any)\\b',
  'never (?:came up|given|a|an|the|any|once)\\b',
  'nothing (?:about|on|of)\\b',
  "(?:isn[’']t|is not|wasn[’']t|was not) in (?:anything|my|the)\\b",
  'not in my\\b',
  'no [\\w-]+(?: [\\w-]+)? (?:on record|recorded|logged|data|numbers?|at all)\\b',
  "(?:haven[’']t|have not|didn[’']t|did not) (?:\\w+ )?(?:shared|given|mentioned|recorded)\\b",
  "not something (?:you[’']ve|you have|you)\\b",
  'no (?:tariff|deposit|number|record|mention|data)\\b',
  "(?:never|didn[’']t|did not|haven[’']t|have not|wasn[’']t|was not)\\s+(?:\\w+\\s+)?(?:recorded|noted|saved|logged|written|given|stored)",
];
const NEVER_TOLD = new RegExp(NEVER_TOLD_PHRASES.join('|'), 'i');

/** Whether the reply says it was never told or does not know. */
export function saysNeverTold(reply: string): boolean {
  return NEVER_TOLD.test(reply);
}
