/**
 * LoCoMo's conversations (`locomo10.json`): the schema a file is checked against, the QA categories
 * and the check type each becomes, and a conversation's sessions in order. A conversation is a
 * dialogue of two people; the persona is the first speaker (`speaker_a`), who tells the assistant her
 * side and what the other said, as a person tells an assistant about her week. Pure.
 */
import { firstDifference, foundName, type Shape, type ShapeDifference } from './shape';
import { parseDatasetMoment } from './timeline';

export interface LocomoTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

export interface LocomoQa {
  question: string;
  answer?: string | number;
  adversarial_answer?: string;
  evidence: string[];
  category: number;
}

export interface LocomoItem {
  sample_id: string | number;
  conversation: Record<string, unknown> & { speaker_a: string; speaker_b: string };
  qa: LocomoQa[];
}

/** The fields of a conversation, from the dataset's release; the sessions (`session_N`, `session_N_date_time`) are checked apart. */
export const LOCOMO_SHAPE: Shape = {
  fields: {
    sample_id: 'string or number',
    conversation: { fields: { speaker_a: 'string', speaker_b: 'string' } },
    qa: {
      list: {
        fields: {
          question: 'string',
          answer: 'string or number',
          adversarial_answer: 'string',
          evidence: { list: 'string' },
          category: 'number',
        },
        optional: ['answer', 'adversarial_answer'],
      },
    },
  },
};

const TURN_SHAPE: Shape = {
  list: { fields: { speaker: 'string', dia_id: 'string', text: 'string', blip_caption: 'string' }, optional: ['blip_caption'] },
};

/** The categories as the release's evaluation code reads them, and the check type each is played as. */
export const LOCOMO_CATEGORIES: Readonly<Record<number, { name: string; check: string }>> = {
  1: { name: 'multi-hop', check: 'AGG' },
  2: { name: 'temporal', check: 'SERIES' },
  3: { name: 'open-domain', check: 'RECALL' },
  4: { name: 'single-hop', check: 'RECALL' },
  5: { name: 'adversarial', check: 'VOID' },
};

export interface LocomoSession {
  number: number;
  moment: number;
  turns: LocomoTurn[];
}

/** The sessions of a conversation, by their number (`session_2` before `session_10`). */
export function locomoSessions(item: LocomoItem): LocomoSession[] {
  return Object.keys(item.conversation)
    .flatMap((key) => {
      const m = /^session_(\d+)$/.exec(key);
      return m ? [Number(m[1])] : [];
    })
    .sort((a, b) => a - b)
    .map((number) => ({
      number,
      moment: parseDatasetMoment(String(item.conversation[`session_${number}_date_time`])) ?? 0,
      turns: item.conversation[`session_${number}`] as LocomoTurn[],
    }));
}

/** The first difference from the schema, or from what the sessions and categories must be. */
export function locomoDifference(value: unknown): ShapeDifference | undefined {
  const shaped = firstDifference(value, LOCOMO_SHAPE);
  if (shaped) return shaped;
  const item = value as LocomoItem;
  const sessions = Object.keys(item.conversation).filter((key) => /^session_\d+$/.test(key));
  if (sessions.length === 0) return { field: 'conversation.session_1', expected: 'a list of turns', found: foundName(undefined) };
  for (const key of sessions) {
    const turns = firstDifference(item.conversation[key], TURN_SHAPE, `conversation.${key}`);
    if (turns) return turns;
    const date = item.conversation[`${key}_date_time`];
    if (typeof date !== 'string' || parseDatasetMoment(date) === undefined)
      return { field: `conversation.${key}_date_time`, expected: 'a date such as "1:56 pm on 8 May, 2023"', found: foundName(date) };
  }
  for (const [index, qa] of item.qa.entries())
    if (!LOCOMO_CATEGORIES[qa.category])
      return { field: `qa[${index}].category`, expected: 'a category from 1 to 5', found: foundName(qa.category) };
  return undefined;
}
