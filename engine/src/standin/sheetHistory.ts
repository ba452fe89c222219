/**
 * The stale values the stand-in persona can see: her conversation holds the sheets' facts as she
 * read them (facts_read, facts_get_untold) and the edits she made (facts_edit), so a value an edit
 * took out of a fact is out of date. A check is graded with the stale values of the facts that
 * concern it (a fact naming one of its values or two of its words), not with every old number of
 * every sheet, so that a long reply quoting other facts is not held against it.
 */
import type { ChatMessage } from '../protocol/chat';
import { GrowingFold } from '../growingFold';
import { termsOf } from './answerFacts';
import { digitsForWords } from './numberWords';
import { quantities, sameQuantity, type Quantity } from './quantities';
import { factsOfRead } from './sheetEdits';

/** One fact as it was and as an edit made it. */
export interface FactChange {
  before: string;
  after: string;
}

/** Each call's arguments parsed once: the whole conversation is read again at every persona turn. */
const parsedArguments = new WeakMap<object, Record<string, unknown>>();

/** A string argument of a tool call's JSON, or ''. */
function argument(call: { function: { arguments: string } }, name: string): string {
  let parsed = parsedArguments.get(call);
  if (!parsed) {
    try {
      const value: unknown = JSON.parse(call.function.arguments);
      parsed = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
    } catch {
      parsed = {};
    }
    parsedArguments.set(call, parsed);
  }
  const value = parsed[name];
  return typeof value === 'string' ? value : '';
}

/** Each tool result's facts read once, as the calls' arguments are. */
const readFacts = new WeakMap<object, Map<string, string>>();
function readOf(message: { content: string }): Map<string, string> {
  let facts = readFacts.get(message);
  if (!facts) readFacts.set(message, (facts = factsOfRead(message.content)));
  return facts;
}

/** What a conversation has shown so far: each fact's last known text, the sheet each read was of, the changes. */
interface ChangesSoFar {
  known: Map<string, string>;
  sheetOfCall: Map<string, string>;
  changes: FactChange[];
  /** A copy of `changes` handed out, until a change is added: callers keep what they were given. */
  handedOut?: readonly FactChange[];
}

function foldMessage(sofar: ChangesSoFar, message: ChatMessage): void {
  const { known, sheetOfCall, changes } = sofar;
  if (message.role === 'assistant') {
    for (const call of message.tool_calls ?? []) {
      const sheet = argument(call, 'sheet');
      if (call.function.name === 'facts_read' || call.function.name === 'facts_get_untold') sheetOfCall.set(call.id, sheet);
      if (call.function.name !== 'facts_edit') continue;
      const key = `${sheet}#${argument(call, 'id')}`;
      const before = known.get(key);
      const after = argument(call, 'text');
      if (before !== undefined && after && before !== after) {
        changes.push({ before, after });
        delete sofar.handedOut;
      }
      if (after) known.set(key, after);
    }
  }
  const sheet = message.role === 'tool' ? sheetOfCall.get(message.tool_call_id) : undefined;
  if (message.role === 'tool' && sheet !== undefined) for (const [id, text] of readOf(message)) known.set(`${sheet}#${id}`, text);
}

/** The conversation is read at every persona turn, and only grows between two: each turn folds only its new messages. */
const conversations = new GrowingFold<ChatMessage, ChangesSoFar>(
  () => ({ known: new Map(), sheetOfCall: new Map(), changes: [] }),
  foldMessage,
);

/** The facts' changes made in a conversation, in order, where it showed the fact's text before the edit. */
export function factChanges(messages: readonly ChatMessage[]): readonly FactChange[] {
  const sofar = conversations.of(messages);
  return (sofar.handedOut ??= [...sofar.changes]);
}

const dimensionOf = (value: Quantity) => value.readings[0]?.dimension ?? '';

/**
 * The values an edit replaced: the n-th value of a kind before that differs from the n-th of that
 * kind after ("£380 for the day" → "£340 for the day"). A value that only dropped out with the rest
 * of an old sentence ("20 boxes") is not one, unless the fact was deleted whole.
 */
function replacedValues(before: readonly Quantity[], after: readonly Quantity[]): Quantity[] {
  if (after.length === 0) return [...before];
  return before.filter((old) => {
    const sameKindBefore = before.filter((value) => dimensionOf(value) === dimensionOf(old));
    const counterpart = after.filter((value) => dimensionOf(value) === dimensionOf(old))[sameKindBefore.indexOf(old)];
    return counterpart !== undefined && !after.some((now) => sameQuantity(old, now));
  });
}

/**
 * A fact text's quantities and terms, read once: a long run grades hundreds of checks against the
 * same growing list of changes, and reading each text again for each check made a generated world
 * of 400 phases take minutes. Bounded so that a long-lived process does not keep every text.
 */
const readings = new Map<string, { values: Quantity[]; terms: ReturnType<typeof termsOf> }>();
function readingOf(text: string): { values: Quantity[]; terms: ReturnType<typeof termsOf> } {
  let reading = readings.get(text);
  if (!reading) {
    if (readings.size >= 20_000) readings.clear();
    reading = { values: quantities(digitsForWords(text)), terms: termsOf(text) };
    readings.set(text, reading);
  }
  return reading;
}

/** The values the changes took out of the facts that concern a check, as strings for gradeByRule's `stale`. */
export function staleValuesFor(check: { question: string; answer: string }, changes: readonly FactChange[]): string[] {
  const wantedValues = quantities(digitsForWords(check.answer));
  const wantedWords = new Set(termsOf(`${check.question} ${check.answer}`).map((term) => term.term));
  const stale: string[] = [];
  for (const { before, after } of changes) {
    const beforeValues = readingOf(before).values;
    const afterValues = readingOf(after).values;
    const shared = [...readingOf(before).terms, ...readingOf(after).terms].filter((term) => wantedWords.has(term.term));
    const namesValue = afterValues.some((value) => wantedValues.some((wanted) => sameQuantity(wanted, value)));
    if (!namesValue && new Set(shared.map((term) => term.term)).size < 2) continue;
    stale.push(...replacedValues(beforeValues, afterValues).map((old) => old.text));
    if (beforeValues.length === 0) {
      const afterTerms = new Set(readingOf(after).terms.map((term) => term.term));
      const gone = readingOf(before).terms.filter((term) => !afterTerms.has(term.term));
      const word = (index: number) => /^[\p{L}\d'’-]+/u.exec(before.slice(index))?.[0] ?? '';
      if (gone.length > 0 && gone.length <= 3) stale.push(...gone.map((term) => word(term.index)));
    }
  }
  return [...new Set(stale)];
}
