/** `mmb import`'s entry in the command table (`options.ts`): its datasets, selection and haystack options. */
import { DATASET_KEYS } from '../import/provenance';
import { EXIT, type CommandSpec } from './commandSpec';

export const IMPORT_COMMAND: CommandSpec = {
  name: 'import',
  synopsis: `${DATASET_KEYS.join('|')} <file> [--ids <id,…> | --types <type,…> | --sample N --seed S] [--haystack oracle|full|N]`,
  help:
    "a published dataset's items as benchmarks under benchmarks/ (a LongMemEval question, a LoCoMo conversation or a " +
    'MemoryAgentBench Conflict_Resolution row each), played through the chat (docs/datasets.md): the file (a JSON array ' +
    'or JSON Lines) is streamed, checked against the schema, and the same file and options write the same folders',
  options: [
    {
      name: '--ids',
      value: '<id,…>',
      example: 'e47becba,0a995998',
      help: 'these items only (LongMemEval question_id, LoCoMo sample_id, MemoryAgentBench metadata.source)',
    },
    {
      name: '--types',
      value: '<type,…>',
      example: 'knowledge-update',
      help: 'longmemeval: the questions of these types only (single-session-user, multi-session, knowledge-update, temporal-reasoning, …)',
    },
    { name: '--sample', value: 'N', example: '20', help: 'N items drawn at random (among --types, when given)' },
    { name: '--seed', value: 'S', example: '7', help: 'with --sample: the draw (default 1: fixed, never random)' },
    {
      name: '--haystack',
      value: 'oracle|full|N',
      example: 'oracle',
      help: "longmemeval: the sessions told: all of the item's (full, the default), the evidence sessions alone, or those and N others",
    },
  ],
  exits: [EXIT.done, EXIT.usage, EXIT.diskFull],
};
