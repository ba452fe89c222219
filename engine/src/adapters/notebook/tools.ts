/**
 * The notebook's tools: their schemas as the model sees them, and their execution. A tool never
 * throws at the model: a mistake comes back as a result starting with "Error:" that says what to
 * do, and a write that leaves one fact with two values comes back with the duplicate guard's warning.
 */
import type { ToolSpec } from '../../models/chat';
import type { ToolCall } from '../../protocol/chat';
import type { NotesHistory } from './git';
import { contentHash, describeConflicts, findConflicts, type Notes } from './notes';
import { NoteError } from '../../errors';
import { NOTEBOOK_TOOLS } from '../../protocol/notebook';
import { formatHits, searchDocs, type Doc } from './search';

const str = (description: string) => ({ type: 'string', description });
const fn = (name: string, description: string, properties: Record<string, unknown>, required: string[]): ToolSpec => ({
  type: 'function',
  function: { name, description, parameters: { type: 'object', properties, required, additionalProperties: false } },
});

export const NOTEBOOK_TOOL_SPECS: ToolSpec[] = [
  fn(NOTEBOOK_TOOLS.list, 'List every note of the memory folder, with its size.', {}, []),
  fn(
    NOTEBOOK_TOOLS.read,
    'Read a note.',
    {
      path: str('The note\'s path in the memory folder, e.g. "topics/move.md".'),
      from_line: { type: 'integer', minimum: 1, description: 'Start at this line (for long notes).' },
    },
    ['path'],
  ),
  fn(
    NOTEBOOK_TOOLS.write,
    'Create or overwrite a note; with append, add to its end.',
    {
      path: str("The note's path, ending in .md."),
      content: str('The markdown to write.'),
      append: { type: 'boolean', description: 'Add to the end instead of overwriting.' },
    },
    ['path', 'content'],
  ),
  fn(
    NOTEBOOK_TOOLS.edit,
    "Replace an exact piece of a note's text: the way to change a fact's value in place.",
    {
      path: str("The note's path."),
      old_text: str('The exact text to replace, as read_note shows it.'),
      new_text: str('The text to put instead.'),
      replace_all: { type: 'boolean', description: 'Replace every occurrence, not just a unique one.' },
    },
    ['path', 'old_text', 'new_text'],
  ),
  fn(NOTEBOOK_TOOLS.remove, 'Delete a note (its history stays: file_history).', { path: str("The note's path.") }, ['path']),
  fn(
    NOTEBOOK_TOOLS.search,
    'Search every note for lines with these words; the best matches first, as path:line: text.',
    { query: str('A few key words.'), max_results: { type: 'integer', minimum: 1, maximum: 100 } },
    ['query'],
  ),
  fn(
    NOTEBOOK_TOOLS.searchHistory,
    'Search the transcripts of your past conversations with the user (and this one) for lines with these words.',
    { query: str('A few key words.'), max_results: { type: 'integer', minimum: 1, maximum: 100 } },
    ['query'],
  ),
  fn(
    NOTEBOOK_TOOLS.fileHistory,
    'The edit history of a note (git log -p), newest first, with dates: old values of changed facts are in the removed (-) lines.',
    { path: str("The note's path.") },
    ['path'],
  ),
];

const HISTORY_MAX_CHARS = 12_000;

export interface ToolContext {
  notes: Notes;
  history: NotesHistory;
  /** The conversations' transcripts, past ones and the current one, for search_history. */
  transcripts: () => Doc[];
  /** Told of a change to a note before it is made, so a resume knows it was (see `NoteChange`). */
  onChange?: (change: NoteChange) => void;
}

/**
 * A tool call's change to a note, journaled before the note is written: the call, the note, the
 * SHA-256 of its text after the change (null: deleted) and the first line of the result. A call
 * resumed after a kill whose note already has that text is not made again (an append would be
 * appended twice); it only gets its result.
 */
export interface NoteChange {
  call: string;
  path: string;
  after: string | null;
  done: string;
}

export interface ToolOutcome {
  result: string;
  /** Whether the memory folder changed. */
  wrote: boolean;
}

type Args = Record<string, unknown>;

function need(args: Args, key: string, tool: string): string {
  const v = args[key];
  if (typeof v !== 'string') throw new NoteError(`${tool} needs "${key}" as a string.`);
  return v;
}

/**
 * Carries out one tool call of the model. `journaled` is the change this very call recorded
 * before the engine was stopped, if any: when the note already holds its result, the call is done.
 */
export async function runTool(call: ToolCall, ctx: ToolContext, journaled?: NoteChange): Promise<ToolOutcome> {
  if (journaled && ctx.notes.hash(journaled.path) === journaled.after) return guarded(ctx.notes, journaled.done);
  const name = call.function.name;
  let args: Args;
  try {
    const parsed: unknown = JSON.parse(call.function.arguments || '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    args = parsed as Args;
  } catch {
    return {
      result: `Error: the arguments of ${name} are not a JSON object; send them as JSON, e.g. {"path": "MEMORY.md"}.`,
      wrote: false,
    };
  }
  try {
    return await run(name, args, ctx, call.id);
  } catch (e) {
    if (e instanceof NoteError) return { result: `Error: ${e.message}`, wrote: false };
    throw e;
  }
}

/** The result of a change: what was done, and the duplicate guard's warning if a fact now has two values. */
function guarded(notes: Notes, done: string): ToolOutcome {
  const warning = describeConflicts(findConflicts(notes.list().map((path) => ({ path, text: notes.text(path) }))));
  return { result: warning ? `${done}\n\n${warning}` : done, wrote: true };
}

/** Journals the change, then makes it (a whole-note write, renamed into place), then reports it. */
function change(ctx: ToolContext, call: string, path: string, text: string | null, done: string): ToolOutcome {
  ctx.onChange?.({ call, path, after: contentHash(text), done });
  ctx.notes.put(path, text);
  return guarded(ctx.notes, done);
}

async function run(name: string, args: Args, ctx: ToolContext, call: string): Promise<ToolOutcome> {
  const { notes } = ctx;
  const max = typeof args.max_results === 'number' ? Math.max(1, Math.min(100, Math.floor(args.max_results))) : 20;
  switch (name) {
    case NOTEBOOK_TOOLS.list: {
      const all = notes.list().map((p) => {
        const text = notes.text(p);
        return `${p} (${text.split('\n').length - (text.endsWith('\n') ? 1 : 0)} lines, ${Buffer.byteLength(text)} bytes)`;
      });
      return { result: all.length ? all.join('\n') : 'The memory folder is empty.', wrote: false };
    }
    case NOTEBOOK_TOOLS.read:
      return { result: notes.read(need(args, 'path', name), typeof args.from_line === 'number' ? args.from_line : 1), wrote: false };
    case NOTEBOOK_TOOLS.write: {
      const path = need(args, 'path', name);
      const existed = notes.exists(path);
      const text = notes.planWrite(path, need(args, 'content', name), args.append === true);
      return change(ctx, call, path, text, `${args.append === true ? 'Appended to' : existed ? 'Overwrote' : 'Created'} ${path}.`);
    }
    case NOTEBOOK_TOOLS.edit: {
      const path = need(args, 'path', name);
      const { text, count } = notes.planEdit(path, need(args, 'old_text', name), need(args, 'new_text', name), args.replace_all === true);
      return change(ctx, call, path, text, `Edited ${path} (${count} replacement${count === 1 ? '' : 's'}).`);
    }
    case NOTEBOOK_TOOLS.remove: {
      const path = need(args, 'path', name);
      notes.text(path);
      return change(ctx, call, path, null, `Deleted ${path}.`);
    }
    case NOTEBOOK_TOOLS.search: {
      const query = need(args, 'query', name);
      return {
        result: formatHits(
          searchDocs(
            notes.list().map((p) => ({ name: p, text: notes.text(p) })),
            query,
            max,
          ),
          query,
          'note',
        ),
        wrote: false,
      };
    }
    case NOTEBOOK_TOOLS.searchHistory: {
      const query = need(args, 'query', name);
      return { result: formatHits(searchDocs(ctx.transcripts(), query, max), query, 'conversation line'), wrote: false };
    }
    case NOTEBOOK_TOOLS.fileHistory: {
      const path = need(args, 'path', name);
      notes.resolve(path);
      const log = (await ctx.history.log(path)).trim();
      if (!log) return { result: `${path} has no history yet (history is saved at the end of each turn).`, wrote: false };
      return { result: log.length > HISTORY_MAX_CHARS ? `${log.slice(0, HISTORY_MAX_CHARS)}\n[older history cut]` : log, wrote: false };
    }
    default:
      return { result: `Error: there is no tool "${name}"; the tools are ${Object.values(NOTEBOOK_TOOLS).join(', ')}.`, wrote: false };
  }
}
