/**
 * One LongMemEval question written as a benchmark folder: a dated chapter per session told (a new
 * conversation between sessions), the user's turns said by the persona in her own words at the
 * recorded moments, the evidence turns (`has_answer`) facts of that session's sheet, and the
 * question a typed check on the question's date. A knowledge update whose earlier value is found is
 * played as an edit of the earlier fact with a STALE trap aimed at the check. Pure: same item and
 * options, same bytes.
 */
import { distinctNumbers, missingFrom, numbers } from '../audit/answerAudit';
import { checkTypeOf, isFactTurn, toldSessions, type Haystack, type LongMemEvalItem, type ToldSession } from './longmemeval';
import { DATASETS, importedManifest, importedReadme, importedTitle, inNameOrder, type Provenance } from './provenance';
import { MAX_QUESTION_CHARS, safeName, safeQuoted, safeText } from './safeText';
import { phasesText } from './phaseSplit';
import { AnchorWriter, parseDatasetMoment, QUIET_STEP, startTimeText } from './timeline';

export interface RenderedQuestion {
  /** The folder's name under benchmarks/. */
  name: string;
  files: Map<string, string>;
  checkType: string;
  /** For a knowledge update: whether its earlier value was written as a STALE trap. */
  stale?: 'written' | 'not found';
}

const CHECK_ID = '1.1';

/** A turn's place: the session's position among those told, the turn's in the session. */
interface TurnAt {
  session: number;
  turn: number;
}

/** The earlier and the later evidence turn of a knowledge update, when the audit's own rule finds the answer in the later one. */
function staleUpdate(item: LongMemEvalItem, sessions: readonly ToldSession[]): { before: TurnAt; after: TurnAt } | undefined {
  const evidence = sessions.flatMap((session, s) =>
    session.turns.flatMap((turn, t) => (isFactTurn(turn) ? [{ session: s, turn: t }] : [])),
  );
  const after = evidence.at(-1);
  const before = evidence.find((at) => after !== undefined && at.session !== after.session);
  if (!after || !before) return undefined;
  const textOf = (at: TurnAt) => safeQuoted(sessions[at.session]!.turns[at.turn]!.content);
  const [earlier, later] = [textOf(before), textOf(after)];
  const answer = String(item.answer);
  const answerNumbers = new Set(numbers(answer));
  const tells = distinctNumbers(later, earlier).length > 0 && missingFrom(answer, later, earlier).length === 0;
  const stale = distinctNumbers(earlier, later).some((value) => answerNumbers.has(value));
  return tells && !stale ? { before, after } : undefined;
}

/** The benchmark folder of one question; undefined when its type cannot be played on-policy. */
export function renderLongMemEval(item: LongMemEvalItem, haystack: Haystack, provenance: Provenance): RenderedQuestion | undefined {
  const checkType = checkTypeOf(item);
  if (checkType === undefined) return undefined;
  const sessions = toldSessions(item, haystack);
  const asked = parseDatasetMoment(item.question_date) ?? 0;
  const start = Math.min(sessions[0]?.moment ?? asked, asked);
  const writer = new AnchorWriter(start);
  const update = item.question_type === 'knowledge-update' && checkType === 'RECALL' ? staleUpdate(item, sessions) : undefined;
  const width = Math.max(2, String(sessions.length).length);
  const sheetName = (s: number) => `facts${String(s + 1).padStart(width, '0')}`;
  const factIds = new Map<string, string>();
  const sheets = new Map<string, string[]>();
  sessions.forEach((session, s) =>
    session.turns.forEach((turn, t) => {
      if (!isFactTurn(turn) || (update && update.after.session === s && update.after.turn === t)) return;
      const facts = sheets.get(sheetName(s)) ?? [];
      sheets.set(sheetName(s), facts);
      facts.push(safeText(turn.content));
      factIds.set(`${s}:${t}`, `1.${facts.length}`);
    }),
  );
  const files = new Map<string, string>();
  const chapters: string[] = [];
  sessions.forEach((session, s) => {
    const file = `session${String(s + 1).padStart(width, '0')}.md`;
    chapters.push(file);
    const sheet = sheets.has(sheetName(s)) ? sheetName(s) : undefined;
    const trap = update && update.after.session === s ? staleLine(update, sheetName, factIds) : undefined;
    files.set(file, sessionChapter(session, s, sessions.length, { writer, sheet, update, sheetName, factIds, trap }));
  });
  chapters.push('question.md');
  files.set('question.md', questionChapter(item, checkType, writer, asked));
  for (const [name, facts] of sheets) files.set(`${name}.md`, sheetText(name, sessions, facts));
  const title = importedTitle(DATASETS.longmemeval, safeText(item.question_id, 80).replace(/\s/g, '_'), item.question_type);
  files.set(
    'benchmark.json',
    manifest(
      title,
      chapters,
      [...sheets.keys()].map((name) => `${name}.md`),
      start,
    ),
  );
  files.set('instructions.md', INSTRUCTIONS);
  const stale = item.question_type === 'knowledge-update' && checkType === 'RECALL' ? (update ? 'written' : 'not found') : undefined;
  const about = aboutLines(item, checkType, sessions, haystack, stale);
  files.set('README.md', importedReadme(title, provenance, about));
  return { name: `longmemeval-${safeName(item.question_id)}`, files: inNameOrder(files), checkType, ...(stale ? { stale } : {}) };
}

interface SessionContext {
  writer: AnchorWriter;
  sheet: string | undefined;
  update: { before: TurnAt; after: TurnAt } | undefined;
  sheetName: (session: number) => string;
  factIds: ReadonlyMap<string, string>;
  trap: string | undefined;
}

function staleLine(
  update: { before: TurnAt; after: TurnAt },
  sheetName: (s: number) => string,
  factIds: ReadonlyMap<string, string>,
): string {
  const fact = `${sheetName(update.before.session)}#${factIds.get(`${update.before.session}:${update.before.turn}`)}`;
  return `🪤 STALE ${fact} → ${CHECK_ID} — the recorded user's update; the earlier value stays in the agent's memory`;
}

function sessionChapter(session: ToldSession, s: number, count: number, context: SessionContext): string {
  const { writer, sheet, update } = context;
  const lines: string[] = [];
  let minute = 0;
  let told = false;
  session.turns.forEach((turn, t) => {
    if (turn.role !== 'user') return;
    const at = session.moment + minute++ * 60_000;
    if (update && update.after.session === s && update.after.turn === t) {
      const words = safeQuoted(turn.content);
      const id = context.factIds.get(`${update.before.session}:${update.before.turn}`);
      const fact = `\`${context.sheetName(update.before.session)}\` fact ${id}`;
      lines.push(...writer.lineAt(at, `You say: "${words}". Then update ${fact} to "${words}".`));
    } else if (isFactTurn(turn)) {
      if (!told && sheet)
        lines.push(...writer.lineAt(at, `Tell the \`${sheet}\` sheet: what you said here that matters later, in your own words.`));
      told = true;
    } else lines.push(...writer.lineAt(at, `You say: "${safeQuoted(turn.content)}"`));
  });
  if (lines.length === 0) lines.push(...writer.lineAt(session.moment, QUIET_STEP));
  const day = new Date(session.moment).toISOString().slice(0, 10);
  return [
    `# Session ${s + 1} of ${count}`,
    '',
    `Recorded as session ${safeText(session.id, 120)} of the haystack (number ${session.index + 1}). The user's turns are told in`,
    "the persona's words; the recorded assistant's replies are not: the agent under test answers as itself.",
    '',
    ...phasesText({
      title: `Session ${s + 1}: ${day}`,
      lines,
      newSession: s > 0,
      ...(sheet ? { sheet } : {}),
      ...(context.trap ? { traps: [context.trap] } : {}),
    }),
    '',
  ].join('\n');
}

function questionChapter(item: LongMemEvalItem, checkType: string, writer: AnchorWriter, asked: number): string {
  const answer = safeText(String(item.answer), MAX_QUESTION_CHARS);
  const ended = /[.!?]$/.test(answer) ? answer : `${answer}.`;
  const correct = checkType === 'VOID' ? `you never told me (the dataset: ${ended})` : ended;
  const ask =
    'Say openly that you would like to check what the assistant remembers of your earlier conversations. ' +
    'Ask the question below and grade the answer.';
  return [
    '# The question',
    '',
    `${DATASETS.longmemeval.name} asks it on the question's date, after every session.`,
    '',
    ...phasesText({
      title: 'The question',
      lines: writer.lineAt(asked, ask),
      newSession: true,
      after: ['', `❓ ${CHECK_ID} [${checkType}] ${safeText(item.question, MAX_QUESTION_CHARS)}`, `     Correct answer: ${correct}`],
    }),
    '',
  ].join('\n');
}

function sheetText(name: string, sessions: readonly ToldSession[], facts: readonly string[]): string {
  const s = Number(name.replace(/^facts/, '')) - 1;
  const day = new Date(sessions[s]?.moment ?? 0).toISOString().slice(0, 10);
  return [`# What you said on ${day}`, '', `## 1. Said in session ${s + 1}`, ...facts.map((fact, k) => `1.${k + 1} ${fact}`), ''].join(
    '\n',
  );
}

function manifest(title: string, chapters: readonly string[], sheets: readonly string[], start: number): string {
  const body = { title, chapters, sheets, time_master: true, time_gate: true, start_time: startTimeText(start) };
  return importedManifest(DATASETS.longmemeval, body);
}

const INSTRUCTIONS = [
  'You are the user of a chat assistant, living again your own conversations with it, on the days they happened. Each',
  'timed line gives in quotes what you wrote at that moment ("You say: …"): say it to the assistant in your own words, as one message,',
  'keeping every name, number, date and detail. When a line asks you to tell a sheet, tell its facts the same way, in',
  'your own words, as part of that conversation. The assistant answers as itself: reply briefly and naturally when it',
  'asks you something, but add nothing the lines do not give. Never mention a test, a dataset or a recording until the',
  'last phase, where you ask the question and grade the answer.',
  '',
].join('\n');

function aboutLines(
  item: LongMemEvalItem,
  checkType: string,
  sessions: readonly ToldSession[],
  haystack: Haystack,
  stale: 'written' | 'not found' | undefined,
): string[] {
  const told =
    haystack.kind === 'full'
      ? 'the whole haystack'
      : haystack.kind === 'oracle'
        ? 'the evidence sessions alone'
        : 'the evidence sessions and some others';
  const staleWords =
    stale === 'written'
      ? '- The earlier value is a fact the later session updates, with a STALE trap aimed at the check.'
      : stale === 'not found'
        ? '- The earlier value was not found in the evidence (no number tells it from the later one): RECALL alone.'
        : undefined;
  return [
    '## The question',
    '',
    `- Type: ${item.question_type}${item.question_id.endsWith('_abs') ? ' (abstention)' : ''}, played as a ${checkType} check.`,
    `- ${sessions.length} of ${item.haystack_sessions.length} sessions told (${told}), each a chapter on its recorded date.`,
    ...(staleWords ? [staleWords] : []),
  ];
}
