/** The notebook's run keys: their defaults and their check, shared by its registry entry and its adapter. */
import { ConfigError } from '../../errors';

export interface NotebookOptions {
  /** Past this many tokens in its context, it summarises older turns (run key `notebook_context_tokens`). */
  contextTokens: number;
  /** Model calls in one turn before it is an error (run key `notebook_max_tool_rounds`). */
  maxToolRounds: number;
}

export const NOTEBOOK_DEFAULTS: NotebookOptions = { contextTokens: 32_000, maxToolRounds: 12 };

/** The notebook's run keys, checked. */
export function notebookOptions(options: Record<string, unknown>): NotebookOptions {
  const int = (key: string, min: number, max: number, fallback: number, what: string): number => {
    const v = options[key];
    if (v === undefined) return fallback;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      throw new ConfigError(`the run key \`${key}\` must be a whole number from ${min} to ${max} (${what}); it is ${JSON.stringify(v)}.`);
    }
    return v;
  };
  return {
    contextTokens: int(
      'notebook_context_tokens',
      2000,
      2_000_000,
      NOTEBOOK_DEFAULTS.contextTokens,
      'the tokens of context past which the notebook compacts it',
    ),
    maxToolRounds: int('notebook_max_tool_rounds', 1, 100, NOTEBOOK_DEFAULTS.maxToolRounds, 'model calls with tools in one turn'),
  };
}
