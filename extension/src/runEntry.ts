/**
 * The choices of *Add a run for this benchmark…*, as plain values: the agents to pick (the ones
 * config.jsonc's runs already use, with their keys, then the registry's that need nothing but a
 * model), the models to pick (the stand-in, then every model config.jsonc names), a free run name,
 * and the run entry written into config.jsonc. No VS Code here, so it is tested on plain values.
 */
import { folderNameProblem, isModuleAgent, MAX_NAME_LENGTH, type Config, type ModelConfig } from '../../scenario/src';
import { AGENT_RUN_KEYS, MODULE_AGENT_RUN_KEYS } from '../../scenario/src/agents.generated';

/** The model name of the built-in stand-in. */
const STAND_IN = 'stand-in';
/**
 * Registry agents a quick pick cannot set up: each needs a key of its own (the process agent its
 * `command`, openai-http its server's URL). They are offered once a run of config.jsonc uses them.
 */
const NEEDS_OWN_KEYS = new Set(['process', 'openai-http']);

export interface AgentChoice {
  agent: string;
  /** Where it comes from: `as in rehearsal` or what it needs. */
  description: string;
  /** The run keys copied from the run of config.jsonc it comes from, its model left out (the model is picked next). */
  options: Record<string, unknown>;
  /** Whether it takes an `agent_model`: then the model is picked next. */
  takesModel: boolean;
}

export interface ModelChoice {
  label: string;
  description: string;
  /** Undefined for the stand-in: the run gets no `agent_model` and runs on it. */
  model?: ModelConfig;
}

function takesModel(agent: string): boolean {
  const keys = AGENT_RUN_KEYS[agent] ?? (isModuleAgent(agent) ? MODULE_AGENT_RUN_KEYS : {});
  return 'agent_model' in keys;
}

/** The agents to offer: config.jsonc's first (with their keys, as the user set them up), then the registry's. */
export function agentChoices(config: Pick<Config, 'runs'>): AgentChoice[] {
  const out: AgentChoice[] = [];
  for (const run of config.runs) {
    if (out.some((c) => c.agent === run.agent)) continue;
    const options = Object.fromEntries(Object.entries(run.options).filter(([key]) => key !== 'agent_model'));
    out.push({ agent: run.agent, description: `as in ${run.name}`, options, takesModel: takesModel(run.agent) });
  }
  for (const agent of Object.keys(AGENT_RUN_KEYS)) {
    if (NEEDS_OWN_KEYS.has(agent) || out.some((c) => c.agent === agent)) continue;
    const model = takesModel(agent);
    out.push({ agent, description: model ? 'on a model picked next' : 'no model', options: {}, takesModel: model });
  }
  return out;
}

/** The models to offer: the stand-in (no key, no cost), then each model config.jsonc names, once. */
export function modelChoices(config: Pick<Config, 'persona' | 'runs' | 'judges'>): ModelChoice[] {
  const out: ModelChoice[] = [{ label: STAND_IN, description: 'the built-in model: no key, no cost (a rehearsal)' }];
  const named: { model: unknown; where: string }[] = [
    { model: config.persona, where: 'the persona' },
    ...config.runs.map((r) => ({ model: r.options.agent_model, where: r.name })),
    ...Object.entries(config.judges).map(([name, model]) => ({ model, where: `judge ${name}` })),
  ];
  for (const { model, where } of named) {
    const m = asModel(model);
    if (!m || m.model === STAND_IN) continue;
    if (out.some((c) => c.model && sameModel(c.model, m))) continue;
    const at = [m.base_url, m.api_key_env ? `key in ${m.api_key_env}` : undefined].filter(Boolean).join(' · ');
    out.push({ label: m.model, description: `${at}${at ? ' · ' : ''}as ${where}`, model: m });
  }
  return out;
}

function asModel(value: unknown): ModelConfig | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.model !== 'string') return undefined;
  return {
    model: v.model,
    ...(typeof v.base_url === 'string' ? { base_url: v.base_url } : {}),
    ...(typeof v.api_key_env === 'string' ? { api_key_env: v.api_key_env } : {}),
  };
}

function sameModel(a: ModelConfig, b: ModelConfig): boolean {
  return a.model === b.model && a.base_url === b.base_url && a.api_key_env === b.api_key_env;
}

/** `max-notebook`, `max-my-agent` for `./agents/my-agent.mjs`, then `max-notebook-2` when taken. */
export function freeRunName(config: Pick<Config, 'runs'>, benchmark: string, agent: string): string {
  const agentWord = (agent.split('/').pop() ?? agent).replace(/\.[cm]?[jt]s$/, '').replace(/[^\w.-]+/g, '-') || 'agent';
  const base = `${benchmark}-${agentWord}`.slice(0, MAX_NAME_LENGTH - 3);
  const taken = new Set(config.runs.map((r) => r.name));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** Why a name typed for the new run cannot be one; undefined when it can. */
export function runNameProblem(config: Pick<Config, 'runs'>, name: string): string | undefined {
  if (name.length === 0) return 'A run needs a name';
  const problem = folderNameProblem(name);
  if (problem) return `The name is a folder of results/: ${problem}`;
  if (config.runs.some((r) => r.name === name)) return `config.jsonc has a run named ${name} already`;
  return undefined;
}

/** The run's keys as written into config.jsonc: the benchmark, the agent, its copied keys, and the model unless the stand-in. */
export function runEntry(benchmark: string, agent: AgentChoice, model: ModelChoice | undefined): Record<string, unknown> {
  return { benchmark, agent: agent.agent, ...agent.options, ...(agent.takesModel && model?.model ? { agent_model: model.model } : {}) };
}
