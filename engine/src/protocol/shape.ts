/**
 * Shapes of the JSON files the engine reads back (`state.json`, the journal's lines, `run.json`,
 * `summary.json`): a few combinators that say what a value must be, and `problemOf`, the first place
 * a value differs, as a path and what is wrong there. Every file of `results/` is untrusted: a
 * user, a copy, a full disk or another program may have left anything in it.
 *
 * The walk recurses on the shape, never on the value, so its depth is the shape's own (a dozen
 * levels); its time is linear in the value. Properties are read as own properties only
 * (`Object.hasOwn`), so nothing is ever found on `Object.prototype`, and an object or a record
 * holding a `__proto__` key is refused (`Object.assign` onto a plain object would take it as the
 * object's prototype).
 */
import { shorten } from '../../../scenario/src/plainText';

/** Where a value differs from its shape: `grades["1.1"][0].score`, and what is wrong there. */
export interface ShapeProblem {
  readonly path: string;
  readonly what: string;
}

export interface Shape<T> {
  /** What the shape accepts, as a noun phrase: `a string`, `an array`. */
  readonly expected: string;
  /** The first problem of `value`, found at `path`; undefined when it has the shape. */
  problemAt(value: unknown, path: string): ShapeProblem | undefined;
  /** Never set: the type of the values the shape accepts, read by `Infer`. */
  readonly accepts?: T;
}

/** A field an object may lack (a field added after older files were written, or one written only sometimes). */
export interface OptionalShape<T> extends Shape<T> {
  readonly optional: true;
}

export type Infer<S> = S extends Shape<infer T> ? T : never;

type Fields = Record<string, Shape<unknown>>;
type RequiredKeys<F extends Fields> = { [K in keyof F]: F[K] extends OptionalShape<unknown> ? never : K }[keyof F];
type OptionalKeys<F extends Fields> = Exclude<keyof F, RequiredKeys<F>>;
type Flat<T> = { [K in keyof T]: T[K] };
export type ObjectOf<F extends Fields> = Flat<{ [K in RequiredKeys<F>]: Infer<F[K]> } & { [K in OptionalKeys<F>]?: Infer<F[K]> }>;

/** Characters of a key or a string shown in a problem: enough to find it, never a whole text. */
const SHOWN_CHARS = 40;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function clipped(text: string): string {
  return JSON.stringify(shorten(text, SHOWN_CHARS));
}

/** `path.key`, or `path["a key"]` for a key that is no identifier (bounded and quoted: it is untrusted). */
export function pathTo(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return IDENTIFIER.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${clipped(key)}]`;
}

/** What a value is, in a few words: `null`, `an array`, `the string "abc"`. */
export function described(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return `the string ${clipped(value)}`;
    case 'number':
      return `the number ${String(value)}`;
    case 'boolean':
      return String(value);
    case 'undefined':
      return 'nothing';
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}

function mismatch(path: string, expected: string, value: unknown): ShapeProblem {
  return { path, what: `${expected} expected, found ${described(value)}` };
}

function shape<T>(expected: string, problemAt: (value: unknown, path: string) => ShapeProblem | undefined): Shape<T> {
  return { expected, problemAt };
}

/** A shape of one test: the value passes or is a mismatch. */
function leaf<T>(expected: string, test: (value: unknown) => boolean): Shape<T> {
  return shape<T>(expected, (value, path) => (test(value) ? undefined : mismatch(path, expected, value)));
}

export const string = (): Shape<string> => leaf('a string', (value) => typeof value === 'string');
export const boolean = (): Shape<boolean> => leaf('true or false', (value) => typeof value === 'boolean');
export const unknownValue = (): Shape<unknown> => leaf('anything', () => true);
/** A finite number: JSON's `1e400` parses to Infinity, which no figure of a run is. */
export const number = (): Shape<number> => leaf('a number', (value) => typeof value === 'number' && Number.isFinite(value));
/** A whole number from 0 up, exact in a double: counts, indices, milliseconds. */
export const count = (): Shape<number> =>
  leaf('a whole number from 0', (value) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0);
/** A moment as the engine writes it (`Date.toISOString`): any text `Date.parse` reads. */
export const time = (): Shape<string> =>
  leaf('a date and time', (value) => typeof value === 'string' && Number.isFinite(Date.parse(value)));

/** A number from `min` to `max`, both included. */
export function numberFrom(min: number, max: number): Shape<number> {
  return leaf(`a number from ${min} to ${max}`, (value) => typeof value === 'number' && value >= min && value <= max);
}

/** One of a few literal values. */
export function oneOf<const T extends readonly (string | number | boolean)[]>(...values: T): Shape<T[number]> {
  const expected = values.length === 1 ? JSON.stringify(values[0]) : `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
  return leaf(expected, (value) => values.some((v) => v === value));
}

export function nullable<T>(inner: Shape<T>): Shape<T | null> {
  return shape(`${inner.expected} or null`, (value, path) => (value === null ? undefined : inner.problemAt(value, path)));
}

/** A field that may be absent (or undefined); when present it has `inner`'s shape. */
export function optional<T>(inner: Shape<T>): OptionalShape<T> {
  return { ...shape<T>(inner.expected, (value, path) => (value === undefined ? undefined : inner.problemAt(value, path))), optional: true };
}

export function array<T>(item: Shape<T>): Shape<T[]> {
  return shape('an array', (value, path) => {
    if (!Array.isArray(value)) return mismatch(path, 'an array', value);
    for (let i = 0; i < value.length; i++) {
      const problem = item.problemAt(value[i], pathTo(path, i));
      if (problem) return problem;
    }
    return undefined;
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const PROTO_KEY = '__proto__';

function protoProblem(value: Record<string, unknown>, path: string): ShapeProblem | undefined {
  return Object.hasOwn(value, PROTO_KEY) ? { path: pathTo(path, PROTO_KEY), what: 'a key no file of the engine holds' } : undefined;
}

/** An object used as a map: any own key but `__proto__`, each value of `value`'s shape. */
export function record<T>(value: Shape<T>): Shape<Record<string, T>> {
  return shape('an object', (given, path) => {
    if (!isPlainObject(given)) return mismatch(path, 'an object', given);
    const proto = protoProblem(given, path);
    if (proto) return proto;
    for (const key of Object.keys(given)) {
      const problem = value.problemAt(given[key], pathTo(path, key));
      if (problem) return problem;
    }
    return undefined;
  });
}

/** An object with these fields (own properties); other keys are let be, so that newer files still read. */
export function object<F extends Fields>(fields: F): Shape<ObjectOf<F>> {
  const entries = Object.entries(fields);
  return shape('an object', (given, path) => {
    if (!isPlainObject(given)) return mismatch(path, 'an object', given);
    const proto = protoProblem(given, path);
    if (proto) return proto;
    for (const [key, field] of entries) {
      const present = Object.hasOwn(given, key);
      if (!present && !('optional' in field)) return { path: pathTo(path, key), what: `missing (${field.expected} expected)` };
      const problem = present ? field.problemAt(given[key], pathTo(path, key)) : undefined;
      if (problem) return problem;
    }
    return undefined;
  });
}

/**
 * A union of objects told apart by one field (`type`, `kind`, `role`): the field's value picks the
 * variant, so a problem is named inside the one variant the value meant to be.
 */
export function variants<V extends Record<string, Shape<object>>>(key: string, byTag: V): Shape<Infer<V[keyof V]>> {
  const tags = Object.keys(byTag);
  return shape('an object', (given, path) => {
    if (!isPlainObject(given)) return mismatch(path, 'an object', given);
    const tag = Object.hasOwn(given, key) ? given[key] : undefined;
    if (typeof tag !== 'string' || !Object.hasOwn(byTag, tag)) return mismatch(pathTo(path, key), `one of ${tags.join(', ')}`, tag);
    return byTag[tag]!.problemAt(given, path);
  });
}

/** The first problem of `value` against `shape`, or undefined when it has the shape. */
export function problemOf<T>(shapeOf: Shape<T>, value: unknown): ShapeProblem | undefined {
  return shapeOf.problemAt(value, '');
}

/** A problem as one line: `grades["1.1"][0].score: a number expected, found the string "x"`. */
export function problemText(problem: ShapeProblem): string {
  return problem.path ? `${problem.path}: ${problem.what}` : problem.what;
}
