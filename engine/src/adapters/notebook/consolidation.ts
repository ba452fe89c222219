/**
 * The consolidation ("dreaming") pass: the model checks its notes against the finished
 * conversation's transcript, in parts that fit its context, told of any fact with two values.
 * Every message of the pass is journaled, so a pass stopped by a kill resumes where it was:
 * a finished part is not asked again, a step's calls are finished once, the commit and the line
 * of `consolidations.jsonl` are made once.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatMessage } from '../../protocol/chat';
import { appendLine, loadJsonLinesForAppend } from '../../jsonl';
import type { NotesHistory } from './git';
import type { Journal } from './journal';
import { describeConflicts, type Conflict } from './notes';
import { notebookPrompt } from './prompts';
import { CONSOLIDATION_MARKER } from '../../protocol/notebook';

export interface PassDeps {
  dir: string;
  journal: Journal;
  history: NotesHistory;
  contextTokens: number;
  time: () => Date;
  system: (pass: string) => ChatMessage;
  conflicts: () => Conflict[];
  toolLoop: (messages: ChatMessage[], onStep: (m: ChatMessage) => void) => Promise<string>;
}

/** Consolidates the notes against the transcript `text` of conversation number `conversation`, resuming a pass begun before a stop. */
export async function consolidate(deps: PassDeps, conversation: number, text: string): Promise<void> {
  const { journal } = deps;
  const begun =
    journal.find('pass-begin', (e) => e.conversation === conversation) ??
    journal.append({ kind: 'pass-begin', conversation, conflictsBefore: deps.conflicts().length });
  const parts = splitLines(text, Math.floor(deps.contextTokens / 2));
  const replies: string[] = [];
  for (const [i, part] of parts.entries()) replies.push(await consolidatePart(deps, conversation, i, parts.length, part));
  const end =
    journal.find('pass-end', (e) => e.conversation === conversation) ??
    journal.append({ kind: 'pass-end', conversation, at: deps.time().toISOString() });
  const message = `consolidation after conversation ${conversation}`;
  // Made before a stop, the commit leaves nothing to commit: it is known by its message.
  const changed = (await deps.history.commit(message, new Date(end.at))) || (await deps.history.lastMessage()) === message;
  const record = {
    at: end.at,
    conversation,
    parts: parts.length,
    reply: replies.join(' '),
    changed,
    conflictsBefore: begun.conflictsBefore,
    conflictsAfter: deps.conflicts().length,
  };
  const file = join(deps.dir, 'consolidations.jsonl');
  const records = loadJsonLinesForAppend<{ conversation?: unknown }>(file);
  if (records.some((r) => r.conversation === conversation)) return;
  mkdirSync(deps.dir, { recursive: true });
  appendLine(file, record);
}

/** One part of the pass: its reply, from the journal when it was given before a stop. */
async function consolidatePart(deps: PassDeps, conversation: number, partIndex: number, count: number, part: string): Promise<string> {
  const { journal } = deps;
  const replied = journal.find('pass-reply', (e) => e.conversation === conversation && e.part === partIndex);
  if (replied) return replied.text;
  const messages = journal.entries.flatMap((e) =>
    e.kind === 'pass' && e.conversation === conversation && e.part === partIndex ? e.messages : [],
  );
  if (messages.length === 0) {
    const guard = describeConflicts(deps.conflicts()) || 'The duplicate guard found no fact stored with two values.';
    const of = count > 1 ? ` (part ${partIndex + 1} of ${count})` : '';
    const opening: ChatMessage[] = [
      deps.system(notebookPrompt('consolidation')),
      {
        role: 'user',
        content: `${CONSOLIDATION_MARKER}\n\n# Duplicate guard\n\n${guard}\n\n# Transcript of conversation ${conversation}${of}\n\n${part}`,
      },
    ];
    journal.append({ kind: 'pass', conversation, part: partIndex, messages: opening });
    messages.push(...opening);
  }
  const reply = await deps.toolLoop(messages, (m) => journal.append({ kind: 'pass', conversation, part: partIndex, messages: [m] }));
  journal.append({ kind: 'pass-reply', conversation, part: partIndex, text: reply });
  return reply;
}

/** Lines grouped into parts of at most about `maxTokens` (a line longer than that is a part alone). */
export function splitLines(text: string, maxTokens: number): string[] {
  const parts: string[] = [];
  let part: string[] = [];
  let size = 0;
  for (const line of text.split('\n')) {
    const t = Math.ceil(line.length / 3);
    if (part.length && size + t > maxTokens) {
      parts.push(part.join('\n'));
      part = [];
      size = 0;
    }
    part.push(line);
    size += t;
  }
  if (part.length) parts.push(part.join('\n'));
  return parts;
}
