/** Every agent adapter, by the name a run's `agent` key uses. One line registers an adapter. */
import { join } from 'node:path';
import { didYouMean, nearNames } from '../../../scenario/src';
import type { Clock } from '../clock';
import { createModel, modelOption, type ModelContext } from '../models/resolve';
import { ConfigError } from '../errors';
import { ChatbotAdapter } from './chatbot';
import { FilingAdapter } from './filing';
import { HermesAdapter, hermesOptions } from './hermes';
import { NotebookAdapter, notebookOptions } from './notebook/adapter';
import { OpenClawAdapter, openclawOptions } from './openclaw';
import type { AgentAdapter } from './types';

export interface AdapterContext {
  /** The run's folder: an adapter keeps its own state under it. */
  runDir: string;
  /** The run's keys other than benchmark, agent and ignore_session_break. */
  options: Record<string, unknown>;
  models: ModelContext;
  clock: Clock;
}

type Factory = (ctx: AdapterContext) => AgentAdapter;

export const ADAPTERS: Record<string, Factory> = {
  'filing-log': (ctx) => new FilingAdapter(join(ctx.runDir, 'agent'), 'log', () => ctx.clock.now()),
  'filing-consolidated': (ctx) => new FilingAdapter(join(ctx.runDir, 'agent'), 'consolidated', () => ctx.clock.now()),
  'filing-dreaming': (ctx) => new FilingAdapter(join(ctx.runDir, 'agent'), 'dreaming', () => ctx.clock.now()),
  openclaw: (ctx) => new OpenClawAdapter(join(ctx.runDir, 'agent'),
    openclawOptions(ctx.options, ctx.models.env, modelOption(ctx.options.agent_model, 'the run key `agent_model`'), ctx.models.standInUrl), () => ctx.clock.now()),
  hermes: (ctx) => new HermesAdapter(join(ctx.runDir, 'agent'), hermesOptions(ctx.options, ctx.models.env), () => ctx.clock.now()),
  chatbot: (ctx) => new ChatbotAdapter(join(ctx.runDir, 'agent'), createModel(modelOption(ctx.options.agent_model, 'the run key `agent_model`'), ctx.models, 'agent_model'), () => ctx.clock.now()),
  notebook: (ctx) => new NotebookAdapter(join(ctx.runDir, 'agent'), createModel(modelOption(ctx.options.agent_model, 'the run key `agent_model`'), ctx.models, 'agent_model'), notebookOptions(ctx.options), () => ctx.clock.now()),
};

export function createAdapter(name: string, ctx: AdapterContext): AgentAdapter {
  const factory = ADAPTERS[name];
  if (!factory) {
    const names = Object.keys(ADAPTERS).sort();
    throw new ConfigError(`there is no agent adapter "${name}": use one of ${names.join(', ')}.${didYouMean(nearNames(name, names))}`);
  }
  return factory(ctx);
}

/** Whether a run's adapter needs the stand-in model. */
export function adapterUsesStandIn(agent: string, options: Record<string, unknown>): boolean {
  if (agent.startsWith('filing-') || agent === 'hermes') return false;
  const m = options.agent_model as { model?: unknown } | undefined;
  return m === undefined || m?.model === 'stand-in';
}
