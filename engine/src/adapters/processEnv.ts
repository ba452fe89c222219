/**
 * The environment a `process` agent's program starts with: an allow-list, never the engine's
 * whole environment, which holds the persona's key and whatever else the user's shell exported.
 * The program gets what Python and Node need to start, the variables its run lists in `env`
 * (names or `PREFIX_*`), those it sets in `env_set`, and the `MMB_*` variables the engine sets.
 */
import { ConfigError } from '../errors';
import { isCredentialKey } from '../../../scenario/src';
import { runSecrets } from '../secrets';

/** What an interpreter needs to start and to find its files, on POSIX and on Windows. */
const BASELINE_NAMES = [
  'PATH',
  'HOME',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'TERM',
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'TEMP',
  'TMP',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMDATA',
];
const BASELINE_PREFIXES = ['LC_'];

/** What a run asks to hand over, from its run keys `env` and `env_set` (checked by `checkRunOptions`). */
export interface EnvironmentRequest {
  names: string[];
  prefixes: string[];
  set: Record<string, string>;
}

export function environmentRequest(options: Record<string, unknown>): EnvironmentRequest {
  const listed = Array.isArray(options.env) ? options.env.filter((entry): entry is string => typeof entry === 'string') : [];
  const set = typeof options.env_set === 'object' && options.env_set !== null ? (options.env_set as Record<string, string>) : {};
  return {
    names: listed.filter((entry) => !entry.endsWith('*')),
    prefixes: listed.filter((entry) => entry.endsWith('*')).map((entry) => entry.slice(0, -1)),
    set: { ...set },
  };
}

export interface EnvironmentSources {
  /** The engine's environment. */
  env: NodeJS.ProcessEnv;
  /** The variable of the persona's key: never handed over, even when a prefix matches it. */
  personaKeyEnv?: string;
  /** The `MMB_*` variables the engine sets for the program; they win over everything else. */
  engine: Record<string, string>;
  platform: NodeJS.Platform;
}

/** The program's environment. A variable listed by its name that the engine does not have is left out. */
export function agentEnvironment(request: EnvironmentRequest, sources: EnvironmentSources): Record<string, string> {
  const { env, personaKeyEnv, platform } = sources;
  if (personaKeyEnv !== undefined && request.names.includes(personaKeyEnv)) {
    throw new ConfigError(
      `the run key \`env\` lists ${personaKeyEnv}, the persona's key, which no agent is handed: give the agent a model ` +
        `of its own in \`agent_model\` (its key reaches the program as MMB_MODEL_API_KEY).`,
    );
  }
  // Windows names its variables in any case (Path, SystemRoot): the baseline is matched as it does.
  const fold = (name: string) => (platform === 'win32' ? name.toUpperCase() : name);
  const baseline = new Set(BASELINE_NAMES);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || name === personaKeyEnv) continue;
    const folded = fold(name);
    const inBaseline = baseline.has(folded) || BASELINE_PREFIXES.some((prefix) => folded.startsWith(prefix));
    const listed = request.names.includes(name) || request.prefixes.some((prefix) => name.startsWith(prefix));
    if (!inBaseline && !listed) continue;
    // The program may print what it was given: a credential it holds is masked wherever the engine writes.
    if (listed && isCredentialKey(name)) runSecrets.add(value);
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  }
  for (const [name, value] of [...Object.entries(request.set), ...Object.entries(sources.engine)]) {
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * The engine's environment for a program that is handed all of it (the Hermes and OpenClaw gateways, which run
 * the user's installation as it is), less the persona's key: its variable, and any other that holds the same key.
 */
export function environmentWithoutPersonaKey(env: NodeJS.ProcessEnv, personaKeyEnv: string | undefined): Record<string, string> {
  const fold = (name: string) => (process.platform === 'win32' ? name.toUpperCase() : name);
  const personaKey = personaKeyEnv === undefined ? undefined : env[personaKeyEnv];
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || (personaKeyEnv !== undefined && fold(name) === fold(personaKeyEnv)) || (personaKey && value === personaKey))
      continue;
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
