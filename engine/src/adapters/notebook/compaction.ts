/**
 * The notebook's own context compaction: over the budget, the older turns are replaced by a summary
 * the model writes, and the newest half-budget stays verbatim. The summary shows the notebook's
 * state, since the message that showed it last may be among those cut.
 */
import type { ChatModel } from '../../models/chat';
import { countTokens } from '../../models/tokens';
import type { ChatMessage } from '../../protocol/chat';
import { COMPACTION_MARKER } from '../../protocol/notebook';
import { contextMessages, planCut, renderMessages, type Journal } from './journal';
import { notebookPrompt } from './prompts';

/** What a compaction reads of the notebook. */
export interface CompactionParts {
  model: ChatModel;
  journal: Journal;
  /** The budget of the context, in tokens (run key `notebook_context_tokens`). */
  contextTokens: number;
  /** The context as the model sees it now, system message first. */
  context: ChatMessage[];
  time: () => Date;
  /** The notebook's state as its system part shows it: notes and the head of the index. */
  state: () => string;
}

/** Compacts the context when it is over the budget and a cut is possible; the compaction is journaled. */
export async function compactIfOverBudget(parts: CompactionParts): Promise<void> {
  const all = parts.context;
  const tokensBefore = countTokens(all);
  if (tokensBefore <= parts.contextTokens) return;
  const messages = all.slice(1);
  const cut = planCut(messages, Math.floor(parts.contextTokens / 2));
  if (cut === undefined) return;
  const reply = await parts.model.complete({
    messages: [
      { role: 'system', content: notebookPrompt('compaction') },
      { role: 'user', content: `${COMPACTION_MARKER}\n\n${renderMessages(messages.slice(0, cut))}` },
    ],
  });
  parts.journal.append({ kind: 'usage', ...reply.usage });
  const entry = {
    kind: 'compaction' as const,
    at: parts.time().toISOString(),
    summary: (reply.message.content ?? '').trim(),
    keep: messages.length - cut,
    tokensBefore,
    tokensAfter: 0,
    state: parts.state(),
  };
  entry.tokensAfter = countTokens([all[0]!, ...contextMessages([...parts.journal.current(), entry])]);
  parts.journal.append(entry);
}
