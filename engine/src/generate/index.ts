/**
 * `mmb generate`'s door: a benchmark folder from a spec and a seed, and the next months of a
 * generated folder. Everything here is pure: files in, files out; the CLI writes them.
 */
import { blocksOf } from './layout';
import type { WorldSpec } from './model';
import { renderWorld } from './render';
import { simulateWorld, type World } from './world';

export interface GenerateSummary {
  facts: number;
  checks: number;
  traps: number;
  chapters: number;
  sessionSwitches: number;
}

export interface Generated {
  files: Map<string, string>;
  summary: GenerateSummary;
  world: World;
}

export function generateBenchmark(spec: WorldSpec, seed: number, blocks = blocksOf(spec)): Generated {
  const world = simulateWorld(spec, seed, blocks);
  const files = renderWorld(world);
  return { files, world, summary: summarize(world, files) };
}

function summarize(world: World, files: ReadonlyMap<string, string>): GenerateSummary {
  const count = (pattern: RegExp) => [...files.values()].reduce((sum, text) => sum + (text.match(pattern)?.length ?? 0), 0);
  const sheetFacts = world.initial.reduce((sum, sheet) => sum + sheet.categories.reduce((n, c) => n + c.facts.length, 0), 0);
  return {
    facts: sheetFacts + count(/^Add to the `/gm),
    checks: count(/^❓/gmu),
    traps: count(/^🪤/gmu),
    chapters: new Set(world.blocks.flatMap((block) => block.layout.slots.map((slot) => slot.file))).size,
    sessionSwitches: count(/bench\.newSession\(\)/g),
  };
}
