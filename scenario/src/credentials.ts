/**
 * Credentials written into config.jsonc: refused wherever they stand (a key's name, a value, a
 * URL, a comment), since the file is shared and copied. The rule itself is `credentialRule.ts`;
 * this walks a parsed document and reports each finding on one line that names the key's path and
 * never quotes the secret.
 */
import { createScanner, type Node, type SyntaxKind } from 'jsonc-parser';
import type { JsoncDocument } from './jsonc';
import { commandLineCredential, isCredentialKey, isKeyShaped, isProjectRunKey, urlCredential } from './credentialRule';
import { shorten } from './plainText';

export { hasUrlUserinfo, isCredentialKey, isCredentialValue, isKeyShaped, nameWords, urlCredential } from './credentialRule';

const MAX_SHOWN_KEY = 60;
/** The keys directly under these are names the user chose (runs, model names), not settings: only their shape counts. */
const NAMING_OBJECTS = new Set(['runs', 'prices']);
const ENV_ADVICE = 'set it in the environment and list its name in `env`';
const GENERIC_ADVICE = 'keep it in an environment variable and name that variable in an `*_env` key (such as `api_key_env`)';

interface Pending {
  node: Node;
  path: string;
  /** The key this node is the value of, as written. */
  key?: string;
  parentKey?: string;
  /** The key was refused already: its value is not reported again, so one secret is one line. */
  keyRefused?: boolean;
}

/** Reports every credential at any depth, and every key-shaped comment; the value is never quoted. */
export function reportCredentials(doc: JsoncDocument): void {
  reportComments(doc, doc.text);
  // A walk with a stack, not recursion: the file is the user's and may nest as deep as it likes.
  const pending: Pending[] = doc.root ? [{ node: doc.root, path: '' }] : [];
  while (pending.length) {
    const item = pending.pop()!;
    const { node, path } = item;
    if (node.type === 'string' && typeof node.value === 'string' && !item.keyRefused)
      reportStringValue(doc, node, path || '(the file)', node.value);
    if (node.type === 'array') {
      const problem = arrayProblem((node.children ?? []).map((child) => child.value));
      if (problem) doc.report(doc.rangeOf(node), `\`${path}\` ${problem}.`);
      (node.children ?? []).forEach((child, i) => pending.push({ node: child, path: `${path}[${i}]`, parentKey: item.key }));
    }
    if (node.type !== 'object') continue;
    for (const property of node.children ?? []) {
      const [key, value] = property.children ?? [];
      if (!key || typeof key.value !== 'string') continue;
      const inner = path ? `${path}.${shownKey(key.value)}` : shownKey(key.value);
      const problem = keyProblem(key.value, value?.type, item.key, path);
      if (problem) doc.report(doc.rangeOf(key), `\`${inner}\` ${problem}.`);
      if (value) pending.push({ node: value, path: inner, key: key.value, parentKey: item.key, keyRefused: problem !== undefined });
    }
  }
}

/** Why a key would put a secret in the file, as the end of a sentence after its path; undefined when it would not. */
function keyProblem(name: string, valueType: string | undefined, parentKey: string | undefined, parentPath: string): string | undefined {
  if (isKeyShaped(name)) return `is a name shaped like a key or token, which would put a secret in a file: ${GENERIC_ADVICE}`;
  if (parentKey !== undefined && NAMING_OBJECTS.has(parentKey) && !parentPath.includes('.')) return undefined;
  if (!isCredentialKey(name)) return undefined;
  // Under a process agent's `env_set` the key is a variable's name: refused whatever it is set to.
  if (parentKey === 'env_set') return `would put a secret in a file: ${ENV_ADVICE}`;
  // A number or a truth value is a setting named like a credential (`auth: false`, `max_token: 5`), never a secret.
  if (valueType === 'number' || valueType === 'boolean' || valueType === 'null') return undefined;
  // Where the project reads an `*_env` key (the top, a model object, a run), the message names it.
  const envKey = /^(?:|persona|runs\.[^.]+(?:\.agent_model)?)$/.test(parentPath) ? envKeyFor(name) : undefined;
  return `would put a secret in a file: ${envKey ? `set the key in an environment variable and name it in \`${envKey}\`` : GENERIC_ADVICE}`;
}

function reportStringValue(doc: JsoncDocument, node: Node, path: string, value: string): void {
  const problem = valueProblem(value);
  if (problem) doc.report(doc.rangeOf(node), `\`${path}\` ${problem}.`);
}

/** Why a string value would put a secret in the file, as the end of a sentence after its path; undefined when it would not. */
function valueProblem(value: string): string | undefined {
  const url = urlCredential(value);
  if (url?.kind === 'userinfo')
    return (
      'has a user name or password in its URL, which would put a secret in a file: ' +
      'remove it, set the key in an environment variable and name it in `api_key_env`'
    );
  if (url?.kind === 'query')
    return (
      `has a credential in its URL's query parameter \`${shownKey(url.name)}\`, which would put a secret in a file: ` +
      `remove it and ${GENERIC_ADVICE}`
    );
  if (isKeyShaped(value)) return `holds a value shaped like a key or token, which would put a secret in a file: ${GENERIC_ADVICE}`;
  return commandLineProblem(value.split(/\s+/));
}

/** Why a command line (one string's words, or an array's items) would put a secret in the file. */
function commandLineProblem(words: readonly string[]): string | undefined {
  const found = commandLineCredential(words);
  if (!found) return undefined;
  const where = `gives \`${shownKey(found.name)}\` a secret on the command line`;
  return `${where}, which would put it in a file: ${ENV_ADVICE} (the program reads it from there)`;
}

/** The array's items as one command line: a flag in one item and its value in the next. */
function arrayProblem(items: readonly unknown[]): string | undefined {
  const words = items.filter((item): item is string => typeof item === 'string');
  // An item that holds the whole secret itself is reported as that item, once.
  if (words.some((word) => valueProblem(word) !== undefined)) return undefined;
  return commandLineProblem(words);
}

/**
 * The first credential in a plain value (a run's options that did not come through the parser: a
 * saved run, a request), by the rule and with the message the parser gives; undefined when none.
 * `path` is the value's own path, such as `runs.a.module_options`, or empty for a run's options.
 */
export function credentialIn(value: unknown, path: string): string | undefined {
  const pending: { value: unknown; path: string; key?: string }[] = [{ value, path, key: path.split('.').at(-1) || undefined }];
  while (pending.length) {
    const item = pending.pop()!;
    if (typeof item.value === 'string') {
      const problem = valueProblem(item.value);
      if (problem) return `\`${item.path}\` ${problem}.`;
    }
    if (Array.isArray(item.value)) {
      const problem = arrayProblem(item.value);
      if (problem) return `\`${item.path}\` ${problem}.`;
      item.value.forEach((child: unknown, i) => pending.push({ value: child, path: `${item.path}[${i}]` }));
    } else if (typeof item.value === 'object' && item.value !== null) {
      for (const [name, inner] of Object.entries(item.value)) {
        const innerPath = item.path ? `${item.path}.${shownKey(name)}` : shownKey(name);
        const problem = keyProblem(name, jsonType(inner), item.key, item.path);
        if (problem) return `\`${innerPath}\` ${problem}.`;
        pending.push({ value: inner, path: innerPath, key: name });
      }
    }
  }
  return undefined;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

// jsonc-parser's `SyntaxKind` is a const enum, which isolated modules cannot read: its values, as it declares them.
const LINE_COMMENT = 12 as SyntaxKind;
const BLOCK_COMMENT = 13 as SyntaxKind;
const END_OF_FILE = 17 as SyntaxKind;

/** A key or token pasted into a comment is in the file as much as one in a value. */
function reportComments(doc: JsoncDocument, text: string): void {
  const scanner = createScanner(text, false);
  for (let kind = scanner.scan(); kind !== END_OF_FILE; kind = scanner.scan()) {
    if (kind !== LINE_COMMENT && kind !== BLOCK_COMMENT) continue;
    const comment = scanner.getTokenValue();
    if (isKeyShaped(comment) || urlCredential(comment.replace(/^\/[/*]|\*\/$/g, '').trim())?.kind === 'userinfo') {
      const offset = scanner.getTokenOffset();
      doc.report(
        doc.lines.rangeOf(offset, offset + scanner.getTokenLength()),
        `A comment of ${doc.file} holds what looks like a key or token, which would put a secret in a file: ` +
          `delete it and ${GENERIC_ADVICE}.`,
      );
    }
  }
}

/** A key as a message shows it: on one line, bounded, and never a key-shaped name itself. */
function shownKey(key: string): string {
  if (isKeyShaped(key)) return '<a key-shaped name>';
  const flat = key.replace(/[\s`]+/g, ' ');
  return shorten(flat, MAX_SHOWN_KEY);
}

/** The `*_env` key that names the variable in place of this credential: its own (`openclaw_token_env`) if an agent declares one. */
function envKeyFor(key: string): string {
  return isProjectRunKey(`${key}_env`) ? `${key}_env` : 'api_key_env';
}
