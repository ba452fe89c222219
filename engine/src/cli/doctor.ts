/**
 * `mmb doctor <model>`: can this endpoint play the persona? One line per capability of
 * `doctor/lines.ts`, ✓ or ✗ with what was seen and, on a ✗, what to do; `--json` for programs.
 * Exit 0 when every capability passes, 1 otherwise. The model is named as `--judge` names one (`judge/models.ts`).
 */
import { existsSync } from 'node:fs';
import { DEFAULT_CONFIG, type Config } from '../../../scenario/src';
import { judgeModel } from '../judge/models';
import { RunStopped, UsageError } from '../errors';
import { createModel, isStandInModel } from '../models/resolve';
import { registerRunSecrets } from '../secrets';
import { startStandIn } from '../standin/server';
import { runDoctor } from '../doctor/doctor';
import { doctorLine, type DoctorResult } from '../doctor/lines';
import { clip } from './options';
import { loadConfig, type Io } from './run';

export interface DoctorCommandInput {
  name: string | undefined;
  configPath: string;
  json: boolean;
  /** The bundled benchmarks (Max, the grading sets). */
  benchmarksDir: string;
}

const MARKS: Record<DoctorResult['status'], string> = { pass: '✓', fail: '✗', info: 'ℹ' };

export async function doctorCommand(input: DoctorCommandInput, io: Io): Promise<number> {
  if (!input.name) throw new UsageError("mmb doctor needs a model: mmb doctor persona (config.jsonc's), or mmb doctor stand-in");
  // The stand-in needs no config: `mmb doctor stand-in` works in any folder.
  const config: Config =
    isStandInModel(input.name) && !existsSync(input.configPath) ? { ...DEFAULT_CONFIG, runs: [] } : loadConfig(input.configPath);
  const modelConfig = judgeModel(input.name, config, 'mmb doctor');
  registerRunSecrets({ persona: modelConfig, runs: [] }, io.env);
  const standIn = isStandInModel(modelConfig.model) ? await startStandIn() : undefined;
  try {
    const context = { env: io.env, ...(standIn ? { standInUrl: standIn.url } : {}) };
    const model = createModel(modelConfig, context, `mmb doctor ${clip(input.name)}`);
    if (!input.json) io.out(`Checking ${clip(input.name)} (model ${clip(modelConfig.model)}) as the persona, about a minute:\n`);
    const started = performance.now();
    const results = await Promise.race([
      runDoctor({ model, priceName: modelConfig.model, config, benchmarksDir: input.benchmarksDir }),
      stoppedBy(io.signal),
    ]);
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    const failed = results.filter((result) => result.status === 'fail');
    const json = { ...doctorJson(input.name, modelConfig.model, results), seconds };
    io.out(input.json ? `${JSON.stringify(json, null, 2)}\n` : doctorText(results, seconds));
    return failed.length ? 1 : 0;
  } finally {
    await standIn?.close();
  }
}

/** Rejects when the signal aborts (Ctrl-C): a check keeps nothing, so it ends at once rather than after a step. */
function stoppedBy(signal: AbortSignal | undefined): Promise<never> {
  return new Promise<never>((_resolve, reject) => {
    const stop = () => reject(new RunStopped('mmb doctor stopped: it keeps nothing, run it again to check the model'));
    if (signal?.aborted) stop();
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** The lines as the terminal shows them, and the verdict with the seconds the check took. */
export function doctorText(results: readonly DoctorResult[], seconds: number): string {
  const lines = results.map((result) => {
    const line = doctorLine(result.id);
    const fix = result.status === 'fail' ? `\n    → ${line.fix}` : '';
    return `  ${MARKS[result.status]} ${line.capability}: ${result.detail}${fix}\n`;
  });
  const checked = results.filter((result) => result.status !== 'info');
  const failed = checked.filter((result) => result.status === 'fail');
  const took = `in ${seconds} s`;
  const verdict = failed.length
    ? `${failed.length} of ${checked.length} capabilities failed ${took}: ${failed.map((result) => result.id).join(', ')}.\n`
    : `Every capability passes (${checked.length}, ${took}): the model can play the persona.\n`;
  return `${lines.join('')}${verdict}`;
}

/** `--json`: the model, each line with its capability, status, detail and (failed) fix, and the verdict. */
export function doctorJson(name: string, model: string, results: readonly DoctorResult[]): Record<string, unknown> {
  return {
    name,
    model,
    passed: results.every((result) => result.status !== 'fail'),
    lines: results.map((result) => {
      const line = doctorLine(result.id);
      return { ...result, capability: line.capability, ...(result.status === 'fail' ? { fix: line.fix } : {}) };
    }),
  };
}
