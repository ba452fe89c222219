/**
 * What a persona tool is: its description and argument schema for the model, with the bounds
 * every argument is checked against before its handler runs, and the handler itself.
 */
import type { RunContext } from '../context';
import type { Effect } from '../../state/runState';
import type { Misbehaviour } from '../../protocol/chaos';

/** One argument of a tool: the JSON schema the model sees, which is also what the engine checks. */
export type ArgSchema = { description: string; invalid?: string } & (
  | { type: 'string'; maxLength: number }
  | { type: 'integer'; minimum: number; maximum: number; enum?: number[] }
  | { type: 'number'; minimum: number; maximum: number }
  | { type: 'array'; items: { type: 'string'; maxLength: number }; maxItems: number }
);

export interface ToolOutcome {
  content: string;
  effects: Effect[];
  /** Set by `next_phase` after the last phase: the run is finished once the result is journaled. */
  completesScenario?: true;
  /** What the model did wrong, when the engine refused or corrected the call: counted in the report. */
  misbehaviour?: Misbehaviour;
}

/** A handler's view of the call: the run it changes and the engine's id of the call. */
export interface ToolCallContext {
  readonly run: RunContext;
  readonly callId: string;
}

export type ToolArgs = Readonly<Record<string, unknown>>;

export interface PersonaTool {
  /** The name the model calls it by: lowercase, digits and `_`. */
  readonly name: string;
  /**
   * Where the model sees it among the tools (1 first): fixed, so that a new tool, taking the next
   * number after the highest, leaves the others' order and the cached prefix of requests as they were.
   */
  readonly position: number;
  /** What the model reads about the tool; docs/format.md shows the same words (`npm run schemas`). */
  readonly description: string;
  /** When to call it, one line of the system prompt's "Your tools" (`npm run schemas` writes it there). */
  readonly whenToUse: string;
  /** What authors should know that the model is not told (refusals, bounds), shown beside it in docs/format.md. */
  readonly noteForAuthors?: string;
  readonly parameters: Readonly<Record<string, ArgSchema>>;
  readonly required: readonly string[];
  /** A valid call's arguments, shown in errors so the model can copy the shape. */
  readonly example: string;
  /** Runs with arguments already checked against `parameters`; returns an error text rather than throwing. */
  handle(args: ToolArgs, call: ToolCallContext): ToolOutcome | Promise<ToolOutcome>;
}

export const fail = (message: string, misbehaviour?: Misbehaviour): ToolOutcome => ({
  content: `Error: ${message}`,
  effects: [],
  ...(misbehaviour ? { misbehaviour } : {}),
});

/** The longest text the persona may send the agent in one message. */
export const MAX_MESSAGE_CHARS = 20_000;
/** The longest fact text, sheet name or id a tool accepts. */
export const MAX_FACT_CHARS = 2_000;
export const MAX_NAME_CHARS = 200;

export const text = (description: string, maxLength: number, invalid?: string): ArgSchema => ({
  type: 'string',
  description,
  maxLength,
  ...(invalid ? { invalid } : {}),
});
export const sheetArg: ArgSchema = text('The sheet name, e.g. "family".', MAX_NAME_CHARS, '`sheet` must be a sheet name such as "family".');
