/**
 * The generated folder's README (what the world is, its spec and seed, its counts, how to
 * regenerate and extend it) and its `world.jsonc`, the spec `mmb generate --extend` reads back.
 */
import { worldJsoncText } from './spec';
import type { World } from './world';

/** world.jsonc, in the one form `parseWorldSpec` reads back (spec.ts). */
export function renderSpecFile(world: World): string {
  return worldJsoncText({ spec: world.spec, seed: world.seed, blocks: world.blocks.length });
}

/** What a generated folder holds, counted in its files: the README and `mmb generate` say the same. */
export interface WorldCounts {
  sheetFacts: number;
  /** Facts told as the world goes on (events, late additions). */
  added: number;
  checks: number;
  traps: number;
  /** Chapter files: chapters, or weeks and their parts. */
  chapters: number;
  sessionSwitches: number;
}

export function worldCounts(world: World, files: ReadonlyMap<string, string>): WorldCounts {
  const count = (pattern: RegExp) => [...files.values()].reduce((sum, text) => sum + (text.match(pattern)?.length ?? 0), 0);
  return {
    sheetFacts: world.initial.reduce((sum, sheet) => sum + sheet.categories.reduce((n, c) => n + c.facts.length, 0), 0),
    added: count(/^Add to the `/gm),
    checks: count(/^❓/gmu),
    traps: count(/^🪤/gmu),
    chapters: [...files.keys()].filter((name) => /^(?:chapter|week)\d+(?:-\d+)?\.md$/.test(name)).length,
    sessionSwitches: count(/bench\.newSession\(\)/g),
  };
}

export function renderReadme(world: World, files: ReadonlyMap<string, string>): string {
  const { spec, persona } = world;
  const { sheetFacts, added, checks, traps, sessionSwitches: switches } = worldCounts(world, files);
  const slots = world.blocks.reduce((sum, block) => sum + block.layout.slots.length, 0);
  const shape =
    spec.shape === 'multi-day'
      ? `${slots} days on virtual time from ${spec.start.slice(0, 10)}, a week a file`
      : `${slots} chapters told in one sitting, topic after topic`;
  return [
    `# ${persona.name}'s world (generated, seed ${world.seed})`,
    '',
    `A generated benchmark: ${persona.name}, ${persona.age}, ${persona.job} in ${persona.city}, tells an assistant about`,
    `the parts of a life below. ${shape}.`,
    'Every correct answer was computed from the simulated world at the moment its check is asked; no answer was',
    'written by hand.',
    '',
    '## Counts',
    '',
    `- ${sheetFacts} facts in the sheets, ${added} more told as the world goes on`,
    `- ${traps} trap writes, ${checks} checks, ${switches} session switches`,
    `- ${world.topics.length} topics, a sheet each:`,
    ...world.topics.map((topic) => `  - \`${topic.sheet}\`: ${topic.about}`),
    '',
    '## The spec and the seed',
    '',
    `Seed ${world.seed}; the whole spec is in \`world.jsonc\`. The same spec and seed give the same folder, byte for`,
    'byte:',
    '',
    '```sh',
    `mmb generate <name> --spec world.jsonc --seed ${world.seed}`,
    '```',
    '',
    'Append the next month (the world goes on from where it stands; a finished run continues into it):',
    '',
    '```sh',
    'mmb generate --extend <this folder> --months 1',
    '```',
    '',
    'How the spec works and how to make a world harder: docs/generate.md.',
    '',
  ].join('\n');
}
