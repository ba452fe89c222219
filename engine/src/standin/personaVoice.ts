/**
 * The stand-in persona's voice: a phase's instructions ("Say that the survey is over and ask the
 * state of every room, one at a time") read into what she does, in order: things she says in the
 * first person ("The survey is over."), questions she asks, sheets she tells and sheet edits she
 * makes. Directions to her ("one at a time", "never say its price aloud") are followed by saying
 * nothing of them. Rule-based and deterministic: the same phase always gives the same beats.
 */
import { sheetEditsOf, type SheetEdit, type Swap } from './sheetEdits';
import { capitalise, endSentence, firstPerson } from './firstPerson';

/** What a phase said before, for what follows in it: the topic she brought up ("Wednesday's run"). */
export interface VoiceContext {
  topic?: string;
  /** The part's day (`YYYY-MM-DD`), when a date line gave one: "yesterday" is then a day she can name. */
  date?: string;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = 'January February March April May June July August September October November December'.split(' ');

/** "yesterday, Sunday 8 March" when the day is known: a person catching up names the day she missed. */
function yesterdayNamed(date: string | undefined): string {
  const day = date ? new Date(`${date}T12:00:00Z`) : undefined;
  if (!day || Number.isNaN(day.getTime())) return 'yesterday';
  day.setUTCDate(day.getUTCDate() - 1);
  return `yesterday, ${WEEKDAYS[day.getUTCDay()]} ${day.getUTCDate()} ${MONTHS[day.getUTCMonth()]}`;
}

/** One thing she does: say a statement, ask a question (its own message), tell a sheet, edit sheets. */
export type Beat = { say: string } | { ask: string } | { tell: string } | { edits: SheetEdit[] };

/** A phase part that asks her to stay silent ("no signal all day: send nothing today"). */
export const SEND_NOTHING = /\b(?:send|say) nothing\b/i;

const QUOTE = /["“][^"”]*["”]/g;
/** Alternatives as one regex group, from a list a reader can scan (and extend) a line at a time. */
const anyOf = (alternatives: readonly string[]): string => `(?:${alternatives.join('|')})`;

/** Clause openings that are directions to her, not words to the assistant. */
const DIRECTION = new RegExp(
  `^${anyOf([
    'never',
    "don['’]t",
    'do not',
    'name neither',
    'nothing',
    'no need',
    'grade',
    'test its memory',
    '(?:first )?make sure',
    'you toss around',
    'one at a time',
    'in a natural way',
    'a fact or two',
    'a few facts',
    'over a few messages',
    'numbered',
    'talk it over with it$',
  ])}`,
  'i',
);
const DIRECTION_ANYWHERE = /\bnothing (?:gets|needs to be) recorded\b|\bnothing the assistant needs\b|\bask the questions\b/i;
/** Words that open a new instruction to her inside a sentence. */
const NEW_INSTRUCTION = anyOf(['tell', 'ask', 'say', 'mention', 'grade', 'test', 'name', 'never', "don['’]t", 'add', 'update', 'then']);
/** Where a sentence splits into clauses: before a new instruction to her. */
const CLAUSE_BREAK = new RegExp(
  [
    ';\\s+',
    `(?:,|:|\\s[—–])\\s+(?:and\\s+|then\\s+|so\\s+)?(?=${NEW_INSTRUCTION}\\b)`,
    `\\s+and\\s+(?=${anyOf(['ask', 'tell', 'say', 'first ask'])}\\b)`,
  ].join('|'),
  'i',
);
/** Verbs she turns into a request: "Log a new deposit" → "Please log a new deposit". */
const REQUEST = new RegExp(
  `^${anyOf('add log put keep record fix note remind strike remove recompute redo correct cancel cross write update drop'.split(' '))}\\b`,
  'i',
);
/** Asides that direct her, at a clause's end: ", without any new numbers", ", nothing to note down". */
const DIRECTION_TAIL = new RegExp(
  `,?\\s*${anyOf([
    'without any new numbers',
    'with no (?:new )?(?:figures|facts|numbers?)',
    'nothing to note down',
    'nothing the assistant needs to keep',
    'the usual',
    'a few facts at a time',
    'a fact or two per message',
    'in a natural way',
    'over a few messages',
    'one at a time',
  ])}\\b.*$`,
  'i',
);
const EDIT_DIRECTIVE = /^(?:update|add|delete|remove|strike|change)\b|`[\w-]+`\s+facts?\s+\d/i;

/** Quoted spans hidden behind placeholders, so that splitting never cuts a quote. */
function masked(text: string): { text: string; restore: (part: string) => string } {
  const quotes: string[] = [];
  const hidden = text.replace(QUOTE, (quote) => `\uE000${quotes.push(quote) - 1}\uE000`);
  return { text: hidden, restore: (part) => part.replace(/\uE000(\d+)\uE000/g, (_all, index: string) => quotes[Number(index)] ?? '') };
}

/** The sentences of a talk part, in order; a line ending a sentence or a colon ends it too. */
export function sentencesOf(text: string): string[] {
  const { text: hidden, restore } = masked(text.replace(/([.!?:])[ \t]*\n/g, '$1\n\n'));
  return hidden
    .split(/\n{2,}/)
    .flatMap((paragraph) => paragraph.replace(/\s+/g, ' ').split(/(?<=[.!?])\s+/))
    .map((sentence) => restore(sentence).trim())
    .filter((sentence) => sentence !== '');
}

function clausesOf(sentence: string): string[] {
  const { text: hidden, restore } = masked(sentence);
  return hidden
    .split(CLAUSE_BREAK)
    .map((clause) => restore(clause).trim())
    .filter((clause) => clause !== '');
}

/** A statement: her own opening words (`lead`, already first person) and the phase's words made first person. */
const said = (lead: string, text = ''): Beat[] => {
  const words = endSentence(capitalise(`${lead}${firstPerson(text.trim())}`.replace(/\s+/g, ' ')));
  return /\p{L}|\d/u.test(words) ? [{ say: words }] : [];
};
const asked = (lead: string, text: string): Beat[] => [
  { ask: `${capitalise(`${lead}${firstPerson(text.trim().replace(/[.:,;\s]+$/, ''))}`)}?` },
];

/**
 * "Ask the assistant to keep a note" → "Please keep a note."; "ask whether …" → "Do you think …?"; an ask
 * that only announces the checks says what she is about to ask, or nothing.
 */
function voiceAsk(rest: string): Beat[] {
  const text = rest.replace(/^(?:the assistant|it)\b\s*/i, '').trim();
  let m: RegExpExecArray | null;
  // A request is no question: "Please keep it in the log." goes with what she just said, as people text it.
  if ((m = /^to\s+(.+)$/i.exec(text))) return said('please ', m[1]);
  if ((m = /^(?:for\s+)?advice\s+on\s+(.+)$/i.exec(text))) return asked('any advice on ', m[1] ?? '');
  if ((m = /^for\s+((?:a|an|the)\s.+)$/i.exec(text))) return asked('could you give me ', m[1] ?? '');
  if ((m = /^for\s+(.+)$/i.exec(text))) return asked('any ', m[1] ?? '');
  if ((m = /^(?:whether|if)\s+(.+?)(?:,\s+and\s+.*)?$/i.exec(text))) return asked('do you think ', m[1] ?? '');
  if ((m = /^what (?:it|the assistant) thinks\s+(.+)$/i.exec(text))) return asked('what do you think ', m[1] ?? '');
  if ((m = /^((?:what|how|where|when|which|who|why)\b.+)$/i.exec(text))) return asked('can you tell me ', m[1] ?? '');
  if ((m = /^((?:a|some)\s.*\b(?:things|questions))$/i.exec(text))) return said('let me ask you ', m[1]);
  // "ask the state of every room" announces the checks that follow.
  if ((m = /^(?:about\s+)?(the\s.+)$/i.exec(text))) return said('let me ask you about ', m[1]);
  return [];
}

/** Openings that name a move in the talk, said as she would: "Switch topics" → "Switching topics". */
const MOVES: readonly [RegExp, (m: RegExpExecArray, context: VoiceContext) => Beat[]][] = [
  [/^(say hello and )?introduce yourself\b/i, (m) => [{ say: m[1] ? 'Hello! Let me introduce myself.' : 'Hi! Let me introduce myself.' }]],
  [/\bdecide(?: together)? to\s+(.+)$/i, (m) => said("let's ", `${m[1]} then`)],
  [
    /^(?:talk|chat|discuss|now talk)\s+(?:a little\s+)?(?:about\s+)?(.+?)(?:\s+a little)?(?::\s*(.+))?$/i,
    (m) => aboutBeats(m[1] ?? '', m[2]),
  ],
  [/^(?:complain|grumble)(?: mildly| a little)? about\s+(.+)$/i, (m) => said('honestly, ', `${m[1]} is a bit of a pain`)],
  [/^make small talk about\s+(.+)$/i, (m) => said('', `${m[1]} has been on my mind lately`)],
  [/^(?:tell (?:the assistant|it)\s+)?a small story about\s+(.+)$/i, (m) => said('a funny thing about ', `${m[1]} the other day`)],
  [/^(?:say\s+)?something light about\s+(.+?)(?:,.*)?$/i, (m) => said('just a quick word about ', `${m[1]}: it has been on my mind today`)],
  [/^admit a slip:\s*(.+)$/i, (m) => said('', m[1])],
  [/^correct yourself:\s*(.+)$/i, (m) => said('oh wait, ', m[1])],
  [/^((?:in passing|before moving on|now|first)[,\s]+)?check what\s+(.+)$/i, (m) => said(`${m[1] ?? ''}let me check what `, m[2])],
  // "Bring up Wednesday's run — test its memory:": she asks about it next, her correction is about it too.
  [/^bring up\s+(.+?)(?::\s*(.+))?$/i, (m, context) => ((context.topic = m[1]), m[2] ? said('', m[2]) : [])],
  [/^catch up on yesterday\b(.*)$/i, (m, context) => said(`catching up on ${yesterdayNamed(context.date)}`, m[1])],
  [/^catch up on\s+(.+)$/i, (m) => said('catching up on ', m[1])],
  [/^switch topics\b[:,]?\s*(.*)$/i, (m) => said(m[1] ? 'switching topics: ' : 'switching topics', m[1])],
  [/^return to\s+(.+)$/i, (m) => said('back to ', m[1])],
  [/^go on to\s+(.+)$/i, (m) => said('now ', m[1])],
  [/^start with\s+(.+)$/i, (m) => said("let's start with ", m[1])],
  [/^change the subject(.*?)(?:\s+to\s+(.+?))?$/i, (m) => said(`changing the subject${m[1] ?? ''}${m[2] ? ': ' : ''}`, m[2])],
  [/^report (?:exactly )?(?:these|the following)\s+(.+?):?$/i, (m) => said('here are my ', `${m[1]}:`)],
  [/^(?:share|report)\s+(.+)$/i, (m) => said('', m[1])],
];

function aboutBeats(topic: string, rest: string | undefined): Beat[] {
  if (rest) return said('about ', `${topic}: ${rest}`);
  return said('let me tell you about ', topic);
}

/** One clause of a sentence as beats; `swaps` are the phase's "X, not Y" values for edits that give no text. */
function voiceClause(raw: string, swaps: readonly Swap[], context: VoiceContext): Beat[] {
  // Her own stop comes back at the end; a colon that led to a check says nothing.
  let clause = raw.trim().replace(/(?<!["”])[.:;,]+$/, '');
  // "Then", "and", "after the answer" only order her moves; "first" and "now" do when an instruction follows.
  const LEAD = /^(?:then|and|so|after the answer|(?:first|now)(?=[,\s]+(?:ask|tell|say|mention|make sure)\b))\b[,\s]+(?=\S)/i;
  while (LEAD.test(clause)) clause = clause.replace(LEAD, '');
  clause = clause.replace(DIRECTION_TAIL, '');
  if (DIRECTION.test(clause) || DIRECTION_ANYWHERE.test(clause) || /^(?:then|first|now)?$/i.test(clause)) return [];
  const quote = /^(.*?)\b(correct yourself|say|says)\s*:\s*["“]([^"”]+)["”]/i.exec(clause);
  if (quote) {
    const words = (quote[3] ?? '').trim();
    // Her own words already: quoted, so never made first person again ("how well you remembered it").
    const correction = /correct/i.test(quote[2] ?? '');
    const lead = correction ? `oh wait, ${context.topic ? `about ${context.topic}: ` : ''}` : '';
    return [{ say: endSentence(capitalise(`${lead}${words}`.replace(/\s+/g, ' '))) }];
  }
  if (clause.includes('`')) {
    if (EDIT_DIRECTIVE.test(clause)) return [{ edits: sheetEditsOf(clause, swaps) }];
    return [...clause.matchAll(/`([A-Za-z0-9_][\w-]*)`/g)].map((m) => ({ tell: m[1] ?? '' }));
  }
  const forSay = /^(for\s[^,:]{1,60}?),?\s+say(?: only)?(?: that)?\s+(.+)$/i.exec(clause);
  if (forSay) return said('', `${forSay[1]}: ${forSay[2]}`);
  const ask = /^(?:first\s+)?ask\b\s*(.*)$/i.exec(clause);
  if (ask) return voiceAsk((ask[1] ?? '').replace(/:$/, ''));
  for (const [pattern, voice] of MOVES) {
    const m = pattern.exec(clause);
    if (m) return voice(m, context);
  }
  const tellAbout = /^tell (?:the assistant|it)\s+about\s+(.+)$/i.exec(clause);
  if (tellAbout) return said('let me tell you about ', tellAbout[1]);
  const speech = /^(?:say|mention|explain|tell (?:the assistant|it)|tell)\b(?:\s+openly)?(?:\s+that)?[\s:]*(.*)$/i.exec(clause);
  if (speech) return said('', speech[1]);
  if (REQUEST.test(clause)) return said('please ', `${clause.charAt(0).toLowerCase()}${clause.slice(1)}`);
  return said('', clause);
}

/**
 * A talk part of a phase as beats, in order. Consecutive statements stay separate beats here; the
 * script joins them into one message.
 */
export function voiceTalk(text: string, swaps: readonly Swap[], context: VoiceContext = {}): Beat[] {
  if (SEND_NOTHING.test(text)) return [];
  const beats: Beat[] = [];
  for (const sentence of sentencesOf(text)) {
    // A sentence with a sheet edit is one directive: its clauses ("…, category 1: "…"") are not split.
    if (sentence.includes('`') && /["“]/.test(sentence) && EDIT_DIRECTIVE.test(sentence.replace(/^then\s+/i, ''))) {
      beats.push({ edits: sheetEditsOf(sentence, swaps) });
      continue;
    }
    let told = false;
    for (const clause of clausesOf(sentence)) {
      // After "tell the `car` sheet", "then what comes on top of the price" says what to tell, in what order: the facts say it.
      if (told && !/^(?:then\s+)?(?:ask|say|mention|tell|add|update)\b/i.test(clause)) continue;
      const voiced = voiceClause(clause, swaps, context);
      told ||= voiced.some((beat) => 'tell' in beat);
      beats.push(...voiced);
    }
  }
  return beats;
}
