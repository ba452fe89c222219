/**
 * The grading line of `mmb doctor`: a sample of the shipped grading sets, graded by the model under
 * test as a judge (`modelJudge`: the rules the persona grades by, the item alone) and compared with
 * the gold, as `mmb judge audit` does on the whole set (`judge/agreement.ts`). The sample takes the
 * answer kinds in turn, so the 15 kinds are all in it and five of them twice.
 */
import { join } from 'node:path';
import type { ChatModel } from '../models/chat';
import { agreementOf, type ScorePair } from '../judge/agreement';
import { readGradingSets } from '../judge/gradingSet';
import { ANSWER_KIND_NAMES, type GradingItem } from '../judge/item';
import { modelJudge, type JudgeOutcome } from '../judge/judge';
import { effectiveScore } from '../judge/rules';
import { shorten } from '../../../scenario/src/plainText';
import { seededRandom } from '../random';
import type { DoctorResult } from './lines';

export const SAMPLE_SIZE = 20;
/**
 * The quadratic-weighted κ a judge must reach on the sample. 0.8 is "almost perfect" agreement
 * (Landis and Koch), but on 20 items one item graded the other way moves κ by about 0.12, so the
 * line asks for 0.7: one item's margin below it. What the stand-in's grader and the chaos
 * stand-in's lenient and harsh judges reach is in docs/grading.md, held to the measure by
 * `engine/test/doctor.test.ts`. A judge's figures to the second decimal are `mmb judge audit`'s job, on 300+ items.
 */
export const MIN_KAPPA = 0.7;
/** Items the model may leave without a grade (no call, a score out of range, another item's key). */
export const MAX_NO_GRADES = 1;
/** Items graded at once: a provider's rate limit is rarely lower. */
const CONCURRENCY = 4;
/** The benchmarks whose shipped sets the sample is drawn from. */
const SHIPPED = ['max', 'multiday', 'starter', 'filing'];

/** The seed of the sample's order: the project's default seed, the same sample on every machine. */
const SAMPLE_SEED = 1107;

/** The sample: each kind's items in a seeded order (so every benchmark's set takes part), the kinds taken in turn. */
export function gradingSample(items: readonly GradingItem[], size = SAMPLE_SIZE): GradingItem[] {
  const random = seededRandom(SAMPLE_SEED);
  const byKind = ANSWER_KIND_NAMES.map((kind) => {
    const list = items.filter((item) => item.kind === kind).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (let index = list.length - 1; index > 0; index--) {
      const other = Math.floor(random() * (index + 1));
      [list[index], list[other]] = [list[other]!, list[index]!];
    }
    return list;
  });
  const sample: GradingItem[] = [];
  for (let round = 0; sample.length < size && byKind.some((list) => list.length > round); round++)
    for (const list of byKind) if (sample.length < size && list[round]) sample.push(list[round]!);
  return sample;
}

/** Maps over `items` with at most `limit` in flight, results in order. */
async function pooled<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export async function probeGrading(model: ChatModel, benchmarksDir: string): Promise<DoctorResult> {
  const sets = readGradingSets(SHIPPED.map((name) => join(benchmarksDir, name)));
  const sample = gradingSample(sets.items);
  if (sample.length < SAMPLE_SIZE) return { id: 'grading', status: 'fail', detail: `the shipped grading sets hold ${sample.length} items` };
  const judge = modelJudge(model);
  const outcomes = await pooled(sample, CONCURRENCY, (item) => judge.grade(item));
  return gradingResult(sample, outcomes);
}

/** The line from the items and the judge's outcomes, in the same order. */
export function gradingResult(sample: readonly GradingItem[], outcomes: readonly JudgeOutcome[]): DoctorResult {
  const pairs: ScorePair[] = [];
  const noGrades: string[] = [];
  outcomes.forEach((outcome, index) => {
    const item = sample[index]!;
    if (outcome.kind === 'graded')
      pairs.push({ gold: effectiveScore(item.gold, item.attempt), judge: effectiveScore(outcome.score, item.attempt) });
    else noGrades.push(outcome.reason);
  });
  if (noGrades.length > MAX_NO_GRADES)
    return {
      id: 'grading',
      status: 'fail',
      detail: `${noGrades.length} of ${sample.length} items without a grade: ${shorten(noGrades[0]!, 80)}`,
    };
  const agreement = agreementOf(pairs);
  const kappa = agreement.kappa === null ? 'κ undefined (no grade varied)' : `κ ${agreement.kappa.toFixed(2)}`;
  const exact = `exact ${Math.round((agreement.exact ?? 0) * pairs.length)}/${pairs.length}`;
  const bias = agreement.bias === null ? '' : `, bias ${agreement.bias >= 0 ? '+' : ''}${agreement.bias.toFixed(1)}`;
  const missing = noGrades.length ? `, ${noGrades.length} without a grade` : '';
  const passed = agreement.kappa !== null && agreement.kappa >= MIN_KAPPA;
  return { id: 'grading', status: passed ? 'pass' : 'fail', detail: `${kappa} (needs ${MIN_KAPPA}), ${exact}${bias}${missing}` };
}
