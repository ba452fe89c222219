/**
 * The pieces several registry entries share: where an agent keeps its files, its own model, its
 * rehearsal on the stand-in model, the fact the conformance suite tells and asks back, and how an
 * agent with its own gateway (OpenClaw, Hermes) is made.
 */
import { join } from 'node:path';
import { modelOption } from '../models/resolve';
import type { AgentAdapter } from '../protocol/agent';
import type { AdapterContext, Rehearsal } from './registry';

export const agentDir = (ctx: AdapterContext): string => join(ctx.runDir, 'agent');
export const agentModel = (ctx: AdapterContext) => modelOption(ctx.options.agent_model, 'the run key `agent_model`');
export const onStandInModel = (options: Record<string, unknown>): Rehearsal => ({
  options: { ...options, agent_model: { model: 'stand-in' } },
});
/** The fact the conformance suite tells an agent of the project and later asks back. */
export const CONFORMANCE_FACT = { tell: 'My boat is called Wren and it is moored in Bristol.', ask: 'Where is my boat moored?' };

/** How an agent with its own gateway reads its options from the run keys, the environment and its model. */
type GatewayOptionsOf<Options> = (
  options: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  model: ReturnType<typeof agentModel>,
  standInUrl: string | undefined,
  personaKeyEnv?: string,
) => Options;

/** The `create` of an agent with its own gateway (OpenClaw, Hermes): its folder, its options, the run's clock. */
export function gatewayAgent<Options>(
  Adapter: new (dir: string, options: Options, now: () => Date) => AgentAdapter,
  optionsOf: GatewayOptionsOf<Options>,
): (ctx: AdapterContext) => AgentAdapter {
  return (ctx) => {
    const options = optionsOf(ctx.options, ctx.models.env, agentModel(ctx), ctx.models.standInUrl, ctx.models.personaKeyEnv);
    return new Adapter(agentDir(ctx), options, () => ctx.clock.now());
  };
}
