/**
 * The registry entries of the three ways to bring one's own agent without forking the project
 * (docs/agents.md): a program over the agent protocol (`process`), an OpenAI-compatible server
 * that keeps the conversation (`openai-http`), and a module of the workspace (`./…mjs`).
 */
import { dirname, join } from 'node:path';
import { ConfigError } from '../errors';
import { modelOption, STAND_IN, MIN_KEY_LENGTH } from '../models/resolve';
import { runSecrets } from '../secrets';
import { probeSandbox } from './agentSandbox';
import { ModuleAdapter, modulePath } from './moduleAgent';
import { OpenAiHttpAdapter, openAiHttpOptions } from './openaiHttp';
import { ProcessAdapter, processCommand } from './process';
import { agentEnvironment, environmentRequest } from './processEnv';
import type { AdapterContext, AgentEntry } from './registry';
import { AGENT_MODEL_KEY, agentModelIsStandIn } from './runKeys';

const BOAT = { tell: 'My boat is called Wren and it is moored in Bristol.', ask: 'Where is my boat moored?', expect: /Bristol/ };
const onStandInModel = (options: Record<string, unknown>) => ({ options: { ...options, agent_model: { model: 'stand-in' } } });

/** The workspace of a run: the folder of config.jsonc, above `results/<run>/`. */
export function workspaceOf(ctx: AdapterContext): string {
  return ctx.workspace ?? dirname(dirname(ctx.runDir));
}

/** `agent_model` as an OpenAI-compatible endpoint for a program or module of the user's. */
export function modelEndpoint(ctx: AdapterContext): { baseUrl: string; model: string; apiKey: string } | undefined {
  const model = modelOption(ctx.options.agent_model ?? { model: STAND_IN }, 'the run key `agent_model`');
  if (model.model === STAND_IN)
    return ctx.models.standInUrl ? { baseUrl: ctx.models.standInUrl, model: STAND_IN, apiKey: STAND_IN } : undefined;
  if (!model.base_url) throw new ConfigError(`the run key \`agent_model\`: model "${model.model}" needs a base_url.`);
  const apiKey = model.api_key_env ? ctx.models.env[model.api_key_env] : 'none';
  if (!apiKey) throw new ConfigError(`the agent's model needs an API key: set the environment variable ${model.api_key_env}.`);
  if (model.api_key_env && apiKey.length < MIN_KEY_LENGTH)
    throw new ConfigError(`the key in ${model.api_key_env} is shorter than ${MIN_KEY_LENGTH} characters: that is not an API key.`);
  if (model.api_key_env) runSecrets.add(apiKey);
  return { baseUrl: model.base_url, model: model.model, apiKey };
}

/** The program's environment: the allow-list of processEnv.ts, plus its model as the protocol names it. */
function processEnv(ctx: AdapterContext): Record<string, string> {
  const model = modelEndpoint(ctx);
  const engine: Record<string, string> = model
    ? { MMB_MODEL_BASE_URL: model.baseUrl, MMB_MODEL: model.model, MMB_MODEL_API_KEY: model.apiKey }
    : {};
  return agentEnvironment(environmentRequest(ctx.options), {
    env: ctx.models.env,
    engine,
    platform: process.platform,
    ...(ctx.models.personaKeyEnv ? { personaKeyEnv: ctx.models.personaKeyEnv } : {}),
  });
}

/** `agent_sandbox`: on by default where bwrap works; asked for where it does not, a config error. */
function processSandbox(ctx: AdapterContext): { bwrap: string } | 'none' {
  if (ctx.options.agent_sandbox === false) return 'none';
  const probe = probeSandbox();
  if (probe.works) return { bwrap: probe.bwrap };
  if (ctx.options.agent_sandbox === true) {
    throw new ConfigError(
      `the run key \`agent_sandbox\` is true, but the sandbox does not work here: ${probe.reason}; or set "agent_sandbox": false.`,
    );
  }
  return 'none';
}

/** The one-line notice of a run whose program runs without the sandbox only because it does not work here. */
function sandboxNotices(options: Record<string, unknown>): string[] {
  if (options.agent_sandbox !== undefined) return [];
  const probe = probeSandbox();
  return probe.works
    ? []
    : [`its program runs without a sandbox (${probe.reason}): it can read the engine's environment (docs/agent-protocol.md).`];
}

export const PROCESS_ENTRY: AgentEntry = {
  summary: 'Any program that speaks the agent protocol (docs/agent-protocol.md) over its stdio, in any language.',
  details:
    '`"command": ["python3", "agents/my_agent.py"]`, run in the workspace; `agent_model` is handed to it as `MMB_MODEL_BASE_URL` ' +
    'and friends; `agent_sandbox` runs it in a bubblewrap sandbox, on where bwrap works; ' +
    '`env` and `env_set` are the only variables it gets ' +
    'besides PATH, HOME, the locale and `MMB_*` ([`docs/agents.md`](agents.md)). Examples in Python and Node: `examples/agents/`.',
  create: (ctx) =>
    new ProcessAdapter(join(ctx.runDir, 'agent'), ctx.runDir, {
      command: processCommand(ctx.options.command),
      cwd: workspaceOf(ctx),
      env: processEnv(ctx),
      timeoutMs: (typeof ctx.options.process_timeout === 'number' ? ctx.options.process_timeout : 300) * 1000,
      sandbox: processSandbox(ctx),
    }),
  notices: sandboxNotices,
  runKeys: {
    command: { type: 'strings', doc: 'The program and its arguments, run in the workspace, e.g. ["python3", "agents/my_agent.py"].' },
    // The program gets it as MMB_MODEL_BASE_URL, MMB_MODEL and MMB_MODEL_API_KEY (docs/agent-protocol.md).
    agent_model: AGENT_MODEL_KEY,
    process_timeout: {
      type: 'integer',
      minimum: 1,
      maximum: 3600,
      default: 300,
      doc: 'Seconds one request to the program may take before the run stops with an error.',
    },
    // The program gets no other variable of the engine's than PATH, HOME, LANG, LC_*, TZ, TMPDIR, TERM and Windows' own (processEnv.ts).
    env: {
      type: 'env-names',
      doc:
        "Variables of the engine's environment handed to the program, by name or as a prefix ending in *, e.g. " +
        '["OPENAI_API_KEY", "MY_AGENT_*"].',
    },
    env_set: {
      type: 'env-values',
      doc: 'Variables set for the program, not secrets (those go in the environment and in `env`), e.g. { "MY_AGENT_MODE": "quiet" }.',
    },
    agent_sandbox: {
      type: 'boolean',
      doc:
        "Runs the program in a bubblewrap sandbox: its own pid namespace (the engine's environment out of reach), " +
        'only its MMB_AGENT_HOME writable. On by default where bwrap works; off, with a notice, where it does not.',
    },
  },
  usesStandIn: agentModelIsStandIn,
  rehearsal: onStandInModel,
  clock: 'real',
  conformance: {
    memory: 'long-term',
    ...BOAT,
    runsIn: 'engine/test/conformance.test.ts',
    fixture: { options: { command: ['node', 'examples/agents/my-agent.mjs'] } },
  },
};

export const OPENAI_HTTP_ENTRY: AgentEntry = {
  summary:
    'An agent serving an OpenAI-compatible API that keeps the conversation itself, named by a session field, a header or ' +
    'the Responses API.',
  details:
    "Such as nanobot's `serve`. `http_conversation` names a conversation by `body`, `header`, `conversation` or " +
    '`previous_response_id`; a new conversation is a new name.',
  create: (ctx) => new OpenAiHttpAdapter(join(ctx.runDir, 'agent'), openAiHttpOptions(ctx.options, ctx.models.env), () => ctx.clock.now()),
  runKeys: {
    http_base_url: { type: 'string', doc: "The agent's OpenAI-compatible URL, e.g. http://127.0.0.1:8900/v1." },
    http_api_key_env: { type: 'string', doc: 'The environment variable holding its API key, when it asks for one.' },
    http_model: { type: 'string', default: 'agent', doc: 'The `model` sent in each request.' },
    http_conversation: {
      type: 'string',
      default: 'body',
      doc:
        'How a conversation is named: body (a field of /chat/completions), header, conversation or ' +
        'previous_response_id (the Responses API).',
    },
    http_session_field: {
      type: 'string',
      doc: "The body field (default session_id) or header (default X-Session-Id) that carries the conversation's name.",
    },
    http_timeout: { type: 'integer', minimum: 1, maximum: 3600, default: 300, doc: 'Seconds one request may take.' },
    http_reset_command: {
      type: 'string',
      doc: 'A shell command for the full reset (its memory files deleted); without it a reset only starts a new conversation.',
    },
  },
  usesStandIn: () => false,
  // The agent calls its own model, which a rehearsal cannot replace: the chatbot plays its part.
  rehearsal: () => ({ agent: 'chatbot', options: {} }),
  clock: 'real',
  conformance: {
    memory: 'context-only',
    ...BOAT,
    runsIn: 'engine/test/conformance.test.ts',
    server: {
      kind: 'openai-http',
      setup: (server) => ({
        options: { http_base_url: server.url, http_api_key_env: 'MMB_CONFORMANCE_HTTP_KEY' },
        env: { MMB_CONFORMANCE_HTTP_KEY: server.apiKey },
      }),
    },
  },
};

/** The entry of every module agent: the run's `agent` is the path, read by `isModuleAgent`. */
export const MODULE_ENTRY: AgentEntry = {
  summary: 'A JavaScript or TypeScript module of the workspace that exports the adapter interface (its types: agent.d.ts).',
  details:
    "`import type { AgentFactory } from 'marathon-mem-bench/agent'`; your own code with your rights, loaded from the workspace only.",
  create: (ctx) => {
    const workspace = workspaceOf(ctx);
    const file = modulePath(ctx.agent ?? '', workspace);
    const options = ctx.options.module_options;
    return new ModuleAdapter(file, {
      home: join(ctx.runDir, 'agent'),
      workspace,
      model: modelEndpoint(ctx),
      now: () => ctx.clock.now(),
      options: typeof options === 'object' && options !== null ? (options as Record<string, unknown>) : {},
    });
  },
  runKeys: {
    // The module gets it as context.model, an OpenAI-compatible endpoint.
    agent_model: AGENT_MODEL_KEY,
    module_options: { type: 'object', doc: 'Settings handed to the module as context.options.' },
  },
  usesStandIn: agentModelIsStandIn,
  rehearsal: onStandInModel,
  clock: 'virtual',
  conformance: {
    memory: 'long-term',
    ...BOAT,
    runsIn: 'engine/test/conformance.test.ts',
    fixture: { options: {}, agent: './examples/agents/my-agent-module.mjs' },
  },
};

/** The named ways in (the module agent is by path, not by name): docs/agents.md's table of agents users bring lists these. */
export const OWN_AGENTS: Record<string, AgentEntry> = { process: PROCESS_ENTRY, 'openai-http': OPENAI_HTTP_ENTRY };
