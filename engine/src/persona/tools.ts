/**
 * The persona's tools (FORMAT.md, "The persona's tools"): their schemas for the model, and the
 * handlers of those that only read or change the run state. A bad call returns an error text the
 * model can act on; a handler never throws.
 */
import type { ToolSpec } from '../models/chat';
import type { Effect, LiveSheet, Position, RunState } from '../state/runState';

export type ToolName = 'send_message' | 'next_phase' | 'facts_read' | 'facts_mark_told' | 'facts_get_untold' | 'facts_edit' | 'facts_add' | 'log_evaluation' | 'wait';

const str = (description: string) => ({ type: 'string', description });
const spec = (name: ToolName, description: string, properties: Record<string, unknown> = {}, required: string[] = []): ToolSpec => ({
  type: 'function',
  function: { name, description, parameters: { type: 'object', properties, required, additionalProperties: false } },
});

export const TOOL_SPECS: ToolSpec[] = [
  spec('send_message', 'Send one message to the assistant and get its reply. The only way to talk to it.', { text: str('What you say, in your own voice.') }, ['text']),
  spec('next_phase', 'Finish the current phase and get the instructions of the next one.'),
  spec('facts_read', 'Read a fact sheet: every fact with its id, marked (told) once told.', { sheet: str('The sheet name, e.g. "family".') }, ['sheet']),
  spec('facts_mark_told', 'Mark facts as told, right after telling them.', { sheet: str('The sheet name.'), ids: { type: 'array', items: { type: 'string' }, description: 'Fact ids such as "1.2".' } }, ['sheet', 'ids']),
  spec('facts_get_untold', 'List the facts of a sheet not told yet.', { sheet: str('The sheet name.') }, ['sheet']),
  spec('facts_edit', 'Change a fact of your sheet when your life changes; "—" deletes it.', { sheet: str('The sheet name.'), id: str('The fact id, e.g. "4.2".'), text: str('The new text of the fact.') }, ['sheet', 'id', 'text']),
  spec('facts_add', 'Add a new fact to a category of a sheet; returns its id.', { sheet: str('The sheet name.'), category: { type: 'integer', description: 'The category number.' }, text: str('The fact.') }, ['sheet', 'category', 'text']),
  spec('log_evaluation', 'Record your grade of the assistant\'s answer to a check.', {
    check_id: str('The check id, e.g. "20.3".'),
    score: { type: 'number', minimum: 0, maximum: 10, description: '0–10. A single-number answer scores 0 or 10; several facts score in proportion.' },
    answer: str('What the assistant answered.'),
    comment: str('Why this grade.'),
    attempt: { type: 'integer', enum: [1, 2], description: '2 when it found the answer only after you asked it to search.' },
  }, ['check_id', 'score', 'answer', 'comment']),
  spec('wait', 'Sleep until a moment of your day, e.g. "07:30" or "2026-03-02 07:30".', { until: str('HH:MM, or YYYY-MM-DD HH:MM.') }, ['until']),
];

export const TOOL_NAMES = new Set(TOOL_SPECS.map((t) => t.function.name));

export interface ToolOutcome {
  content: string;
  effects: Effect[];
}

export const fail = (message: string): ToolOutcome => ({ content: `Error: ${message}`, effects: [] });

/** Parses a tool call's arguments: an object, or an error the model can act on. */
export function parseArgs(name: string, raw: string): { ok: true; args: Record<string, unknown> } | { ok: false; outcome: ToolOutcome } {
  const no = (message: string) => ({ ok: false as const, outcome: fail(message) });
  if (!TOOL_NAMES.has(name)) return no(`there is no tool \`${name}\`. The tools are ${[...TOOL_NAMES].join(', ')}.`);
  let args: unknown;
  try {
    args = raw.trim() === '' ? {} : JSON.parse(raw);
  } catch {
    return no(`the arguments of ${name} are not valid JSON. Call it again with a JSON object, e.g. ${example(name)}.`);
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return no(`the arguments of ${name} must be a JSON object, e.g. ${example(name)}.`);
  const spec = TOOL_SPECS.find((t) => t.function.name === name);
  const required = (spec?.function.parameters.required as string[] | undefined) ?? [];
  const missing = required.filter((k) => !(k in args));
  if (missing.length) return no(`${name} needs ${missing.map((k) => `\`${k}\``).join(', ')}, e.g. ${example(name)}.`);
  return { ok: true, args: args as Record<string, unknown> };
}

function example(name: string): string {
  const examples: Record<string, string> = {
    send_message: '{"text": "Hi! Quick update about the flat."}',
    facts_read: '{"sheet": "family"}',
    facts_mark_told: '{"sheet": "family", "ids": ["1.1", "1.2"]}',
    facts_get_untold: '{"sheet": "family"}',
    facts_edit: '{"sheet": "car", "id": "4.2", "text": "Insurance $430 a year"}',
    facts_add: '{"sheet": "family", "category": 2, "text": "Anna visits on 19 August"}',
    log_evaluation: '{"check_id": "20.3", "score": 10, "answer": "4000 IU", "comment": "exact", "attempt": 1}',
    wait: '{"until": "07:30"}',
  };
  return examples[name] ?? '{}';
}

function sheetOf(state: RunState, name: unknown): LiveSheet | ToolOutcome {
  if (typeof name !== 'string' || !name) return fail('`sheet` must be a sheet name such as "family".');
  const sheet = state.sheets[name.replace(/\.md$/, '')];
  return sheet ?? fail(`there is no sheet \`${name}\`. The sheets are ${Object.keys(state.sheets).map((s) => `\`${s}\``).join(', ')}.`);
}

const isOutcome = (v: unknown): v is ToolOutcome => typeof v === 'object' && v !== null && 'effects' in v;

export function factsRead(state: RunState, args: Record<string, unknown>): ToolOutcome {
  const sheet = sheetOf(state, args.sheet);
  if (isOutcome(sheet)) return sheet;
  const lines = [`# ${sheet.title ?? sheet.name}`];
  for (const c of sheet.categories) {
    lines.push('', `## ${c.number}. ${c.title}`);
    for (const f of sheet.facts.filter((x) => x.category === c.number)) lines.push(`${f.id} ${f.text}${f.told ? ' (told)' : ''}`);
  }
  return { content: lines.join('\n'), effects: [] };
}

export function factsGetUntold(state: RunState, args: Record<string, unknown>): ToolOutcome {
  const sheet = sheetOf(state, args.sheet);
  if (isOutcome(sheet)) return sheet;
  const untold = sheet.facts.filter((f) => !f.told);
  if (untold.length === 0) return { content: `All facts of \`${sheet.name}\` are told.`, effects: [] };
  return { content: `Untold facts of \`${sheet.name}\`:\n${untold.map((f) => `${f.id} ${f.text}`).join('\n')}`, effects: [] };
}

export function factsMarkTold(state: RunState, args: Record<string, unknown>): ToolOutcome {
  const sheet = sheetOf(state, args.sheet);
  if (isOutcome(sheet)) return sheet;
  const ids = Array.isArray(args.ids) ? args.ids.map(String) : typeof args.ids === 'string' ? [args.ids] : undefined;
  if (!ids?.length) return fail('`ids` must be a list of fact ids, e.g. ["1.1", "1.2"].');
  const unknown = ids.filter((id) => !sheet.facts.some((f) => f.id === id));
  if (unknown.length) return fail(`\`${sheet.name}\` has no fact ${unknown.join(', ')}. Its ids are ${sheet.facts.map((f) => f.id).join(', ')}.`);
  const left = sheet.facts.filter((f) => !f.told && !ids.includes(f.id)).length;
  return { content: `Marked ${ids.join(', ')} of \`${sheet.name}\` as told; ${left} left untold.`, effects: [{ kind: 'told', sheet: sheet.name, ids }] };
}

export function factsEdit(state: RunState, args: Record<string, unknown>): ToolOutcome {
  const sheet = sheetOf(state, args.sheet);
  if (isOutcome(sheet)) return sheet;
  const id = String(args.id ?? '');
  const text = typeof args.text === 'string' ? args.text.trim() : '';
  if (!text) return fail('`text` must be the new text of the fact (or "—" to delete it).');
  if (!sheet.facts.some((f) => f.id === id)) return fail(`\`${sheet.name}\` has no fact ${id}. Use facts_add for a new fact.`);
  return { content: `${sheet.name}#${id} is now: ${text}`, effects: [{ kind: 'fact-edit', sheet: sheet.name, id, text }] };
}

export function factsAdd(state: RunState, args: Record<string, unknown>): ToolOutcome {
  const sheet = sheetOf(state, args.sheet);
  if (isOutcome(sheet)) return sheet;
  const category = Number(args.category);
  const text = typeof args.text === 'string' ? args.text.trim() : '';
  if (!Number.isInteger(category) || category < 1) return fail(`\`category\` must be a category number of \`${sheet.name}\`: ${sheet.categories.map((c) => c.number).join(', ')}.`);
  if (!text) return fail('`text` must be the fact to add.');
  const used = sheet.facts.filter((f) => f.category === category).map((f) => Number(f.id.split('.')[1]));
  const id = `${category}.${Math.max(0, ...used) + 1}`;
  return { content: `Added ${sheet.name}#${id}: ${text}`, effects: [{ kind: 'fact-add', sheet: sheet.name, category, id, text }] };
}

/** Checks of phases up to and including the current one may be graded; later ones may not. */
export function logEvaluation(state: RunState, args: Record<string, unknown>, checkAt: (id: string) => Position | undefined, now: string): ToolOutcome {
  const id = String(args.check_id ?? '').trim();
  const at = checkAt(id);
  if (!at) return fail(`there is no check ${id || '(empty id)'}. Grade the checks (❓ lines) of this phase or earlier ones, by their id.`);
  const current = state.position;
  if (at.chapterIndex > current.chapterIndex || (at.chapterIndex === current.chapterIndex && at.phase > current.phase)) {
    return fail(`check ${id} belongs to a later phase; grade only the checks you have asked.`);
  }
  const score = typeof args.score === 'string' ? Number(args.score) : args.score;
  if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 10) return fail('`score` must be a number from 0 to 10.');
  const attempt = args.attempt === undefined ? 1 : Number(args.attempt);
  if (attempt !== 1 && attempt !== 2) return fail('`attempt` must be 1, or 2 when the assistant found the answer only after you asked it to search.');
  const effective = attempt === 2 ? score * 0.5 : score;
  const grade = { score, effective, attempt: attempt as 1 | 2, answer: String(args.answer ?? ''), comment: String(args.comment ?? ''), at: now, position: at };
  const again = state.grades[id]?.length ? ' (this grade replaces the earlier one)' : '';
  return { content: `Recorded ${id}: ${effective}/10${attempt === 2 ? ' (second attempt counts ×0.5)' : ''}${again}.`, effects: [{ kind: 'grade', checkId: id, grade }] };
}
