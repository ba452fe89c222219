/**
 * What counts as instruction text in a message of the stand-in persona (issue #32): words the
 * benchmark's author wrote for her, not words she would say to an assistant. Shared by the test that
 * measures every bundled benchmark and the one that reads the demo's report and transcripts.
 */

/** Openings of a direction to her ("Say that …", "Tell the `move` sheet", "Ask the assistant to …"). */
const INSTRUCTION_VERBS = [
  'say',
  'tell',
  'mention',
  'ask',
  'introduce',
  'give',
  'explain',
  'share',
  'report',
  'talk',
  'chat',
  'discuss',
  'bring up',
  'return to',
  'go on to',
  'switch topics',
  'start with',
  'complain',
  'grumble',
  'open',
  'name',
  'make small talk',
  'catch up',
  'describe',
  'update',
  'delete',
  'add to',
  'remove',
  'strike',
  'log',
  'correct yourself',
  'admit',
  'cancel',
  'cross',
  'write',
  "don['’]t",
  'do not',
  'never',
];
const INSTRUCTION_START = new RegExp(`^(?:${INSTRUCTION_VERBS.join('|')})\\b`, 'i');

/**
 * A fact id where a fact id stands: after "fact(s)" or a sheet's `#`, or an `N.M` at a message's start
 * or before a capital ("1.1 Sam Okafor"), as a raw fact line has it. A decimal with its unit after it
 * ("8.4 km", "4.2 m²", "3.0 h") is no id.
 */
const FACT_ID = /\bfacts?\s+\d+\.\d+\b|#\d+\.\d+\b|(?:^|[\s(])\d+\.\d+(?=\s+\p{Lu}|\s*$|[,;:)])/u;

/** Why a message of hers holds instruction text, or undefined when it holds none. */
export function instructionLeak(message: string): string | undefined {
  const sentences = message.split(/(?<=[.!?])\s+/);
  const opening = sentences.find((sentence) => INSTRUCTION_START.test(sentence.replace(/^["“]/, '')));
  if (opening !== undefined) return `instruction verb: ${opening.slice(0, 60)}`;
  if (message.includes('`')) return 'backtick';
  if (/\b[\w-]+#\d+\.\d+\b|\bthe\s+[\w-]+\s+sheet\b/i.test(message)) return 'sheet reference';
  if (FACT_ID.test(message)) return 'fact id';
  if (/correct answer|❓|🪤/i.test(message)) return 'check or trap line';
  if (/\bthe assistant\b/i.test(message)) return 'speaks of "the assistant"';
  return undefined;
}

/** Phrases of a direction that must never reach an agent, nor a report quoting its answers. */
export const INSTRUCTION_PHRASES = [
  'Say that',
  'Say you',
  'Tell the',
  'Mention that',
  'Ask the assistant',
  'Introduce yourself',
  'one at a time',
  'From what you told me: Say',
  'From what you told me: Tell',
  'From what you told me: Mention',
];
