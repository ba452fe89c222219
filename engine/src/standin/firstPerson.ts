/**
 * The stand-in persona's pronouns and facts in her own voice. A phase speaks to her in the second
 * person ("say you went through photos with Lena") and a sheet speaks of her in the third ("Lives
 * in Clifton with her partner, Tom"); she says both in the first person, and calls the assistant
 * "you". Rules, no model: a wrong guess costs a clumsy word, never a fact, since numbers and names
 * are left exactly as written.
 */
import { keywords } from './text';

/** Words after "you" that make it the subject ("you went", "you already have"): else it is "me". */
const SUBJECT_NEXT = new Set(
  (
    'already am are were was have had has will would can could should must might did do does also just still never really then ' +
    'went got took put made want need think thought know knew like love ran run moved bought booked picked decided ' +
    'measured chose see saw say said tell told mean meant misread misremembered happened agreed prefer stepped ' +
    'weighed feel felt hope plan keep kept come came live work go only both'
  ).split(' '),
);
/** Words before "you" after which it starts a clause: "and you", "that you", ": you". */
const CLAUSE_BEFORE = new Set('and but that since because when if so as than before after while what where or'.split(' '));

/** Second person as the persona says it: you → I or me, your → my, the assistant → you. */
export function firstPerson(text: string): string {
  let out = text
    .replace(/\bthe assistant['’]s\b/gi, 'your')
    .replace(/\b(?:the|your) assistant\b/gi, 'you\u2060')
    .replace(/\bits help\b/gi, 'your\u2060 help')
    .replace(/\bthe two of you\b/gi, 'the two of us')
    .replace(/\btold it\b/gi, 'told you\u2060')
    .replace(/\byou['’]re\b/gi, "I'm")
    .replace(/\byou['’]ve\b/gi, "I've")
    .replace(/\byou['’]d\b/gi, "I'd")
    .replace(/\byou['’]ll\b/gi, "I'll")
    .replace(/\byou are\b/gi, 'I am')
    .replace(/\byou were\b/gi, 'I was')
    .replace(/\byourself\b/gi, 'myself')
    .replace(/\byours\b/gi, 'mine')
    .replace(/\byour\b(?!\u2060)/gi, 'my');
  out = out.replace(/\b(you)\b(?!\u2060)/gi, (word, _you: string, offset: number, whole: string) => {
    const before = /([\p{L}']+|[,;:—–(])\s*$/u.exec(whole.slice(0, offset))?.[1]?.toLowerCase();
    const next = /^\s*([\p{L}']+)/u.exec(whole.slice(offset + word.length))?.[1]?.toLowerCase() ?? '';
    const subject = before === undefined || CLAUSE_BEFORE.has(before) || /^[,;:—–(]$/.test(before) || SUBJECT_NEXT.has(next);
    return subject || /ed$/.test(next) ? 'I' : 'me';
  });
  // "you" as the subject makes "I", and the verb after it agrees: "I is" never, "I has" never; the assistant,
  // now "you", takes "remember" for "remembers".
  return out
    .replace(/you\u2060 (has|does|is|was|\p{L}{3,}?[^s])s\b/gu, (_all, verb: string) => `you ${VERB_FOR_YOU[verb] ?? verb}`)
    .replace(/\u2060/g, '')
    .replace(/\bI and (\p{Lu}\p{L}+)/gu, '$1 and I')
    .replace(/\bI has\b/g, 'I have')
    .replace(/\bI is\b/g, 'I am');
}

const VERB_FOR_YOU: Record<string, string> = { has: 'have', does: 'do', is: 'are', was: 'were' };

/** The first letter upper case: a message starts as a sentence does. */
export function capitalise(text: string): string {
  return text.replace(/^(\s*["“]?)(\p{Ll})/u, (_all, lead: string, letter: string) => `${lead}${letter.toUpperCase()}`);
}

/** A full stop when the text ends without one (a closing quote keeps its stop inside). */
export function endSentence(text: string): string {
  const trimmed = text.trim().replace(/[,;:—–\s]+$/, '');
  return /[.!?]["”)]?$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** Third-person verbs a fact about her starts with ("Lives in …"), and the form she says them in. */
const OWN_VERBS: Record<string, string> = {
  lives: 'live',
  has: 'have',
  goes: 'go',
  does: 'do',
  works: 'work',
  teaches: 'teach',
  rides: 'ride',
  runs: 'run',
  leads: 'lead',
  loves: 'love',
  likes: 'like',
  wants: 'want',
  owns: 'own',
  plays: 'play',
  studies: 'study',
  is: 'am',
};
/** Verbs already in a form that "I" takes ("Grew up in Berlin", "Live with my wife"). */
const BARE_VERBS = new Set('grew moved bought live work aim cut prefer started gave got took sold'.split(' '));
/** Words that make a fact a sentence of its own, not a noun phrase to frame. */
const SENTENCE_VERB =
  /\b(?:is|are|was|were|has|have|had|will|would|can|goes|gets|comes|costs|brings?|starts|leads|works|said|says|needs|wants?|moved|went)\b/i;

/** A fact about her in her voice: "Lives in Clifton with her partner, Tom" → "I live in Clifton with my partner, Tom." */
export function factSentence(text: string): { sentence: string; framed: boolean } {
  return remembered(sentences, text, () => sentenceOf(text));
}

/**
 * What was said of a text, kept: the persona's script is played again from its phase's start at
 * every turn, so a phase that tells a sheet of 600 facts would say each of them hundreds of times.
 * Bounded, so that a long-lived process does not keep every text.
 */
function remembered<Value>(memo: Map<string, Value>, key: string, make: () => Value): Value {
  let value = memo.get(key);
  if (value === undefined) {
    if (memo.size >= 20_000) memo.clear();
    value = make();
    memo.set(key, value);
  }
  return value;
}
const sentences = new Map<string, Readonly<{ sentence: string; framed: boolean }>>();
const messages = new Map<string, string>();

function sentenceOf(text: string): { sentence: string; framed: boolean } {
  const fact = text.trim().replace(/[.!?]+$/, '');
  const first = /^(\p{L}+)/u.exec(fact)?.[1] ?? '';
  const lower = first.toLowerCase();
  // Her and his are hers in a fact about her, and so is a verb after a comma ("…, works from home" → "…, I work from home").
  const own = (rest: string) =>
    rest
      .replace(/\b(?:her|his)\b/g, 'my')
      .replace(/\bherself\b|\bhimself\b/g, 'myself')
      .replace(/([,;]\s+)(\p{Ll}+)\b/gu, (all, lead: string, verb: string) => (OWN_VERBS[verb] ? `${lead}I ${OWN_VERBS[verb]}` : all));
  if (OWN_VERBS[lower] !== undefined && fact.length > first.length)
    return { sentence: endSentence(`I ${OWN_VERBS[lower]}${own(fact.slice(first.length))}`), framed: false };
  if (BARE_VERBS.has(lower)) return { sentence: endSentence(`I ${lower}${own(fact.slice(first.length))}`), framed: false };
  if (/^\p{Lu}\p{L}+ing (?:for|to|with|on|at|in)\b/u.test(fact) && !SENTENCE_VERB.test(fact))
    return { sentence: endSentence(`I'm ${lower}${own(fact.slice(first.length))}`), framed: false };
  // "Sam Okafor, 29, teaches chemistry …": her name and age, then what she does.
  const named = /^(\p{Lu}\p{L}+ \p{Lu}\p{L}+, \d{1,3})(?:, (.*))?$/u.exec(fact);
  if (named) {
    const rest = named[2] ?? '';
    const verb = /^(\p{L}+)(.*)$/u.exec(rest);
    const acts = verb && OWN_VERBS[verb[1] ?? ''];
    const said = acts ? `; I ${OWN_VERBS[verb?.[1] ?? '']}${own(verb?.[2] ?? '')}` : rest ? `, ${rest}` : '';
    return { sentence: endSentence(`I'm ${named[1]}${said}`), framed: false };
  }
  if (/^(?:a|an)\s/.test(fact)) return { sentence: endSentence(`I'm ${fact}`), framed: false };
  // "partner: Nikos" is a label of her own; "Mobile network: Vodafone" a label of anything.
  if (/^\p{Ll}[\p{L} ]*:\s/u.test(fact)) return { sentence: endSentence(capitalise(`my ${fact}`)), framed: false };
  if (/^(?:Her|His) /.test(fact)) return { sentence: endSentence(`My ${fact.slice(4)}`), framed: false };
  const sentence =
    /^[\p{L}\s'’-]+:\s/u.test(fact) || SENTENCE_VERB.test(fact) || /\b(?:I|my|our|we|they|it['’]s|he|she|there)\b/i.test(fact);
  return { sentence: endSentence(capitalise(fact)), framed: !sentence };
}

/**
 * Facts told in one message, in her voice: sentences as they are, noun phrases ("Toyota RAV4,
 * 2019 hybrid, $24,000") after their category ("For the candidates: …"), so a list reads as a list
 * of something. Never the fact's id and never the sheet's name.
 */
export function factsMessage(facts: readonly { text: string; category?: string }[]): string {
  const key = JSON.stringify(facts.map((fact) => [fact.category ?? null, fact.text]));
  return remembered(messages, key, () => messageOf(facts));
}

function messageOf(facts: readonly { text: string; category?: string }[]): string {
  const parts: string[] = [];
  let framedCategory: string | undefined;
  for (const fact of facts) {
    const { sentence, framed } = factSentence(fact.text);
    // "Lena's birthday — March 14" under "Lena" names its category already.
    const named = fact.category !== undefined && keywords(fact.text).some((word) => keywords(fact.category ?? '').includes(word));
    if (framed && fact.category && fact.category !== framedCategory && !named) {
      framedCategory = fact.category;
      parts.push(`${frameOf(fact.category)} ${sentence}`);
    } else parts.push(sentence);
  }
  return parts.join(' ');
}

/** "Candidates" → "For the candidates:", "About me" → "About me:", "The new flat" → "For the new flat:". */
function frameOf(category: string): string {
  const title = category.trim().replace(/[.:]+$/, '');
  if (/^about\b/i.test(title)) return `${capitalise(title)}:`;
  if (/^(?:the|my|our)\s/i.test(title)) return `For ${title.charAt(0).toLowerCase()}${title.slice(1)}:`;
  return `For the ${title.charAt(0).toLowerCase()}${title.slice(1)}:`;
}
