/**
 * The estimate line of `mmb doctor`: what the persona's model spends on a run of Max. The requests
 * and tokens are measured, not guessed: Max is played once in memory by the stand-in persona
 * against the stand-in's recall, with config.jsonc's compaction, each request's prompt and reply
 * counted with the GPT tokenizer. A real model takes more turns than the stand-in's script and
 * writes longer messages, so the figure is a floor; its cost is the list price, before any cache discount.
 */
import { join } from 'node:path';
import { loadBenchmark, type Config } from '../../../scenario/src';
import { Clock } from '../clock';
import type { ChatModel, ChatRequest, ChatResponse } from '../models/chat';
import { countTextTokens, countTokens } from '../models/tokens';
import { estimateCosts } from '../report/cost';
import { runBenchmark } from '../run/runner';
import { MemoryRunStore } from '../run/store';
import { InProcessStandIn } from '../standin/inProcess';
import { readBenchmarkFolder } from '../workspace/folders';
import type { DoctorResult } from './lines';
import { RecallAgent } from './recallAgent';

export interface RunFigures {
  requests: number;
  promptTokens: number;
  completionTokens: number;
}

/** The stand-in persona, counting what each request and reply would be in tokens. */
class CountingPersona implements ChatModel {
  readonly name = 'stand-in';
  readonly figures: RunFigures = { requests: 0, promptTokens: 0, completionTokens: 0 };
  private readonly inner = new InProcessStandIn();

  async complete(request: ChatRequest): Promise<ChatResponse> {
    const response = await this.inner.complete(request);
    this.figures.requests++;
    this.figures.promptTokens += countTokens(request.messages) + countTextTokens(JSON.stringify(request.tools ?? []));
    const calls = response.message.tool_calls ? JSON.stringify(response.message.tool_calls) : '';
    this.figures.completionTokens += countTextTokens(`${response.message.content ?? ''}${calls}`);
    return response;
  }
}

/** Measured once per compaction setting in a process: the figure does not depend on the model under test. */
const measured = new Map<string, Promise<RunFigures>>();

/** The persona's requests and tokens in a stand-in run of the benchmark folder `maxDir`. */
export function measureMaxRun(maxDir: string, compaction: Config['compaction']): Promise<RunFigures> {
  const key = `${maxDir}|${compaction.max_tokens}|${compaction.trim_to_tokens}`;
  let figures = measured.get(key);
  if (!figures) measured.set(key, (figures = playCounted(maxDir, compaction)));
  return figures;
}

async function playCounted(maxDir: string, compaction: Config['compaction']): Promise<RunFigures> {
  const persona = new CountingPersona();
  await runBenchmark({
    name: 'doctor-max',
    benchmark: loadBenchmark(readBenchmarkFolder(maxDir, 'max')),
    agent: 'stand-in recall',
    persona,
    adapter: new RecallAgent(),
    store: new MemoryRunStore(),
    clock: new Clock(),
    ignoreSessionBreak: true,
    compaction: { maxTokens: compaction.max_tokens, trimToTokens: compaction.trim_to_tokens },
    timeMaster: { minSleepToSkipMs: 0, preWakeDelayMs: 0, pollIntervalMs: 1 },
  });
  return persona.figures;
}

const count = (value: number): string => value.toLocaleString('en-US');

/** The line: the measured figures, and their cost at the model's price (config.jsonc `prices` first), or "price unknown". */
export async function maxRunResult(model: string, benchmarksDir: string, config: Config): Promise<DoctorResult> {
  const figures = await measureMaxRun(join(benchmarksDir, 'max'), config.compaction);
  const tokens = `${count(figures.promptTokens)} prompt + ${count(figures.completionTokens)} completion tokens`;
  const [estimate] = estimateCosts({ [model]: figures }, config.prices);
  const cost =
    typeof estimate?.cost === 'number' ? `about $${estimate.cost.toFixed(2)}` : 'price unknown (add it under "prices" in config.jsonc)';
  return {
    id: 'max-run',
    status: 'info',
    detail: `${count(figures.requests)} requests, ${tokens}: ${cost} (measured on the stand-in persona: a real model takes more)`,
  };
}
