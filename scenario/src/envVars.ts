/**
 * The environment variables a run hands to its agent's own program (`env`, `env_set`): the rules
 * of their names and values, shared by `mmb check`, the editor and the engine, so that a name a
 * run would refuse is an error at its line before anything starts.
 */
import { hasUrlUserinfo, isCredentialKey, isKeyShaped, urlCredential } from './credentialRule';
import { shorten } from './plainText';

/** A variable's name: what POSIX shells accept, and bounded. */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const MAX_ENV_NAME = 128;
/** Names (and prefixes) one run may list, and variables it may set. */
export const MAX_ENV_ENTRIES = 64;
/** A value set in config.jsonc is a setting, not a document. */
export const MAX_ENV_VALUE = 4096;

/** A name from the user's file, shown on one line and cut short, whatever characters it holds. */
export function shownName(name: string): string {
  const text = JSON.stringify(shorten(name, 40));
  return name.length > 40 ? `${text} (${name.length} characters)` : text;
}

/** Why an entry of `env` is not a variable's name or a `PREFIX_*`, as the end of a sentence; undefined when it is one. */
export function envPatternProblem(entry: string): string | undefined {
  if (entry === '*')
    return 'a lone `*` would hand over the whole environment, the persona\'s key included: list names, or prefixes such as "MY_AGENT_*"';
  const name = entry.endsWith('*') ? entry.slice(0, -1) : entry;
  return envNameProblem(name);
}

/** Why a text is not a variable's name; undefined when it is one. */
export function envNameProblem(name: string): string | undefined {
  if (name.length > MAX_ENV_NAME) return `it is not a variable's name: at most ${MAX_ENV_NAME} characters`;
  if (!ENV_NAME_PATTERN.test(name))
    return "it is not a variable's name: letters, digits and `_`, not starting with a digit (a prefix ends in one `*`)";
  return undefined;
}

/** Why a value of `env_set` cannot be an environment variable's; undefined when it can. */
export function envValueProblem(value: string): string | undefined {
  if (value.length > MAX_ENV_VALUE) return `its value is ${value.length} characters long; it may hold at most ${MAX_ENV_VALUE}`;
  if (value.includes('\0')) return 'its value holds a NUL character, which no environment can carry';
  return undefined;
}

/**
 * Why a variable of `env_set` would put a secret in config.jsonc; undefined when it would not.
 * The file is shared and copied, so a variable named like a credential, or a URL with a password,
 * is refused (the parser reports both through `reportCredentials`, the engine through this).
 */
export function envSecretProblem(name: string, value: string): string | undefined {
  if (isCredentialKey(name))
    return 'it is named like a credential, which would put a secret in a file: set it in the environment and list its name in `env`';
  if (hasUrlUserinfo(value))
    return (
      'its value is a URL with a user name or password, which would put a secret in a file: ' +
      'set it in the environment and list its name in `env`'
    );
  if (urlCredential(value) || isKeyShaped(value))
    return 'its value looks like a key or token, which would put a secret in a file: set it in the environment and list its name in `env`';
  return undefined;
}
