/**
 * The echo hook's test (config.jsonc `hooks.drop_echoed_user_messages`): whether a message the
 * persona is about to send imitates the agent, or restates a message already said. Models that
 * play a user drift into writing the assistant's side ("The assistant replied: …"), into
 * paraphrasing its last reply as if it were their own, or into saying their last message again;
 * the agent then answers itself. The measure is a normalised token overlap, linear in the texts.
 */
import { isNumberToken, STOP_WORDS, words } from '../../../scenario/src/plainText';

/** Words of chat manners and filler on top of the function words: "Thanks, sure, got it!" says nothing new. */
const STOP = new Set([...STOP_WORDS, ...'thanks thank okay yes got sure well today one two lets'.split(' ')]);

/** The content words of a text: lower case, three letters or more (or any number), stop words left out. */
export function contentTokens(text: string): Set<string> {
  const content = words(text).filter((word) => isNumberToken(word) || word.length >= 3);
  return new Set(content.filter((word) => !STOP.has(word)));
}

/** Messages with fewer content words than this are never called echoes: "Thanks, noted!" is just manners. */
export const MIN_ECHO_TOKENS = 5;
/**
 * A message at least this share of whose content words are in the agent's last reply restates
 * the reply. A reaction or a new question shares a word or two with the reply (under 0.4 on the
 * stand-in's turns); a paraphrase is made of the reply's words with a few of its own (0.8 and
 * up); 0.7 sits between. Counted over her message only, so a long message of her own that
 * happens to hold a short reply's few words is not taken for its echo.
 */
export const AGENT_ECHO_SHARE = 0.7;
/**
 * Her own last message said again: the share of all the words of both (Jaccard) at or above this.
 * Higher than for the agent, since asking a check again with "could you search your notes?"
 * in front legitimately repeats the question: that adds three words, which keeps a question of
 * up to about fifteen content words under it.
 */
export const SELF_ECHO_SHARE = 0.85;

const IMITATION = /^\s*(the assistant replied|assistant\s*:|agent\s*:|🤖)/i;

/** The share of `part`'s words that are also in `whole`: 1 when `whole` holds them all. */
export function containedShare(part: ReadonlySet<string>, whole: ReadonlySet<string>): number {
  if (part.size === 0) return 0;
  let shared = 0;
  for (const word of part) if (whole.has(word)) shared++;
  return shared / part.size;
}

/** The Jaccard index of two word sets: shared words over all words. */
export function jaccard(left: ReadonlySet<string>, right: ReadonlySet<string>): number {
  let shared = 0;
  for (const word of left) if (right.has(word)) shared++;
  const union = left.size + right.size - shared;
  return union === 0 ? 0 : shared / union;
}

/** What the persona's message is compared with. */
export interface EchoContext {
  /** The agent's last reply, if any. */
  agentReply: string | undefined;
  /** Her own last message to the agent, when the agent answered it (a message it did not answer may be sent again). */
  ownLast: string | undefined;
}

/** Why `text` is an echo ("imitation", "agent", "self"), or undefined when it is her own new words. */
export function echoKind(text: string, context: EchoContext): 'imitation' | 'agent' | 'self' | undefined {
  if (!text.trim()) return undefined;
  if (IMITATION.test(text)) return 'imitation';
  const words = contentTokens(text);
  if (words.size < MIN_ECHO_TOKENS) return undefined;
  if (context.agentReply !== undefined && containedShare(words, contentTokens(context.agentReply)) >= AGENT_ECHO_SHARE) return 'agent';
  if (context.ownLast !== undefined && jaccard(words, contentTokens(context.ownLast)) >= SELF_ECHO_SHARE) return 'self';
  return undefined;
}
