/**
 * The stand-in model playing the persona. It keeps no state of its own: every request carries the
 * whole conversation, so it replays its script for the current phase against the tool results it
 * already got and returns the first step not yet taken. Same conversation, same next step.
 */
import type { ChatMessage, ToolCall } from '../protocol/chat';
import { INSIDE_PHASE_MARK } from '../persona/compaction';
import { NO_REPLY_PREFIX, phaseTextOf, REPLY_PREFIX } from '../persona/protocol';
import { factSentence, factsMessage } from './firstPerson';
import { voiceTalk, type VoiceContext } from './personaVoice';
import { phaseParts, talkOf, type CheckLine } from './phaseParts';
import { applySwaps, factMatching, factsOfRead, swapsOf, type SheetEdit, type Swap } from './sheetEdits';
import { gradeOf, staleFor } from './checkGrades';
import { factChanges, type FactChange } from './sheetHistory';
import { keywords, numbers, saysDontKnow } from './text';

/** A step of the script: a tool call, or plain words when nothing is left to do. */
export type Step = { tool: string; args: Record<string, unknown> } | { say: string };

/** Tool calls the stand-in injected as faults carry this id prefix (for whoever reads the wire). */
export const FAULT_ID = 'call_fault_';

/**
 * The calls the stand-in injects as faults. The script skips them when it replays the
 * conversation, recognising them by their content: the engine gives every call its own id.
 */
export const FAULT_CALLS = {
  echo: { name: 'send_message', arguments: JSON.stringify({ text: 'The assistant replied: Noted, I have saved that.' }) },
  notJson: { name: 'send_message', arguments: '{"text": "unterminated' },
  noSuchTool: { name: 'send_mesage', arguments: '{"text": "a tool that does not exist"}' },
} as const;

const isFault = (call: ToolCall): boolean =>
  Object.values(FAULT_CALLS).some((f) => f.name === call.function.name && f.arguments === call.function.arguments);
const FACTS_PER_MESSAGE = 3;
/** The longest answer the script quotes in a grade. */
const MAX_QUOTED_ANSWER = 2000;

/** Whether a fact's text was said already this phase: its numbers, or half its words when it has none. */
function saidAlready(text: string, spoken: readonly string[]): boolean {
  const heard = spoken.join(' ');
  const values = numbers(text);
  if (values.length) return values.every((value) => numbers(heard).includes(value));
  const heardWords = new Set(keywords(heard));
  const own = keywords(text);
  return own.filter((word) => heardWords.has(word)).length * 2 >= own.length;
}

/** A fact as she says it after "Actually," or "Also,": "Actually, the movers are Leeds Lift". */
function aside(lead: string, text: string): string {
  const sentence = factSentence(text).sentence;
  // "Trip fund deposit, …" reads on after a comma in lower case; "Boss gets …", a name, keeps its capital.
  const common = /^(?:The|A|An|My|Our|His|Her)\b/.test(sentence) || /^\p{Lu}\p{Ll}+(?: \p{Ll}+)*[,:]/u.test(sentence);
  const lowered = common && !/^(?:I|I'm)\b/.test(sentence) ? sentence.charAt(0).toLowerCase() + sentence.slice(1) : sentence;
  return `${lead}, ${lowered}`;
}

/** The category titles of a `facts_read` result, by category number. */
function categoriesOfRead(result: string): Map<string, string> {
  return new Map([...result.matchAll(/^## (\d+)\. (.+)$/gm)].map((m) => [m[1] ?? '', (m[2] ?? '').trim()]));
}

/** Tells what is left untold of a sheet, a few facts a message, in her words, marking each message's facts told. */
function* tell(sheet: string): Generator<Step, void, string> {
  const untold = yield { tool: 'facts_get_untold', args: { sheet } };
  if (untold.startsWith('Error')) return;
  const facts = [...untold.matchAll(/^(\d+\.\d+) (.+)$/gm)].map((m) => ({ id: m[1] ?? '', text: m[2] ?? '' }));
  if (facts.length === 0) return;
  // The sheet's categories frame a list ("For the candidates: …"): only a read shows them, and a sheet of
  // sentences needs none (a read of a long sheet costs a tight persona context its room).
  const framed = facts.some((fact) => factSentence(fact.text).framed);
  const categories = framed ? categoriesOfRead(yield { tool: 'facts_read', args: { sheet } }) : new Map<string, string>();
  for (let i = 0; i < facts.length; i += FACTS_PER_MESSAGE) {
    const chunk = facts.slice(i, i + FACTS_PER_MESSAGE);
    const told = chunk.map((fact) => ({ text: fact.text, category: categories.get(fact.id.split('.')[0] ?? '') }));
    yield { tool: 'send_message', args: { text: factsMessage(told) } };
    yield { tool: 'facts_mark_told', args: { sheet, ids: chunk.map((f) => f.id) } };
  }
}

/**
 * One sheet edit the phase asks for, as the tool calls that make it (a read first when the text
 * depends on the fact). A new value her words have not given yet she says as a person does.
 */
function* playEdit(edit: SheetEdit, spoken: string[]): Generator<Step, void, string> {
  if (edit.kind === 'edit') {
    yield { tool: 'facts_edit', args: { sheet: edit.sheet, id: edit.id, text: edit.text } };
    if (!saidAlready(edit.text, spoken)) yield* sayAside('Actually', edit.text, spoken);
    return;
  }
  if (edit.kind === 'add') {
    const added = yield { tool: 'facts_add', args: { sheet: edit.sheet, category: edit.category, text: edit.text } };
    if (!saidAlready(edit.text, spoken)) yield* sayAside('Also', edit.text, spoken);
    // Her words told the new fact: it is told, as a fact of a sheet she tells would be.
    const id = /^Added [^#\s]+#(\d+\.\d+)/.exec(added)?.[1];
    if (id) yield { tool: 'facts_mark_told', args: { sheet: edit.sheet, ids: [id] } };
    return;
  }
  if (edit.kind === 'delete' && edit.id) {
    yield { tool: 'facts_edit', args: { sheet: edit.sheet, id: edit.id, text: '—' } };
    return;
  }
  const facts = factsOfRead(yield { tool: 'facts_read', args: { sheet: edit.sheet } });
  if (edit.kind === 'delete') {
    const id = factMatching(facts, edit.words);
    if (id) yield { tool: 'facts_edit', args: { sheet: edit.sheet, id, text: '—' } };
    return;
  }
  const current = facts.get(edit.id);
  const changed = current === undefined ? current : applySwaps(current, edit.swaps);
  if (changed !== undefined && changed !== current) yield { tool: 'facts_edit', args: { sheet: edit.sheet, id: edit.id, text: changed } };
}

function* sayAside(lead: string, text: string, spoken: string[]): Generator<Step, void, string> {
  const words = aside(lead, text);
  spoken.push(words);
  yield { tool: 'send_message', args: { text: words } };
}

function agentReply(result: string): string {
  if (result.startsWith(NO_REPLY_PREFIX)) return '';
  return result.startsWith(REPLY_PREFIX) ? result.slice(REPLY_PREFIX.length) : result;
}

/** What an earlier part of the phase already did, when a compaction cut it off. */
interface DoneBefore {
  /** Checks graded before the cut (the note names them). */
  graded: ReadonlySet<string>;
  /** The phase's talk was said (and its waits waited) before the cut. */
  talkSaid: boolean;
  /** The facts' edits the conversation shows: a value they took out is stale when a reply gives it. */
  changes: readonly FactChange[];
}

/** What the phase has said so far: its swaps for edits, her words, the topic she brought up. */
interface PhaseSoFar {
  swaps: readonly Swap[];
  spoken: string[];
  context: VoiceContext;
}

/** A talk part said: her statements joined into one message, each question, tell and edit in its turn. */
function* playTalk(part: { talk: string; until?: string }, phase: PhaseSoFar): Generator<Step, void, string> {
  const { swaps, spoken, context } = phase;
  if (part.until) context.date = part.until.slice(0, 10);
  if (part.until) yield { tool: 'wait', args: { until: part.until } };
  let pending: string[] = [];
  function* send(): Generator<Step, void, string> {
    if (pending.length === 0) return;
    const text = pending.join(' ');
    pending = [];
    spoken.push(text);
    yield { tool: 'send_message', args: { text } };
  }
  for (const beat of voiceTalk(part.talk, swaps, context)) {
    if ('say' in beat) {
      pending.push(beat.say);
      continue;
    }
    yield* send();
    if ('ask' in beat) {
      spoken.push(beat.ask);
      yield { tool: 'send_message', args: { text: beat.ask } };
    } else if ('tell' in beat) yield* tell(beat.tell);
    else for (const edit of beat.edits) yield* playEdit(edit, spoken);
  }
  yield* send();
}

/** A check asked as its question, asked again once when the agent says it does not know, and graded. */
function* askCheck(check: CheckLine, done: DoneBefore): Generator<Step, void, string> {
  const first = agentReply(yield { tool: 'send_message', args: { text: check.question } });
  // A HIST check asks for the old value: the edits' old values are its answer, not stale.
  const stale = check.type === 'HIST' ? [] : staleFor(check, done.changes);
  let grade = gradeOf(check, first, stale);
  let answer = first;
  let attempt = 1;
  if (grade.score < 10 && check.type !== 'VOID' && saysDontKnow(first)) {
    answer = agentReply(yield { tool: 'send_message', args: { text: `Could you search your memory and notes? ${check.question}` } });
    grade = gradeOf(check, answer, stale);
    attempt = 2;
  }
  // The answer is quoted short: a reply of 20,000 characters is no answer to keep whole.
  yield {
    tool: 'log_evaluation',
    args: {
      check_id: check.id,
      score: grade.score,
      answer: (answer || '(no reply)').slice(0, MAX_QUOTED_ANSWER),
      comment: grade.comment,
      attempt,
    },
  };
}

/** The whole script of one phase: its parts in order (talk, sheets told, edits, checks), then move on. */
function* phaseScript(text: string, done: DoneBefore): Generator<Step, void, string> {
  const parts = phaseParts(text);
  const phase: PhaseSoFar = { swaps: swapsOf(talkOf(parts)), spoken: [], context: {} };
  for (const part of parts) {
    if ('check' in part) {
      if (!done.graded.has(part.check.id)) yield* askCheck(part.check, done);
    } else if (!done.talkSaid) yield* playTalk(part, phase);
    // Talk said before a compaction is not said again; what it left untold of a sheet still is.
    else for (const beat of voiceTalk(part.talk, phase.swaps)) if ('tell' in beat) yield* tell(beat.tell);
  }
  for (let tries = 0; tries < 5; tries++) {
    const result = yield { tool: 'next_phase', args: {} };
    const untold = [...result.matchAll(/untold facts of `([\w-]+)`/g)].map((m) => m[1] ?? '');
    if (untold.length === 0) return;
    for (const sheet of untold) yield* tell(sheet);
  }
}

/** The checks a compaction note inside a phase says are graded already: the script skips them. */
function gradedBefore(message: ChatMessage | undefined): Set<string> {
  const content = message?.role === 'user' && typeof message.content === 'string' ? message.content : '';
  const list = /^Checks of this phase you have already graded: ([^\n]*?)\. Do not ask them again\.$/m.exec(content)?.[1];
  return new Set(list ? list.split(', ') : []);
}

/**
 * Whether a call made this step: the same call, or a grade of the same check that was recorded with
 * other figures (a chaos grader bent her score, or left out the attempt): a recorded grade is done,
 * and grading it again would only be bent again.
 */
function madeStep(call: ToolCall, wanted: { tool: string; args: Record<string, unknown> }, result: string | undefined): boolean {
  if (call.function.name !== wanted.tool) return false;
  if (call.function.arguments === JSON.stringify(wanted.args)) return true;
  if (wanted.tool !== 'log_evaluation' || !result?.startsWith('Recorded ')) return false;
  try {
    return (JSON.parse(call.function.arguments) as { check_id?: unknown }).check_id === wanted.args.check_id;
  } catch {
    return false;
  }
}

/** The persona's next step, given the whole conversation so far. */
export function nextPersonaStep(messages: readonly ChatMessage[]): Step {
  let start = -1;
  let text: string | undefined;
  for (let i = messages.length - 1; i >= 0 && text === undefined; i--) {
    const m = messages[i];
    if ((m?.role === 'user' || m?.role === 'tool') && typeof m.content === 'string') {
      text = phaseTextOf(m.content);
      start = i;
    }
  }
  if (text === undefined) return { say: 'I am waiting for the scenario.' };
  const results = new Map<string, string>();
  const calls: ToolCall[] = [];
  for (const m of messages.slice(start + 1)) {
    if (m.role === 'assistant') calls.push(...(m.tool_calls ?? []).filter((c) => !isFault(c)));
    if (m.role === 'tool') results.set(m.tool_call_id, m.content);
  }
  const opening = messages[start];
  const cutInside = opening?.role === 'user' && typeof opening.content === 'string' && opening.content.includes(INSIDE_PHASE_MARK);
  const script = phaseScript(text, { graded: gradedBefore(opening), talkSaid: cutInside, changes: factChanges(messages) });
  let step = script.next('');
  // Each step is matched with the first call not matched yet that made it. A compaction inside the
  // phase cut the first calls off: those steps find no call and are taken again, and a step
  // taken again (the sheet read anew) finds the later calls that followed it the first time.
  const used = new Set<number>();
  // Calls before this one are all matched: a long phase's search starts past them.
  let firstUnused = 0;
  while (!step.done && 'tool' in step.value) {
    const wanted = step.value;
    let found = -1;
    for (let index = firstUnused; index < calls.length && found < 0; index++)
      if (!used.has(index) && madeStep(calls[index]!, wanted, results.get(calls[index]!.id))) found = index;
    if (found < 0) break;
    used.add(found);
    while (used.has(firstUnused)) firstUnused++;
    step = script.next(results.get(calls[found]!.id) ?? '');
  }
  // A script played to its end in a phase that goes on (next_phase refused, or a call of it lost
  // to chaos): asking to move on again is all there is left to do.
  return step.done ? { tool: 'next_phase', args: {} } : step.value;
}
