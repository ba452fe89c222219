/**
 * Run keys: the keys of a run in config.jsonc. The shared ones are declared here once; every other
 * key belongs to an agent and is declared in its registry entry. The config schema, the docs and
 * the check of a run's options before its adapter starts all read these declarations.
 */
import { isStandInModel } from '../models/resolve';
import {
  credentialIn,
  envNameProblem,
  envPatternProblem,
  envSecretProblem,
  envValueProblem,
  MAX_ENV_ENTRIES,
  shownName,
  SHARED_RUN_KEYS,
} from '../../../scenario/src';
import { ConfigError } from '../errors';
import { didYouMeanSentence } from '../didYouMean';
import { shorten } from '../../../scenario/src/plainText';

/**
 * How a run key is written: a JSON type, `model` (an object like `persona`'s), `strings` (a list
 * of strings, such as a command), `env-names` (variables' names and `PREFIX_*`) or `env-values`
 * (variables set to strings).
 */
export type RunKeyType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'model' | 'strings' | 'env-names' | 'env-values';

/** One run key: its type and one line of docs, plus the bounds the schema shows. */
export interface RunKey {
  type: RunKeyType;
  doc: string;
  default?: string | number | boolean;
  minimum?: number;
  maximum?: number;
}

/** Paths, URLs, commands and names in run keys are short; a longer text is a mistake or an attack. */
export const MAX_RUN_KEY_TEXT = 4096;
/** A list run key (such as a command) has at most this many strings, each bounded like a text. */
export const MAX_RUN_KEY_LIST = 64;
/** An object run key (such as `openclaw_compaction`) is a handful of settings, not a document. */
export const MAX_RUN_KEY_OBJECT_JSON = 65_536;

export const SHARED_RUN_KEY_DOCS: Record<(typeof SHARED_RUN_KEYS)[number], RunKey> = {
  benchmark: { type: 'string', doc: 'A folder under benchmarks/.' },
  agent: { type: 'string', doc: 'The agent adapter.' },
  ignore_session_break: {
    type: 'boolean',
    default: false,
    doc: "Makes bench.newSession() a no-op: the context is cleared by the agent's compaction instead.",
  },
};

/** The run key of the agents that call a model of their own. */
export const AGENT_MODEL_KEY: RunKey = { type: 'model', doc: 'The model behind the agent (the stand-in when absent).' };

/** Whether the options leave `agent_model` on the stand-in. */
export function agentModelIsStandIn(options: Record<string, unknown>): boolean {
  const model = options.agent_model;
  if (model === undefined) return true;
  const name = typeof model === 'object' && model !== null ? (model as { model?: unknown }).model : undefined;
  return typeof name === 'string' && isStandInModel(name);
}

function describeType(type: RunKeyType): string {
  switch (type) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'integer':
      return 'a whole number';
    case 'boolean':
      return 'true or false';
    case 'object':
      return 'an object';
    case 'model':
      return 'an object such as { "model": "stand-in" }';
    case 'strings':
      return 'a list of strings, such as ["python3", "my_agent.py"]';
    case 'env-names':
      return `a list of at most ${MAX_ENV_ENTRIES} variables' names or prefixes, such as ["OPENAI_API_KEY", "MY_AGENT_*"]`;
    case 'env-values':
      return `an object of at most ${MAX_ENV_ENTRIES} variables set to strings, such as { "MY_AGENT_MODE": "quiet" }`;
  }
}

function hasType(value: unknown, type: RunKeyType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
    case 'integer':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
    case 'model':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'strings':
      return (
        Array.isArray(value) &&
        value.length <= MAX_RUN_KEY_LIST &&
        value.every((item) => typeof item === 'string' && item.length <= MAX_RUN_KEY_TEXT)
      );
    case 'env-names':
      return Array.isArray(value) && value.length <= MAX_ENV_ENTRIES && value.every((item) => typeof item === 'string');
    case 'env-values':
      return (
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        Object.keys(value).length <= MAX_ENV_ENTRIES &&
        Object.values(value).every((item) => typeof item === 'string')
      );
  }
}

/**
 * Refuses a run's options that its agent does not declare (a typo would otherwise be ignored),
 * of the wrong type, out of the declared range, or too large: what the config schema shows the
 * editor is what a run enforces. A credential anywhere in them is refused as config.jsonc's parser refuses it.
 */
export function checkRunOptions(agent: string, options: Record<string, unknown>, keys: Record<string, RunKey>): void {
  // First, before any message below quotes a value: the parser's credential rule, for options that did not come through it
  // (`env_set` is held to the same rule by `envSecretProblem`, with the advice its variables need).
  const credential = credentialIn(Object.fromEntries(Object.entries(options).filter(([name]) => name !== 'env_set')), '');
  if (credential) throw new ConfigError(`a run's options: ${credential}`);
  const known = Object.keys(keys);
  for (const [name, value] of Object.entries(options)) {
    const key = keys[name];
    if (!key) {
      const owned = known.length ? `its run keys are ${known.join(', ')}` : 'it takes no run keys';
      // A key name comes from the user's file: it is cut short in the message, and a long one gets no suggestion.
      const shown = shorten(name, 80);
      const suggestion = name.length > 80 ? '' : didYouMeanSentence(name, known);
      throw new ConfigError(`the agent ${agent} does not read the run key \`${shown}\`: ${owned}.${suggestion}`);
    }
    if (!hasType(value, key.type))
      throw new ConfigError(`the run key \`${name}\` must be ${describeType(key.type)}; it is ${JSON.stringify(value).slice(0, 80)}.`);
    if (key.type === 'integer' && !Number.isInteger(value))
      throw new ConfigError(`the run key \`${name}\` must be a whole number; it is ${JSON.stringify(value)}.`);
    if (typeof value === 'number') checkRange(name, value, key);
    if (key.type === 'env-names') checkEnvNames(name, value as string[]);
    if (key.type === 'env-values') checkEnvValues(name, value as Record<string, string>);
    if (typeof value === 'string' && value.length > MAX_RUN_KEY_TEXT)
      throw new ConfigError(`the run key \`${name}\` is ${value.length} characters long; it may hold at most ${MAX_RUN_KEY_TEXT}.`);
    if (typeof value === 'object' && JSON.stringify(value).length > MAX_RUN_KEY_OBJECT_JSON)
      throw new ConfigError(`the run key \`${name}\` is larger than ${MAX_RUN_KEY_OBJECT_JSON} characters of JSON.`);
  }
}

/** The same rules as `mmb check`'s, for options that did not come through the parser (a saved run, a test). */
function checkEnvNames(key: string, entries: readonly string[]): void {
  for (const entry of entries) {
    const problem = envPatternProblem(entry);
    if (problem) throw new ConfigError(`the run key \`${key}\`: ${shownName(entry)}: ${problem}.`);
  }
}

function checkEnvValues(key: string, values: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(values)) {
    const problem = envNameProblem(name) ?? envValueProblem(value) ?? envSecretProblem(name, value);
    if (problem) throw new ConfigError(`the run key \`${key}\`: ${shownName(name)}: ${problem}.`);
  }
}

function checkRange(name: string, value: number, key: RunKey): void {
  const below = key.minimum !== undefined && value < key.minimum;
  const above = key.maximum !== undefined && value > key.maximum;
  if (!below && !above) return;
  const range =
    key.maximum === undefined
      ? `at least ${key.minimum}`
      : key.minimum === undefined
        ? `at most ${key.maximum}`
        : `from ${key.minimum} to ${key.maximum}`;
  throw new ConfigError(`the run key \`${name}\` must be ${range}; it is ${value}.`);
}
