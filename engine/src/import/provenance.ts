/**
 * Where an imported benchmark comes from, said once for every importer: each dataset's name,
 * licence, citation and address, the title that marks a benchmark as imported (the report reads
 * it back to add the dataset's metric), and the README every imported benchmark carries: the
 * dataset, its licence and citation, the input file's name and sha256, and the import's options;
 * its benchmark.json says so in a comment, and its files are listed in name order, so the same
 * item writes the same folder.
 */

export interface DatasetInfo {
  /** The command's word: `mmb import longmemeval`. */
  key: string;
  /** As the field names it, and as a benchmark's title starts. */
  name: string;
  licence: string;
  citation: string;
  url: string;
  /** What a folder plays of the dataset, and how, as its README says it. */
  played: string;
}

const RECORDED_USER = 'the persona tells the agent what the recorded user said, at the recorded dates, and the agent answers as itself';

export const DATASETS = {
  longmemeval: {
    key: 'longmemeval',
    name: 'LongMemEval',
    licence: 'MIT',
    citation:
      'Di Wu, Hongwei Wang, Wenhao Yu, Yuwei Zhang, Kai-Wei Chang, Dong Yu. LongMemEval: Benchmarking Chat Assistants on ' +
      'Long-Term Interactive Memory. ICLR 2025. arXiv:2410.10813',
    url: 'https://github.com/xiaowu0162/LongMemEval',
    played: `a question of the dataset played through the chat, on-policy: ${RECORDED_USER}`,
  },
  locomo: {
    key: 'locomo',
    name: 'LoCoMo',
    licence: 'CC BY-NC 4.0',
    citation:
      'Adyasha Maharana, Dong-Ho Lee, Sergey Tulyakov, Mohit Bansal, Francesco Barbieri, Yuwei Fang. Evaluating Very ' +
      'Long-Term Conversational Memory of LLM Agents. ACL 2024. arXiv:2402.17753',
    url: 'https://github.com/snap-research/locomo',
    played: `a conversation of the dataset played through the chat, on-policy: ${RECORDED_USER}`,
  },
  memoryagentbench: {
    key: 'memoryagentbench',
    name: 'MemoryAgentBench',
    licence: 'MIT',
    citation:
      'Yuanzhe Hu, Yu Wang, Julian McAuley. Evaluating Memory in LLM Agents via Incremental Multi-Turn Interactions. ' +
      'ICLR 2026. arXiv:2507.05257',
    url: 'https://huggingface.co/datasets/ai-hyz/MemoryAgentBench',
    played:
      'a row of its Conflict_Resolution split played through the chat, on-policy: the persona tells the agent the ' +
      "row's numbered facts in their order, a later fact replacing an earlier one, and the agent answers as itself",
  },
} as const satisfies Record<string, DatasetInfo>;

export type DatasetKey = keyof typeof DATASETS;
export const DATASET_KEYS = Object.keys(DATASETS) as DatasetKey[];

/** The separator of an imported benchmark's title: `LongMemEval e47becba · knowledge-update`. */
const MARK_SEPARATOR = ' · ';

/** The title that marks an imported benchmark: the dataset, the item's id, its type in the dataset's words. */
export function importedTitle(dataset: DatasetInfo, id: string, type: string): string {
  return `${dataset.name} ${id}${MARK_SEPARATOR}${type}`;
}

export interface DatasetMark {
  dataset: string;
  id: string;
  type: string;
}

/** The dataset, id and type an imported benchmark's title gives; undefined for any other title. */
export function datasetMarkOf(title: string): DatasetMark | undefined {
  for (const dataset of Object.values(DATASETS) as DatasetInfo[]) {
    const prefix = `${dataset.name} `;
    if (!title.startsWith(prefix)) continue;
    const rest = title.slice(prefix.length);
    const at = rest.indexOf(MARK_SEPARATOR);
    if (at <= 0) continue;
    const type = rest.slice(at + MARK_SEPARATOR.length);
    if (/^[\w() -]{1,60}$/.test(type) && !/\s/.test(rest.slice(0, at))) return { dataset: dataset.name, id: rest.slice(0, at), type };
  }
  return undefined;
}

export interface Provenance {
  dataset: DatasetInfo;
  /** The input file's base name: a path would differ between machines and make the bytes differ. */
  fileName: string;
  sha256: string;
  /** The options as the command normalised them, in a fixed order. */
  options: string;
}

/** The README of an imported benchmark: what it is, where it comes from, how it was played from the dataset. */
export function importedReadme(title: string, provenance: Provenance, about: readonly string[]): string {
  const { dataset } = provenance;
  return [
    `# ${title}`,
    '',
    `Imported from ${dataset.name} by \`mmb import ${dataset.key}\`: ${dataset.played}.`,
    'Each check is graded like any other; docs/datasets.md says how to set the result beside published figures.',
    '',
    ...about,
    '',
    '## Provenance',
    '',
    `- Dataset: ${dataset.name} (${dataset.url}), licence ${dataset.licence}. Nothing of the dataset ships with MarathonMemBench;`,
    '  this folder holds text of the file named below, under its licence.',
    `- Citation: ${dataset.citation}.`,
    `- Input file: \`${provenance.fileName}\`, sha256 \`${provenance.sha256}\`.`,
    `- Options: \`${provenance.options}\`. The same file and options write the same folder, byte for byte.`,
    '',
  ].join('\n');
}

/** An imported folder's benchmark.json: the manifest under a comment naming the command and where the provenance is. */
export function importedManifest(dataset: DatasetInfo, body: Readonly<Record<string, unknown>>): string {
  const comment = `// Imported by \`mmb import ${dataset.key}\`: README.md names the file, its sha256 and the options.`;
  return `${comment}\n${JSON.stringify(body, null, 2)}\n`;
}

/** A folder's files by name: written in any order, listed (and so written) in one. */
export function inNameOrder(files: ReadonlyMap<string, string>): Map<string, string> {
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
