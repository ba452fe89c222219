/**
 * The one rule for what is a credential in config.jsonc, on names, values and URLs alike. The
 * parser (`mmb check`, the editor, `mmb run`), the engine's own checks of `env_set` and what a
 * saved partial run keeps all ask it, so no two places can disagree about a name.
 */
import { AGENT_RUN_KEYS, MODULE_AGENT_RUN_KEYS } from './agents.generated';

/**
 * The run keys the project's agents declare are settings it reads, never secrets (`openclaw_session_key`
 * names a gateway session): the engine reads every key from the environment, through `*_env` keys.
 */
const PROJECT_RUN_KEYS = new Set([...Object.values(AGENT_RUN_KEYS), MODULE_AGENT_RUN_KEYS].flatMap((keys) => Object.keys(keys)));

/** Stems that mark a credential wherever they stand in a name, its words run together. */
const CREDENTIAL_STEMS = [
  'secret',
  'passw',
  'passphrase',
  'pwd',
  'credential',
  'bearer',
  'cookie',
  'authoriz',
  'authoris',
  'apikey',
  'privatekey',
  'sessionid',
];
/** Whether an agent of the project declares this run key (`openclaw_token_env`, `http_api_key_env`). */
export function isProjectRunKey(name: string): boolean {
  return PROJECT_RUN_KEYS.has(name);
}

/**
 * Names of the shell's environment that the rule would match and that hold no secret: the
 * working folders (`PWD`, `OLDPWD`) and the ssh agent's socket path. The engine masks the values
 * of credential-named variables in what it writes, and a masked working folder would blank paths.
 * Spelled as the shell spells them only: a key `pwd` in a module's options is a password.
 */
const SHELL_NAMES = new Set(['PWD', 'OLDPWD', 'SSH_AUTH_SOCK']);
/** Whole words (after the name is split) that are credentials by themselves. */
const CREDENTIAL_WORDS = new Set(['auth', 'authn', 'authz', 'pass', 'sessionid', 'sid', 'jwt', 'otp', 'totp']);
/** Words that make a name about a *count* of tokens (`max_tokens`, `token_budget`), not a token. */
const COUNT_WORDS = new Set([
  'max',
  'min',
  'budget',
  'limit',
  'limits',
  'count',
  'counts',
  'num',
  'number',
  'total',
  'usage',
  'window',
  'context',
  'length',
  'size',
  'per',
  'rate',
  'ratio',
  'estimate',
  'threshold',
  'reserve',
  'target',
  'cost',
  'price',
]);
/** Query parameters that carry a credential though their names are not the words above (Azure's SAS `sig`). */
const CREDENTIAL_QUERY_NAMES = new Set(['sig', 'signature', 'code', 'access_code', 'client_assertion']);

/**
 * The words of a name, lower-cased: camelCase, PascalCase, snake_case, kebab-case and
 * `Header-Case` all split the same way (`openaiApiKey`, `OPENAI_API_KEY` → openai, api, key).
 */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/**
 * Whether a name (a config key at any depth, a header, a variable of `env_set`, a URL's query
 * parameter) holds a credential, case and separator aside:
 * - a stem anywhere: secret, passw(ord|d), passphrase, pwd, credential, bearer, cookie, authoriz(ation), apikey, privatekey, sessionid;
 * - a word: auth (and authn, authz, oauth, basicAuth, authHeader but not author), a word ending in pass (DBPASS, and so
 *   also `bypass`), sid, jwt, otp;
 * - a word ending in `key` or `keys` (api_key, OPENAIKEY, `Ocp-Apim-Subscription-Key`);
 * - a word ending in `token`, singular, unless another word counts (`max_token`, `token_budget`; `max_tokens` is plural);
 * - a word ending in `session` as the last word or before `id` (PGSESSION, session_id; not `session_mode`);
 * - `pat` as the last word (`GITHUB_PAT`).
 * A name whose last word is `env` names a variable (`api_key_env`, `openclaw_token_env`), and a run
 * key an agent of the project declares is a setting: neither is a credential.
 */
export function isCredentialKey(name: string): boolean {
  if (isProjectRunKey(name) || SHELL_NAMES.has(name)) return false;
  const words = nameWords(name);
  if (words.length === 0 || words.at(-1) === 'env') return false;
  const joined = words.join('');
  if (CREDENTIAL_STEMS.some((stem) => joined.includes(stem))) return true;
  if (words.at(-1) === 'pat') return true;
  const counts = words.some((word) => COUNT_WORDS.has(word));
  return words.some((word, index) => isCredentialWord(word, words[index + 1], counts));
}

function isCredentialWord(word: string, next: string | undefined, counts: boolean): boolean {
  if (CREDENTIAL_WORDS.has(word) || /keys?$/.test(word) || word.endsWith('auth') || word.endsWith('pass')) return true;
  if (word.startsWith('auth') && !word.startsWith('author')) return true;
  if (word.endsWith('token')) return !counts;
  return word.endsWith('session') && (next === undefined || next === 'id');
}

/** A query parameter named like a credential: the name rule, and the few names that carry one in URLs. */
export function isCredentialQueryName(name: string): boolean {
  return isCredentialKey(name) || CREDENTIAL_QUERY_NAMES.has(name.toLowerCase());
}

/** Prefixes providers give their keys (OpenAI, Anthropic, GitHub, GitLab, Slack, AWS, Google, Hugging Face, Stripe, JWTs). */
const KEY_PREFIX =
  /^(?:sk|rk|pk)[-_]|^(?:gh[pousr]|github_pat|hf|xox[abposr])_|^glpat-|^xox[abposr]-|^AKIA[0-9A-Z]|^AIza|^ya29\.|^eyJ[A-Za-z0-9_-]*\./;
/** Characters a key is written with (base64 and base64url, hex, and the separators of prefixed keys). */
const KEY_CHARS = /^[A-Za-z0-9_\-+=.~]+$/;
/** A prefixed key is at least this long: `sk-` and a dozen characters. */
const MIN_PREFIXED_KEY = 12;
/** A run of key characters this long, letters and digits mixed and close to random, is a key whatever its prefix. */
const MIN_RANDOM_PIECE = 20;
const MIN_RANDOM_BITS_PER_CHAR = 3.5;

/**
 * Whether a text holds something shaped like a key: a piece (between spaces, `/`, `?`, `&`, `=`,
 * `:`, `@`, `,`, quotes) that starts with a provider's key prefix, or that has a run of 20 or
 * more characters between `-`, `_` and `.` mixing letters and digits with the entropy of a random
 * string (3.5 bits a character or more). Model names, dates, UUIDs and paths have short runs.
 */
export function isKeyShaped(text: string): boolean {
  for (const piece of text.split(/[\s/\\?&#=:@,;"'<>()[\]{}|]+/)) {
    if (!KEY_CHARS.test(piece)) continue;
    if (piece.length >= MIN_PREFIXED_KEY && KEY_PREFIX.test(piece)) return true;
    if (piece.split(/[-_.~]+/).some(isRandomRun)) return true;
  }
  return false;
}

function isRandomRun(run: string): boolean {
  if (run.length < MIN_RANDOM_PIECE || !/[A-Za-z]/.test(run) || !/[0-9]/.test(run)) return false;
  const counts = new Map<string, number>();
  for (const char of run) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) bits -= (count / run.length) * Math.log2(count / run.length);
  return bits >= MIN_RANDOM_BITS_PER_CHAR;
}

/** What in a URL would carry a credential: a user name or password, or a query parameter named like one. */
export type UrlCredential = { kind: 'userinfo' } | { kind: 'query'; name: string };

/** A base for relative parsing, so that `//user:pass@host` (which a browser or fetch would resolve) is read too. */
const RELATIVE_BASE = 'http://base.invalid/';

/**
 * The credential a text carries as a URL, read by the WHATWG URL parser the engine's requests
 * use: it accepts `http:\\user:pass@host` (backslashes as slashes), tabs and newlines inside,
 * spaces around and percent-escapes, so a pattern on the text would miss what the request sends.
 * Query parameters and `#` fragment parameters (OAuth's `#access_token=`) both count.
 */
export function urlCredential(text: string): UrlCredential | undefined {
  if (!/[:@?#]/.test(text)) return undefined;
  for (const url of [parseUrl(text), parseUrl(text, RELATIVE_BASE)]) {
    if (!url) continue;
    if (url.username !== '' || url.password !== '') return { kind: 'userinfo' };
    const fragment = url.hash.includes('=') ? [...new URLSearchParams(url.hash.slice(1))] : [];
    for (const [name, value] of [...url.searchParams, ...fragment]) {
      if (isCredentialQueryName(name) && !isPlainSetting(value)) return { kind: 'query', name };
    }
  }
  return undefined;
}

function parseUrl(text: string, base?: string): URL | undefined {
  try {
    return new URL(text, base);
  } catch {
    return undefined;
  }
}

/** A number or a truth value: a setting (`max_tokens=5`, `auth=false`), never a secret. */
function isPlainSetting(value: string): boolean {
  return /^(?:-?\d+(?:\.\d+)?|true|false|null)$/.test(value.trim());
}

/** Whether a string value would put a secret in a file: shaped like a key, or a URL carrying one. */
export function isCredentialValue(text: string): boolean {
  return isKeyShaped(text) || urlCredential(text) !== undefined;
}

/** A command-line word that sets a value by name: `--token=x`, `-p=x`, `API_KEY=x` (a shell assignment). */
const ASSIGNMENT = /^-{0,2}([A-Za-z_][\w.-]{0,80})=(.*)$/s;
/** A command-line flag that takes the next word as its value: `--api-key`, `-password`. */
const FLAG = /^-{1,2}([A-Za-z][\w.-]{0,80})$/;
/** Last words of a name that point at a secret instead of holding it: `--password-file`, `--token-path`. */
const POINTER_WORDS = new Set(['file', 'path', 'dir', 'env', 'var', 'cmd', 'command', 'helper', 'url', 'name', 'type', 'kind', 'mode']);

function isCredentialFlagName(name: string): boolean {
  const last = nameWords(name).at(-1);
  return last !== undefined && !POINTER_WORDS.has(last) && isCredentialKey(name);
}

/**
 * Whether a value given to a credential-named flag or assignment is a secret written out, rather
 * than a number, a truth value, a reference to a variable (`$TOKEN`, `${TOKEN}`) or a path.
 */
function isWrittenSecret(value: string): boolean {
  const trimmed = value.trim();
  if (trimmed === '' || isPlainSetting(trimmed) || /^\$(?:\{\w+\}|\w+)$/.test(trimmed)) return false;
  if (/^(?:none|no|off|on|disabled?|enabled?|basic|bearer|digest|oauth2?|anonymous)$/i.test(trimmed)) return false;
  return !/^(?:\/|\.\.?\/|~\/)/.test(trimmed);
}

/**
 * The credential a command line writes out, by the name it is given to: `--token=…`,
 * `OPENAI_API_KEY=…`, or `--api-key …` as two words (of one string, or of a command's array:
 * `words` are then its items). Undefined when none; the secret itself is never returned.
 */
export function commandLineCredential(words: readonly string[]): { name: string } | undefined {
  for (const [index, word] of words.entries()) {
    const assigned = ASSIGNMENT.exec(word);
    if (assigned && isCredentialFlagName(assigned[1]!) && isWrittenSecret(assigned[2]!)) return { name: assigned[1]! };
    const flag = FLAG.exec(word);
    const next = words[index + 1];
    const flagValue = next !== undefined && !next.startsWith('-') ? next : undefined;
    if (flag && flagValue !== undefined && isCredentialFlagName(flag[1]!) && isWrittenSecret(flagValue)) return { name: flag[1]! };
  }
  return undefined;
}

/** Kept for the engine's readers: a URL with a user name or password before its host, in any spelling. */
export function hasUrlUserinfo(text: string): boolean {
  return urlCredential(text)?.kind === 'userinfo';
}
