/**
 * Every agent adapter, by the name a run's `agent` key uses: one entry per agent holds everything
 * the project knows about it. The config schema (`scripts/schemas.ts`), the check of a run's keys,
 * rehearsals, the stand-in's start and the conformance suite all read these entries.
 */
import { isModuleAgent } from '../../../scenario/src';
import { didYouMeanSentence } from '../didYouMean';
import type { Clock } from '../clock';
import { createModel, type ModelContext } from '../models/resolve';
import { ConfigError } from '../errors';
import { CHATBOT_CONTEXT_MIN, ChatbotAdapter, chatbotContextTokens } from './chatbot';
import { FilingAdapter } from './filing';
import { HERMES_ENTRY } from './hermes/entry';
import { NotebookAdapter } from './notebook/adapter';
import { NOTEBOOK_DEFAULTS, notebookOptions } from './notebook/options';
import { OpenClawAdapter } from './openclaw';
import { openclawOptions } from './openclawOptions';
import { agentDir, agentModel, CONFORMANCE_FACT, gatewayAgent, onStandInModel } from './entryParts';
import { MODULE_ENTRY, OWN_AGENTS } from './ownAgents';
import { AGENT_MODEL_KEY, agentModelIsStandIn, checkRunOptions, type RunKey } from './runKeys';
import type { AgentAdapter } from '../protocol/agent';
import { shorten } from '../../../scenario/src/plainText';

export interface AdapterContext {
  /** The run's folder: an adapter keeps its own state under it. */
  runDir: string;
  /** The run's keys other than the shared ones (benchmark, agent, ignore_session_break). */
  options: Record<string, unknown>;
  models: ModelContext;
  clock: Clock;
  /** The name the run's `agent` gives: a module agent's path. */
  agent?: string;
  /** The workspace (the folder of config.jsonc): where a program runs and a module is looked up. */
  workspace?: string;
}

/** What a rehearsal (a run on the stand-in: no key, no cost) plays instead of a run of this agent. */
export interface Rehearsal {
  /** Another agent, when this one cannot run on the stand-in; absent, the agent stays. */
  agent?: string;
  options: Record<string, unknown>;
}

/** A protocol server a conformance test starts for an agent that talks to one. */
export interface ProtocolServer {
  url: string;
  /** A folder the server keeps its files in, as the real agent's home would. */
  home: string;
  apiKey: string;
}

/** How the conformance suite (engine/test/conformanceSuite.ts) plays an agent. */
export interface ConformanceSetup {
  /** `long-term`: it still answers after a new conversation; `context-only`: it forgets with its context. */
  memory: 'long-term' | 'context-only';
  tell: string;
  ask: string;
  expect: RegExp;
  /** Where the suite runs: in engine/test on the stand-in, or in an end-to-end test that installs the real agent. */
  runsIn: 'engine/test/conformance.test.ts' | 'e2e/openclaw.e2e.ts';
  /** The fake server the test starts first, and the run keys and environment that point the adapter at it. */
  server?: {
    kind: 'hermes' | 'openai-http';
    setup(server: ProtocolServer): { options: Record<string, unknown>; env: Record<string, string> };
  };
  /** Run keys (and, for a module, the agent's path) relative to the repository, which the test uses as the workspace. */
  fixture?: { options: Record<string, unknown>; agent?: string };
}

export interface AgentEntry {
  /** One line: what the agent is (the schema's description of the name). */
  summary: string;
  /**
   * What docs/agents.md's agents table says after the summary (markdown, one paragraph, links relative to docs/): how it works,
   * what it needs, where its docs are. Its clock and its run keys are added from the entry (`scripts/schemas.ts` writes the table).
   */
  details: string;
  create(ctx: AdapterContext): AgentAdapter;
  /** Every run key it reads besides the shared ones; any other key in its run is an error. */
  runKeys: Record<string, RunKey>;
  /** Whether a run of it with these options needs the stand-in model. */
  usesStandIn(options: Record<string, unknown>): boolean;
  rehearsal(options: Record<string, unknown>): Rehearsal;
  /**
   * Which clock the agent lives on. `virtual`: it runs in the engine's process and reads the
   * run's clock, so the Time Master wakes the persona exactly at her moment, with no real wait.
   * `real`: a program of its own on the wall clock (its own timers, heartbeats): the clock is set
   * `time_master.pre_wake_delay` before the wake-up, and that much passes for real.
   */
  clock: 'virtual' | 'real';
  conformance: ConformanceSetup;
  /** What a run of it with these options should say on stderr before it starts, one line each (without the run's name). */
  notices?(options: Record<string, unknown>): string[];
}

function filingEntry(policy: 'log' | 'consolidated' | 'dreaming', summary: string): AgentEntry {
  return {
    summary,
    details: 'It answers by keyword search over its notes (real files in `results/<id>/agent/notes/`).',
    create: (ctx) => new FilingAdapter(agentDir(ctx), policy, () => ctx.clock.now()),
    runKeys: {},
    usesStandIn: () => false,
    rehearsal: (options) => ({ options }),
    clock: 'virtual',
    conformance: {
      memory: 'long-term',
      tell: 'room-03 is flooded.',
      ask: 'What is the state of room-03 now?',
      expect: /room-03 is flooded/,
      runsIn: 'engine/test/conformance.test.ts',
    },
  };
}

export const AGENTS: Record<string, AgentEntry> = {
  chatbot: {
    summary: 'An LLM with the whole conversation in context and no memory beyond it.',
    details: 'Its model is `agent_model`, the stand-in when absent.',
    create: (ctx) =>
      new ChatbotAdapter(
        agentDir(ctx),
        createModel(agentModel(ctx), ctx.models, 'agent_model'),
        () => ctx.clock.now(),
        chatbotContextTokens(ctx.options),
      ),
    runKeys: {
      agent_model: AGENT_MODEL_KEY,
      chatbot_context_tokens: {
        type: 'integer',
        minimum: CHATBOT_CONTEXT_MIN,
        maximum: 2_000_000,
        doc: "Its model's context window: the oldest messages past this many tokens are dropped (unset: the whole conversation).",
      },
    },
    usesStandIn: agentModelIsStandIn,
    rehearsal: onStandInModel,
    clock: 'virtual',
    conformance: { memory: 'context-only', ...CONFORMANCE_FACT, expect: /Bristol/, runsIn: 'engine/test/conformance.test.ts' },
  },
  notebook: {
    summary: 'The reference agent: its model keeps markdown notes with tools, searches past conversations, compacts and consolidates.',
    details:
      'Its model (`agent_model`, the stand-in when absent) works a folder of notes with tools (list, read, write, edit, delete, ' +
      "search), reads each note's git history for old values, compacts its own context past `notebook_context_tokens` and, when a " +
      'conversation ends, checks its notes against the transcript. ' +
      'See [`docs/engine.md`](engine.md#the-notebook-agent).',
    create: (ctx) =>
      new NotebookAdapter(agentDir(ctx), createModel(agentModel(ctx), ctx.models, 'agent_model'), notebookOptions(ctx.options), () =>
        ctx.clock.now(),
      ),
    runKeys: {
      agent_model: AGENT_MODEL_KEY,
      notebook_context_tokens: {
        type: 'integer',
        minimum: 2000,
        maximum: 2_000_000,
        default: NOTEBOOK_DEFAULTS.contextTokens,
        doc: 'Past this many tokens in its context, it summarises older turns.',
      },
      notebook_max_tool_rounds: {
        type: 'integer',
        minimum: 1,
        maximum: 100,
        default: NOTEBOOK_DEFAULTS.maxToolRounds,
        doc: 'Model calls with tools in one turn before the turn is an error.',
      },
    },
    usesStandIn: agentModelIsStandIn,
    rehearsal: onStandInModel,
    clock: 'virtual',
    conformance: { memory: 'long-term', ...CONFORMANCE_FACT, expect: /Bristol/, runsIn: 'engine/test/conformance.test.ts' },
  },
  openclaw: {
    summary: "The real OpenClaw agent (needs Node 24): its gateway started on loopback with the run's own state, or attached to.",
    details:
      'Tested with `openclaw@2026.9.6`. Its state and workspace are `results/<id>/agent/`, its model provider points at ' +
      '`agent_model` (the stand-in when absent); `openclaw_url` and `openclaw_token_env` attach to a running gateway; ' +
      "`openclaw_node_bin` is a folder with Node 24's `node`, `openclaw_compaction` its " +
      '`agents.defaults.compaction`. The protocol: [`docs/openclaw-protocol.md`](openclaw-protocol.md).',
    create: gatewayAgent(OpenClawAdapter, openclawOptions),
    runKeys: {
      agent_model: AGENT_MODEL_KEY,
      openclaw_bin: { type: 'string', default: 'openclaw', doc: 'The openclaw command (on PATH by default).' },
      openclaw_node_bin: { type: 'string', doc: "A folder holding Node 24's `node`, put first on the gateway's PATH." },
      openclaw_url: { type: 'string', doc: 'Attach to the gateway running at this URL instead of starting one.' },
      openclaw_token_env: {
        type: 'string',
        default: 'OPENCLAW_GATEWAY_TOKEN',
        doc: 'The environment variable holding the token of the gateway attached to.',
      },
      openclaw_compaction: { type: 'object', doc: "OpenClaw's `agents.defaults.compaction` settings, written into its config." },
      openclaw_session_key: { type: 'string', default: 'agent:main:main', doc: 'The gateway session the run talks to.' },
    },
    usesStandIn: agentModelIsStandIn,
    rehearsal: onStandInModel,
    clock: 'real',
    // With the stand-in as its model OpenClaw writes no memory files, so after sessions.reset it has nothing to recall.
    conformance: { memory: 'context-only', ...CONFORMANCE_FACT, expect: /moored in Bristol/, runsIn: 'e2e/openclaw.e2e.ts' },
  },
  hermes: HERMES_ENTRY,
  ...OWN_AGENTS,
  'filing-log': filingEntry('log', "No model: the filing experiment's policy that logs every observation in a new note."),
  'filing-consolidated': filingEntry('consolidated', 'No model: the filing policy that keeps one note per room, updated in place.'),
  'filing-dreaming': filingEntry(
    'dreaming',
    'No model: the consolidated filing policy plus a pass that corrects notes against later evidence.',
  ),
};

/** Every module agent's entry (`"agent": "./agents/my-agent.mjs"`): the path is the name. */
export const MODULE_AGENT: AgentEntry = MODULE_ENTRY;

/** The entry of an agent name, or undefined. */
function lookUp(name: string): AgentEntry | undefined {
  if (isModuleAgent(name)) return MODULE_AGENT;
  return Object.hasOwn(AGENTS, name) ? AGENTS[name] : undefined;
}

/** The entry of an agent name (a module path included), or a ConfigError that names the agents there are. */
export function agentEntry(name: string): AgentEntry {
  const entry = lookUp(name);
  if (!entry) {
    const names = Object.keys(AGENTS).sort();
    const shown = shorten(name, 80);
    const choices = `use one of ${names.join(', ')}, or a module such as "./agents/my-agent.mjs"`;
    throw new ConfigError(`there is no agent adapter "${shown}": ${choices}.${didYouMeanSentence(name, names)}`);
  }
  return entry;
}

/** The adapter of a run, after its options are checked against the keys its entry declares. */
export function createAdapter(name: string, ctx: AdapterContext): AgentAdapter {
  const entry = agentEntry(name);
  checkRunOptions(name, ctx.options, entry.runKeys);
  return entry.create({ ...ctx, agent: name });
}

/** Whether a run's adapter needs the stand-in model; an unknown agent needs none (its run fails on its own). */
export function adapterUsesStandIn(agent: string, options: Record<string, unknown>): boolean {
  return lookUp(agent)?.usesStandIn(options) ?? false;
}

/**
 * What a run should say on stderr before it starts, one line each: that its agent is handed the persona's key
 * (its `agent_model.api_key_env` names the persona's variable: allowed, and common with one provider for both),
 * and its entry's own notices. `personaKeyEnv` is the persona's variable when she runs on a real model.
 */
export function startNotices(
  agent: string,
  options: Record<string, unknown>,
  personaKeyEnv: string | undefined,
  env: Readonly<Record<string, string | undefined>> = {},
): string[] {
  const model = options.agent_model;
  const keyEnv = typeof model === 'object' && model !== null ? (model as { api_key_env?: unknown }).api_key_env : undefined;
  const notices = lookUp(agent)?.notices?.(options) ?? [];
  if (personaKeyEnv === undefined || typeof keyEnv !== 'string' || agentModelIsStandIn(options)) return notices;
  const personaKey = env[personaKeyEnv];
  // The same key under another name is the same key handed over: said too, naming both variables, never the key.
  const shared =
    keyEnv === personaKeyEnv
      ? `names ${personaKeyEnv}, the persona's own variable`
      : personaKey && env[keyEnv] === personaKey
        ? `names ${keyEnv}, which holds the same key as the persona's ${personaKeyEnv}`
        : undefined;
  if (!shared) return notices;
  return [
    `its agent is handed the persona's key: \`agent_model.api_key_env\` ${shared} (give the agent a key of its own to keep them apart).`,
    ...notices,
  ];
}

/** The agent and options a rehearsal of this run plays. */
export function rehearsalOf(agent: string, options: Record<string, unknown>): { agent: string; options: Record<string, unknown> } {
  const rehearsal = agentEntry(agent).rehearsal(options);
  return { agent: rehearsal.agent ?? agent, options: rehearsal.options };
}

/** The real time the Time Master leaves before a wake-up for an agent: none on the virtual clock. */
export function preWakeDelayMs(agent: string, configuredMs: number): number {
  return lookUp(agent)?.clock === 'virtual' ? 0 : configuredMs;
}
