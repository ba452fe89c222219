/**
 * A dataset's item schema, declared as a value, and the check of an item against it: the first
 * field that differs, by its path (`haystack_sessions[2][0].role`), what was expected and what
 * stands there, so a file of another schema is one line. Fields the schema does not name are let
 * through: a newer release of a dataset may add some.
 */

export type Shape =
  | 'string'
  | 'number'
  | 'boolean'
  | 'string or number'
  | { list: Shape }
  | { fields: Readonly<Record<string, Shape>>; optional?: readonly string[] };

export interface ShapeDifference {
  /** The field's path from the item: `question_id`, `haystack_sessions[2][0].role`. */
  field: string;
  expected: string;
  found: string;
}

/** What a shape is called in a message. */
export function shapeName(shape: Shape): string {
  if (typeof shape === 'string') return shape === 'string or number' ? 'a string or a number' : `a ${shape}`;
  if ('list' in shape) return `a list of ${plural(shape.list)}`;
  return 'an object';
}

function plural(shape: Shape): string {
  if (typeof shape === 'string') return shape === 'string or number' ? 'strings or numbers' : `${shape}s`;
  if ('list' in shape) return 'lists';
  return 'objects';
}

/** What stands in a field, as a message names it. */
export function foundName(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `a string (${JSON.stringify(value.length > 24 ? `${value.slice(0, 24)}…` : value)})`;
  return `a ${typeof value} (${String(value).slice(0, 24)})`;
}

/** The first field of `value` that differs from `shape`, depth first in the schema's order; undefined when it fits. */
export function firstDifference(value: unknown, shape: Shape, path = ''): ShapeDifference | undefined {
  const differs = (): ShapeDifference => ({ field: path || '(the item)', expected: shapeName(shape), found: foundName(value) });
  if (shape === 'string or number') return typeof value === 'string' || typeof value === 'number' ? undefined : differs();
  if (typeof shape === 'string') return typeof value === shape ? undefined : differs();
  if ('list' in shape) {
    if (!Array.isArray(value)) return differs();
    for (let i = 0; i < value.length; i++) {
      const inner = firstDifference(value[i], shape.list, `${path}[${i}]`);
      if (inner) return inner;
    }
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return differs();
  const record = value as Record<string, unknown>;
  for (const [key, fieldShape] of Object.entries(shape.fields)) {
    const field = path ? `${path}.${key}` : key;
    if (!Object.hasOwn(record, key)) {
      if (shape.optional?.includes(key)) continue;
      return { field, expected: shapeName(fieldShape), found: foundName(undefined) };
    }
    const inner = firstDifference(record[key], fieldShape, field);
    if (inner) return inner;
  }
  return undefined;
}
