/** Writes benchmarks/filing from the experiment's generator (seed 1107). Run after changing the generator. */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SEED, filingBenchmark, simulate } from '../engine/src/experiments/filing';

const dir = join(__dirname, '..', 'benchmarks', 'filing');
mkdirSync(dir, { recursive: true });
for (const f of readdirSync(dir)) rmSync(join(dir, f));
for (const [name, text] of filingBenchmark(simulate(DEFAULT_SEED))) writeFileSync(join(dir, name), text);
console.log(`wrote ${dir}`);
