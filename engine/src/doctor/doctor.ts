/**
 * `mmb doctor`'s checks of a model, before a long paid run: every probe at once against the model
 * (behind a meter that keeps each response's usage), then one result per line of `lines.ts`, in
 * its order. A probe whose endpoint fails fails its own line with the endpoint's one-line error.
 */
import type { Config } from '../../../scenario/src';
import type { ChatModel } from '../models/chat';
import { shorten } from '../../../scenario/src/plainText';
import { DOCTOR_LINES, type DoctorLineId, type DoctorResult } from './lines';
import { probeGrading } from './grading';
import { maxRunResult } from './maxRun';
import { MeteredModel, prefixCacheResult, usageResult } from './meter';
import { probePhases } from './phaseRun';
import { probeToolCalls } from './toolCalls';

export interface DoctorInput {
  model: ChatModel;
  /** The model's name as config.jsonc gives it (`"model"`), which its price is looked up by. */
  priceName: string;
  config: Config;
  /** The bundled benchmarks: Max for the estimate, their grading sets for the sample. */
  benchmarksDir: string;
}

/** Each line's result, in the order of `DOCTOR_LINES`. */
export async function runDoctor(input: DoctorInput): Promise<DoctorResult[]> {
  const metered = new MeteredModel(input.model);
  const probes: Promise<DoctorResult[]>[] = [
    guarded(['tool-calls'], async () => [await probeToolCalls(metered)]),
    guarded(['send-message', 'next-phase'], () => probePhases(metered)),
    guarded(['grading'], async () => [await probeGrading(metered, input.benchmarksDir)]),
  ];
  const estimate = maxRunResult(input.priceName, input.benchmarksDir, input.config);
  const results = (await Promise.all(probes)).flat();
  results.push(usageResult(metered.usages), prefixCacheResult(metered.usages), await estimate);
  const byId = new Map(results.map((result) => [result.id, result]));
  return DOCTOR_LINES.flatMap((line) => byId.get(line.id) ?? []);
}

/** A probe's results, or each of its lines failed with the error that stopped it (an endpoint that fails). */
async function guarded(ids: readonly DoctorLineId[], probe: () => Promise<DoctorResult[]>): Promise<DoctorResult[]> {
  try {
    return await probe();
  } catch (error) {
    const detail = shorten(error instanceof Error ? error.message : String(error), 200);
    return ids.map((id) => ({ id, status: 'fail', detail }));
  }
}
