/**
 * What the notebook agent and the stand-in model both rely on: the tool names, the stamp put
 * before each user message, and the markers of the consolidation and compaction requests. Pure
 * constants, so the stand-in can read them without importing the adapter.
 */

export const NOTEBOOK_TOOLS = {
  list: 'list_notes',
  read: 'read_note',
  write: 'write_note',
  edit: 'edit_note',
  remove: 'delete_note',
  search: 'search_notes',
  searchHistory: 'search_history',
  fileHistory: 'file_history',
} as const;

/** The file whose head is injected into the agent's context. */
export const INDEX_FILE = 'MEMORY.md';

/** The first line of the user message of the end-of-conversation consolidation ("dreaming") pass. */
export const CONSOLIDATION_MARKER = '[Consolidation: the conversation has ended]';

/** The first line of the user message that asks for a summary of older turns. */
export const COMPACTION_MARKER = '[Compaction: summarise the earlier conversation]';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `Wednesday 11 March 2026, 07:30`: the agent's wall clock (a Date's UTC fields, as the engine's clock keeps it). */
export function formatAgentTime(date: Date): string {
  const day = `${DAYS[date.getUTCDay()]} ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
  return `${day}, ${date.toISOString().slice(11, 16)}`;
}

/** The stamp before each user message as the model sees it: `[Wednesday 11 March 2026, 07:30] `. */
export function stampMessage(text: string, at: Date): string {
  return `[${formatAgentTime(at)}] ${text}`;
}

/**
 * The line before what the notebook adds to the latest user message of a turn: the time, its
 * notes' names and its index's head. They change as it works, so they follow the conversation
 * instead of opening it: the system message and every earlier message stay the same from turn
 * to turn, a prefix a provider's cache can reuse.
 */
export const STATE_MARKER = "[The notebook now (not the user's words):]";

export function withState(content: string, state: string): string {
  return `${content}\n\n${STATE_MARKER}\n${state}`;
}

/** A user message's own content and the notebook's state after it ('' when it has none). */
export function withoutState(content: string): { content: string; state: string } {
  const at = content.lastIndexOf(`\n\n${STATE_MARKER}\n`);
  return at < 0 ? { content, state: '' } : { content: content.slice(0, at), state: content.slice(at + STATE_MARKER.length + 3) };
}

/** The stamp and the text of a stamped user message. */
export function unstampMessage(content: string): { when?: string; text: string } {
  const m = /^\[([A-Z][a-z]+ \d{1,2} [A-Z][a-z]+ \d{4}, \d\d:\d\d)\] ([\s\S]*)$/.exec(content);
  return m ? { when: m[1], text: m[2] ?? '' } : { text: content };
}
