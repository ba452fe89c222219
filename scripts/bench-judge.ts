/**
 * The judge audit's speed: `mmb judge audit --judge stand-in` over the whole shipped grading set,
 * the stand-in served over real HTTP, from a fresh journal each round (goal: ≤ 5 s). Also prints the
 * stand-in's κ and the lenient judge's, so the figure quoted in docs/grading.md can be checked. Asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../engine/src/cli/main';
import type { AuditFigures } from '../engine/src/judge/auditFigures';
import { summary, timed } from './benchStats';

const ROUNDS = 3;

/** One audit in a fresh folder (no config: the bundled benchmarks' sets), its figures from `--json`. */
async function audit(judge: string): Promise<AuditFigures> {
  const cwd = mkdtempSync(join(tmpdir(), 'mmb-bench-judge-'));
  let out = '';
  const io = { out: (text: string) => (out += text), err: () => undefined, tty: false, env: {} };
  try {
    const code = await main(['judge', 'audit', '--judge', judge, '--json'], cwd, io);
    if (code !== 0) throw new Error(`mmb judge audit --judge ${judge} exited ${code}: ${out.slice(0, 300)}`);
    return JSON.parse(out) as AuditFigures;
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

void (async () => {
  let figures: AuditFigures | undefined;
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) times.push(await timed(async () => (figures = await audit('stand-in'))));
  const lenient = await audit('stand-in:chaos?rate=1&behaviours=lenient-judge');
  const asks = `${figures!.items} items, ${figures!.asks} asks (the items and the two probes)`;
  console.log(
    `judge audit of the shipped sets on the stand-in, ${asks}: ${summary(
      times.map((ms) => ms / 1000),
      's',
      2,
    )} (goal ≤ 5 s)`,
  );
  const kappa = (of: AuditFigures) => of.overall.kappa?.toFixed(3) ?? '—';
  const vague = (of: AuditFigures) => `${((of.vague.rate ?? 0) * 100).toFixed(1)}%`;
  console.log(`  stand-in: κ ${kappa(figures!)}, vague answers passed ${vague(figures!)}, bias ${figures!.overall.bias?.toFixed(2)}`);
  console.log(`  lenient judge: κ ${kappa(lenient)}, vague answers passed ${vague(lenient)}, bias ${lenient.overall.bias?.toFixed(2)}`);
})();
