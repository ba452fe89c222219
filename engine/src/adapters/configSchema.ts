/**
 * The JSON schema of config.jsonc that VS Code uses (schemas/config.schema.json), built from the
 * parser's defaults and the agent registry so that neither can drift from it. `scripts/schemas.ts`
 * writes the file; a test holds the committed file equal to this.
 */
import {
  DEFAULT_CONFIG,
  ENV_NAME_PATTERN,
  MAX_ENV_ENTRIES,
  MAX_ENV_NAME,
  MAX_ENV_VALUE,
  MAX_NAME_LENGTH,
  MODULE_AGENT_PATTERN,
  SHARED_RUN_KEYS,
} from '../../../scenario/src';
import { AGENTS, MODULE_AGENT } from './registry';
import { SHARED_RUN_KEY_DOCS, type RunKey } from './runKeys';
import { withGeneratedBlock } from '../generatedBlock';

type JsonSchema = { [key: string]: unknown };

/** How the docs and the schema name every module agent: its `agent` is the module's path. */
const MODULE_AGENT_LABEL = './<module>.mjs';

const FOLDER_NAME_PATTERN = '^[A-Za-z0-9][\\w.-]*$';

const MODEL_DEFINITION: JsonSchema = {
  type: 'object',
  required: ['model'],
  additionalProperties: false,
  properties: {
    model: {
      type: 'string',
      description: '"stand-in" for the built-in deterministic model, or the provider\'s model name.',
      examples: ['stand-in'],
    },
    base_url: { type: 'string', description: "The provider's OpenAI-compatible URL, e.g. https://api.deepseek.com/v1." },
    api_key_env: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'The environment variable that holds the API key.' },
  },
  not: { anyOf: [{ required: ['api_key'] }, { required: ['key'] }, { required: ['token'] }] },
};

/** A run key as a schema property; `agents` names the agents that read it, for the description. */
function runKeySchema(key: RunKey, agents: string[]): JsonSchema {
  const description = agents.length ? `${key.doc} Read by ${agents.join(', ')}.` : key.doc;
  if (key.type === 'model') return { $ref: '#/definitions/model', description };
  if (key.type === 'strings') return { type: 'array', items: { type: 'string', maxLength: 4096 }, minItems: 1, maxItems: 64, description };
  if (key.type === 'env-names')
    return {
      type: 'array',
      items: { type: 'string', pattern: `${ENV_NAME_PATTERN.source.slice(0, -1)}\\*?$`, maxLength: MAX_ENV_NAME + 1 },
      maxItems: MAX_ENV_ENTRIES,
      description,
    };
  if (key.type === 'env-values') {
    return {
      type: 'object',
      propertyNames: { pattern: ENV_NAME_PATTERN.source, maxLength: MAX_ENV_NAME },
      additionalProperties: { type: 'string', maxLength: MAX_ENV_VALUE },
      maxProperties: MAX_ENV_ENTRIES,
      description,
    };
  }
  const out: JsonSchema = { type: key.type };
  if (key.minimum !== undefined) out.minimum = key.minimum;
  if (key.maximum !== undefined) out.maximum = key.maximum;
  if (key.default !== undefined) out.default = key.default;
  out.description = description;
  return out;
}

/** Every agent's run keys in one set of properties; a key two agents share must be declared alike. */
function agentRunKeys(): JsonSchema {
  const owners = new Map<string, { key: RunKey; agents: string[] }>();
  for (const [agent, entry] of [...Object.entries(AGENTS), [MODULE_AGENT_LABEL, MODULE_AGENT] as const]) {
    for (const [name, key] of Object.entries(entry.runKeys)) {
      const seen = owners.get(name);
      if (!seen) owners.set(name, { key, agents: [agent] });
      else if (JSON.stringify(seen.key) !== JSON.stringify(key))
        throw new Error(`the run key ${name} is declared differently by ${seen.agents.join(', ')} and ${agent}.`);
      else seen.agents.push(agent);
    }
  }
  return Object.fromEntries([...owners].map(([name, { key, agents }]) => [name, runKeySchema(key, agents)]));
}

function runSchema(): JsonSchema {
  const names = Object.keys(AGENTS);
  const shared = Object.fromEntries(SHARED_RUN_KEYS.map((name) => [name, runKeySchema(SHARED_RUN_KEY_DOCS[name], [])]));
  const agentNames = { enum: names, enumDescriptions: names.map((name) => AGENTS[name]!.summary) };
  shared.agent = {
    ...shared.agent,
    anyOf: [agentNames, { type: 'string', pattern: MODULE_AGENT_PATTERN.source, description: MODULE_AGENT.summary }],
  };
  shared.benchmark = { ...shared.benchmark, pattern: FOLDER_NAME_PATTERN, maxLength: MAX_NAME_LENGTH };
  return {
    type: 'object',
    required: ['benchmark', 'agent'],
    properties: { ...shared, ...agentRunKeys() },
    // A run may hold only the shared keys and its own agent's: a key of another agent, or a typo, is flagged.
    allOf: [
      ...names.map((name) => ({
        if: { required: ['agent'], properties: { agent: { const: name } } },
        then: { propertyNames: { enum: [...SHARED_RUN_KEYS, ...Object.keys(AGENTS[name]!.runKeys)] } },
      })),
      {
        if: { required: ['agent'], properties: { agent: { type: 'string', pattern: MODULE_AGENT_PATTERN.source } } },
        then: { propertyNames: { enum: [...SHARED_RUN_KEYS, ...Object.keys(MODULE_AGENT.runKeys)] } },
      },
    ],
  };
}

function numbers(defaults: Record<string, number>, docs: Record<string, string>): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(
      Object.entries(defaults).map(([key, value]) => [key, { type: 'number', minimum: 0, default: value, description: docs[key] }]),
    ),
  };
}

function flags(defaults: Record<string, boolean>, docs: Record<string, string>): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(
      Object.entries(defaults).map(([key, value]) => [key, { type: 'boolean', default: value, description: docs[key] }]),
    ),
  };
}

export function configSchema(): JsonSchema {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'MarathonMemBench config.jsonc',
    description:
      'Engine settings and the named runs of a workspace. API keys never go here: name the environment variable in ' +
      'api_key_env. Generated by scripts/schemas.ts from the agent registry: do not edit.',
    type: 'object',
    additionalProperties: false,
    definitions: { model: MODEL_DEFINITION },
    properties: {
      $schema: { type: 'string' },
      persona: { $ref: '#/definitions/model', description: "The persona's model." },
      compaction: numbers(DEFAULT_CONFIG.compaction, {
        max_tokens: "The persona's context is cut when it reaches this size.",
        trim_to_tokens: 'The newest messages worth this much are kept.',
      }),
      time_master: numbers(DEFAULT_CONFIG.time_master, {
        min_sleep_to_skip: 'Seconds: shorter sleeps are not fast-forwarded.',
        pre_wake_delay: 'Seconds: the clock is set this much before the wake-up.',
        poll_interval: 'Seconds between polls of the participants.',
      }),
      hooks: flags(DEFAULT_CONFIG.hooks, {
        require_send_message: 'A plain-text persona turn gets an error telling it to use send_message.',
        drop_echoed_user_messages: 'A persona turn that imitates the agent is ignored.',
      }),
      parallel: { type: 'integer', minimum: 1, default: DEFAULT_CONFIG.parallel, description: 'Runs at once.' },
      prices: {
        type: 'object',
        description:
          'USD per million tokens by model name, for the cost estimate of the HTML report; adds to or overrides the built-in table.',
        additionalProperties: {
          type: 'object',
          additionalProperties: false,
          required: ['input', 'output'],
          properties: {
            input: { type: 'number', minimum: 0, description: 'USD per million prompt tokens.' },
            output: { type: 'number', minimum: 0, description: 'USD per million completion tokens.' },
          },
        },
      },
      judges: {
        type: 'object',
        description: 'Named models to grade with: `mmb judge audit --judge <name>`, `mmb regrade`, `mmb doctor`.',
        additionalProperties: { $ref: '#/definitions/model' },
      },
      runs: {
        type: 'object',
        description: 'Named runs; the name becomes the folder results/<name>.',
        propertyNames: { pattern: FOLDER_NAME_PATTERN, maxLength: MAX_NAME_LENGTH },
        additionalProperties: runSchema(),
      },
    },
  };
}

/** The file's text, as the script writes it and the test compares it. */
export function configSchemaText(): string {
  return `${JSON.stringify(configSchema(), null, 2)}\n`;
}

/** Marks the table of run keys in docs/format.md that `scripts/schemas.ts` writes. */
export const RUN_KEYS_TABLE_START = '<!-- run-keys: generated by scripts/schemas.ts from engine/src/adapters/registry.ts -->';
export const RUN_KEYS_TABLE_END = '<!-- /run-keys -->';

function typeCell(key: RunKey): string {
  const range = key.minimum !== undefined && key.maximum !== undefined ? ` ${key.minimum}–${key.maximum}` : '';
  return `${key.type}${range}`;
}

/** The run keys as a markdown table: the shared ones, then each agent's, an agent without keys in one row. */
export function runKeysTable(): string {
  const row = (agent: string, name: string, key: RunKey) =>
    `| ${agent} | \`${name}\` | ${typeCell(key)} | ${key.default === undefined ? '—' : `\`${String(key.default)}\``} | ${key.doc} |`;
  const lines = ['| agent | key | type | default | meaning |', '|---|---|---|---|---|'];
  for (const name of SHARED_RUN_KEYS) lines.push(row('every run', name, SHARED_RUN_KEY_DOCS[name]));
  for (const [agent, entry] of [...Object.entries(AGENTS), [MODULE_AGENT_LABEL, MODULE_AGENT] as const]) {
    const keys = Object.entries(entry.runKeys);
    if (keys.length === 0) lines.push(`| \`${agent}\` | — | | | no run keys |`);
    for (const [name, key] of keys) lines.push(row(`\`${agent}\``, name, key));
  }
  return `${RUN_KEYS_TABLE_START}\n${lines.join('\n')}\n${RUN_KEYS_TABLE_END}`;
}

/** A document with its run keys table replaced by the generated one; undefined when it has no markers. */
export function withRunKeysTable(text: string): string | undefined {
  return withGeneratedBlock(text, RUN_KEYS_TABLE_START, RUN_KEYS_TABLE_END, runKeysTable());
}
