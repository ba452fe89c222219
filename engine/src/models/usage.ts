/** What a model used, tallied by model name: the persona's in the run state, an agent's own in its status. */

export interface Usage {
  requests: number;
  promptTokens: number;
  completionTokens: number;
}

/** Adds one response's tokens to a usage tally, by model. */
export function addUsage(tally: Record<string, Usage>, model: string, u: { promptTokens: number; completionTokens: number }): Record<string, Usage> {
  // The name comes from config.jsonc or a server: `__proto__` or `constructor` must be a model like any other.
  if (!Object.hasOwn(tally, model)) Object.defineProperty(tally, model, { value: { requests: 0, promptTokens: 0, completionTokens: 0 }, enumerable: true, writable: true, configurable: true });
  const entry = tally[model]!;
  entry.requests++;
  entry.promptTokens += u.promptTokens;
  entry.completionTokens += u.completionTokens;
  return tally;
}
