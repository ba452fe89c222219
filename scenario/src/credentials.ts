/** Credentials written into config.jsonc: refused wherever they appear, since the file is shared and copied. */
import type { Node } from 'jsonc-parser';
import type { JsoncDocument } from './jsonc';

/**
 * Keys that hold a credential: `api_key`, `apikey`, `token`, `*_token` (but not `*_token_env`,
 * which names a variable), `authorization`, `password`, `secret`, `key`, case-insensitive.
 */
const CREDENTIAL_KEY = /^(?:(?:.*[_-])?(?:api[_-]?key|token|password|passwd|secret|authorization|credentials?)|key|bearer|cookie)$/i;
/** A URL with a user name or password before its host: `https://user:pass@host`. */
const URL_WITH_USERINFO = /^\s*[a-z][a-z0-9+.-]*:\/\/[^/?#\s]*@/i;
const MAX_SHOWN_KEY = 60;

export function isCredentialKey(key: string): boolean {
  return CREDENTIAL_KEY.test(key);
}

export function hasUrlUserinfo(text: string): boolean {
  return URL_WITH_USERINFO.test(text);
}

/** Reports every credential key and every URL with userinfo, at any depth; the value is never quoted. */
export function reportCredentials(doc: JsoncDocument): void {
  // A walk with a stack, not recursion: the file is the user's and may nest as deep as it likes.
  const pending: { node: Node; path: string }[] = doc.root ? [{ node: doc.root, path: '' }] : [];
  while (pending.length) {
    const { node, path } = pending.pop()!;
    if (node.type === 'string' && typeof node.value === 'string' && hasUrlUserinfo(node.value)) {
      doc.report(doc.rangeOf(node), `\`${path}\` has a user name or password in its URL, which would put a secret in a file: remove it, set the key in an environment variable and name it in \`api_key_env\`.`);
    }
    if (node.type === 'array') (node.children ?? []).forEach((child, i) => pending.push({ node: child, path: `${path}[${i}]` }));
    if (node.type !== 'object') continue;
    for (const property of node.children ?? []) {
      const [key, value] = property.children ?? [];
      if (!key || typeof key.value !== 'string') continue;
      // The key is shown on one line of a message, bounded, whatever characters the file gave it.
      const flat = key.value.replace(/[\s`]+/g, ' ');
      const name = flat.length > MAX_SHOWN_KEY ? `${flat.slice(0, MAX_SHOWN_KEY)}…` : flat;
      const inner = path ? `${path}.${name}` : name;
      if (isCredentialKey(key.value)) {
        // Under a process agent's `env_set` the key is a variable's name: the advice is to hand it over from the environment.
        const advice = path.endsWith('.env_set') ? 'set it in the environment and list its name in `env`' : `set the key in an environment variable and name it in \`${envKeyFor(key.value)}\``;
        doc.report(doc.rangeOf(key), `\`${inner}\` would put a secret in a file: ${advice}.`);
      }
      if (value) pending.push({ node: value, path: inner });
    }
  }
}

/** The `*_env` key that names the variable in place of this credential. */
function envKeyFor(key: string): string {
  return /(?:^|[_-])token$/i.test(key) && key.length > 'token'.length ? `${key.toLowerCase()}_env` : 'api_key_env';
}
