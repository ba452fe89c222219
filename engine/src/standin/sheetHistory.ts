/**
 * The stale values the stand-in persona can see: her conversation holds the sheets' facts as she
 * read them (facts_read, facts_get_untold) and the edits she made (facts_edit), so a value an edit
 * took out of a fact is out of date. A check is graded with the stale values of the facts that
 * concern it (a fact naming one of its values or two of its words), not with every old number of
 * every sheet, so that a long reply quoting other facts is not held against it.
 */
import type { ChatMessage } from '../protocol/chat';
import { termsOf } from './answerFacts';
import { digitsForWords } from './numberWords';
import { quantities, sameQuantity, type Quantity } from './quantities';
import { factsOfRead } from './sheetEdits';

/** One fact as it was and as an edit made it. */
export interface FactChange {
  before: string;
  after: string;
}

/** A string argument of a tool call's JSON, or ''. */
function argument(call: { function: { arguments: string } }, name: string): string {
  try {
    const value = (JSON.parse(call.function.arguments) as Record<string, unknown>)[name];
    return typeof value === 'string' ? value : '';
  } catch {
    return '';
  }
}

/** The facts' changes made in a conversation, in order, where it showed the fact's text before the edit. */
export function factChanges(messages: readonly ChatMessage[]): FactChange[] {
  const known = new Map<string, string>();
  const sheetOfCall = new Map<string, string>();
  const changes: FactChange[] = [];
  for (const message of messages) {
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) {
        const sheet = argument(call, 'sheet');
        if (call.function.name === 'facts_read' || call.function.name === 'facts_get_untold') sheetOfCall.set(call.id, sheet);
        if (call.function.name !== 'facts_edit') continue;
        const key = `${sheet}#${argument(call, 'id')}`;
        const before = known.get(key);
        const after = argument(call, 'text');
        if (before !== undefined && after && before !== after) changes.push({ before, after });
        if (after) known.set(key, after);
      }
    }
    const sheet = message.role === 'tool' ? sheetOfCall.get(message.tool_call_id) : undefined;
    if (message.role === 'tool' && sheet !== undefined)
      for (const [id, text] of factsOfRead(message.content)) known.set(`${sheet}#${id}`, text);
  }
  return changes;
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

/** The values the changes took out of the facts that concern a check, as strings for gradeByRule's `stale`. */
export function staleValuesFor(check: { question: string; answer: string }, changes: readonly FactChange[]): string[] {
  const wantedValues = quantities(digitsForWords(check.answer));
  const wantedWords = new Set(termsOf(`${check.question} ${check.answer}`).map((term) => term.term));
  const stale: string[] = [];
  for (const { before, after } of changes) {
    const beforeValues = quantities(digitsForWords(before));
    const afterValues = quantities(digitsForWords(after));
    const shared = termsOf(`${before} ${after}`).filter((term) => wantedWords.has(term.term));
    const namesValue = afterValues.some((value) => wantedValues.some((wanted) => sameQuantity(wanted, value)));
    if (!namesValue && new Set(shared.map((term) => term.term)).size < 2) continue;
    stale.push(...replacedValues(beforeValues, afterValues).map((old) => old.text));
    if (beforeValues.length === 0) {
      const afterTerms = new Set(termsOf(after).map((term) => term.term));
      const gone = termsOf(before).filter((term) => !afterTerms.has(term.term));
      const word = (index: number) => /^[\p{L}\d'’-]+/u.exec(before.slice(index))?.[0] ?? '';
      if (gone.length > 0 && gone.length <= 3) stale.push(...gone.map((term) => word(term.index)));
    }
  }
  return [...new Set(stale)];
}
