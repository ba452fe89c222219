/**
 * The keys a process that reads results/ must mask without having run anything: `mmb report`,
 * `mmb view` and the editor read files an agent wrote (its memory snapshots), which may hold a key
 * the run did not know or an older engine did not mask. The keys are those of this process's
 * environment that config.jsonc names (every `*_env` value: the persona's key, the agent model's,
 * the adapters' tokens), the values of credential-named variables (`isCredentialKey`), and every
 * key this process has read already (`runSecrets`).
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { isCredentialKey } from '../../scenario/src';
import { runSecrets, SecretMasker } from './secrets';

/** A credential-named variable's value shorter than this is no key ("1", "true"), and masking it would blank out common words. */
const MIN_ENVIRONMENT_KEY_LENGTH = 8;
/** config.jsonc is read up to this many bytes for its `*_env` names: a bigger one is no config a person wrote. */
const MAX_CONFIG_BYTES = 1024 * 1024;
/** A `"…_env": "NAME"` pair of config.jsonc at any depth, read from the text so that a config that does not parse still gives its names. */
const ENV_NAME_PAIR = /"([A-Za-z0-9_-]{0,100}_env)"\s*:\s*"([A-Za-z_][A-Za-z0-9_]{0,200})"/gi;

/** The values of the environment's variables whose names say they hold a credential (`OPENAI_API_KEY`, `GITHUB_TOKEN`). */
export function credentialEnvironmentValues(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env).flatMap(([name, value]) =>
    value && value.length >= MIN_ENVIRONMENT_KEY_LENGTH && isCredentialKey(name) ? [value] : [],
  );
}

/** Adds the values of the environment's credential-named variables to the process-wide masker. */
export function registerCredentialEnvironment(env: NodeJS.ProcessEnv): void {
  for (const value of credentialEnvironmentValues(env)) runSecrets.add(value);
}

/** The names of the variables config.jsonc says hold a key; none when it is missing; its first MiB when it is bigger. */
export function configKeyNames(configPath: string): string[] {
  const text = boundedText(configPath);
  return [...new Set([...text.matchAll(ENV_NAME_PAIR)].map((match) => match[2]!))];
}

/** The keys of this process a reader of results/ masks: see the module's comment. */
export function workspaceKeys(configPath: string, env: NodeJS.ProcessEnv): string[] {
  const named = configKeyNames(configPath).flatMap((name) => (env[name] ? [env[name]] : []));
  return [...runSecrets.knownKeys, ...named, ...credentialEnvironmentValues(env)];
}

/** A masker of every key of `workspaceKeys`, made afresh: the config may have changed since the last page. */
export function workspaceMasker(configPath: string, env: NodeJS.ProcessEnv): SecretMasker {
  return new SecretMasker(workspaceKeys(configPath, env));
}

/** Adds the workspace's keys to the process-wide masker, which guards the CLI's output and what it writes. */
export function registerWorkspaceSecrets(configPath: string, env: NodeJS.ProcessEnv): void {
  for (const key of workspaceKeys(configPath, env)) runSecrets.add(key);
}

function boundedText(path: string): string {
  let handle: number | undefined;
  try {
    // The config is the user's own file, a link to their dotfiles as often as not: it is followed, but a FIFO never blocks.
    handle = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    if (!fstatSync(handle).isFile()) return '';
    const buffer = Buffer.alloc(MAX_CONFIG_BYTES);
    return buffer.subarray(0, readSync(handle, buffer, 0, buffer.length, 0)).toString('utf8');
  } catch {
    return '';
  } finally {
    if (handle !== undefined) closeSync(handle);
  }
}
