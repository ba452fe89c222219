/**
 * The stand-in model behind the `notebook` agent: a simple, deterministic note-taker that drives
 * the agent's real tool loop. A statement is appended to `notes.md`, dated (and `MEMORY.md` gets
 * a line about that note once); a question is searched in the notes and answered from the lines
 * found with the same recall as the plain agent (the note's length, as the hits' line numbers show
 * it, weighing rare words); when they do not answer, the notes found are read and it is answered
 * from them whole, or else from a search of the conversation history; the
 * consolidation pass adds to the notes what the transcript holds and they lack; a compaction
 * request gets the user's earlier messages, shortened. A request of the real Hermes (its `memory`
 * tool offered) goes to hermesMemory.ts, one of the real OpenClaw to openclawMemory.ts.
 */
import {
  COMPACTION_MARKER,
  CONSOLIDATION_MARKER,
  INDEX_FILE,
  NOTEBOOK_TOOLS as T,
  unstampMessage,
  withoutState,
} from '../protocol/notebook';
import type { ChatMessage, ToolCall } from '../protocol/chat';
import { agentAnswer, messageText, NEVER_TOLD, recall } from './agent';
import { HERMES_MEMORY_TOOL, hermesReply } from './hermesMemory';
import { isOpenClawRequest, openclawReply } from './openclawMemory';
import { keywords, numbers } from './text';

/** The note the stand-in keeps, one dated line per statement. */
export const STANDIN_NOTE = 'notes.md';
const SUMMARY_MAX_CHARS = 1500;

export interface AgentReply {
  content: string | null;
  calls: ToolCall[];
}

/** The agent side of the stand-in: the note-taker for a request of the notebook, else the plain recall. */
export function agentReply(messages: readonly ChatMessage[], toolNames: readonly string[]): AgentReply {
  const last = lastUser(messages);
  if (last?.content.startsWith(COMPACTION_MARKER)) return say(summarise(last.content));
  if (toolNames.includes(HERMES_MEMORY_TOOL) && !toolNames.includes(T.write)) return hermesReply(messages);
  if (isOpenClawRequest(toolNames)) return openclawReply(messages);
  if (!toolNames.includes(T.search) || !toolNames.includes(T.write) || !last) return say(agentAnswer(messages));
  const after = messages.slice(last.index + 1);
  const results = after.filter((m): m is Extract<ChatMessage, { role: 'tool' }> => m.role === 'tool').map((m) => m.content);
  const round = after.filter((m) => m.role === 'assistant' && m.tool_calls?.length).length;
  const id = (i: number) => `call_nb_${messages.length}_${i}`;
  const call = (name: string, args: Record<string, unknown>, i = 0): ToolCall => ({
    id: id(i),
    type: 'function',
    function: { name, arguments: JSON.stringify(args) },
  });

  if (last.content.startsWith(CONSOLIDATION_MARKER)) {
    if (round === 0) return { content: null, calls: [call(T.read, { path: STANDIN_NOTE })] };
    if (round === 1) {
      const notes = results[0]?.startsWith('Error') ? '' : (results[0] ?? '');
      const missing = transcriptStatements(last.content).filter((s) => !notes.includes(s.text));
      if (missing.length === 0) return say('Consolidated: the notes agree with the transcript.');
      return {
        content: null,
        calls: [call(T.write, { path: STANDIN_NOTE, content: missing.map((s) => noteLine(s.text, s.when)).join('\n'), append: true })],
      };
    }
    return say('Consolidated: added what the notes were missing from the transcript.');
  }

  const own = withoutState(last.content);
  const { text, when } = unstampMessage(own.content);
  if (!text.includes('?')) {
    if (round > 0) return say('Noted.');
    const calls = [call(T.write, { path: STANDIN_NOTE, content: noteLine(text, when), append: true })];
    // The index's head follows the user message it changed before (an older notebook had it in the system message).
    const shown = messages
      .map((m) => (m.role === 'system' ? m.content : m.role === 'user' ? withoutState(messageText(m.content)).state : ''))
      .join('\n');
    if (!shown.includes(`- ${STANDIN_NOTE}:`))
      calls.push(
        call(
          T.write,
          { path: INDEX_FILE, content: `- ${STANDIN_NOTE}: everything the user told me, one dated line each`, append: true },
          1,
        ),
      );
    return { content: null, calls };
  }
  const query = [...new Set([...keywords(text), ...numbers(text)])].join(' ') || text;
  const asked = after.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.function.name) : []));
  if (round === 0) return { content: null, calls: [call(T.search, { query })] };
  if (asked.at(-1) === T.search) {
    // The lines found answer, as they would a reader; else open the notes they are in and answer from them whole.
    const found = hits(results.at(-1) ?? '');
    const answer = recall(
      text,
      found.flatMap((h) => noteText(h.text)),
      Math.max(0, ...found.map((h) => h.line)),
    );
    if (answer !== NEVER_TOLD) return say(answer);
    const files = [...new Set(found.map((h) => h.name))].slice(0, 3);
    if (files.length) return { content: null, calls: files.map((path, i) => call(T.read, { path }, i)) };
  } else if (asked.at(-1) === T.read) {
    const read = results.slice(-asked.filter((n) => n === T.read).length).filter((r) => !r.startsWith('Error'));
    const answer = recall(text, read.flatMap((r) => r.split('\n')).flatMap(noteText));
    if (answer !== NEVER_TOLD) return say(answer);
  } else {
    const found = hits(results.at(-1) ?? '').flatMap((h) => spokenByUser(h.text));
    return say(found.length ? recall(text, found) : NEVER_TOLD);
  }
  return { content: null, calls: [call(T.searchHistory, { query })] };
}

function say(content: string): AgentReply {
  return { content, calls: [] };
}

function lastUser(messages: readonly ChatMessage[]): { content: string; index: number } | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'user') return { content: messageText(m.content), index: i };
  }
  return undefined;
}

function noteLine(text: string, when: string | undefined): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return when ? `- (${when}) ${flat}` : `- ${flat}`;
}

/** The `path:line: text` hits of a search result, in document order (a note's lines are chronological). */
function hits(result: string): { name: string; line: number; text: string }[] {
  return result
    .split('\n')
    .flatMap((l) => {
      const m = /^([^:\n]+):(\d+): (.*)$/.exec(l);
      return m ? [{ name: m[1] ?? '', line: Number(m[2]), text: m[3] ?? '' }] : [];
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.line - b.line));
}

/** A note line as a statement: list marks dropped, headings and blank lines skipped. */
function noteText(line: string): string[] {
  const t = line.trim();
  return t && !t.startsWith('#') && !t.startsWith('[') ? [t.replace(/^[-*]\s+/, '')] : [];
}

/** A transcript line's words when the user said them (not a question). */
function spokenByUser(line: string): string[] {
  const m = /^\[[^\]]+\] user: (.*)$/.exec(line);
  return m && !(m[1] ?? '').includes('?') ? [m[1] ?? ''] : [];
}

/** The user's statements in a consolidation request's transcript, with their stamps. */
function transcriptStatements(content: string): { text: string; when?: string }[] {
  return [...content.matchAll(/^\[([^\]]+)\] user: (.*)$/gm)]
    .map((m) => ({ when: m[1], text: (m[2] ?? '').trim() }))
    .filter((s) => s.text && !s.text.includes('?'));
}

/** The user's earlier messages, shortened and newest kept, as the summary of a compaction. */
function summarise(content: string): string {
  const said = [...content.matchAll(/^user: (.*)$/gm)].map((m) => unstampMessage(m[1] ?? '').text).filter((t) => !t.startsWith('['));
  const lines: string[] = [];
  let size = 0;
  for (const s of said.reverse()) {
    const line = s.length > 120 ? `${s.slice(0, 117)}…` : s;
    if (size + line.length > SUMMARY_MAX_CHARS) break;
    lines.unshift(line);
    size += line.length + 1;
  }
  return lines.length ? `The user said, among other things: ${lines.join(' | ')}` : 'Nothing to keep from the earlier conversation.';
}
