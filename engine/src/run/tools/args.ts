/**
 * A tool call's arguments, as untrusted as anything a model writes: bounded before they are
 * parsed, then every argument checked against the tool's schema, so a handler only ever sees
 * values of the types it declares.
 */
import type { Misbehaviour } from '../../protocol/chaos';
import type { ArgSchema, PersonaTool, ToolArgs } from './types';

/** Arguments past this size are refused unparsed: no tool needs more. */
export const MAX_ARGUMENT_CHARS = 64 * 1024;

/** A refusal, with the misbehaviour it answers (a score, a message too long: by the argument at fault). */
export type ParsedArgs = { ok: true; args: ToolArgs } | { ok: false; error: string; kind: Misbehaviour };

/** Parses and checks the arguments of a call to `tool`: an object of the declared types, or why not. */
export function checkArguments(name: string, tool: PersonaTool, raw: unknown): ParsedArgs {
  const no = (error: string, kind: Misbehaviour): ParsedArgs => ({ ok: false, error, kind });
  if (typeof raw !== 'string') return no(`the arguments of ${name} must be a JSON object, e.g. ${tool.example}.`, 'invalid-json');
  if (raw.length > MAX_ARGUMENT_CHARS)
    return no(
      `the arguments of ${name} are longer than ${MAX_ARGUMENT_CHARS} characters. Call it again with shorter values, e.g. ${tool.example}.`,
      'long-message',
    );
  let parsed: unknown;
  try {
    parsed = raw.trim() === '' ? {} : JSON.parse(raw);
  } catch {
    return no(`the arguments of ${name} are not valid JSON. Call it again with a JSON object, e.g. ${tool.example}.`, 'invalid-json');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return no(`the arguments of ${name} must be a JSON object, e.g. ${tool.example}.`, 'invalid-json');
  const args = parsed as Record<string, unknown>;
  const missing = tool.required.filter((key) => !Object.hasOwn(args, key));
  if (missing.length)
    return no(`${name} needs ${missing.map((key) => `\`${key}\``).join(', ')}, e.g. ${tool.example}.`, 'missing-argument');
  // Only declared arguments reach the handler (so its keys are ours, never the model's); others are ignored.
  const checked: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(tool.parameters)) {
    if (!Object.hasOwn(args, key)) continue;
    const value = normalise(schema, args[key]);
    const problem = problemWith(schema, value);
    if (problem) return no(schema.invalid ?? `\`${key}\` must be ${problem}, e.g. ${tool.example}.`, kindOf(key, schema, value));
    checked[key] = value;
  }
  return { ok: true, args: checked };
}

/** Which misbehaviour a refused argument is: a score out of 0–10 or in words, a text past its length, else a wrong type. */
function kindOf(key: string, schema: ArgSchema, value: unknown): Misbehaviour {
  if (key === 'score') return 'bad-score';
  return schema.type === 'string' && typeof value === 'string' ? 'long-message' : 'mistyped-argument';
}

/** Models often pass a single id bare where a list is asked for: that one is taken as a list. */
function normalise(schema: ArgSchema, value: unknown): unknown {
  return schema.type === 'array' && typeof value === 'string' ? [value] : value;
}

/** What the value should have been, or undefined when it fits the schema. */
function problemWith(schema: ArgSchema, value: unknown): string | undefined {
  switch (schema.type) {
    case 'string':
      if (typeof value !== 'string') return 'a string';
      return value.length > schema.maxLength ? `at most ${schema.maxLength} characters long (it is ${value.length})` : undefined;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) return 'a whole number';
      if (schema.enum && !schema.enum.includes(value)) return `one of ${schema.enum.join(', ')}`;
      return value < schema.minimum || value > schema.maximum ? `a whole number from ${schema.minimum} to ${schema.maximum}` : undefined;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value) || value < schema.minimum || value > schema.maximum)
        return `a number from ${schema.minimum} to ${schema.maximum}`;
      return undefined;
    case 'array': {
      if (!Array.isArray(value)) return 'a list of strings';
      if (value.length > schema.maxItems) return `a list of at most ${schema.maxItems} items (it has ${value.length})`;
      const bad = value.findIndex((item) => typeof item !== 'string' || item.length > schema.items.maxLength);
      return bad >= 0 ? `a list of strings of at most ${schema.items.maxLength} characters (item ${bad + 1} is not)` : undefined;
    }
  }
}
