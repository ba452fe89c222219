/** Tallies of what a model used, by model name: the persona's in the run state, an agent's own in its status. */
import type { Usage } from '../protocol/chat';

/** Adds one response's tokens to a usage tally, by model. */
export function addUsage(
  tally: Record<string, Usage>,
  model: string,
  added: { promptTokens: number; completionTokens: number },
): Record<string, Usage> {
  // The name comes from config.jsonc or a server: `__proto__` or `constructor` must be a model like any other.
  if (!Object.hasOwn(tally, model))
    Object.defineProperty(tally, model, {
      value: { requests: 0, promptTokens: 0, completionTokens: 0 },
      enumerable: true,
      writable: true,
      configurable: true,
    });
  const entry = tally[model]!;
  entry.requests++;
  entry.promptTokens += added.promptTokens;
  entry.completionTokens += added.completionTokens;
  return tally;
}

/** Models one reported tally may name, and the length of a name: an agent's report is untrusted. */
const MAX_REPORTED_MODELS = 100;
const MAX_MODEL_NAME = 200;

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/**
 * The usage an agent reports of its own model (a module's `getStatus().usage`), as a tally: only
 * entries whose counts are non-negative whole numbers, under a bounded name, a bounded number of
 * models; anything else is left out rather than trusted. Undefined when nothing is left.
 */
export function reportedUsage(value: unknown): Record<string, Usage> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const tally: Record<string, Usage> = {};
  let models = 0;
  for (const [model, entry] of Object.entries(value)) {
    if (models >= MAX_REPORTED_MODELS) break;
    if (!model || model.length > MAX_MODEL_NAME || typeof entry !== 'object' || entry === null) continue;
    const { requests, promptTokens, completionTokens } = entry as Record<string, unknown>;
    if (!isCount(requests) || !isCount(promptTokens) || !isCount(completionTokens)) continue;
    Object.defineProperty(tally, model, {
      value: { requests, promptTokens, completionTokens },
      enumerable: true,
      writable: true,
      configurable: true,
    });
    models++;
  }
  return models ? tally : undefined;
}
