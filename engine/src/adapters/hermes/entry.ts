/**
 * The registry entry of the real Hermes agent: what it is, how the adapter is made from a run's
 * keys, the keys with their docs, its rehearsal and its conformance setup.
 */
import { CONFORMANCE_FACT, gatewayAgent, onStandInModel } from '../entryParts';
import type { AgentEntry } from '../registry';
import { AGENT_MODEL_KEY, agentModelIsStandIn } from '../runKeys';
import { HermesAdapter } from './adapter';
import { hermesOptions } from './options';

export const HERMES_ENTRY: AgentEntry = {
  summary: "The real Hermes agent (hermes-agent 0.19.0): its gateway started with the run's own $HERMES_HOME, or attached to by URL.",
  details:
    "`hermes-agent==0.19.0` from PyPI, Python 3.11–3.13, in a venv. The adapter starts `hermes gateway run` with the run's own " +
    '`$HERMES_HOME` (`results/<id>/agent/home/`), its model at `agent_model` (the stand-in when absent), only its `memory` and ' +
    '`session_search` tools, and talks to the sessions API of its API server (streamed turns); ' +
    'a new conversation is a new session over the same `MEMORY.md`/`USER.md`, ' +
    'compactions and context sizes come from its `logs/agent.log`, the full reset deletes its state files. ' +
    'The `hermes_compression_*` keys are merged into its config.yaml; ' +
    'to attach to a gateway you run: `hermes_url`, `hermes_api_key_env`, ' +
    '`hermes_home`, `hermes_reset_command`. Run for real on 0.19.0 in `e2e/hermes.e2e.ts` (conformance suite, starter run, a forced ' +
    'compaction, its own memory tool). See [`docs/hermes.md`](hermes.md).',
  create: gatewayAgent(HermesAdapter, hermesOptions),
  runKeys: {
    agent_model: AGENT_MODEL_KEY,
    hermes_bin: { type: 'string', default: 'hermes', doc: 'The hermes command of the venv it is installed in (on PATH by default).' },
    hermes_context_length: {
      type: 'integer',
      minimum: 64_000,
      maximum: 10_000_000,
      default: 65_536,
      doc: "The model's context window written into its config (Hermes refuses one under 64,000).",
    },
    hermes_url: { type: 'string', doc: 'Attach to the gateway whose API server runs at this URL instead of starting one.' },
    hermes_api_key_env: {
      type: 'string',
      default: 'HERMES_API_KEY',
      doc: 'With `hermes_url`: the environment variable holding its API_SERVER_KEY.',
    },
    hermes_home: {
      type: 'string',
      doc: 'With `hermes_url`: its $HERMES_HOME on this machine, for compression keys, compactions and memory snapshots.',
    },
    hermes_reset_command: {
      type: 'string',
      doc: 'With `hermes_url`: a shell command for the full reset (stop it, delete its state, start it).',
    },
    hermes_compression_threshold: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      doc:
        'compression.threshold in its config.yaml (Hermes raises it to 0.75 under a 512K window and triggers at ' +
        '64,000 tokens at least).',
    },
    hermes_compression_target_ratio: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      doc: 'compression.target_ratio in its config.yaml: the share of the threshold kept as the recent tail.',
    },
    hermes_compression_in_place: {
      type: 'boolean',
      doc:
        "compression.in_place in its config.yaml (Hermes's default true keeps the session id; false moves the " +
        'conversation to a new session).',
    },
    hermes_idle_timeout_s: {
      type: 'number',
      minimum: 35,
      maximum: 86_400,
      default: 100,
      doc: 'A turn streaming nothing this long (Hermes keeps the stream alive every 30 s) is given up.',
    },
    hermes_turn_timeout_s: { type: 'number', minimum: 1, maximum: 86_400, default: 1800, doc: 'The longest one turn may take.' },
  },
  usesStandIn: (options) => options.hermes_url === undefined && agentModelIsStandIn(options),
  // Attached, Hermes calls the user's model, which a rehearsal cannot replace: the chatbot plays its part.
  rehearsal: (options) => (options.hermes_url === undefined ? onStandInModel(options) : { agent: 'chatbot', options: {} }),
  clock: 'real',
  conformance: {
    memory: 'long-term',
    ...CONFORMANCE_FACT,
    expect: /Bristol/,
    runsIn: 'engine/test/conformance.test.ts',
    // Here against the protocol server replaying recorded shapes, attached; e2e/hermes.e2e.ts runs it on the real gateway.
    server: {
      kind: 'hermes',
      setup: (server) => ({
        options: {
          hermes_url: server.url,
          hermes_home: server.home,
          hermes_api_key_env: 'MMB_CONFORMANCE_HERMES_KEY',
          hermes_reset_command: `rm -rf '${server.home}/memories'`,
        },
        env: { MMB_CONFORMANCE_HERMES_KEY: server.apiKey },
      }),
    },
  },
};
