/**
 * The stand-in's grading by rule, as the rules of judge/rules.ts grade wherever no understanding is
 * needed: each fact of the correct answer is found in the reply by its values (in any format and
 * unit, in the right role) or its words; a stale value beside the current one without saying which
 * holds makes that fact wrong; words addressed to the grader are left out; a VOID check passes on
 * "you never told me" alone. The kinds it cannot decide are listed in docs/grading.md.
 */
import { answerFacts, termsOf, type AnswerFacts, type Fact, type Term } from './answerFacts';
import { digitsForWords } from './numberWords';
import { quantities, sameQuantity, type Quantity } from './quantities';
import { clauseAround, negates, offersAsChoice, saysNeverTold, saysWhichHolds, withoutGraderInstructions } from './replyText';

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

/** What the stale values of a check are: those of its `stale` strings the correct answer does not give. */
interface Stale {
  /** Each stale value with the value of the answer it stands in for: the closest one measuring the same thing. */
  values: { old: Quantity; replaces: Quantity | undefined }[];
  words: Set<string>;
}

const MISSING = 'missing ';

type Verdict = { right: true } | { right: false; why: string };

export function gradeByRule(type: string | undefined, expected: string, reply: string, options: GradingContext = {}): RuleGrade {
  const text = digitsForWords(withoutGraderInstructions(reply.slice(0, MAX_REPLY_CHARS)));
  const read: Reply = { text, values: quantities(text), terms: termsOf(text) };
  if (type === 'VOID') return gradeVoid(read);
  if (!text) return { score: 0, comment: 'no answer' };
  const facts = answerFacts(type, expected.slice(0, MAX_REPLY_CHARS));
  if (facts.main.length === 0) return { score: 0, comment: 'nothing to compare' };
  const stale = staleOf(options.stale ?? [], facts);
  const judge = (fact: Fact) => verdict(fact, read, facts, stale);
  if (facts.total) {
    const total = judge(facts.total);
    const others = facts.main.filter((fact) => fact !== facts.total && fact.negated).map(judge);
    if (total.right && others.every((other) => other.right)) return { score: 10, comment: 'the total is right' };
    if (!total.right) return proportion([facts.total, ...facts.parts, ...facts.main.slice(1).filter((fact) => fact.negated)], judge);
  }
  return proportion(facts.main, judge);
}

function gradeVoid(reply: Reply): RuleGrade {
  if (reply.values.length > 0) return { score: 0, comment: `gave a value (${reply.values[0]?.text}) for something never said` };
  return saysNeverTold(reply.text)
    ? { score: 10, comment: 'said it was never told' }
    : { score: 0, comment: 'did not say it was never told' };
}

function proportion(facts: readonly Fact[], judge: (fact: Fact) => Verdict): RuleGrade {
  const verdicts = facts.map((fact) => ({ fact, verdict: judge(fact) }));
  const wrong = verdicts.filter(({ verdict }) => !verdict.right);
  const score = Math.round((100 * (facts.length - wrong.length)) / facts.length) / 10;
  if (wrong.length === 0) {
    if (facts.every((fact) => fact.values.length > 0)) return { score, comment: 'all numbers right' };
    return { score, comment: facts.some((fact) => fact.values.length > 0) ? 'all facts right' : 'all key words present' };
  }
  const whys = wrong.map(({ verdict }) => (verdict.right ? '' : verdict.why));
  const missing = whys.filter((why) => why.startsWith(MISSING)).map((why) => why.slice(MISSING.length));
  const others = whys.filter((why) => !why.startsWith(MISSING));
  return { score, comment: [...(missing.length ? [`${MISSING}${missing.join(', ')}`] : []), ...others].join('; ') };
}

function staleOf(strings: readonly string[], facts: AnswerFacts): Stale {
  const expectedWords = new Set([...facts.main, ...facts.parts].flatMap((fact) => fact.words));
  const values = strings
    .flatMap((value) => quantities(digitsForWords(value)))
    .filter((value) => !facts.values.some((wanted) => sameQuantity(wanted, value)))
    .map((old) => ({ old, replaces: closestOf(old, facts.values) }));
  // A stale word counts only from a short value ("locked"), not from a whole sentence of an old fact.
  const words = strings.filter((value) => termsOf(value).length <= 3).flatMap((value) => termsOf(value).map((term) => term.term));
  return { values, words: new Set(words.filter((word) => !expectedWords.has(word))) };
}

const roleOf = (quantity: Quantity) => quantity.readings[0]?.dimension ?? '';
const amountOf = (quantity: Quantity) => Math.abs(quantity.readings[0]?.amount ?? 0) + 1e-9;

/** The answer's value a stale one stands in for: of those measuring the same thing, the closest in size ($1,000 for $1,100). */
function closestOf(old: Quantity, values: readonly Quantity[]): Quantity | undefined {
  const sameKind = values.filter((value) => roleOf(value) === roleOf(old));
  const distance = (value: Quantity) => Math.abs(Math.log(amountOf(value) / amountOf(old)));
  return [...(sameKind.length ? sameKind : values)].sort((a, b) => distance(a) - distance(b))[0];
}
const sameRole = (a: Quantity, b: Quantity) => roleOf(a) === roleOf(b) || roleOf(a) === '' || roleOf(b) === '';

function verdict(fact: Fact, reply: Reply, facts: AnswerFacts, stale: Stale): Verdict {
  if (fact.values.length > 0) return valuesVerdict(fact, reply, facts, stale);
  const found = reply.terms.filter((term) => fact.words.includes(term.term));
  const share = new Set(found.map((term) => term.term)).size / fact.words.length;
  if (fact.negated) {
    const words = fact.words.filter((word) => !/^(?:no|not|without)$/.test(word));
    const mentions = reply.terms.filter((term) => words.includes(term.term));
    const contradicted = mentions.length > 0 && !mentions.some((term) => negates(clauseAround(reply.text, term.index)));
    return contradicted ? { right: false, why: `counts ${fact.text.replace(/^(?:no|not|without)\s+/i, '')}` } : { right: true };
  }
  if (share < 0.5) return { right: false, why: `${MISSING}${fact.text}` };
  const right = found[0];
  const staleWord = reply.terms.find((term) => stale.words.has(term.term));
  if (right && staleWord && !saysWhichHolds(reply.text, staleWord.index, right.index))
    return {
      right: false,
      why: `gives "${wordAt(reply.text, staleWord.index)}" beside "${wordAt(reply.text, right.index)}" without saying which holds`,
    };
  return { right: true };
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
  if (given.length > 0 && !given.some((other) => saysWhichHolds(reply.text, other.start, right.start))) return given[0];
  return reply.values.find((other) => {
    if (other === right || !sameRole(value, other) || facts.values.some((named) => sameQuantity(named, other))) return false;
    if (stale.values.some(({ old }) => sameQuantity(old, other))) return false;
    return offersAsChoice(reply.text, other.start, other.end, right.start, right.end);
  });
}
