/**
 * Secrets read from the environment (API keys, gateway tokens) and their masking. A careless
 * server may echo a key in any form: whole, base64 (as in Basic auth, at any byte offset),
 * base64url, hex, URL-encoded, cut short or broken across lines. `SecretMasker` blanks out all of
 * them; the process-wide `runSecrets` holds every key a run reads and guards the journal and the
 * CLI's output, so nothing written to `results/` or shown on a terminal holds a key.
 */

/** Windows this long or longer of a key are masked wherever they appear. */
const WINDOW = 8;
const MASK = '***';
/** The characters of a token a key may sit in: the key's own and those of its encodings (base64, URL-encoding). */
const TOKEN_CHAR = /[A-Za-z0-9_\-+/=%]/;
/** Keys beyond this length are cut for windowing: no real credential is longer, and it bounds the work. */
const MAX_KEY_LENGTH = 4096;

export class SecretMasker {
  private readonly windows = new Set<string>();
  private readonly shortKeys: string[] = [];
  private shortPattern: RegExp | undefined;
  private readonly keys = new Set<string>();

  constructor(keys: readonly string[] = []) {
    for (const key of keys) this.add(key);
  }

  /** The keys added, for a masker made of them and more. */
  get knownKeys(): string[] {
    return [...this.keys];
  }

  /** Whether any key has been added; with none, masking returns its input as it is. */
  get empty(): boolean {
    return this.keys.size === 0;
  }

  add(key: string | undefined): void {
    if (!key || this.keys.has(key)) return;
    this.keys.add(key);
    if (key.length < WINDOW) {
      // A key shorter than a window could be a common word or a letter ("x"): masking every
      // occurrence would destroy the text around it ("e***planation"), so only whole words go,
      // and not its encodings, which are shorter still and as common ("78" is hex for "x").
      this.shortKeys.push(key);
      const alternatives = [...new Set(this.shortKeys)].sort((a, b) => b.length - a.length).map(escapeRegExp);
      this.shortPattern = new RegExp(`(?<![A-Za-z0-9_-])(?:${alternatives.join('|')})(?![A-Za-z0-9_-])`, 'g');
      return;
    }
    for (const form of encodedForms(key.slice(0, MAX_KEY_LENGTH))) {
      for (let start = 0; start + WINDOW <= form.length; start++) this.windows.add(form.slice(start, start + WINDOW));
    }
  }

  /** Whether the text holds a key in any form this masker blanks out. */
  holdsSecret(text: string): boolean {
    if (this.empty) return false;
    return this.firstWindow(text, 0) >= 0 || (this.shortPattern !== undefined && new RegExp(this.shortPattern.source).test(text));
  }

  /**
   * The text with every whole token that holds a run of key windows, and every whole short key,
   * replaced by `***`. The whole token goes, not only the windows: the few characters of a key
   * left beside a run (a key cut short, or glued to other bytes in base64) would be a clue to it.
   */
  mask(text: string): string {
    if (this.empty || !text) return text;
    let out = '';
    let copiedTo = 0;
    for (let at = this.firstWindow(text, 0); at >= 0; at = this.firstWindow(text, copiedTo)) {
      let start = at;
      while (start > copiedTo && TOKEN_CHAR.test(text[start - 1] ?? '')) start--;
      out += `${text.slice(copiedTo, start)}${MASK}`;
      copiedTo = this.runEnd(text, at + WINDOW);
      while (copiedTo < text.length && TOKEN_CHAR.test(text[copiedTo] ?? '')) copiedTo++;
    }
    out += text.slice(copiedTo);
    return this.shortPattern ? out.replace(this.shortPattern, MASK) : out;
  }

  /** A JSON-like value with every string in it masked; the value itself when it holds no key. */
  maskDeep<T>(value: T): T {
    if (this.empty || value === undefined) return value;
    const text = JSON.stringify(value);
    if (text === undefined || !this.holdsSecret(text)) return value;
    return JSON.parse(text, (_key, inner: unknown) => (typeof inner === 'string' ? this.mask(inner) : inner)) as T;
  }

  /** Where a run of windows ends: overlapping and adjacent windows join, so a whole key becomes one `***`. */
  private runEnd(text: string, from: number): number {
    let end = from;
    for (;;) {
      if (end < text.length && this.windows.has(text.slice(end - WINDOW + 1, end + 1))) end++;
      else if (end + WINDOW <= text.length && this.windows.has(text.slice(end, end + WINDOW))) end += WINDOW;
      else return end;
    }
  }

  private firstWindow(text: string, from: number): number {
    for (let start = from; start + WINDOW <= text.length; start++) {
      if (this.windows.has(text.slice(start, start + WINDOW))) return start;
    }
    return -1;
  }
}

/** Every form of a key a server may echo. */
function encodedForms(key: string): string[] {
  const bytes = Buffer.from(key, 'utf8');
  const forms = [
    key,
    bytes.toString('hex'),
    bytes.toString('hex').toUpperCase(),
    encodeURIComponent(key),
    encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    JSON.stringify(key).slice(1, -1),
  ];
  for (let offset = 0; offset < 3; offset++) {
    // Encoded after `offset` other bytes ("user:" in Basic auth), the first group mixes in those
    // bytes and the last one the bytes after: only the groups between depend on the key alone.
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const stable = offset === 0 ? encoded : encoded.slice(4, Math.floor((offset + bytes.length) / 3) * 4);
    forms.push(stable, toBase64Url(stable));
  }
  return forms;
}

function toBase64Url(base64: string): string {
  return base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every key this process has read from the environment: the last guard of the journal and the CLI's output. */
export const runSecrets = new SecretMasker();

/** The text with every key this process has read masked. */
export function maskSecrets(text: string): string {
  return runSecrets.mask(text);
}

/** A value (a journal event) with every key this process has read masked in its strings. */
export function maskSecretsDeep<T>(value: T): T {
  return runSecrets.maskDeep(value);
}

/** Default environment variables of adapters that read a secret without a run key naming it. */
const DEFAULT_SECRET_ENV: Record<string, string[]> = { openclaw: ['OPENCLAW_GATEWAY_TOKEN'], hermes: ['HERMES_API_KEY'] };

/**
 * Registers the value of every environment variable a run's settings name as holding a secret:
 * `api_key_env` and every other `*_env` key at any depth of the persona and the runs' options,
 * and the adapters' default variables.
 */
export function registerRunSecrets(
  settings: { persona: unknown; runs: readonly { agent: string; options: Record<string, unknown> }[] },
  env: NodeJS.ProcessEnv,
): void {
  const names = new Set<string>();
  const pending: unknown[] = [settings.persona, ...settings.runs.map((run) => run.options)];
  for (const run of settings.runs) for (const name of DEFAULT_SECRET_ENV[run.agent] ?? []) names.add(name);
  // A walk with a stack, not recursion: run options come from a user's file and may nest deeply.
  while (pending.length) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, inner] of Object.entries(value)) {
      if (/_env$/i.test(key) && typeof inner === 'string') names.add(inner);
      else pending.push(inner);
    }
  }
  for (const name of names) runSecrets.add(env[name]);
}
