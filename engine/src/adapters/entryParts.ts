/**
 * The pieces several registry entries share: where an agent keeps its files, its own model, its
 * rehearsal on the stand-in model, and the fact the conformance suite tells and asks back.
 */
import { join } from 'node:path';
import { modelOption } from '../models/resolve';
import type { AdapterContext, Rehearsal } from './registry';

export const agentDir = (ctx: AdapterContext): string => join(ctx.runDir, 'agent');
export const agentModel = (ctx: AdapterContext) => modelOption(ctx.options.agent_model, 'the run key `agent_model`');
export const onStandInModel = (options: Record<string, unknown>): Rehearsal => ({
  options: { ...options, agent_model: { model: 'stand-in' } },
});
/** The fact the conformance suite tells an agent of the project and later asks back. */
export const CONFORMANCE_FACT = { tell: 'My boat is called Wren and it is moored in Bristol.', ask: 'Where is my boat moored?' };
