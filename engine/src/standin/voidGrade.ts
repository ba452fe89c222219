/**
 * The stand-in grader on a VOID check: 10 when the reply says it was never told or does not know,
 * 0 when it gives a value. A value said as context beside "you never told me" ("you mentioned the
 * rent, £950, but not the deposit") is no answer to the question; one offered as a guess is.
 */
import { quantities } from './quantities';
import { saysNeverTold, sentenceAround } from './replyText';

/** Words that offer a value as a guess at what was never told. */
const GUESS_WORDS =
  'probably likely likelier i\\s+think i\\s+believe i\\s+guess maybe perhaps usually typically normally would\\s+be should\\s+be';
const GUESS = new RegExp(
  String.raw`\b(?:${GUESS_WORDS.split(' ').join('|')}|estimate|guessing)\b|\b(?:about|around|roughly|approximately)\s+[$£€]?\d`,
  'i',
);

export function gradeVoid(text: string): { score: number; comment: string } {
  const values = quantities(text);
  const neverTold = saysNeverTold(text);
  const guessed = values.find((value) => !neverTold || GUESS.test(sentenceAround(text, value.start)));
  if (guessed) return { score: 0, comment: `gave a value (${guessed.text}) for something never said` };
  return neverTold ? { score: 10, comment: 'said it was never told' } : { score: 0, comment: 'did not say it was never told' };
}
