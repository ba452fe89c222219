/**
 * The stand-in's grading by rule, as the rules of judge/rules.ts grade wherever no understanding is
 * needed: each fact of the correct answer is found in the reply by its values (in any format and
 * unit, in the right role) or its words; a stale value beside the current one without saying which
 * holds makes that fact wrong; words addressed to the grader are left out; a VOID check passes on
 * "you never told me" alone. The kinds it cannot decide are listed in docs/grading.md.
 */
import { answerFacts, sameTerm, termsOf, type AnswerFacts, type Fact, type Term } from './answerFacts';
import { digitsForWords } from './numberWords';
import { quantities, sameQuantity, type Quantity } from './quantities';
import { clauseAround, negates, offersAsChoice, saysWhichHolds, withoutGraderInstructions } from './replyText';
import { staleOf, type Stale } from './staleValues';
import { gradeVoid } from './voidGrade';

export interface RuleGrade {
  score: number;
  comment: string;
}

export interface GradingContext {
  /** Values that were true once and are out of date now (the check's `stale`, or the sheet's history). */
  stale?: readonly string[];
}

/** The longest reply read: a reply of megabytes is graded on its start. */
const MAX_REPLY_CHARS = 20_000;

/** A reply as the grader reads it: its values and words, number words as digits. */
interface Reply {
  text: string;
  values: Quantity[];
  terms: Term[];
}

const MISSING = 'missing ';

type Verdict = { right: true } | { right: false; why: string };

export function gradeByRule(type: string | undefined, expected: string, reply: string, options: GradingContext = {}): RuleGrade {
  const text = digitsForWords(withoutGraderInstructions(reply.slice(0, MAX_REPLY_CHARS)));
  const read: Reply = { text, values: quantities(text), terms: termsOf(text) };
  if (type === 'VOID') return gradeVoid(text);
  if (!text) return { score: 0, comment: 'no answer' };
  const facts = answerFacts(type, expected.slice(0, MAX_REPLY_CHARS));
  if (facts.main.length === 0) return { score: 0, comment: 'nothing to compare' };
  const stale = staleOf(options.stale ?? [], facts);
  const judge = (fact: Fact) => verdict(fact, read, facts, stale);
  const negated = facts.main.filter((fact) => fact.negated);
  if (facts.total) {
    // A right total is a right answer, unless the reply counts a cancelled part in it.
    const counted = negated.filter((fact) => mentionedAsIn(fact, read));
    if (judge(facts.total).right) return counted.length ? proportion(facts.main, judge) : { score: 10, comment: 'the total is right' };
    // Without the right total, an aggregate scores in proportion to its right parts (and cancelled ones left out).
    return proportion(facts.parts.length ? [...facts.parts, ...negated] : [facts.total, ...negated], judge);
  }
  return proportion(facts.main, judge);
}

function proportion(facts: readonly Fact[], judge: (fact: Fact) => Verdict): RuleGrade {
  const verdicts = facts.map((fact) => ({ fact, verdict: judge(fact) }));
  const wrong = verdicts.filter(({ verdict }) => !verdict.right);
  // A proportion is a whole score, as the grading set's gold gives it (2 facts of 3 → 7).
  const score = Math.round((10 * (facts.length - wrong.length)) / facts.length);
  if (wrong.length === 0) {
    if (facts.every((fact) => fact.values.length > 0)) return { score, comment: 'all numbers right' };
    return { score, comment: facts.some((fact) => fact.values.length > 0) ? 'all facts right' : 'all key words present' };
  }
  const whys = wrong.map(({ verdict }) => (verdict.right ? '' : verdict.why));
  const missing = whys.filter((why) => why.startsWith(MISSING)).map((why) => why.slice(MISSING.length));
  const others = whys.filter((why) => !why.startsWith(MISSING));
  return { score, comment: [...(missing.length ? [`${MISSING}${missing.join(', ')}`] : []), ...others].join('; ') };
}

const roleOf = (quantity: Quantity) => quantity.readings[0]?.dimension ?? '';
const sameRole = (a: Quantity, b: Quantity) => roleOf(a) === roleOf(b) || roleOf(a) === '' || roleOf(b) === '';

function verdict(fact: Fact, reply: Reply, facts: AnswerFacts, stale: Stale): Verdict {
  if (fact.values.length > 0) return valuesVerdict(fact, reply, facts, stale);
  if (fact.negated) {
    const name = fact.text.replace(/^(?:no|not|without)\s+/i, '');
    if (mentionedAsIn(fact, reply)) return { right: false, why: `counts ${name}` };
    return mentionsOf(fact, reply).length ? { right: true } : { right: false, why: `says nothing of ${name}` };
  }
  const found = reply.terms.filter((term) => fact.words.some((word) => sameTerm(word, term.term)));
  const share = fact.words.filter((word) => found.some((term) => sameTerm(word, term.term))).length / fact.words.length;
  if (share < 0.5) return { right: false, why: `${MISSING}${fact.text}` };
  const right = found[0];
  const staleWords = reply.terms.filter((term) => stale.words.has(term.term));
  const span = (term: Term) => ({ start: term.index, end: term.index + wordAt(reply.text, term.index).length });
  const marked = staleWords.some((old) => found.some((term) => saysWhichHolds(reply.text, span(old), span(term))));
  if (right && staleWords.length && !marked)
    return {
      right: false,
      why: `gives "${wordAt(reply.text, staleWords[0]!.index)}" beside "${wordAt(reply.text, right.index)}" without saying which holds`,
    };
  return { right: true };
}

/** Where the reply names what a negated fact names ("wine fridge" of "no wine fridge"). */
function mentionsOf(fact: Fact, reply: Reply): Term[] {
  const words = fact.words.filter((word) => !/^(?:no|not|without)$/.test(word));
  return reply.terms.filter((term) => words.some((word) => sameTerm(word, term.term)));
}

/** Whether the reply names what a negated fact rules out without ruling it out: the cancelled wine fridge counted in. */
function mentionedAsIn(fact: Fact, reply: Reply): boolean {
  const mentions = mentionsOf(fact, reply);
  return mentions.length > 0 && !mentions.some((term) => negates(clauseAround(reply.text, term.index)));
}

const wordAt = (text: string, index: number) => /^[\p{L}\d'’-]+/u.exec(text.slice(index))?.[0] ?? '';

function valuesVerdict(fact: Fact, reply: Reply, facts: AnswerFacts, stale: Stale): Verdict {
  // A working step "5 × $110 = $550" is right when its result is, or everything before the result.
  const wanted = /=/.test(fact.text) && fact.values.length > 1 ? [fact.values.at(-1)!] : fact.values;
  const before = fact.values.slice(0, -1);
  const found = wanted.map((value) => ({ value, at: reply.values.find((given) => sameQuantity(value, given)) }));
  const foundBefore = before.every((value) => reply.values.some((given) => sameQuantity(value, given)));
  const missing = found.filter(({ at }) => !at);
  if (missing.length > 0 && !(wanted !== fact.values && foundBefore)) {
    const staleFor = stale.values.filter(({ replaces }) => replaces && missing.some(({ value }) => sameQuantity(replaces, value)));
    const staleGiven = reply.values.find((given) => staleFor.some(({ old }) => sameQuantity(old, given)));
    const writtenMissing = missing.map(({ value }) => (Number.isFinite(value.written) ? String(value.written) : value.text)).join(', ');
    return { right: false, why: staleGiven ? `gives the stale ${staleGiven.text}, not ${writtenMissing}` : `${MISSING}${writtenMissing}` };
  }
  for (const { value, at } of found) {
    if (!at) continue;
    const rival = rivalOf(value, at, reply, facts, stale);
    if (rival) return { right: false, why: `gives ${rival.text} beside ${at.text} without saying which holds` };
  }
  return { right: true };
}

/**
 * A value the reply offers in the same role as the right one, without saying which holds: a stale
 * value anywhere in the reply, or any value the answer does not name offered as a choice beside it.
 */
function rivalOf(value: Quantity, right: Quantity, reply: Reply, facts: AnswerFacts, stale: Stale): Quantity | undefined {
  // A stale value said to be out of date anywhere in the reply ("11:00, not 10:00") is no rival where it is quoted again.
  const olds = stale.values.filter(({ replaces }) => replaces && sameQuantity(replaces, value)).map(({ old }) => old);
  const given = reply.values.filter((other) => olds.some((old) => sameQuantity(old, other)));
  if (given.length > 0 && !given.some((other) => saysWhichHolds(reply.text, other, right))) return given[0];
  return reply.values.find((other) => {
    if (other === right || !sameRole(value, other) || facts.values.some((named) => sameQuantity(named, other))) return false;
    if (stale.values.some(({ old }) => sameQuantity(old, other))) return false;
    return offersAsChoice(reply.text, other.start, other.end, right.start, right.end);
  });
}
