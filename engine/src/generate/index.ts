/**
 * `mmb generate`'s door: a benchmark folder from a spec and a seed, and the next months of a
 * generated folder. Everything here is pure: files in, files out; the CLI writes them.
 */
import { blocksOf } from './layout';
import type { WorldSpec } from './model';
import { renderWorld } from './render';
import { worldCounts } from './renderReadme';
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
  const counts = worldCounts(world, files);
  return {
    facts: counts.sheetFacts + counts.added,
    checks: counts.checks,
    traps: counts.traps,
    chapters: counts.chapters,
    sessionSwitches: counts.sessionSwitches,
  };
}
