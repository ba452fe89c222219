/**
 * The persona's tools (docs/format.md, "The persona's tools"), one record generated from the
 * tools' files (all.generated.ts, `npm run schemas`): each entry holds the tool's schema and its
 * handler, so the schemas sent to the model are derived from the handlers there are, and a tool
 * cannot exist without one. A bad call returns an error text the model can act on; a handler
 * never throws on what the model wrote.
 */
import type { ToolSpec } from '../../models/chat';
import type { RunContext } from '../context';
import type { ToolCall } from '../../protocol/chat';
import { checkArguments } from './args';
import { PERSONA_TOOLS } from './all.generated';
import { fail, type PersonaTool, type ToolArgs, type ToolOutcome } from './types';
import { shorten } from '../../../../scenario/src/plainText';

export { PERSONA_TOOLS };

export type ToolName = keyof typeof PERSONA_TOOLS;

const isToolName = (name: string): name is ToolName => Object.hasOwn(PERSONA_TOOLS, name);

/** The tools as the model sees them: the schema without the engine's own error texts. */
export const TOOL_SPECS: ToolSpec[] = Object.entries(PERSONA_TOOLS).map(([name, tool]: [string, PersonaTool]) => ({
  type: 'function',
  function: {
    name,
    description: tool.description,
    parameters: {
      type: 'object',
      properties: Object.fromEntries(
        Object.entries(tool.parameters).map(([key, schema]) => [
          key,
          Object.fromEntries(Object.entries(schema).filter(([field]) => field !== 'invalid')),
        ]),
      ),
      required: [...tool.required],
      additionalProperties: false,
    },
  },
}));

export const TOOL_NAMES: ReadonlySet<string> = new Set(Object.keys(PERSONA_TOOLS));

/**
 * The tools a run offers: all of them, but `wait` only on a benchmark with dated times. In a
 * single-day benchmark `wait` would sleep in real time (up to 36 hours) for nothing.
 */
export function offeredToolSpecs(run: Pick<RunContext, 'offersWait'>): ToolSpec[] {
  return run.offersWait ? TOOL_SPECS : TOOL_SPECS_WITHOUT_WAIT;
}

/** One array for every request, so that its JSON is encoded once (`models/requestBody.ts`). */
const TOOL_SPECS_WITHOUT_WAIT = TOOL_SPECS.filter((spec) => spec.function.name !== 'wait');

/** Parses a tool call's arguments: an object of the types the tool declares, or an error the model can act on. */
export function parseArgs(
  name: string,
  raw: unknown,
  offered: ReadonlySet<string> = TOOL_NAMES,
): { ok: true; args: ToolArgs } | { ok: false; outcome: ToolOutcome } {
  if (!isToolName(name) || !offered.has(name)) {
    const shown = shorten(name, 80);
    return { ok: false, outcome: fail(`there is no tool \`${shown}\`. The tools are ${[...offered].join(', ')}.`, 'unknown-tool') };
  }
  const parsed = checkArguments(name, PERSONA_TOOLS[name], raw);
  return parsed.ok ? parsed : { ok: false, outcome: fail(parsed.error, parsed.kind) };
}

/** Carries out one tool call of the persona and journals its result under the call's engine id. */
export async function runToolCall(run: RunContext, call: ToolCall): Promise<ToolOutcome> {
  const name = typeof call.function.name === 'string' ? call.function.name : '';
  const parsed = parseArgs(name, call.function.arguments, new Set(offeredToolSpecs(run).map((spec) => spec.function.name)));
  const outcome = parsed.ok ? await PERSONA_TOOLS[name as ToolName].handle(parsed.args, { run, callId: call.id }) : parsed.outcome;
  run.record({
    type: 'tool-done',
    at: run.now(),
    callId: call.id,
    name: name.slice(0, 200),
    content: outcome.content,
    effects: outcome.effects,
    ...(outcome.misbehaviour ? { misbehaviour: outcome.misbehaviour } : {}),
  });
  return outcome;
}

export { factsAdd, factsEdit, factsGetUntold, factsMarkTold, factsRead } from './facts';
export { logEvaluation } from './logEvaluation';
export { parseUntil } from './wait';
export { fail, type PersonaTool, type ToolArgs, type ToolOutcome } from './types';
