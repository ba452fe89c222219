/**
 * The `hermes_*` run keys read into options. Two modes: by default the adapter starts its own
 * gateway (`hermes gateway run`) with a fresh `$HERMES_HOME` under the run's folder and the run's
 * `agent_model`; with `hermes_url` it attaches to a gateway the user runs, with the API key from
 * the environment.
 */
import { randomBytes } from 'node:crypto';
import type { ModelConfig } from '../../../../scenario/src';
import { ConfigError } from '../../errors';
import { runSecrets } from '../../secrets';

/** The compression keys a run writes into Hermes's config.yaml (`compression:` block). */
export interface HermesCompression {
  threshold?: number;
  target_ratio?: number;
  in_place?: boolean;
}

/** A gateway the user runs: the adapter only talks to it (and reads its home if given). */
export interface HermesAttach {
  url: string;
  apiKey: string;
  /** Their `$HERMES_HOME`, for compression keys, compactions and memory snapshots. */
  home?: string;
  resetCommand?: string;
}

/** A gateway the adapter starts, stops and wipes itself. */
export interface HermesManaged {
  /** The `hermes` command (of the venv it was installed in). */
  bin: string;
  model: { baseUrl: string; apiKey: string; name: string; contextLength: number };
  /** A key made for this gateway only: it never leaves the machine. */
  apiKey: string;
  /** The variable of the persona's key, left out of the gateway's environment (it gets the engine's, less that). */
  personaKeyEnv?: string;
}

export interface HermesOptions {
  attach?: HermesAttach;
  managed?: HermesManaged;
  compression: HermesCompression;
  /** A turn that streams nothing (not even Hermes's keep-alive) for this long is given up. */
  idleTimeoutMs: number;
  /** The longest a whole turn may take. */
  turnTimeoutMs: number;
}

/** Hermes refuses a model whose context window is under 64,000 tokens. */
export const HERMES_MIN_CONTEXT = 64_000;
const DEFAULT_CONTEXT = 65_536;
/** Hermes sends an SSE keep-alive every 30 s while a turn runs; three missed ones mean it is gone. */
const DEFAULT_IDLE_TIMEOUT_MS = 100_000;
const DEFAULT_TURN_TIMEOUT_MS = 30 * 60_000;

type Reader = { str(key: string): string | undefined; num(key: string): number | undefined };

function reader(options: Record<string, unknown>): Reader {
  return {
    str: (key) => (typeof options[key] === 'string' ? (options[key] as string) : undefined),
    num: (key) => {
      const value = options[key];
      if (value === undefined) return undefined;
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new ConfigError(`the run key \`${key}\` must be a number.`);
      return value;
    },
  };
}

/**
 * Reads the run keys into options; `standInUrl` is where the stand-in model listens, when it runs; `personaKeyEnv` the
 * variable of the persona's key, which a gateway it starts is not handed.
 */
export function hermesOptions(
  options: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  model: ModelConfig,
  standInUrl: string | undefined,
  personaKeyEnv?: string,
): HermesOptions {
  const read = reader(options);
  const compression: HermesCompression = {};
  const threshold = read.num('hermes_compression_threshold');
  const ratio = read.num('hermes_compression_target_ratio');
  if (threshold !== undefined) compression.threshold = threshold;
  if (ratio !== undefined) compression.target_ratio = ratio;
  if (typeof options.hermes_compression_in_place === 'boolean') compression.in_place = options.hermes_compression_in_place;
  const out: HermesOptions = {
    compression,
    idleTimeoutMs: (read.num('hermes_idle_timeout_s') ?? DEFAULT_IDLE_TIMEOUT_MS / 1000) * 1000,
    turnTimeoutMs: (read.num('hermes_turn_timeout_s') ?? DEFAULT_TURN_TIMEOUT_MS / 1000) * 1000,
  };
  const url = read.str('hermes_url');
  if (url) out.attach = attachOptions(read, url, env);
  else out.managed = { ...managedOptions(read, env, model, standInUrl), ...(personaKeyEnv ? { personaKeyEnv } : {}) };
  return out;
}

function attachOptions(read: Reader, url: string, env: NodeJS.ProcessEnv): HermesAttach {
  const keyEnv = read.str('hermes_api_key_env') ?? 'HERMES_API_KEY';
  const apiKey = env[keyEnv];
  if (!apiKey)
    throw new ConfigError(
      `the hermes agent needs its API_SERVER_KEY: set the environment variable ${keyEnv} (or name another in \`hermes_api_key_env\`).`,
    );
  runSecrets.add(apiKey);
  const attach: HermesAttach = { url: url.replace(/\/+$/, ''), apiKey };
  const home = read.str('hermes_home');
  if (home) attach.home = home;
  const reset = read.str('hermes_reset_command');
  if (reset) attach.resetCommand = reset;
  return attach;
}

function managedOptions(read: Reader, env: NodeJS.ProcessEnv, model: ModelConfig, standInUrl: string | undefined): HermesManaged {
  for (const key of ['hermes_home', 'hermes_reset_command', 'hermes_api_key_env']) {
    if (read.str(key) !== undefined)
      throw new ConfigError(
        `the run key \`${key}\` is for a gateway you run (with \`hermes_url\`); without \`hermes_url\` the adapter ` +
          `starts its own, with its own home under the run's folder.`,
      );
  }
  const baseUrl = model.model === 'stand-in' ? standInUrl : model.base_url;
  if (!baseUrl) throw new ConfigError(`the hermes agent's model "${model.model}" needs a base_url.`);
  const modelKey = model.api_key_env ? env[model.api_key_env] : 'none';
  if (!modelKey) throw new ConfigError(`the hermes agent's model needs an API key: set the environment variable ${model.api_key_env}.`);
  if (model.api_key_env) runSecrets.add(modelKey);
  const contextLength = read.num('hermes_context_length') ?? DEFAULT_CONTEXT;
  if (contextLength < HERMES_MIN_CONTEXT)
    throw new ConfigError(
      `\`hermes_context_length\` is ${contextLength}: Hermes refuses a context window under ${HERMES_MIN_CONTEXT} tokens.`,
    );
  const apiKey = randomBytes(24).toString('hex');
  runSecrets.add(apiKey);
  return { bin: read.str('hermes_bin') ?? 'hermes', model: { baseUrl, apiKey: modelKey, name: model.model, contextLength }, apiKey };
}
