/**
 * world.jsonc, read and written: `parseWorldSpec` checks a spec by the key table (`specKeys.ts`),
 * lays its keys over a preset, checks that the keys agree with each other, and gives each problem
 * as one line `file:LINE:COL: …` with a "did you mean"; `worldJsoncText` writes the file a
 * generated world carries, which `--extend` reads back. The presets are in `presets.ts`.
 */
import type { Node } from 'jsonc-parser';
import { JsoncDocument } from '../../../scenario/src/jsonc';
import { blocksOf, slotsPerBlock } from './layout';
import type { WorldSpec } from './model';
import { DEFAULT_SPEC, PRESETS, type PresetName } from './presets';
import { ALL_KEYS, FILE_KEYS, MAX_SPEC_CHARS, SPEC_KEYS, type FileKey } from './specKeys';
import { meant, quoted, readValue, report, type SpecReading } from './specValues';

export { DEFAULT_SEED, DEFAULT_SPEC, PRESET_DOCS, PRESET_NAMES, PRESETS, type PresetName } from './presets';

/** A spec as read from a file: the world it asks for and what the file says besides. */
export interface WorldSpecRead {
  spec: WorldSpec;
  /** The preset the file names (its base, unless the caller gave another). */
  preset?: PresetName;
  seed?: number;
  /** The blocks generated so far, as the generator wrote them. */
  blocks?: number;
}

/** The most problems listed at once: past these, the first ones are the ones to fix. */
const MAX_PROBLEMS = 20;

/**
 * Reads world.jsonc. `file` names it in the problems; `knownTopics` are the library's sheet names
 * (topic names in the file are checked against them; none given: any sheet-like name passes);
 * `basePreset` is the command line's `--preset`, the base whatever the file's `"preset"` says.
 * Never throws: the spec, or every problem found, one line each.
 */
export function parseWorldSpec(
  text: string,
  file: string,
  knownTopics: readonly string[] = [],
  basePreset?: PresetName,
): WorldSpecRead | { error: string } {
  if (text.length > MAX_SPEC_CHARS) {
    const size = text.length.toLocaleString('en-US');
    return {
      error: `${file}: the file is ${size} characters long; a spec has at most ${MAX_SPEC_CHARS.toLocaleString('en-US')}: it is not read.`,
    };
  }
  // The messages follow the file's position, which names it already.
  const doc = new JsoncDocument(text, 'the spec', 'invalid-config');
  doc.reportDuplicateKeys();
  const reading: SpecReading = { doc, file, problems: [], knownTopics };
  for (const found of doc.diagnostics) {
    const { line, character } = found.range.start;
    reading.problems.push(`${file}:${line + 1}:${character + 1}: ${found.message}`);
  }
  if (reading.problems.length) return problemsOf(reading);

  const given = readKeys(reading, doc.root);
  if (reading.problems.length) return problemsOf(reading);
  const preset = given.values.preset as PresetName | undefined;
  const spec = laidOver(basePreset ? PRESETS[basePreset] : preset ? PRESETS[preset] : DEFAULT_SPEC, given.values);
  checkAgreement(reading, spec, given.nodes);
  if (reading.problems.length) return problemsOf(reading);
  const seed = given.values.seed as number | undefined;
  const blocks = given.values.blocks as number | undefined;
  return { spec, ...(preset ? { preset } : {}), ...(seed !== undefined ? { seed } : {}), ...(blocks !== undefined ? { blocks } : {}) };
}

function problemsOf(reading: SpecReading): { error: string } {
  const shown = reading.problems.slice(0, MAX_PROBLEMS);
  const more = reading.problems.length - shown.length;
  if (more > 0) shown.push(`${reading.file}: ${more} more problems; fix these first.`);
  return { error: shown.join('\n') };
}

/** The top-level keys the file gives, each read by its row, with the node of each for later problems. */
function readKeys(reading: SpecReading, root: Node | undefined): { values: Record<string, unknown>; nodes: Map<string, Node> } {
  const values: Record<string, unknown> = {};
  const nodes = new Map<string, Node>();
  const known = Object.keys(ALL_KEYS).filter((key) => key !== '$schema');
  for (const [name, { key, value }] of JsoncDocument.properties(root)) {
    if (!Object.hasOwn(ALL_KEYS, name)) {
      const near = meant(name, known);
      report(reading, key, `unknown key ${quoted(name)}${near || `: the keys are ${known.join(', ')} (docs/generate.md).`}`);
      continue;
    }
    const read = readValue(reading, value, ALL_KEYS[name]!, name);
    if (read === undefined) continue;
    values[name] = read;
    nodes.set(name, value);
    if (value.type === 'object')
      for (const [inner, property] of JsoncDocument.properties(value)) nodes.set(`${name}.${inner}`, property.value);
  }
  return { values, nodes };
}

/**
 * The spec a file asks for: its keys over the base; an object of weights or distances over the
 * base's, name by name, so `"traps": { "CASCADE": 5 }` weighs cascades more and keeps the rest.
 */
function laidOver(base: WorldSpec, given: Record<string, unknown>): WorldSpec {
  // Each value was read by its key's rule, whose type is the WorldSpec key's (the round-trip test holds them equal).
  const keys = Object.fromEntries(Object.entries(given).filter(([key]) => Object.hasOwn(SPEC_KEYS, key))) as Partial<WorldSpec>;
  return {
    ...base,
    ...keys,
    traps: { ...base.traps, ...keys.traps },
    checks: { ...base.checks, ...keys.checks },
    distance: { ...base.distance, ...keys.distance },
  };
}

/**
 * Where a distance in chapters must fit: the chapters of a single-day world, the days of a month
 * (multi-day), since a trap is checked within its own block.
 */
export function chaptersOf(spec: WorldSpec): number {
  return slotsPerBlock(spec);
}

export function topicCountOf(spec: WorldSpec): number {
  return typeof spec.topics === 'number' ? spec.topics : spec.topics.length;
}

/** Keys that are each in range but ask together for a world that cannot be: one problem at the key the file gave. */
function checkAgreement(reading: SpecReading, spec: WorldSpec, nodes: ReadonlyMap<string, Node>): void {
  const at = (...keys: string[]): Node | undefined => keys.map((key) => nodes.get(key)).find(Boolean) ?? nodes.get('preset');
  const topics = topicCountOf(spec);
  const facts = topics * spec.factsPerTopic;
  if (spec.checkedFacts > facts) {
    report(
      reading,
      at('checkedFacts', 'factsPerTopic', 'topics'),
      `"checkedFacts" is ${spec.checkedFacts} but the sheets start with ${topics} × ${spec.factsPerTopic} = ${facts} facts: ` +
        `check at most ${facts}, or raise "factsPerTopic" or "topics".`,
    );
  }
  for (const [key, weights] of [
    ['traps', spec.traps],
    ['checks', spec.checks],
  ] as const) {
    if (Object.values(weights).every((weight) => weight === 0))
      report(reading, at(key), `"${key}" weighs every type 0: give at least one type a weight above 0.`);
  }
  const chapters = chaptersOf(spec);
  if (spec.distance.chapters >= chapters) {
    const plural = chapters === 1 ? '' : 's';
    const unit = spec.shape === 'single-day' ? `chapter${plural}` : `day${plural} a month`;
    report(
      reading,
      at('distance.chapters', 'distance', 'chapters', 'days'),
      `"distance.chapters" is ${spec.distance.chapters} but the world has ${chapters} ${unit}: ` +
        `a check stands after its trap, so give at most ${chapters - 1}, or a longer world.`,
    );
  }
  if (spec.distance.sessionSwitches > spec.sessionSwitches) {
    report(
      reading,
      at('distance.sessionSwitches', 'distance', 'sessionSwitches'),
      `"distance.sessionSwitches" is ${spec.distance.sessionSwitches} but the world switches sessions ${spec.sessionSwitches} times: ` +
        `give at most ${spec.sessionSwitches}, or raise "sessionSwitches".`,
    );
  }
  if (spec.shape === 'single-day' && spec.checksAt.includes('recaps')) {
    report(
      reading,
      at('checksAt', 'shape'),
      '"checksAt" has "recaps", which sum a month of days: make the world "shape": "multi-day", or remove "recaps".',
    );
  }
  if (!isRealMoment(spec.start))
    report(reading, at('start'), `"start" is ${quoted(spec.start)}, which is no day of the calendar: give a real one.`);
  const tooBig = worldSizeProblem(spec, blocksOf(spec));
  if (tooBig) report(reading, at('checkedFacts', 'editsPerCheckedFact', 'plainChecks', 'days', 'chapters'), tooBig);
}

/** The most trap writes and checks a world may plan, over all its blocks: 100× the 12-month bench world's. */
export const MAX_WORLD_ITEMS = 200_000;
/** The most chapters (single-day) or days (multi-day) a world may have over all its blocks. */
export const MAX_WORLD_SLOTS = 20_000;

/**
 * Why a world of `blocks` blocks is too big to generate, or undefined. Checked facts and plain
 * checks count per block (a month, or `chapters` chapters), so a long world multiplies them: bounded
 * here, before anything is planned, since the generator holds the whole world in memory.
 */
export function worldSizeProblem(spec: WorldSpec, blocks: number): string | undefined {
  const writes = spec.checkedFacts * spec.editsPerCheckedFact * blocks;
  const checks = (spec.checkedFacts + spec.plainChecks) * blocks;
  const slots = slotsPerBlock(spec) * blocks;
  const unit = spec.shape === 'single-day' ? 'chapters' : 'days';
  const most = MAX_WORLD_SLOTS.toLocaleString('en-US');
  if (slots > MAX_WORLD_SLOTS)
    return `the world would have ${slots.toLocaleString('en-US')} ${unit}, past the ${most} a world may have: make it shorter.`;
  if (Math.max(writes, checks) > MAX_WORLD_ITEMS)
    return (
      `the world would plan ${writes.toLocaleString('en-US')} trap writes and ${checks.toLocaleString('en-US')} checks over ${blocks} ` +
      `block${blocks === 1 ? '' : 's'} ("checkedFacts" and "plainChecks" count per block), past the ` +
      `${MAX_WORLD_ITEMS.toLocaleString('en-US')} a world may have: lower them, or "editsPerCheckedFact".`
    );
  return undefined;
}

/** Whether `YYYY-MM-DD HH:MM` names a moment that exists (no 31 April, no 25:00). */
export function isRealMoment(moment: string): boolean {
  const [date = '', time = ''] = moment.split(' ');
  const [year, month, day] = date.split('-').map(Number);
  const [hours, minutes] = time.split(':').map(Number);
  if ([year, month, day, hours, minutes].some((part) => part === undefined || !Number.isInteger(part))) return false;
  const utc = new Date(Date.UTC(year!, month! - 1, day!, hours!, minutes!));
  return utc.getUTCFullYear() === year && utc.getUTCMonth() === month! - 1 && utc.getUTCDate() === day && hours! < 24 && minutes! < 60;
}

/** A value as world.jsonc writes it: an object or a list on one line, with spaces. */
function valueText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(valueText).join(', ')}]`;
  if (typeof value === 'object' && value !== null)
    return `{ ${Object.entries(value)
      .map(([key, inner]) => `${JSON.stringify(key)}: ${valueText(inner)}`)
      .join(', ')} }`;
  return JSON.stringify(value);
}

/**
 * world.jsonc as a generated world carries it: every key of the spec (so the file alone says the
 * world, whatever presets become), each under its meaning, then the seed and the blocks generated.
 * `parseWorldSpec` reads it back to the same spec (engine/test/generateSpec.test.ts).
 */
export function worldJsoncText(world: { spec: WorldSpec; seed: number; blocks: number; preset?: PresetName }): string {
  const entries: [string, unknown, string][] = [];
  if (world.preset) entries.push(['preset', world.preset, FILE_KEYS.preset.doc]);
  for (const [key, row] of Object.entries(SPEC_KEYS)) entries.push([key, world.spec[key as keyof WorldSpec], row.doc]);
  const fileKeys: FileKey[] = ['seed', 'blocks'];
  for (const key of fileKeys) entries.push([key, world[key as 'seed' | 'blocks'], FILE_KEYS[key].doc]);
  const lines = entries.map(([key, value, doc], index) => {
    const comma = index < entries.length - 1 ? ',' : '';
    return `  // ${doc}\n  ${JSON.stringify(key)}: ${valueText(value)}${comma}`;
  });
  const head = [
    '// The spec of this generated world (docs/generate.md): `mmb generate --spec` regenerates it',
    '// byte for byte, `mmb generate --extend` reads it to carry the world on.',
  ];
  return `${head.join('\n')}\n{\n${lines.join('\n')}\n}\n`;
}
