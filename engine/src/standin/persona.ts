/**
 * The stand-in model playing the persona. It keeps no state of its own: every request carries the
 * whole conversation, so it replays its script for the current phase against the tool results it
 * already got and returns the first step not yet taken. Same conversation, same next step.
 */
import type { ChatMessage, ToolCall } from '../protocol/chat';
import { INSIDE_PHASE_MARK } from '../persona/compaction';
import { NO_REPLY_PREFIX, phaseTextOf, REPLY_PREFIX } from '../persona/protocol';
import { gradeByRule } from './grading';
import { applySwaps, factMatching, factsOfRead, sheetEditsOf, type SheetEdit } from './sheetEdits';
import { factChanges, staleValuesFor, type FactChange } from './sheetHistory';
import { saysDontKnow } from './text';

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

interface CheckLine {
  id: string;
  type?: string;
  question: string;
  answer: string;
}

/** Splits a phase's text into what the persona says and the checks she asks. */
function splitPhase(text: string): { talk: string; checks: CheckLine[] } {
  const lines = text.split('\n');
  const talk: string[] = [];
  const checks: CheckLine[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (!line.trimStart().startsWith('❓')) {
      talk.push(line);
      continue;
    }
    let block = line;
    while (i + 1 < lines.length && /^[ \t]+\S/.test(lines[i + 1] ?? '') && !(lines[i + 1] ?? '').trimStart().startsWith('❓'))
      block += ` ${(lines[++i] ?? '').trim()}`;
    const m = /❓\uFE0F?\s*(\d+\.\d+)\s*(?:\[([A-Z]+)\])?\s*([\s\S]*?)\s*correct answer:\s*([\s\S]*)$/i.exec(block);
    if (m) checks.push({ id: m[1] ?? '', type: m[2], question: (m[3] ?? '').trim(), answer: (m[4] ?? '').trim() });
  }
  return {
    talk: talk
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
    checks,
  };
}

function* tell(sheet: string): Generator<Step, void, string> {
  const untold = yield { tool: 'facts_get_untold', args: { sheet } };
  if (untold.startsWith('Error')) return;
  const facts = [...untold.matchAll(/^(\d+\.\d+) (.+)$/gm)].map((m) => ({ id: m[1] ?? '', text: m[2] ?? '' }));
  for (let i = 0; i < facts.length; i += FACTS_PER_MESSAGE) {
    const chunk = facts.slice(i, i + FACTS_PER_MESSAGE);
    yield { tool: 'send_message', args: { text: chunk.map((f) => sentence(f.text)).join(' ') } };
    yield { tool: 'facts_mark_told', args: { sheet, ids: chunk.map((f) => f.id) } };
  }
}

/** One sheet edit the phase asks for, as the tool calls that make it (a read first when the text depends on the fact). */
function* playEdit(edit: SheetEdit): Generator<Step, void, string> {
  if (edit.kind === 'edit') yield { tool: 'facts_edit', args: { sheet: edit.sheet, id: edit.id, text: edit.text } };
  if (edit.kind === 'add') yield { tool: 'facts_add', args: { sheet: edit.sheet, category: edit.category, text: edit.text } };
  if (edit.kind === 'delete' && edit.id) yield { tool: 'facts_edit', args: { sheet: edit.sheet, id: edit.id, text: '—' } };
  if (edit.kind === 'edit' || edit.kind === 'add' || (edit.kind === 'delete' && edit.id)) return;
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

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function agentReply(result: string): string {
  if (result.startsWith(NO_REPLY_PREFIX)) return '';
  return result.startsWith(REPLY_PREFIX) ? result.slice(REPLY_PREFIX.length) : result;
}

/** The whole script of one phase: talk, tell the sheets it names, ask its checks, move on. */
/** What an earlier part of the phase already did, when a compaction cut it off. */
interface DoneBefore {
  /** Checks graded before the cut (the note names them). */
  graded: ReadonlySet<string>;
  /** The phase's talk was said (and its waits waited) before the cut. */
  talkSaid: boolean;
  /** The facts' edits the conversation shows: a value they took out is stale when a reply gives it. */
  changes: readonly FactChange[];
}

function* phaseScript(text: string, done: DoneBefore): Generator<Step, void, string> {
  const { talk, checks } = splitPhase(text);
  // Sentences that name a sheet are directions to the persona ("tell the `family` sheet"), not talk.
  const speak = (t: string) =>
    t
      .replace(/\s+/g, ' ')
      .split(/(?<=[.!?])\s+/)
      .filter((sentence) => sentence.trim() && !sentence.includes('`'))
      .join(' ');
  // Timed lines (`08:00 — …`) are said at their time, after a wait; the rest first.
  let date: string | undefined;
  const timed: { until?: string; text: string }[] = [];
  const free: string[] = [];
  for (const line of talk.split('\n')) {
    const d = /^\s*(\d{4}-\d{2}-\d{2})(?:,\s*[A-Za-z]+)?\s*$/.exec(line);
    const t = /^\s*(\d{2}:\d{2})\s*(?:—|–|-)\s*(.*)$/.exec(line);
    if (d) date = d[1];
    else if (t) timed.push({ ...(date ? { until: `${date} ${t[1]}` } : {}), text: t[2] ?? '' });
    else if (timed.length) timed[timed.length - 1]!.text += `\n${line}`;
    else free.push(line);
  }
  const said = done.talkSaid ? '' : speak(free.join('\n'));
  if (said) yield { tool: 'send_message', args: { text: said } };
  for (const step of done.talkSaid ? [] : timed) {
    if (step.until) yield { tool: 'wait', args: { until: step.until } };
    const text = speak(step.text);
    if (text) yield { tool: 'send_message', args: { text } };
  }
  // Her life changes before she tells what is left untold: an added fact is then told with the rest.
  if (!done.talkSaid) for (const edit of sheetEditsOf(talk)) yield* playEdit(edit);
  const sheets = [...new Set([...talk.matchAll(/`([A-Za-z0-9_][\w-]*)`/g)].map((m) => m[1] ?? ''))];
  for (const sheet of sheets) yield* tell(sheet);
  for (const check of checks) {
    if (done.graded.has(check.id)) continue;
    const first = agentReply(yield { tool: 'send_message', args: { text: check.question } });
    // A HIST check asks for the old value: the edits' old values are its answer, not stale.
    const options = { stale: check.type === 'HIST' ? [] : staleValuesFor(check, done.changes) };
    let grade = gradeByRule(check.type, check.answer, first, options);
    let answer = first;
    let attempt = 1;
    if (grade.score < 10 && check.type !== 'VOID' && saysDontKnow(first)) {
      answer = agentReply(yield { tool: 'send_message', args: { text: `Could you search your memory and notes? ${check.question}` } });
      grade = gradeByRule(check.type, check.answer, answer, options);
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
  while (!step.done && 'tool' in step.value) {
    const wanted = step.value;
    const found = calls.findIndex((call, index) => !used.has(index) && madeStep(call, wanted, results.get(call.id)));
    if (found < 0) break;
    used.add(found);
    step = script.next(results.get(calls[found]!.id) ?? '');
  }
  // A script played to its end in a phase that goes on (next_phase refused, or a call of it lost
  // to chaos): asking to move on again is all there is left to do.
  return step.done ? { tool: 'next_phase', args: {} } : step.value;
}
