/**
 * Writes benchmarks/filing from the experiment's generator (seed 1107). Run after changing the generator.
 * The grading set beside it is written by hand, not generated, so it is kept (check its items after a change).
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SEED, filingBenchmark, simulate } from '../engine/src/experiments/filing';
import { GRADING_SET_FILE } from '../engine/src/judge/gradingSet';

const dir = join(__dirname, '..', 'benchmarks', 'filing');
mkdirSync(dir, { recursive: true });
for (const f of readdirSync(dir)) if (f !== GRADING_SET_FILE) rmSync(join(dir, f));
for (const [name, text] of filingBenchmark(simulate(DEFAULT_SEED))) writeFileSync(join(dir, name), text);
console.log(`wrote ${dir}`);
