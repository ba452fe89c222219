/**
 * One value of world.jsonc read by its row of the key table (`specKeys.ts`): the value when it
 * keeps its rule, else one problem line `file:LINE:COL: …` naming the key, what it may be and, for
 * a near miss, what was meant. Every text shown comes from the file, so it is cut short.
 */
import type { Node } from 'jsonc-parser';
import type { JsoncDocument } from '../../../scenario/src/jsonc';
import { shorten } from '../../../scenario/src/plainText';
import { nearNames } from '../../../scenario/src/suggest';
import type { KeyRow, KeyRule } from './specKeys';

/** What reading one file needs: its parsed text, its name as shown, the problems so far and the library's topics. */
export interface SpecReading {
  doc: JsoncDocument;
  file: string;
  problems: string[];
  knownTopics: readonly string[];
}

/** A topic's sheet name, as TopicModel.sheet: what a name is when the library is not given. */
const SHEET_NAME = /^[a-z0-9][a-z0-9-]*$/;

/** The longest text of the file a problem quotes. */
const MAX_QUOTED = 60;

/** `file:LINE:COL` of a node, 1-based, as compilers write it. */
export function positionOf(reading: SpecReading, node: Node | undefined): string {
  const { line, character } = reading.doc.lines.positionAt(node?.offset ?? 0);
  return `${reading.file}:${line + 1}:${character + 1}`;
}

export function report(reading: SpecReading, node: Node | undefined, message: string): void {
  reading.problems.push(`${positionOf(reading, node)}: ${message}`);
}

/** A name from the file, quoted and cut short. */
export const quoted = (text: string): string => JSON.stringify(shorten(text.replace(/\p{Cc}+/gu, ' '), MAX_QUOTED));

/** ` — did you mean "x"?` for the near names, or the empty text. */
export function meant(name: string, candidates: readonly string[]): string {
  const near = nearNames(name, candidates);
  return near.length ? ` — did you mean ${near.map((n) => JSON.stringify(n)).join(' or ')}?` : '';
}

/** What a value of the file is, as a problem shows it: `"ten"`, `5000`, `a list`. */
function shown(node: Node): string {
  if (node.type === 'string') return quoted(String(node.value));
  if (node.type === 'object') return 'an object';
  if (node.type === 'array') return 'a list';
  return shorten(String(node.value), MAX_QUOTED);
}

const figure = (value: number): string => value.toLocaleString('en-US');

/** What a rule asks for, after "give". */
export function describeRule(rule: KeyRule, knownTopics: readonly string[] = []): string {
  switch (rule.kind) {
    case 'integer':
      return `a whole number from ${figure(rule.min)} to ${figure(rule.max)}`;
    case 'number':
      return `a number from ${figure(rule.min)} to ${figure(rule.max)}`;
    case 'choice':
      return `one of ${rule.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'choices':
      return `a list of one or more of ${rule.values.map((v) => JSON.stringify(v)).join(', ')}, each once`;
    case 'text':
      return `${rule.patternText}, e.g. ${JSON.stringify(rule.example)}`;
    case 'topics': {
      const most = knownTopics.length || rule.max;
      return `a number of topics from 1 to ${figure(most)}, or a list of the library's topic names`;
    }
    case 'weights':
      return `an object of weights from 0 to ${figure(rule.max)} by name (${rule.names.join(', ')})`;
    case 'counts':
      return `an object with ${Object.keys(rule.keys).join(', ')}`;
  }
}

/** The value of `node` if it keeps `row`'s rule; otherwise one problem about `path` and undefined. */
export function readValue(reading: SpecReading, node: Node, row: KeyRow, path: string): unknown {
  const rule = row.rule;
  /** `near`: the did-you-mean of a near miss, which goes first, being the likelier fix. */
  const refuse = (near = ''): undefined => {
    const wanted = describeRule(rule, reading.knownTopics);
    report(reading, node, near ? `"${path}" is ${shown(node)}${near} Give ${wanted}.` : `"${path}" is ${shown(node)}: give ${wanted}.`);
    return undefined;
  };
  switch (rule.kind) {
    case 'integer':
    case 'number': {
      const value = node.value;
      if (node.type !== 'number' || typeof value !== 'number' || !Number.isFinite(value)) return refuse();
      if ((rule.kind === 'integer' && !Number.isInteger(value)) || value < rule.min || value > rule.max) return refuse();
      return value;
    }
    case 'choice':
      if (node.type !== 'string' || !rule.values.includes(String(node.value))) {
        return refuse(node.type === 'string' ? meant(String(node.value), rule.values) : '');
      }
      return node.value;
    case 'text': {
      const value = node.value;
      if (node.type !== 'string' || typeof value !== 'string' || value.length > rule.maxChars || !rule.pattern.test(value)) return refuse();
      return value;
    }
    case 'choices':
      return node.type === 'array' ? readChoices(reading, node, rule.values, path) : refuse();
    case 'topics':
      if (node.type === 'number') {
        const most = reading.knownTopics.length || rule.max;
        return Number.isInteger(node.value) && node.value >= 1 && node.value <= most ? node.value : refuse();
      }
      return node.type === 'array' ? readTopicNames(reading, node, rule.max, path) : refuse();
    case 'weights':
      if (node.type !== 'object') return refuse();
      return readByName(reading, node, path, rule.names, rule.noun, (name) => ({
        rule: { kind: 'number', min: 0, max: rule.max },
        doc: name,
      }));
    case 'counts':
      if (node.type !== 'object') return refuse();
      return readByName(reading, node, path, Object.keys(rule.keys), 'key', (name) => rule.keys[name]!);
  }
}

/** An object's values by name, each read by its row; an unknown name is a problem with the near ones. */
function readByName(
  reading: SpecReading,
  node: Node,
  path: string,
  names: readonly string[],
  /** What a name is: "key", "trap type". */
  what: string,
  rowOf: (name: string) => KeyRow,
): Record<string, unknown> | undefined {
  const values: Record<string, unknown> = {};
  let good = true;
  for (const property of node.children ?? []) {
    const [key, value] = property.children ?? [];
    if (!key || !value) continue;
    const name = String(key.value);
    if (!names.includes(name)) {
      const near = meant(name, names);
      report(reading, key, `unknown ${what} ${quoted(name)} in "${path}"${near || `: the ${what}s are ${names.join(', ')}.`}`);
      good = false;
      continue;
    }
    const read = readValue(reading, value, rowOf(name), `${path}.${name}`);
    if (read === undefined) good = false;
    else values[name] = read;
  }
  return good ? values : undefined;
}

/** A list of choices, each given once. */
function readChoices(reading: SpecReading, node: Node, values: readonly string[], path: string): string[] | undefined {
  const items = node.children ?? [];
  if (items.length === 0) {
    report(reading, node, `"${path}" is an empty list: give one or more of ${values.map((v) => JSON.stringify(v)).join(', ')}.`);
    return undefined;
  }
  const chosen: string[] = [];
  for (const item of items) {
    const read = readValue(reading, item, { rule: { kind: 'choice', values }, doc: '' }, `${path}[${chosen.length}]`);
    if (typeof read !== 'string') return undefined;
    if (chosen.includes(read)) {
      report(reading, item, `"${read}" is listed twice in "${path}": list each once.`);
      return undefined;
    }
    chosen.push(read);
  }
  return chosen;
}

/** A list of topics, each a sheet of the library (when the library is known) given once. */
function readTopicNames(reading: SpecReading, node: Node, max: number, path: string): string[] | undefined {
  const items = node.children ?? [];
  const known = reading.knownTopics;
  if (items.length === 0 || items.length > max) {
    report(reading, node, `"${path}" lists ${items.length} topics: give ${describeRule({ kind: 'topics', max }, known)}.`);
    return undefined;
  }
  const names: string[] = [];
  for (const item of items) {
    if (item.type !== 'string') {
      report(reading, item, `"${path}" holds ${shown(item)}: list topics by their sheet names, e.g. ${JSON.stringify(known[0] ?? 'car')}.`);
      return undefined;
    }
    const name = String(item.value);
    if (known.length > 0 && !known.includes(name)) {
      const near = meant(name, known);
      report(reading, item, `unknown topic ${quoted(name)}${near || `: the library's topics are ${known.join(', ')}.`}`);
      return undefined;
    }
    if (known.length === 0 && !SHEET_NAME.test(name)) {
      report(reading, item, `${quoted(name)} cannot name a topic: a sheet name is lower-case letters, digits and "-".`);
      return undefined;
    }
    if (names.includes(name)) {
      report(reading, item, `${quoted(name)} is listed twice in "${path}": list each topic once.`);
      return undefined;
    }
    names.push(name);
  }
  return names;
}
