/**
 * The credential rule of config.jsonc (issue 28, item 3): names of the families a credential goes
 * by, in every spelling (camelCase, snake, kebab, Header-Case, upper case), key-shaped values and
 * URLs carrying a user name, a password or a credential query parameter, are each refused by the
 * one rule, wherever they stand; the project's own keys and plain settings pass. Generated with
 * fast-check from a fixed seed, so a failure is the same failure on every machine.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { isCredentialKey, isKeyShaped, parseConfig, urlCredential } from '../src';
import { AGENT_RUN_KEYS, MODULE_AGENT_RUN_KEYS } from '../src/agents.generated';

const SEED = 28;
const RUNS = 400;

/** The words a credential's name is made of, each a family of the rule. */
const CREDENTIAL_CORES = [
  ['api', 'key'],
  ['key'],
  ['private', 'key'],
  ['access', 'key'],
  ['subscription', 'key'],
  ['openai', 'key'],
  ['secret'],
  ['client', 'secret'],
  ['secret', 'access', 'key'],
  ['token'],
  ['access', 'token'],
  ['refresh', 'token'],
  ['auth', 'token'],
  ['password'],
  ['passwd'],
  ['pass'],
  ['pwd'],
  ['passphrase'],
  ['credential'],
  ['credentials'],
  ['auth'],
  ['authorization'],
  ['bearer'],
  ['cookie'],
  ['session'],
  ['session', 'id'],
  ['oauth'],
];
/** Words a name may have around its core: a provider, a product, a role. */
const PREFIXES = [[], ['openai'], ['aws'], ['github'], ['deepseek'], ['pg'], ['x'], ['ocp', 'apim'], ['my', 'agent'], ['db']];

type Spelling = (words: string[]) => string;
const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const SPELLINGS: Spelling[] = [
  (words) => words.join('_'),
  (words) => words.join('_').toUpperCase(),
  (words) => words.join('-'),
  (words) => words.map(capital).join('-'),
  (words) => words.join('.'),
  (words) => words[0]! + words.slice(1).map(capital).join(''),
  (words) => words.map(capital).join(''),
  // Run together, as PGPASSWORD and OPENAIKEY are.
  (words) => words.join('').toUpperCase(),
];

const credentialName = fc
  .record({
    prefix: fc.constantFrom(...PREFIXES),
    core: fc.constantFrom(...CREDENTIAL_CORES),
    spell: fc.constantFrom(...SPELLINGS),
  })
  .map(({ prefix, core, spell }) => spell([...prefix, ...core]))
  // The shell's own `PWD` and `OLDPWD` (the working folders) are the rule's only exceptions.
  .filter((name) => name !== 'PWD' && name !== 'OLDPWD');

/** `GITHUB_PAT`, `gitlab-pat`: a personal access token, by its last word. */
const patName = fc
  .record({ prefix: fc.constantFrom(['github'], ['gitlab'], ['gh'], ['my', 'github']), spell: fc.constantFrom(...SPELLINGS.slice(0, 7)) })
  .map(({ prefix, spell }) => spell([...prefix, 'pat']));

/** Names a config may hold that are settings, not credentials: the project's own, counts of tokens, `*_env` keys. */
const LEGITIMATE_NAMES = [
  ...new Set([...Object.values(AGENT_RUN_KEYS), MODULE_AGENT_RUN_KEYS].flatMap((keys) => Object.keys(keys))),
  'persona',
  'compaction',
  'max_tokens',
  'trim_to_tokens',
  'time_master',
  'min_sleep_to_skip',
  'pre_wake_delay',
  'poll_interval',
  'hooks',
  'require_send_message',
  'drop_echoed_user_messages',
  'parallel',
  'prices',
  'runs',
  '$schema',
  'model',
  'base_url',
  'api_key_env',
  'benchmark',
  'agent',
  'ignore_session_break',
  'input',
  'output',
  'tokens',
  'maxTokens',
  'max_output_tokens',
  'token_budget',
  'tokenBudget',
  'token_limit',
  'max_token',
  'MAX_TOKENS',
  'tokenizer',
  'openai_api_key_env',
  'apiKeyEnv',
  'OPENAI_KEY_ENV',
  'openclaw_token_env',
  'http_api_key_env',
  'author',
  'authority',
  'keywords',
  'keyword',
  'passages',
  'passive',
  'passing_score',
  'session_mode',
  'max_sessions',
  'sessions',
  'Content-Type',
  'User-Agent',
  'Accept',
  'temperature',
  'timeout',
  'headers',
  'env',
  'env_set',
  'MY_AGENT_MODE',
  'LOG_LEVEL',
  // The shell's own variables, whose values the engine would otherwise mask in everything it writes.
  'PWD',
  'OLDPWD',
  'SSH_AUTH_SOCK',
  'XAUTHORITY',
  'SESSION_MANAGER',
  'DBUS_SESSION_BUS_ADDRESS',
  'XDG_SESSION_TYPE',
  'GNOME_KEYRING_CONTROL',
];

test('every name of the credential families is refused, in every spelling', () => {
  fc.assert(
    fc.property(credentialName, (name) => isCredentialKey(name)),
    { seed: SEED, numRuns: RUNS },
  );
  fc.assert(
    fc.property(patName, (name) => isCredentialKey(name)),
    { seed: SEED, numRuns: 50 },
  );
});

test('the names issue 28 found passing are each refused', () => {
  const found = [
    'openaiApiKey',
    'private_key',
    'accessToken',
    'Ocp-Apim-Subscription-Key',
    'PGPASSWORD',
    'clientSecret',
    'auth',
    'openai_key',
    'AWS_SECRET_ACCESS_KEY',
    'OPENAI_KEY',
    'DEEPSEEK_KEY',
    'GITHUB_PAT',
  ];
  assert.deepEqual(
    found.filter((name) => !isCredentialKey(name)),
    [],
  );
});

test("settings pass: the project's own keys, counts of tokens, names of variables", () => {
  assert.deepEqual(LEGITIMATE_NAMES.filter(isCredentialKey), []);
});

/** Keys as providers shape them, from random characters: OpenAI, Anthropic, GitHub, GitLab, Slack, AWS, Hugging Face, random base64. */
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const randomText = (min: number, max: number) =>
  fc
    .array(fc.constantFrom(...BASE62), { minLength: min, maxLength: max })
    .map((chars) => chars.join(''))
    .filter((text) => /[0-9]/.test(text) && /[A-Za-z]/.test(text));
const keyValue = fc.oneof(
  randomText(20, 48).map((body) => `sk-${body}`),
  randomText(20, 48).map((body) => `sk-proj-${body}`),
  randomText(20, 48).map((body) => `sk-ant-api03-${body}`),
  randomText(36, 36).map((body) => `ghp_${body}`),
  randomText(20, 20).map((body) => `glpat-${body}`),
  randomText(16, 16).map((body) => `AKIA${body.toUpperCase()}`),
  randomText(30, 34).map((body) => `hf_${body}`),
  randomText(24, 40).map((body) => `xoxb-${body}`),
  randomText(32, 64),
  randomText(32, 64).map((body) => `Bearer ${body}`),
);

test('key-shaped values are refused, whatever their key', () => {
  fc.assert(
    fc.property(keyValue, (value) => isKeyShaped(value)),
    { seed: SEED, numRuns: RUNS },
  );
});

test('values that are settings pass: model names, dates, URLs, paths, UUIDs, names of variables', () => {
  const settings = [
    'stand-in',
    'stand-in:chaos?rate=0.1&behaviours=truncate,timeout&seed=7',
    'deepseek-v4-flash',
    'anthropic/claude-3.5-sonnet-20241022',
    'gpt-4o-2024-08-06',
    'https://api.deepseek.com/v1',
    'http://127.0.0.1:8080/v1',
    './agents/my-agent.mjs',
    'python3',
    'agent:main:main',
    '123e4567-e89b-12d3-a456-426614174000',
    'OPENROUTER_API_KEY',
    '/home/user/projects/marathon-mem-bench/agents/notes',
    'quiet',
    'https://openrouter.ai/api/v1?max_tokens=5',
    'me@example.com',
    'What did we book? Tell me.',
    'hermes_compression_threshold',
  ];
  assert.deepEqual(settings.filter(isKeyShaped), []);
  assert.deepEqual(
    settings.filter((value) => urlCredential(value)),
    [],
  );
});

/** Every spelling of a URL with a user name or password that the WHATWG parser (and so a request) reads as one. */
const userinfoUrl = fc
  .record({
    scheme: fc.constantFrom('http', 'https', 'HTTP', 'Https', 'ws', 'wss', 'ftp'),
    slashes: fc.constantFrom('//', '\\\\', '/\\', '\\/', '', '/', '\\', '///'),
    user: fc.constantFrom('u', 'me', 'api', '', 'sk-user%40x'),
    secret: randomText(8, 24).map((body) => `sk-${body}`),
    host: fc.constantFrom('127.0.0.1:9', 'example.com', 'host', '[::1]:8080'),
    around: fc.constantFrom(['', ''], [' ', ' '], ['\t', '\n'], ['\u0000', '']),
  })
  .map(({ scheme, slashes, user, secret, host, around }) => `${around[0]}${scheme}:${slashes}${user}:${secret}@${host}/v1${around[1]}`);

/** URLs with a credential in a query or fragment parameter, its name in any of the families' spellings. */
const queryUrl = fc
  .record({
    name: fc.oneof(credentialName, fc.constantFrom('key', 'token', 'api_key', 'access_token', 'sig', 'code', 'apiKey')),
    value: randomText(6, 30),
    where: fc.constantFrom('?', '?model=x&', '#', '?a=1#'),
    encode: fc.boolean(),
  })
  .map(
    ({ name, value, where, encode }) =>
      `https://api.example.com/v1${where}${encode ? encodeURIComponent(name).replace(/_/g, '%5F') : name}=${value}`,
  );

test('every URL carrying a user name, a password or a credential parameter is refused, backslashes and all', () => {
  fc.assert(
    fc.property(userinfoUrl, (url) => {
      const parsed = (() => {
        try {
          return new URL(url);
        } catch {
          return undefined;
        }
      })();
      // Only what the parser reads as userinfo counts as such; each spelling it reads otherwise must still be refused as a value.
      if (parsed && (parsed.username || parsed.password)) return urlCredential(url)?.kind === 'userinfo';
      return urlCredential(url) !== undefined || isKeyShaped(url);
    }),
    { seed: SEED, numRuns: RUNS },
  );
  fc.assert(
    fc.property(queryUrl, (url) => urlCredential(url)?.kind === 'query'),
    { seed: SEED, numRuns: RUNS },
  );
  assert.equal(urlCredential('http:\\\\u:sk-hostile@127.0.0.1:9/v1')?.kind, 'userinfo');
});

/** Where a name stands in config.jsonc: the top, a model, a run, a module's options at any depth, headers, env_set. */
function placed(name: string, value: unknown, where: number): unknown {
  const run = { benchmark: 'starter', agent: './agents/a.mjs' };
  switch (where) {
    case 0:
      return { [name]: value };
    case 1:
      return { persona: { model: 'stand-in', [name]: value } };
    case 2:
      return { runs: { a: { ...run, agent_model: { model: 'stand-in', [name]: value } } } };
    case 3:
      return { runs: { a: { ...run, module_options: { [name]: value } } } };
    case 4:
      return { runs: { a: { ...run, module_options: { provider: { deep: [{ headers: { [name]: value } }] } } } } };
    default:
      return {
        runs: { a: { benchmark: 'starter', agent: 'process', command: ['x'], env_set: { [name.replace(/[^A-Za-z0-9_]/g, '_')]: value } } },
      };
  }
}

test('parseConfig refuses a credential wherever it stands, in one line naming its path and never its value', () => {
  const secret = 'hunter2-not-key-shaped';
  fc.assert(
    fc.property(fc.oneof(credentialName, patName), fc.integer({ min: 0, max: 5 }), (name, where) => {
      const { diagnostics } = parseConfig(JSON.stringify(placed(name, secret, where), null, 2));
      const found = diagnostics.filter((d) => /would put a secret in a file/.test(d.message));
      return (
        found.length === 1 &&
        !found[0]!.message.includes(secret) &&
        !found[0]!.message.includes('\n') &&
        found[0]!.code === 'invalid-config' &&
        /(`\*_env`|`api_key_env`|`[a-z_]+_env`|in `env`)/.test(found[0]!.message)
      );
    }),
    { seed: SEED, numRuns: RUNS },
  );
  fc.assert(
    fc.property(keyValue, fc.integer({ min: 0, max: 5 }), (value, where) => {
      const { diagnostics } = parseConfig(JSON.stringify(placed('note', value, where)));
      return diagnostics.some((d) => /would put a secret in a file/.test(d.message) && !d.message.includes(value));
    }),
    { seed: SEED, numRuns: RUNS },
  );
  fc.assert(
    fc.property(fc.oneof(userinfoUrl, queryUrl), fc.integer({ min: 0, max: 4 }), (url, where) => {
      const { diagnostics } = parseConfig(JSON.stringify(placed('base_url', url, where)));
      // The secret: the password after `sk-` of a userinfo URL, or the credential parameter's value (the last one).
      const shown = /sk-[A-Za-z0-9]+/.exec(url)?.[0] ?? url.split('=').at(-1)!;
      return diagnostics.some((d) => /would put a secret in a file/.test(d.message) && !d.message.includes(shown));
    }),
    { seed: SEED, numRuns: RUNS },
  );
});

test('a setting named like a credential passes when its value is a number or a truth value', () => {
  const config = {
    runs: {
      a: { benchmark: 'starter', agent: './agents/a.mjs', module_options: { auth: false, max_token: 4000, session: null, token: 3 } },
    },
  };
  assert.deepEqual(
    parseConfig(JSON.stringify(config))
      .diagnostics.filter((d) => d.severity === 'error')
      .map((d) => d.message),
    [],
  );
});

test('names chosen by the user (runs, model prices) are names, but a key-shaped one is refused without being shown', () => {
  const named = {
    runs: { 'token-session-test': { benchmark: 'starter', agent: 'chatbot' } },
    prices: { 'auth-model': { input: 1, output: 2 } },
  };
  assert.deepEqual(
    parseConfig(JSON.stringify(named)).diagnostics.map((d) => d.message),
    [],
  );
  const key = 'sk-proj-9fQ2xL7aR4tZ1mK8vB3nW6yH';
  const shaped = parseConfig(
    JSON.stringify({ runs: { a: { benchmark: 'starter', agent: './agents/a.mjs', module_options: { [key]: 'x' } } } }),
  ).diagnostics;
  assert.equal(shaped.length, 1);
  assert.ok(!shaped[0]!.message.includes(key), shaped[0]!.message);
});

test('a key pasted into a comment is refused, and the comment is not quoted', () => {
  const key = 'sk-proj-9fQ2xL7aR4tZ1mK8vB3nW6yH';
  const { diagnostics } = parseConfig(`{\n  // my key: ${key}\n  "runs": {}\n}`);
  assert.equal(diagnostics.length, 1);
  assert.equal(diagnostics[0]!.range.start.line, 1);
  assert.ok(!diagnostics[0]!.message.includes(key));
  assert.deepEqual(
    parseConfig('{\n  // the persona reads OPENAI_API_KEY; see https://platform.openai.com/api-keys\n  "runs": {}\n}').diagnostics,
    [],
  );
});

/** A command's words with a credential-named flag: `--name=value`, `NAME=value` or `--name value`. */
const commandLine = fc
  .record({
    name: fc.oneof(credentialName, patName).filter((name) => /^[A-Za-z_][\w.-]*$/.test(name) && !/(?:file|path|env)$/i.test(name)),
    form: fc.constantFrom('flag=', 'assignment', 'flag value', 'sh -c'),
  })
  .map(({ name, form }) => {
    const secret = 'hunter2-not-key-shaped';
    switch (form) {
      case 'flag=':
        return { command: ['node', 'agent.mjs', `--${name}=${secret}`], secret };
      case 'assignment':
        return { command: ['env', `${name}=${secret}`, 'python3', 'agent.py'], secret };
      case 'flag value':
        return { command: ['node', 'agent.mjs', `--${name}`, secret], secret };
      default:
        return { command: ['sh', '-c', `${name}=${secret} python3 agent.py`], secret };
    }
  });

test('a credential written on a command line is refused, as a flag, an assignment or two words, in one line without it', () => {
  fc.assert(
    fc.property(commandLine, ({ command, secret }) => {
      const config = { runs: { a: { benchmark: 'starter', agent: 'process', command } } };
      const found = parseConfig(JSON.stringify(config)).diagnostics.filter((d) => /on the command line/.test(d.message));
      return found.length === 1 && !found[0]!.message.includes(secret) && /list its name in `env`/.test(found[0]!.message);
    }),
    { seed: SEED, numRuns: RUNS },
  );
});

test('command lines without a written secret pass: counts, truth values, variables, paths to a secret, `--auth none`', () => {
  const command = [
    'node',
    'agent.mjs',
    '--max-tokens',
    '500',
    '--token=$TOKEN',
    '--api-key',
    '${API_KEY}',
    '--password-file',
    '/run/secrets/db',
    '--auth',
    'none',
    '--key-path=./keys/k.pem',
    '--pass-score',
    '8',
    'DEBUG=1',
    '--model',
    'gpt-4o-mini',
  ];
  const config = { runs: { a: { benchmark: 'starter', agent: 'process', command } } };
  assert.deepEqual(
    parseConfig(JSON.stringify(config))
      .diagnostics.filter((d) => d.severity === 'error')
      .map((d) => d.message),
    [],
  );
});
