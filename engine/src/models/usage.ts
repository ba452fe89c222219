/** What a model used, tallied by model name: the persona's in the run state, an agent's own in its status. */

export interface Usage {
  requests: number;
  promptTokens: number;
  completionTokens: number;
}

/** Adds one response's tokens to a usage tally, by model. */
export function addUsage(tally: Record<string, Usage>, model: string, u: { promptTokens: number; completionTokens: number }): Record<string, Usage> {
  const t = (tally[model] ??= { requests: 0, promptTokens: 0, completionTokens: 0 });
  t.requests++;
  t.promptTokens += u.promptTokens;
  t.completionTokens += u.completionTokens;
  return tally;
}
