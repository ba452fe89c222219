/**
 * A world from a spec and a seed: the persona, the topics and their sheets as they start, then
 * block after block planned and simulated. Block k draws only from its own generator, seeded by
 * (seed, k), and from the state the blocks before it left, so a world extended by a block starts
 * with exactly the blocks it had.
 */
import { seededRandom } from '../random';
import { LiveSheet, type Fact } from './facts';
import { blocksOf, layoutBlock, type BlockLayout } from './layout';
import type { PersonaModel, TopicModel, WorldSpec } from './model';
import { Phraser } from './phrasing';
import { planBlock, type BlockPlan } from './plan';
import { drawPersona } from './pools';
import { startSheet } from './sheets';
import { simulateBlock, type Happening, type WorldState } from './simulate';
import { shuffled } from './draw';
import { TOPICS } from './topics';

export interface World {
  spec: WorldSpec;
  seed: number;
  persona: PersonaModel;
  topics: readonly TopicModel[];
  /** The topics' sheets as the benchmark's files give them, before anything happens. */
  initial: readonly LiveSheet[];
  blocks: { layout: BlockLayout; plan: BlockPlan; happenings: Happening[] }[];
  state: WorldState;
}

/** The generator of block `block` (or, at -1, of the world's start). */
export function blockRandom(seed: number, block: number): () => number {
  return seededRandom((Math.imul(seed >>> 0, 2654435761) ^ Math.imul(block + 2, 40503)) >>> 0);
}

export function simulateWorld(spec: WorldSpec, seed: number, blocks = blocksOf(spec)): World {
  const random = blockRandom(seed, -1);
  const persona = drawPersona(random);
  const topics = chooseTopics(spec, random);
  const state: WorldState = {
    sheets: new Map(),
    used: new Map(),
    freeLabels: new Map(),
    retired: new Map(),
    initialFacts: new Set(),
    lastEventDay: new Map(),
    recentEvents: new Map(),
    multiDay: spec.shape === 'multi-day',
    random,
    phraser: new Phraser(random),
    topics,
  };
  for (const topic of topics) state.sheets.set(topic.sheet, startSheet(state, spec, topic));
  const initial = topics.map((topic) => snapshot(state.sheets.get(topic.sheet)!));
  for (const sheet of state.sheets.values())
    for (const category of sheet.categories) for (const fact of category.facts) state.initialFacts.add(fact);
  const fillerTopics = TOPICS.filter((topic) => !topics.includes(topic));
  const world: World = { spec, seed, persona, topics, initial, blocks: [], state };
  for (let block = 0; block < blocks; block++) {
    const blockRng = blockRandom(seed, block);
    state.random = blockRng;
    state.phraser = new Phraser(blockRng);
    const reserved = new Map<TopicModel, number>();
    const layout = layoutBlock(spec, block, blockRng);
    const plan = planBlock(
      {
        spec,
        topics,
        fillerTopics,
        random: blockRng,
        pickFact: (topic, kind, taken) => pickFact(state, topic, kind, taken, blockRng),
        hasFreeLabel: (topic, reserve) => {
          const left = (state.freeLabels.get(topic.sheet)?.length ?? 0) - (reserved.get(topic) ?? 0);
          if (reserve && left > 0) reserved.set(topic, (reserved.get(topic) ?? 0) + 1);
          return left > 0;
        },
      },
      layout,
    );
    world.blocks.push({ layout, plan, happenings: simulateBlock(state, plan) });
  }
  return world;
}

function chooseTopics(spec: WorldSpec, random: () => number): TopicModel[] {
  if (typeof spec.topics !== 'number') return spec.topics.map((name) => TOPICS.find((topic) => topic.sheet === name)!).filter(Boolean);
  return shuffled(TOPICS, random).slice(0, Math.max(1, Math.min(TOPICS.length, spec.topics)));
}

function pickFact(
  state: WorldState,
  topic: TopicModel,
  kind: Fact['kind'],
  taken: ReadonlySet<Fact>,
  random: () => number,
): Fact | undefined {
  const sheet = state.sheets.get(topic.sheet);
  const all = (sheet?.categories ?? []).flatMap((c) => c.facts);
  // A line another line is "the same as" is never picked: a RETIRE of it would leave the reference
  // pointing at a cancelled line, and the ledger's sum with no amount for it.
  const referents = new Set(all.flatMap((f) => (f.refersTo ? [f.refersTo] : [])));
  const facts = all.filter((f) => f.kind === kind && !taken.has(f) && !f.refersTo && !referents.has(f));
  return facts[Math.floor(random() * facts.length)];
}

/** A deep copy of a sheet's facts as they are now (the world goes on changing the live one). */
function snapshot(sheet: LiveSheet): LiveSheet {
  const copy = new LiveSheet(sheet.name, sheet.title);
  for (const category of sheet.categories)
    copy.categories.push({
      ...category,
      facts: category.facts.map((fact) => ({ ...fact, ...(fact.refersTo ? { refersTo: { ...fact.refersTo } } : {}) })),
    });
  return copy;
}
