/**
 * Estimated cost of a run's model use. Prices are USD per million tokens, input and output, as the
 * providers listed them (2025, without cache or batch discounts); they change, so `config.jsonc`
 * `prices` overrides or adds any model. A model in neither has an unknown price, never a guess.
 */
import type { Usage } from '../protocol/chat';

export interface Price {
  /** USD per 1M prompt (input) tokens. */
  input: number;
  /** USD per 1M completion (output) tokens. */
  output: number;
}

export const PRICES: Readonly<Record<string, Price>> = {
  'stand-in': { input: 0, output: 0 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
};

export interface ModelCost extends Usage {
  model: string;
  price: Price | null;
  /** USD; null when the model's price is unknown. */
  cost: number | null;
}

/** The price of a model by its name as configured, case-insensitive, a `provider/` prefix ignored. */
export function priceOf(model: string, overrides: Readonly<Record<string, Price>> = {}): Price | null {
  const names = [model, model.toLowerCase(), model.split('/').pop()!.toLowerCase()];
  // The stand-in's variants (`stand-in:chaos?…`) cost what the stand-in costs: nothing.
  if (model.startsWith('stand-in:')) names.push('stand-in');
  for (const table of [overrides, PRICES]) {
    for (const name of names) {
      const price = Object.hasOwn(table, name) ? table[name] : undefined;
      if (price) return price;
    }
  }
  return null;
}

/** Usage and estimated cost per model, in the order the state lists them. */
export function estimateCosts(usage: Readonly<Record<string, Usage>>, overrides: Readonly<Record<string, Price>> = {}): ModelCost[] {
  return Object.entries(usage).map(([model, u]) => {
    const price = priceOf(model, overrides);
    const cost = price ? (u.promptTokens * price.input + u.completionTokens * price.output) / 1e6 : null;
    return { model, ...u, price, cost };
  });
}

/** The sum of the known costs, and whether some model's price was unknown. */
export function totalCost(costs: readonly ModelCost[]): { known: number; unknownModels: string[] } {
  return {
    known: costs.reduce((a, c) => a + (c.cost ?? 0), 0),
    unknownModels: costs.filter((c) => c.cost === null).map((c) => c.model),
  };
}
