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

export function renderReadme(world: World, files: ReadonlyMap<string, string>): string {
  const { spec, persona } = world;
  const count = (pattern: RegExp) => [...files.values()].reduce((sum, text) => sum + (text.match(pattern)?.length ?? 0), 0);
  const checks = count(/^❓/gmu);
  const traps = count(/^🪤/gmu);
  const sheetFacts = world.initial.reduce((sum, sheet) => sum + sheet.categories.reduce((n, c) => n + c.facts.length, 0), 0);
  const added = count(/^Add to the `/gm);
  const switches = count(/bench\.newSession\(\)/g);
  const chapters = world.blocks.reduce((sum, block) => sum + block.layout.slots.length, 0);
  const shape =
    spec.shape === 'multi-day'
      ? `${chapters} days on virtual time from ${spec.start.slice(0, 10)}, a week a file`
      : `${chapters} chapters told in one sitting, topic after topic`;
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
