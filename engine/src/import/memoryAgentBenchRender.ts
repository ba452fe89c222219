/**
 * One MemoryAgentBench Conflict_Resolution row written as a benchmark folder: the numbered facts of
 * its context told by the persona in their order, a part of the list a phase and its facts that
 * part's sheet (which the phase must tell whole); a fact the plan finds overriding earlier ones is
 * told as an update of the earliest, under a STALE trap aimed at the questions it answers; the
 * questions are the checks of a last chapter, after a new conversation. There are no dates: the
 * list's order is its only time. Pure: same row, same bytes.
 */
import { factsOf, hopOf, MAB_HOPS, planQuestion, type MabFact, type MabRow } from './memoryAgentBench';
import { phasesText } from './phaseSplit';
import { DATASETS, importedManifest, importedReadme, importedTitle, inNameOrder, type Provenance } from './provenance';
import { MAX_QUESTION_CHARS, safeName, safeQuoted, safeText } from './safeText';

/** The facts of the list a phase tells: some 40 persona turns at the stand-in's three facts a message. */
export const FACTS_PER_PART = 25;
/** The phases of a chapter: a 262k-token row (some 20,000 facts) is some 40 chapter files, not one long one. */
export const PARTS_PER_CHAPTER = 20;

export interface RenderedRow {
  name: string;
  files: Map<string, string>;
  /** Each question's check: its type, and whether a STALE trap aims at it (its fact told as an update of an earlier one). */
  checks: { type: string; trapped: boolean }[];
}

/** An earlier fact and the later ones that override it, in order, and the checks that ask for the last. */
interface Chain {
  root: number;
  updates: number[];
  checks: string[];
}

/**
 * The chains of updates the questions' plans find, each fact in at most one: a plan whose facts
 * another chain holds with other facts is dropped (no trap), for the two readings disagree.
 */
function chainsOf(row: MabRow, facts: readonly MabFact[]): Map<number, Chain> {
  const hop = hopOf(row.metadata.source) ?? 'single-hop';
  const chains = new Map<number, Chain>();
  const chainOf = new Map<number, number>();
  row.questions.forEach((question, q) => {
    const plan = planQuestion(facts, question, row.answers[q] ?? [], hop);
    if (plan.holding === undefined || plan.overridden.length === 0) return;
    const [root, ...rest] = [...plan.overridden, plan.holding];
    const members = [root!, ...rest];
    const known = chains.get(root!);
    const same = known && known.updates.join() === rest.join();
    if (!same && members.some((index) => chainOf.has(index))) return;
    const chain = known ?? { root: root!, updates: rest, checks: [] };
    chains.set(root!, chain);
    for (const index of members) chainOf.set(index, root!);
    chain.checks.push(`1.${q + 1}`);
  });
  return chains;
}

/** The answers a check accepts: the first, and the others the dataset also accepts. */
function answerText(accepted: readonly string[]): string {
  const distinct = [...new Map(accepted.filter((a) => a.trim() !== '').map((a) => [a.trim().toLowerCase(), a.trim()])).values()];
  const [first, ...others] = distinct;
  const text = safeText(`${first ?? ''}${others.length ? ` (also accepted: ${others.join('; ')})` : ''}`, MAX_QUESTION_CHARS);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

export function renderMemoryAgentBench(row: MabRow, provenance: Provenance): RenderedRow {
  const facts = factsOf(row.context);
  const hop = hopOf(row.metadata.source) ?? 'single-hop';
  const checkType = MAB_HOPS[hop].check;
  const chains = chainsOf(row, facts);
  const updateOf = new Map([...chains.values()].flatMap((chain) => chain.updates.map((index) => [index, chain] as const)));
  const parts = Math.ceil(facts.length / FACTS_PER_PART);
  const width = Math.max(2, String(parts).length);
  const sheetOf = (p: number) => `facts${String(p + 1).padStart(width, '0')}`;
  const refs = new Map<number, { sheet: string; id: string }>();
  const files = new Map<string, string>();
  const sheets: string[] = [];
  const phases: string[][] = [];
  for (let p = 0; p < parts; p++) {
    const range = Array.from({ length: Math.min(FACTS_PER_PART, facts.length - p * FACTS_PER_PART) }, (_, k) => p * FACTS_PER_PART + k);
    const told = range.filter((index) => !updateOf.has(index));
    const sheet = told.length ? sheetOf(p) : undefined;
    told.forEach((index, k) => refs.set(index, { sheet: sheetOf(p), id: `1.${k + 1}` }));
    if (sheet) {
      sheets.push(`${sheet}.md`);
      files.set(`${sheet}.md`, sheetText(facts, range, told, p));
    }
    phases.push(partPhase({ facts, range, sheet, p, parts, updateOf, refs }));
  }
  const chapters: string[] = [];
  const chapterWidth = Math.max(2, String(Math.ceil(parts / PARTS_PER_CHAPTER)).length);
  for (let c = 0; c * PARTS_PER_CHAPTER < parts; c++) {
    const file = `list${String(c + 1).padStart(chapterWidth, '0')}.md`;
    chapters.push(file);
    const from = c * PARTS_PER_CHAPTER;
    const own = phases.slice(from, from + PARTS_PER_CHAPTER);
    const heading = `# The list, parts ${from + 1} to ${from + own.length} of ${parts}`;
    const about = 'The persona tells the numbered facts of the row in their order; the recorded list has no dates, so no phase has any.';
    files.set(file, [heading, '', about, '', ...own.flatMap((phase, k) => [...(k ? [''] : []), ...phase]), ''].join('\n'));
  }
  chapters.push('questions.md');
  files.set('questions.md', questionsChapter(row, checkType));
  const source = safeText(row.metadata.source, 80).replace(/\s/g, '_');
  const title = importedTitle(DATASETS.memoryagentbench, source, hop);
  const body = { title, chapters, sheets };
  files.set('benchmark.json', importedManifest(DATASETS.memoryagentbench, body));
  files.set('instructions.md', INSTRUCTIONS);
  const aimed = new Set([...chains.values()].flatMap((chain) => chain.checks));
  const checks = row.questions.map((_, q) => ({ type: checkType, trapped: aimed.has(`1.${q + 1}`) }));
  const about = aboutLines(row, { facts: facts.length, parts, checkType, hop, trapped: aimed.size });
  files.set('README.md', importedReadme(title, provenance, about));
  return { name: `memoryagentbench-${safeName(row.metadata.source)}`, files: inNameOrder(files), checks };
}

function sheetText(facts: readonly MabFact[], range: readonly number[], told: readonly number[], p: number): string {
  const [first, last] = [facts[range[0]!]!.serial, facts[range.at(-1)!]!.serial];
  return [
    `# Facts ${first} to ${last} of the list`,
    '',
    `## 1. Told in part ${p + 1}`,
    ...told.map((index, k) => `1.${k + 1} ${safeText(facts[index]!.text)}`),
    '',
  ].join('\n');
}

interface PartContext {
  facts: readonly MabFact[];
  range: readonly number[];
  sheet: string | undefined;
  p: number;
  parts: number;
  updateOf: ReadonlyMap<number, Chain>;
  refs: ReadonlyMap<number, { sheet: string; id: string }>;
}

/** A part's phase: its sheet told, then each update it holds said and made, each under its STALE trap. */
function partPhase(context: PartContext): string[] {
  const { facts, range, sheet, p, updateOf, refs } = context;
  const lines: string[] = [];
  if (p === 0)
    lines.push(
      'Say that you will tell the assistant many facts of your world over this conversation, to remember: some may differ ' +
        'from what it knows, and a fact you tell later replaces an earlier one about the same thing.',
    );
  if (sheet) lines.push(`Tell the \`${sheet}\` sheet: the next facts of your list, in their order, in your own words.`);
  const traps: string[] = [];
  for (const index of range) {
    const chain = updateOf.get(index);
    const root = chain && refs.get(chain.root);
    if (!chain || !root) continue;
    const words = safeQuoted(facts[index]!.text);
    lines.push(`You say: "${words}". Then update \`${root.sheet}\` fact ${root.id} to "${words}".`);
    const [was, now] = [facts[chain.root]!.serial, facts[index]!.serial];
    traps.push(
      `🪤 STALE ${root.sheet}#${root.id} → ${chain.checks.join(', ')} — fact ${now} of the list overrides fact ${was}: ` +
        'the same subject and relation',
    );
  }
  const [first, last] = [facts[range[0]!]!.serial, facts[range.at(-1)!]!.serial];
  return phasesText({
    title: `Part ${p + 1} of ${context.parts}: facts ${first} to ${last}`,
    lines,
    newSession: false,
    ...(sheet ? { sheet } : {}),
    traps,
  });
}

function questionsChapter(row: MabRow, checkType: string): string {
  const checks = row.questions.flatMap((question, q) => [
    `❓ 1.${q + 1} [${checkType}] ${safeText(question, MAX_QUESTION_CHARS)}`,
    `     Correct answer: ${answerText(row.answers[q] ?? [])}`,
  ]);
  const ask =
    'Say openly that you would like to check what the assistant remembers of the facts you told. Ask the questions below ' +
    'one at a time, each as of the latest facts you told, and grade each answer.';
  return [
    '# The questions',
    '',
    `${DATASETS.memoryagentbench.name} asks them after the whole list, in a new conversation.`,
    '',
    ...phasesText({ title: 'The questions', lines: [ask], newSession: true, after: ['', ...checks] }),
    '',
  ].join('\n');
}

const INSTRUCTIONS = [
  'You keep a long list of facts about your world, numbered in the order you learned them. Some differ from the real world:',
  'in your world they are true. A fact later in the list replaces an earlier one about the same thing. Over this',
  'conversation you tell your personal assistant the list, in its order, as each phase gives it: in your own words, a',
  'few facts a message, keeping every name, number and detail exactly. When a line gives a fact that replaces one you',
  'told before, tell it as news and update the sheet as the line says. Add no facts of your own, and never correct the',
  'list by what you know of the real world. Reply briefly when the assistant asks something. Never mention a test or a',
  'dataset until the last phase, where you ask the questions and grade the answers by the facts you told last.',
  '',
].join('\n');

function aboutLines(row: MabRow, figures: { facts: number; parts: number; checkType: string; hop: string; trapped: number }): string[] {
  const ids = Array.isArray(row.metadata.qa_pair_ids) ? ` (\`qa_pair_ids\` ${safeText(String(row.metadata.qa_pair_ids[0]), 80)}, …)` : '';
  const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
  const article = /^[AEIOU]/.test(figures.checkType) ? 'an' : 'a';
  return [
    '## The row',
    '',
    `- Source ${safeText(row.metadata.source, 80)} of the Conflict_Resolution split: ${figures.hop} questions.`,
    `- ${count(figures.facts, 'numbered fact')} told in ${count(figures.parts, 'part')} of up to ${FACTS_PER_PART}, a phase each, each`,
    "  part's facts a sheet (`facts01.md`, …) the phase must tell whole; there are no dates, the list's order is its time.",
    `- ${count(row.questions.length, 'question')} in questions.md, each ${article} ${figures.checkType} check: \`1.K\` is the row's`,
    `  K-th question${ids}.`,
    `- ${figures.trapped} of them ask for a fact told as an update of an earlier fact of the same subject and relation,`,
    '  under a STALE trap; the others are checks alone (docs/datasets.md says when an earlier fact is found).',
  ];
}
