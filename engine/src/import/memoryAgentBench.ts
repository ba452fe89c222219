/**
 * MemoryAgentBench's rows (Hugging Face `ai-hyz/MemoryAgentBench`, exported with `datasets`): the
 * schema a row is checked against, the split a row's `metadata.source` belongs to (only
 * Conflict_Resolution is played), the numbered facts of its context, and, for each question, the
 * fact told last that holds an accepted answer and the earlier facts of the same subject and
 * relation that it overrides. Pure: a row in, a plan out; `memoryAgentBenchRender.ts` writes it.
 */
import { STOP_WORDS, words } from '../../../scenario/src/plainText';
import { firstDifference, foundName, type Shape, type ShapeDifference } from './shape';

export interface MabRow {
  context: string;
  questions: string[];
  /** Per question, the accepted answers. */
  answers: string[][];
  /** A struct whose fields are null where the source has none (`demo`, `keypoints`, `question_ids`, …). */
  metadata: { source: string; qa_pair_ids?: unknown } & Record<string, unknown>;
}

/** The fields of a row, from the dataset card's `dataset_info` (the others of `metadata` may be null, and are not read). */
export const MAB_SHAPE: Shape = {
  fields: {
    context: 'string',
    questions: { list: 'string' },
    answers: { list: { list: 'string' } },
    metadata: { fields: { source: 'string' } },
  },
};

/** The dataset's splits and the sources of each, as the card lists them; a row names its source, not its split. */
export const MAB_SPLITS: readonly { split: string; sources: RegExp }[] = [
  { split: 'Accurate_Retrieval', sources: /^(?:ruler_qa|eventqa|longmemeval)/ },
  { split: 'Test_Time_Learning', sources: /^(?:icl_|recsys)/ },
  { split: 'Long_Range_Understanding', sources: /^(?:infbench|detective)/ },
  { split: 'Conflict_Resolution', sources: /^factconsolidation_/ },
];
export const PLAYED_SPLIT = 'Conflict_Resolution';

/** The question types of the played split, as its sources name them (`_sh_`, `_mh_`), and the check each becomes. */
export const MAB_HOPS = {
  'single-hop': { source: /_sh_/, check: 'RECALL' },
  'multi-hop': { source: /_mh_/, check: 'AGG' },
} as const;
export type MabHop = keyof typeof MAB_HOPS;

export function splitOf(source: string): string | undefined {
  return MAB_SPLITS.find((entry) => entry.sources.test(source))?.split;
}

export function hopOf(source: string): MabHop | undefined {
  return (Object.keys(MAB_HOPS) as MabHop[]).find((hop) => MAB_HOPS[hop].source.test(source));
}

export interface MabFact {
  /** Its number in the list: a newer fact has a larger one. */
  serial: number;
  text: string;
}

const FACT_LINE = /^\s*(\d{1,9})\.\s+(\S.*?)\s*$/;

/** The numbered facts of a context (`0. The capital of X is Y.` a line; the lead-in is skipped), newest last. */
export function factsOf(context: string): MabFact[] {
  const facts = context.split('\n').flatMap((line) => {
    const m = FACT_LINE.exec(line);
    return m ? [{ serial: Number(m[1]), text: m[2] ?? '' }] : [];
  });
  return facts.sort((a, b) => a.serial - b.serial);
}

/** The first difference from the schema, or from what the fields must agree on; a row of another split is no difference. */
export function mabDifference(value: unknown): ShapeDifference | undefined {
  const shaped = firstDifference(value, MAB_SHAPE);
  if (shaped) return shaped;
  const row = value as MabRow;
  const count = row.questions.length;
  if (row.answers.length !== count)
    return { field: 'answers', expected: `${count} lists of accepted answers, one per question`, found: `${row.answers.length}` };
  const empty = row.answers.findIndex((accepted) => !accepted.some((answer) => answer.trim() !== ''));
  if (empty >= 0) return { field: `answers[${empty}]`, expected: 'at least one accepted answer', found: 'none' };
  const ids = row.metadata.qa_pair_ids;
  if (ids !== undefined && ids !== null) {
    const shapedIds = firstDifference(ids, { list: 'string' }, 'metadata.qa_pair_ids');
    if (shapedIds) return shapedIds;
    if ((ids as string[]).length !== count)
      return { field: 'metadata.qa_pair_ids', expected: `${count} ids, one per question`, found: `${(ids as string[]).length}` };
  }
  const split = splitOf(row.metadata.source);
  if (split === undefined)
    return {
      field: 'metadata.source',
      expected: `a source of ${MAB_SPLITS.map((entry) => entry.split).join(', ')} (factconsolidation_sh_6k, …)`,
      found: foundName(row.metadata.source),
    };
  if (split !== PLAYED_SPLIT) return undefined;
  if (hopOf(row.metadata.source) === undefined)
    return {
      field: 'metadata.source',
      expected: 'factconsolidation_sh_… or factconsolidation_mh_…',
      found: foundName(row.metadata.source),
    };
  if (factsOf(row.context).length === 0)
    return { field: 'context', expected: 'numbered facts, one a line ("0. …")', found: foundName(row.context) };
  return undefined;
}

/** Why a row that fits the schema is not imported: it belongs to a split that is not played. */
export function mabRefusal(value: unknown): string | undefined {
  const source = (value as MabRow).metadata.source;
  const split = splitOf(source);
  if (split === undefined || split === PLAYED_SPLIT) return undefined;
  return (
    `a row of the ${split} split (metadata.source ${JSON.stringify(source.slice(0, 60))}): ` +
    `only ${PLAYED_SPLIT} rows are imported (docs/datasets.md says why).`
  );
}

/** What a question asks for in the list: the fact that holds it, and the earlier facts it overrides. */
export interface QuestionPlan {
  /** The index in the list's facts of the newest fact holding an accepted answer; none when no fact holds one. */
  holding?: number;
  /** The earlier facts of the same subject and relation (indices, oldest first): each a STALE write. Empty: no trap. */
  overridden: number[];
}

/** A fact's text without its closing full stop, for comparing its end with an answer. */
const body = (text: string) => text.replace(/[\s.]+$/, '');
const contentWords = (text: string) => new Set(words(text).filter((word) => !STOP_WORDS.has(word)));
/** A subject and relation of at least this many words ("The chairperson of Fatah is") tells one thing from another. */
const MIN_PREFIX_WORDS = 3;

function holds(text: string, answer: string): boolean {
  const wanted = body(answer).toLowerCase();
  if (wanted === '') return false;
  const own = text.toLowerCase();
  for (let at = own.indexOf(wanted); at >= 0; at = own.indexOf(wanted, at + 1)) {
    const before = own[at - 1];
    const after = own[at + wanted.length];
    if ((before === undefined || /[^\p{L}\p{N}]/u.test(before)) && (after === undefined || /[^\p{L}\p{N}]/u.test(after))) return true;
  }
  return false;
}

/** The fact's subject and relation when it ends with one of the answers: its text before the answer. */
function prefixBefore(text: string, accepted: readonly string[]): string | undefined {
  const own = body(text);
  for (const answer of accepted) {
    const value = body(answer);
    if (value !== '' && own.toLowerCase().endsWith(value.toLowerCase()) && holds(own.slice(-value.length - 1), value)) {
      const prefix = own.slice(0, own.length - value.length).trimEnd();
      return words(prefix).length >= MIN_PREFIX_WORDS ? prefix : undefined;
    }
  }
  return undefined;
}

/**
 * A question's plan. The holding fact is the newest that holds an accepted answer (for a single-hop
 * question, among those sharing most words with the question). It overrides the earlier facts that
 * say the same subject and relation (the same text up to its value) with a value no answer accepts,
 * and only when it is the newest of them and the question names that subject: then the link is the
 * data's own, not a guess. A multi-hop question names no subject of its last hop, so it gets none.
 */
export function planQuestion(facts: readonly MabFact[], question: string, accepted: readonly string[], hop: MabHop): QuestionPlan {
  let candidates = facts.flatMap((fact, index) => (accepted.some((answer) => holds(fact.text, answer)) ? [index] : []));
  const asked = contentWords(question);
  const shared = (index: number) => [...contentWords(facts[index]!.text)].filter((word) => asked.has(word)).length;
  const best = Math.max(0, ...candidates.map(shared));
  if (hop === 'single-hop' && best > 0) candidates = candidates.filter((index) => shared(index) === best);
  const holding = candidates.at(-1);
  if (holding === undefined) return { overridden: [] };
  const prefix = hop === 'single-hop' && best > 0 ? prefixBefore(facts[holding]!.text, accepted) : undefined;
  if (prefix === undefined) return { holding, overridden: [] };
  const same = facts.flatMap((fact, index) => (index !== holding && fact.text.startsWith(`${prefix} `) ? [index] : []));
  const later = same.some((index) => index > holding);
  const overridden = same.filter((index) => !accepted.some((answer) => holds(facts[index]!.text, answer)));
  return { holding, overridden: later ? [] : overridden };
}
