/**
 * The openclaw adapter's settings, read from a run's keys: the command, the model it points the
 * gateway at, and the gateway to attach to; its keys and tokens are registered as secrets to mask.
 */
import type { ModelConfig } from '../../../scenario/src';
import { ConfigError } from '../errors';
import { runSecrets } from '../secrets';

export interface OpenClawOptions {
  /** The `openclaw` command (needs Node 24). */
  bin: string;
  nodeBin?: string;
  /** Attach to a running gateway instead of starting one. */
  attach?: { url: string; token: string };
  model: { baseUrl: string; apiKey: string; id: string };
  compaction?: Record<string, unknown>;
  sessionKey: string;
  /** The variable of the persona's key, left out of the environment of a gateway it starts. */
  personaKeyEnv?: string;
}

export function openclawOptions(
  options: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  model: ModelConfig,
  standInUrl: string | undefined,
  personaKeyEnv?: string,
): OpenClawOptions {
  const str = (k: string) => (typeof options[k] === 'string' ? (options[k] as string) : undefined);
  const baseUrl = model.model === 'stand-in' ? standInUrl : model.base_url;
  if (!baseUrl) throw new ConfigError(`the openclaw agent's model "${model.model}" needs a base_url.`);
  const apiKey = model.api_key_env ? env[model.api_key_env] : 'none';
  if (!apiKey) throw new ConfigError(`the openclaw agent's model needs an API key: set the environment variable ${model.api_key_env}.`);
  if (model.api_key_env) runSecrets.add(apiKey);
  const out: OpenClawOptions = {
    bin: str('openclaw_bin') ?? 'openclaw',
    model: { baseUrl, apiKey, id: model.model },
    sessionKey: str('openclaw_session_key') ?? 'agent:main:main',
  };
  const nodeBin = str('openclaw_node_bin');
  if (nodeBin) out.nodeBin = nodeBin;
  if (personaKeyEnv) out.personaKeyEnv = personaKeyEnv;
  const url = str('openclaw_url');
  if (url) {
    const tokenEnv = str('openclaw_token_env') ?? 'OPENCLAW_GATEWAY_TOKEN';
    const token = env[tokenEnv];
    if (!token)
      throw new ConfigError(`attaching to the OpenClaw gateway at ${url} needs its token: set the environment variable ${tokenEnv}.`);
    runSecrets.add(token);
    out.attach = { url, token };
  }
  if (options.openclaw_compaction && typeof options.openclaw_compaction === 'object')
    out.compaction = options.openclaw_compaction as Record<string, unknown>;
  return out;
}
