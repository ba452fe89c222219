/**
 * `mmb regrade` of a Max run on the stand-in judge, as the command runs it (the stand-in served over
 * HTTP, every graded check asked and journaled), its regrades removed before each round: the wall
 * time, median with min–max (goal ≤ 1 s). Called by bench-runs.ts on a run it has made; prints, asserts nothing.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { regradeCommand } from '../engine/src/cli/regrade';
import { regradesDir, runDir } from '../engine/src/protocol/layout';
import { summary, timed } from './benchStats';

const ROUNDS = 5;

/** Prints the time of `mmb regrade <run> --judge stand-in` in the workspace at `root`. */
export async function benchRegrade(root: string, benchmarks: string, run: string): Promise<void> {
  const ws = { root, configPath: join(root, 'config.jsonc'), bundled: benchmarks };
  let printed = '';
  const io = { out: (text: string) => void (printed += text), err: (text: string) => void (printed += text), tty: false, env: {} };
  const times: number[] = [];
  let code = 0;
  for (let round = 0; round < ROUNDS; round++) {
    rmSync(regradesDir(runDir(root, run)), { recursive: true, force: true });
    printed = '';
    times.push(
      await timed(async () => void (code = await regradeCommand({ ids: [run], judges: ['stand-in'], repeat: undefined, ws }, io))),
    );
  }
  const graded = /stand-in: (\d+) graded now/.exec(printed)?.[1] ?? '?';
  const failed = code === 0 ? '' : ` (exit ${code}: ${printed.split('\n')[0]})`;
  console.log(
    `  mmb regrade of Max on the stand-in judge (${graded} checks): ${summary(
      times.map((ms) => ms / 1000),
      's',
      2,
    )}${failed}`,
  );
}
