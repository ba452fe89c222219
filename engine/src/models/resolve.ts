/** Turns a model's config into a client: the stand-in, or a provider with a key from the environment. */
import type { ModelConfig } from '../../../scenario/src';
import { ConfigError } from '../errors';
import { OpenAIChatModel, type ChatModel, type ModelOptions, type RetryNotice } from './chat';
import { parseChaosModel } from '../protocol/chaos';

/** The model name of the built-in stand-in, in config.jsonc and on its server. */
export const STAND_IN = 'stand-in';
/** A key read from the environment shorter than this is refused: it is a placeholder or a typo, not a key. */
export const MIN_KEY_LENGTH = 8;

export interface ModelContext {
  /** The stand-in's URL, when one is running. */
  standInUrl?: string;
  env: NodeJS.ProcessEnv;
  /** The variable of the persona's key, which an agent's own program is never handed. */
  personaKeyEnv?: string;
  timeoutMs?: number;
  backoffBaseMs?: number;
  /** Told of the retries of calls that name no listener of their own: those of the agents' models. */
  onRetry?: (model: string, notice: RetryNotice) => void;
  /** The run's stop (Ctrl-C), for the calls that name none of their own: those of the agents' models, cut at once. */
  signal?: AbortSignal;
}

/** The stand-in, plain or with settings (`stand-in:chaos?…`, whose misbehaviours are chosen per run). */
export function isStandInModel(model: string): boolean {
  return model === STAND_IN || model.startsWith(`${STAND_IN}:`);
}

export function usesStandIn(config: ModelConfig): boolean {
  return isStandInModel(config.model);
}

export function createModel(config: ModelConfig, ctx: ModelContext, where: string, stream = false): ChatModel {
  const listener = ctx.onRetry;
  const common: Partial<ModelOptions> = {
    timeoutMs: ctx.timeoutMs,
    backoffBaseMs: ctx.backoffBaseMs,
    stream,
    ...(listener ? { onRetry: (notice: RetryNotice) => listener(config.model, notice) } : {}),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  };
  if (usesStandIn(config)) {
    if (!ctx.standInUrl) throw new ConfigError(`${where}: the stand-in model is not running.`);
    const chaos = parseChaosModel(config.model);
    if (config.model !== STAND_IN && (chaos === undefined || 'error' in chaos)) {
      const variants = 'the stand-in\'s variants are "stand-in" and "stand-in:chaos?rate=0.1&behaviours=…&seed=…"';
      throw new ConfigError(`${where}: model "${config.model.slice(0, 120)}": ${chaos?.error ?? variants}.`);
    }
    // The name goes to the server whole: the chaos settings travel in it, so each request says them.
    return new OpenAIChatModel({ ...common, model: config.model, baseURL: ctx.standInUrl, apiKey: STAND_IN, secretKey: false });
  }
  if (!config.base_url) throw new ConfigError(`${where}: model "${config.model}" needs a base_url (the provider's OpenAI-compatible URL).`);
  let apiKey = 'none';
  if (config.api_key_env) {
    const key = ctx.env[config.api_key_env];
    if (!key)
      throw new ConfigError(
        `${where}: model "${config.model}" needs an API key: set the environment variable ${config.api_key_env} ` +
          '(or, in VS Code, the command "MarathonMemBench: Set an API key…").',
      );
    // No provider's key is this short, and a short one could not be masked safely: as a common
    // word ("test") it would be blanked out of every report that uses the word.
    if (key.trim().length < MIN_KEY_LENGTH)
      throw new ConfigError(
        `${where}: the environment variable ${config.api_key_env} holds ${key.trim().length} characters, ` +
          `too short for an API key (at least ${MIN_KEY_LENGTH}); ` +
          "set it to the provider's key, or leave api_key_env out for a server that needs none.",
      );
    apiKey = key;
  }
  // Without api_key_env the placeholder is no secret: masking the word "none" would garble reports.
  return new OpenAIChatModel({
    ...common,
    model: config.model,
    baseURL: config.base_url,
    apiKey,
    ...(config.api_key_env ? {} : { secretKey: false }),
  });
}

/** A model config found in an adapter's options, e.g. the run key `agent_model`. */
export function modelOption(value: unknown, where: string): ModelConfig {
  if (value === undefined) return { model: STAND_IN };
  if (typeof value !== 'object' || value === null || typeof (value as { model?: unknown }).model !== 'string') {
    throw new ConfigError(
      `${where} must be an object such as { "model": "stand-in" } or { "model": "…", "base_url": "…", "api_key_env": "…" }.`,
    );
  }
  const v = value as Record<string, unknown>;
  const out: ModelConfig = { model: String(v.model) };
  if (typeof v.base_url === 'string') out.base_url = v.base_url;
  if (typeof v.api_key_env === 'string') out.api_key_env = v.api_key_env;
  return out;
}
