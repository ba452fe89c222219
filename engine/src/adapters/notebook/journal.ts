/**
 * The notebook's journal: everything it was told and did, one JSON line per entry, across all its
 * conversations. The context the model sees is rebuilt from it (the current conversation, with
 * compactions applied), so the agent resumes exactly where it was after the engine restarts.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { appendLine, loadJsonLinesForAppend } from '../../jsonl';
import { countTokens } from '../../models/tokens';
import type { ChatMessage } from '../../protocol/chat';
import { stampMessage, withoutState, withState } from '../../protocol/notebook';
import { toolCallsFromChat } from '../toolCalls';
import type { AgentMessage } from '../../protocol/agent';
import type { NoteChange } from './tools';

export type Entry =
  /** `state`: the notebook's state shown after the text, when it differs from the one the context showed last. */
  | { kind: 'user'; key: string; text: string; at: string; state?: string }
  /** An assistant tool call or a tool result, inside a turn. */
  | { kind: 'step'; message: ChatMessage }
  | { kind: 'reply'; seq: number; text: string; at: string }
  /** The messages before the last `keep` of the context were replaced by `summary`. */
  | { kind: 'compaction'; at: string; summary: string; keep: number; tokensBefore: number; tokensAfter: number; state?: string }
  | { kind: 'new-conversation'; at: string }
  | { kind: 'time'; iso: string }
  /** One model response's tokens. */
  | { kind: 'usage'; promptTokens: number; completionTokens: number }
  /** A tool call's change to a note, journaled before the note is written (see `NoteChange`). */
  | ({ kind: 'change' } & NoteChange)
  /** The consolidation after conversation `conversation` begins; the conflicts before it, as it found them. */
  | { kind: 'pass-begin'; conversation: number; conflictsBefore: number }
  /** Messages of one part of a consolidation pass: its opening (system and request), then each step. */
  | { kind: 'pass'; conversation: number; part: number; messages: ChatMessage[] }
  | { kind: 'pass-reply'; conversation: number; part: number; text: string }
  /** Every part has replied; `at` dates the pass's commit and record. */
  | { kind: 'pass-end'; conversation: number; at: string };

/** The entries that say where a turn is: a reply ends it, the others leave it in flight. */
const TURN_KINDS = new Set<Entry['kind']>(['user', 'step', 'compaction', 'reply']);

export const SUMMARY_HEADER = '[Summary of the earlier conversation, written when the context was compacted]';

export class Journal {
  entries: Entry[] = [];

  constructor(private readonly file: string) {}

  /** Reads the journal, dropping a line cut by a kill mid-write from the file before anything is appended. */
  load(): void {
    this.entries = loadJsonLinesForAppend<Entry>(this.file);
  }

  /** Journals the entry as one whole line: a full disk leaves none of it, and throws `DiskFull`. */
  append<E extends Entry>(entry: E): E {
    // The folder is made when the first append finds it missing, not checked at every append.
    try {
      appendLine(this.file, entry);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      mkdirSync(dirname(this.file), { recursive: true });
      appendLine(this.file, entry);
    }
    this.entries.push(entry);
    return entry;
  }

  /** The first entry of `kind` that `match` accepts. */
  find<K extends Entry['kind']>(kind: K, match: (entry: Extract<Entry, { kind: K }>) => boolean): Extract<Entry, { kind: K }> | undefined {
    return this.entries.find((e): e is Extract<Entry, { kind: K }> => e.kind === kind && match(e as Extract<Entry, { kind: K }>));
  }

  clear(): void {
    this.entries = [];
  }

  /** The entries of the current conversation. */
  current(): Entry[] {
    return this.entries.slice(this.entries.map((e) => e.kind).lastIndexOf('new-conversation') + 1);
  }

  /** Conversations finished so far. */
  finished(): number {
    return this.entries.filter((e) => e.kind === 'new-conversation').length;
  }

  seen(key: string): boolean {
    return this.entries.some((e) => e.kind === 'user' && e.key === key);
  }

  /** The replies after `afterSeq`, each with the tool calls of its turn (the steps since the message it answers) and that message's key. */
  replies(afterSeq: number): AgentMessage[] {
    const out: AgentMessage[] = [];
    let steps: ChatMessage[] = [];
    let replyTo: string | undefined;
    for (const e of this.entries) {
      if (e.kind === 'user' || e.kind === 'new-conversation') steps = [];
      if (e.kind === 'user') replyTo = e.key;
      else if (e.kind === 'step') steps.push(e.message);
      else if (e.kind === 'reply') {
        const toolCalls = e.seq > afterSeq ? toolCallsFromChat(steps) : [];
        if (e.seq > afterSeq)
          out.push({
            seq: e.seq,
            text: e.text,
            at: e.at,
            ...(toolCalls.length ? { toolCalls } : {}),
            ...(replyTo !== undefined ? { replyTo } : {}),
          });
        steps = [];
      }
    }
    return out;
  }

  lastSeq(): number {
    return this.entries.reduce((n, e) => (e.kind === 'reply' ? Math.max(n, e.seq) : n), 0);
  }

  /** The last entry of the current conversation's turns (a user message, a step, a compaction, a reply). */
  lastOfTurn(): Entry | undefined {
    return this.current()
      .filter((e) => TURN_KINDS.has(e.kind))
      .at(-1);
  }

  /** Whether the last turn was cut before its reply (the engine was stopped mid-turn). */
  turnInFlight(): boolean {
    const last = this.lastOfTurn();
    return last !== undefined && last.kind !== 'reply';
  }

  /**
   * The changes journaled by the calls of the last step of tool calls (a turn's or a consolidation
   * pass's), by call id: those a resume must not make twice.
   */
  changesOfLastStep(): Map<string, NoteChange> {
    const changes = new Map<string, NoteChange>();
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i]!;
      if (e.kind === 'change') changes.set(e.call, e);
      const messages = e.kind === 'step' ? [e.message] : e.kind === 'pass' ? e.messages : [];
      if (messages.some((m) => m.role === 'assistant' && m.tool_calls?.length)) break;
    }
    return changes;
  }

  /** The notes the tool calls of the last turn changed (each journaled before it was made). */
  turnChangedPaths(): Set<string> {
    const paths = new Set<string>();
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i]!;
      if (e.kind === 'change') paths.add(e.path);
      if (e.kind === 'user' || e.kind === 'new-conversation') break;
    }
    return paths;
  }

  /**
   * The commit that ends the last turn, when the journal ends with its reply: a resume makes it
   * (again: a commit with nothing new is none) in case the engine was stopped before it.
   */
  turnCommit(): { message: string; at: Date } | undefined {
    const moves = this.entries.filter((e) => e.kind !== 'usage' && e.kind !== 'time' && e.kind !== 'change');
    const reply = moves.at(-1);
    if (reply?.kind !== 'reply') return undefined;
    const user = moves.filter((e) => e.kind === 'user').at(-1);
    return {
      message: `turn ${reply.seq}: ${(user?.kind === 'user' ? user.text : '').replace(/\s+/g, ' ').slice(0, 60)}`,
      at: new Date(reply.at),
    };
  }
}

/**
 * The message each entry reads as, made once per entry: the same object every turn, so its tokens
 * are counted once (`messageTokens` remembers by object), not the whole context again each turn.
 */
const messageOf = new WeakMap<Entry, ChatMessage>();

function entryMessage(entry: Entry & { kind: 'user' | 'reply' | 'compaction' }): ChatMessage {
  let message = messageOf.get(entry);
  if (!message) {
    const shown = (content: string) => (entry.kind !== 'reply' && entry.state ? withState(content, entry.state) : content);
    if (entry.kind === 'user') message = { role: 'user', content: shown(stampMessage(entry.text, new Date(entry.at))) };
    else if (entry.kind === 'reply') message = { role: 'assistant', content: entry.text };
    else message = { role: 'user', content: shown(`${SUMMARY_HEADER}\n\n${entry.summary}`) };
    messageOf.set(entry, message);
  }
  return message;
}

/** The notebook's state the context shows last ('' when none): a new one is shown only when it differs. */
export function lastShownState(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'user') continue;
    const { state } = withoutState(m.content);
    if (state) return state;
  }
  return '';
}

/** The current conversation as the model sees it (after the system message), compactions applied. */
export function contextMessages(entries: Entry[]): ChatMessage[] {
  let out: ChatMessage[] = [];
  for (const e of entries) {
    if (e.kind === 'user' || e.kind === 'reply') out.push(entryMessage(e));
    else if (e.kind === 'step') out.push(e.message);
    else if (e.kind === 'compaction') {
      out = answered(out);
      out = [entryMessage(e), ...out.slice(out.length - e.keep)];
    }
  }
  return answered(out);
}

/**
 * Without tool calls whose results never came, but for the last step when only tool results follow
 * it: that one a resumed turn finishes (`finishCalls`) before the model is called again. The others
 * are orphans of a journal written before turns were resumed that way, and providers refuse a call
 * without its result.
 */
function answered(messages: ChatMessage[]): ChatMessage[] {
  const results = new Set(messages.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : [])));
  const lastStep = messages.findLastIndex((m) => m.role !== 'tool');
  const cut = new Set(
    messages.flatMap((m, i) =>
      i !== lastStep && m.role === 'assistant' && m.tool_calls?.some((c) => !results.has(c.id)) ? m.tool_calls.map((c) => c.id) : [],
    ),
  );
  if (cut.size === 0) return messages;
  return messages.filter(
    (m) => !(m.role === 'assistant' && m.tool_calls?.some((c) => cut.has(c.id))) && !(m.role === 'tool' && cut.has(m.tool_call_id)),
  );
}

/**
 * Where to cut a context that is over budget: the oldest user message whose tail fits in
 * `targetTokens`, or the last user message; undefined when nothing before it can be cut.
 */
export function planCut(messages: ChatMessage[], targetTokens: number): number | undefined {
  const starts = messages.flatMap((m, i) => (m.role === 'user' && i > 0 ? [i] : []));
  const fitting = starts.find((i) => countTokens(messages.slice(i)) <= targetTokens);
  return fitting ?? starts.at(-1);
}

/** Messages as plain lines, for the compaction and consolidation requests. */
export function renderMessages(messages: ChatMessage[]): string {
  return messages
    .map((m) => {
      if (m.role === 'assistant' && m.tool_calls?.length)
        return `assistant called ${m.tool_calls.map((c) => `${c.function.name} ${c.function.arguments}`).join('; ')}`;
      return `${m.role === 'tool' ? 'tool result' : m.role}: ${m.content ?? ''}`;
    })
    .join('\n');
}

/** A conversation's transcript, one line per message: what was really said, for the history and the consolidation. */
export function transcript(entries: Entry[]): string {
  return entries
    .flatMap((e) => {
      if (e.kind === 'user') return [`${stampMessage(`user: ${oneLine(e.text)}`, new Date(e.at))}`];
      if (e.kind === 'reply') return [`${stampMessage(`assistant: ${oneLine(e.text)}`, new Date(e.at))}`];
      return [];
    })
    .join('\n');
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
