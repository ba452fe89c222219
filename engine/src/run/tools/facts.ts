/**
 * The fact-sheet tools (docs/format.md, "The persona's tools"): read a sheet, list what is untold,
 * mark facts told, edit and add facts. They only read the run state and return effects; sheets
 * are looked up as own properties only, so a sheet named `toString` or `__proto__` is just absent.
 */
import { contentTokens } from '../../persona/echo';
import { GrowingFold } from '../../growingFold';
import { sheetNamed, type LiveSheet, type RunState, type TranscriptEntry } from '../../state/runState';
import { fail, MAX_FACT_CHARS, MAX_NAME_CHARS, sheetArg, text, type PersonaTool, type ToolArgs, type ToolOutcome } from './types';
import { shorten } from '../../../../scenario/src/plainText';

/** The most ids one `facts_mark_told` call may name. */
const MAX_IDS = 500;
const factId = (description: string): ReturnType<typeof text> => text(description, MAX_NAME_CHARS, '`id` must be a fact id such as "4.2".');

function sheetOf(state: RunState, name: unknown): LiveSheet | ToolOutcome {
  if (typeof name !== 'string' || !name) return fail('`sheet` must be a sheet name such as "family".');
  const sheet = sheetNamed(state, name.replace(/\.md$/, ''));
  if (sheet) return sheet;
  const shown = shorten(name, 80);
  return fail(
    `there is no sheet \`${shown}\`. The sheets are ${Object.keys(state.sheets)
      .map((known) => `\`${known}\``)
      .join(', ')}.`,
  );
}

const isOutcome = (v: LiveSheet | ToolOutcome): v is ToolOutcome => 'effects' in v;
const textOf = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

export function factsRead(state: RunState, args: ToolArgs): ToolOutcome {
  const sheet = sheetOf(state, args.sheet);
  if (isOutcome(sheet)) return sheet;
  const lines = [`# ${sheet.title ?? sheet.name}`];
  for (const c of sheet.categories) {
    lines.push('', `## ${c.number}. ${c.title}`);
    for (const f of sheet.facts.filter((x) => x.category === c.number)) lines.push(`${f.id} ${f.text}${f.told ? ' (told)' : ''}`);
  }
  return { content: lines.join('\n'), effects: [] };
}

export function factsGetUntold(state: RunState, args: ToolArgs): ToolOutcome {
  const sheet = sheetOf(state, args.sheet);
  if (isOutcome(sheet)) return sheet;
  const untold = sheet.facts.filter((f) => !f.told);
  if (untold.length === 0) return { content: `All facts of \`${sheet.name}\` are told.`, effects: [] };
  return { content: `Untold facts of \`${sheet.name}\`:\n${untold.map((f) => `${f.id} ${f.text}`).join('\n')}`, effects: [] };
}

export function factsMarkTold(state: RunState, args: ToolArgs): ToolOutcome {
  const sheet = sheetOf(state, args.sheet);
  if (isOutcome(sheet)) return sheet;
  const ids = Array.isArray(args.ids)
    ? args.ids.filter((id): id is string => typeof id === 'string')
    : typeof args.ids === 'string'
      ? [args.ids]
      : undefined;
  if (!ids?.length) return fail('`ids` must be a list of fact ids, e.g. ["1.1", "1.2"].');
  const known = new Set(sheet.facts.map((f) => f.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length) {
    const shown = `${unknown.slice(0, 20).join(', ')}${unknown.length > 20 ? ', …' : ''}`;
    return fail(`\`${sheet.name}\` has no fact ${shown}. Its ids are ${sheet.facts.map((fact) => fact.id).join(', ')}.`);
  }
  const marked = new Set(ids);
  const left = sheet.facts.filter((f) => !f.told && !marked.has(f.id)).length;
  return {
    content: `Marked ${ids.join(', ')} of \`${sheet.name}\` as told; ${left} left untold.`,
    effects: [{ kind: 'told', sheet: sheet.name, ids }],
  };
}

/** The content words of everything she sent: the transcript only grows, so each call reads only its new entries. */
const saidWords = new GrowingFold<TranscriptEntry, Set<string>>(
  () => new Set(),
  (said, entry) => {
    if (entry.from === 'persona') for (const word of contentTokens(entry.text)) said.add(word);
  },
);

/**
 * The facts among `ids` that none of her messages told: none of a fact's numbers and under a
 * third of its content words are in anything she sent. Lenient on purpose, since she tells facts
 * in her own words; what it catches is a fact marked told that was never brought up at all.
 */
export function untoldInMessages(state: RunState, sheetName: string, ids: readonly string[]): string[] {
  const sheet = sheetNamed(state, sheetName);
  if (!sheet) return [];
  const said = saidWords.of(state.transcript);
  const wanted = new Set(ids);
  return sheet.facts
    .filter((fact) => wanted.has(fact.id) && !fact.told)
    .filter((fact) => {
      const words = [...contentTokens(fact.text)];
      const numbers = words.filter((word) => /^\d/.test(word));
      if (words.length === 0 || numbers.some((n) => said.has(n))) return false;
      return words.filter((word) => said.has(word)).length * 3 < words.length;
    })
    .map((fact) => fact.id);
}

export function factsEdit(state: RunState, args: ToolArgs): ToolOutcome {
  const sheet = sheetOf(state, args.sheet);
  if (isOutcome(sheet)) return sheet;
  const id = typeof args.id === 'string' ? args.id : '';
  const newText = textOf(args.text);
  if (!newText) return fail('`text` must be the new text of the fact (or "—" to delete it).');
  if (!sheet.facts.some((f) => f.id === id)) return fail(`\`${sheet.name}\` has no fact ${id.slice(0, 80)}. Use facts_add for a new fact.`);
  return { content: `${sheet.name}#${id} is now: ${newText}`, effects: [{ kind: 'fact-edit', sheet: sheet.name, id, text: newText }] };
}

export function factsAdd(state: RunState, args: ToolArgs): ToolOutcome {
  const sheet = sheetOf(state, args.sheet);
  if (isOutcome(sheet)) return sheet;
  const category = args.category;
  const newText = textOf(args.text);
  if (typeof category !== 'number' || !Number.isInteger(category) || category < 1)
    return fail(`\`category\` must be a category number of \`${sheet.name}\`: ${sheet.categories.map((c) => c.number).join(', ')}.`);
  if (!newText) return fail('`text` must be the fact to add.');
  // A loop, not Math.max(...list): a sheet's facts can outnumber the arguments a call may take.
  const last = sheet.facts.reduce(
    (highest, f) => (f.category === category ? Math.max(highest, Number(f.id.split('.')[1]) || 0) : highest),
    0,
  );
  const id = `${category}.${last + 1}`;
  return {
    content: `Added ${sheet.name}#${id}: ${newText}`,
    effects: [{ kind: 'fact-add', sheet: sheet.name, category, id, text: newText }],
  };
}

/** A tool whose one argument is a sheet's name. */
function sheetTool(tool: Pick<PersonaTool, 'name' | 'position' | 'description' | 'whenToUse' | 'handle'>): PersonaTool {
  return { ...tool, parameters: { sheet: sheetArg }, required: ['sheet'], example: '{"sheet": "family"}' };
}

export const factsReadTool = sheetTool({
  name: 'facts_read',
  position: 3,
  description: 'Read a fact sheet: every fact with its id, marked (told) once told.',
  whenToUse: 'to read a whole sheet, the facts told so far marked.',
  handle: (args, call) => factsRead(call.run.state, args),
});

export const factsMarkToldTool: PersonaTool = {
  name: 'facts_mark_told',
  position: 4,
  description: 'Mark facts as told, right after telling them.',
  whenToUse: 'right after each message, with the ids of the facts that message told.',
  noteForAuthors: 'Refused, naming them, for facts none of her messages told yet.',
  parameters: {
    sheet: sheetArg,
    ids: {
      type: 'array',
      items: { type: 'string', maxLength: MAX_NAME_CHARS },
      maxItems: MAX_IDS,
      description: 'Fact ids such as "1.2".',
      invalid: `\`ids\` must be a list of at most ${MAX_IDS} fact ids, e.g. ["1.1", "1.2"].`,
    },
  },
  required: ['sheet', 'ids'],
  example: '{"sheet": "family", "ids": ["1.1", "1.2"]}',
  handle(args, call) {
    const sheet = typeof args.sheet === 'string' ? args.sheet.replace(/\.md$/, '') : '';
    const ids = Array.isArray(args.ids) ? args.ids.filter((id): id is string => typeof id === 'string') : [];
    const untold = untoldInMessages(call.run.state, sheet, ids);
    if (untold.length === 0) return factsMarkTold(call.run.state, args);
    const shown = untold.slice(0, 20).join(', ');
    const them = untold.length === 1 ? 'it' : 'them';
    return fail(
      `none of your messages told ${shown} of \`${sheet}\` yet: tell ${them} with send_message first, then mark ${them}. ` +
        'Mark only what a message really told.',
      'false-told',
    );
  },
};

export const factsGetUntoldTool = sheetTool({
  name: 'facts_get_untold',
  position: 5,
  description: 'List the facts of a sheet not told yet.',
  whenToUse: 'to see what is left to tell of a sheet.',
  handle: (args, call) => factsGetUntold(call.run.state, args),
});

export const factsEditTool: PersonaTool = {
  name: 'facts_edit',
  position: 6,
  description: 'Change a fact of your sheet when your life changes; "—" deletes it.',
  whenToUse: 'when a fact of your life changes, before you tell the assistant.',
  parameters: { sheet: sheetArg, id: factId('The fact id, e.g. "4.2".'), text: text('The new text of the fact.', MAX_FACT_CHARS) },
  required: ['sheet', 'id', 'text'],
  example: '{"sheet": "car", "id": "4.2", "text": "Insurance $430 a year"}',
  handle: (args, call) => factsEdit(call.run.state, args),
};

export const factsAddTool: PersonaTool = {
  name: 'facts_add',
  position: 7,
  description: 'Add a new fact to a category of a sheet; returns its id.',
  whenToUse: 'when your life gains a fact that no sheet has yet, before you tell the assistant.',
  parameters: {
    sheet: sheetArg,
    category: { type: 'integer', minimum: 1, maximum: 10_000, description: 'The category number.' },
    text: text('The fact.', MAX_FACT_CHARS),
  },
  required: ['sheet', 'category', 'text'],
  example: '{"sheet": "family", "category": 2, "text": "Anna visits on 19 August"}',
  handle: (args, call) => factsAdd(call.run.state, args),
};
