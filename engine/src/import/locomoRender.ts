/**
 * One LoCoMo conversation written as a benchmark folder: a dated chapter per session (a new
 * conversation with the agent between sessions), in which the persona, the first speaker, tells
 * the assistant her own words and what the other said; the turns the QA cite as evidence are the
 * facts of that session's sheet; the QA are the checks of a last chapter a day after the last
 * session, each check's id `C.K` the K-th question of category C, so the report reads the category
 * back. Pure: same conversation, same bytes.
 */
import { LOCOMO_CATEGORIES, locomoSessions, type LocomoItem, type LocomoSession, type LocomoTurn } from './locomo';
import { DATASETS, importedManifest, importedReadme, importedTitle, inNameOrder, type Provenance } from './provenance';
import { MAX_QUESTION_CHARS, safeName, safeQuoted, safeText } from './safeText';
import { phasesText } from './phaseSplit';
import { AnchorWriter, startTimeText } from './timeline';

/** The type an imported LoCoMo benchmark's title names: its checks' categories are in their ids. */
export const BY_CATEGORY = 'by category';

export interface RenderedConversation {
  name: string;
  files: Map<string, string>;
  /** The checks by category name. */
  categories: Map<string, number>;
}

const DAY_MS = 86_400_000;

/** What the persona says for a turn: her own words, or what the other said, in her words. */
function turnWords(turn: LocomoTurn, persona: string): string {
  const photo = turn.blip_caption ? ` (and shares a photo: ${turn.blip_caption})` : '';
  const text = `${turn.text}${photo}`;
  return turn.speaker === persona ? safeQuoted(text) : safeQuoted(`${turn.speaker} told me: ${text.replace(/["“”]/g, "'")}`);
}

export function renderLocomo(item: LocomoItem, provenance: Provenance): RenderedConversation {
  const persona = item.conversation.speaker_a;
  const sessions = locomoSessions(item);
  const evidence = new Set(item.qa.flatMap((qa) => qa.evidence.flatMap((cited) => cited.split(/[;,\s]+/).filter(Boolean))));
  const width = Math.max(2, String(sessions.length).length);
  const pad = (s: number) => String(s + 1).padStart(width, '0');
  const writer = new AnchorWriter(sessions[0]?.moment ?? 0);
  const files = new Map<string, string>();
  const chapters: string[] = [];
  const sheets: string[] = [];
  sessions.forEach((session, s) => {
    const facts = session.turns.filter((turn) => evidence.has(turn.dia_id));
    const sheet = facts.length ? `facts${pad(s)}` : undefined;
    if (sheet) {
      sheets.push(`${sheet}.md`);
      const day = new Date(session.moment).toISOString().slice(0, 10);
      const lines = facts.map((turn, k) => `1.${k + 1} ${safeText(`${turn.speaker}: ${turn.text}`)} (${safeText(turn.dia_id, 20)})`);
      files.set(`${sheet}.md`, [`# Session ${s + 1}, ${day}`, '', '## 1. What was said', ...lines, ''].join('\n'));
    }
    chapters.push(`session${pad(s)}.md`);
    files.set(`session${pad(s)}.md`, sessionChapter(session, s, { writer, sheet, persona, evidence, other: item.conversation.speaker_b }));
  });
  const asked = (sessions.at(-1)?.moment ?? 0) + DAY_MS;
  const { text, categories } = questionsChapter(item, writer, asked);
  chapters.push('questions.md');
  files.set('questions.md', text);
  const id = safeText(String(item.sample_id), 80).replace(/\s/g, '_');
  const title = importedTitle(DATASETS.locomo, id, BY_CATEGORY);
  const body = { title, chapters, sheets, time_master: true, time_gate: true, start_time: startTimeText(sessions[0]?.moment ?? asked) };
  files.set('benchmark.json', importedManifest(DATASETS.locomo, body));
  files.set('instructions.md', instructions(persona, item.conversation.speaker_b));
  const about = [
    '## The conversation',
    '',
    `- ${safeText(persona, 60)} is the persona; ${safeText(item.conversation.speaker_b, 60)} the friend she talks with.`,
    `- ${sessions.length} sessions, each a chapter on its recorded date; ${item.qa.length} questions in questions.md,`,
    '  check `C.K` the K-th question of category C: ' +
      Object.entries(LOCOMO_CATEGORIES)
        .map(([n, c]) => `${n} ${c.name} (${c.check})`)
        .join(', ') +
      '.',
  ];
  files.set('README.md', importedReadme(title, provenance, about));
  return { name: `locomo-${safeName(String(item.sample_id))}`, files: inNameOrder(files), categories };
}

interface SessionContext {
  writer: AnchorWriter;
  sheet: string | undefined;
  persona: string;
  other: string;
  evidence: ReadonlySet<string>;
}

function sessionChapter(session: LocomoSession, s: number, context: SessionContext): string {
  const { writer, sheet } = context;
  const lines: string[] = [];
  let told = false;
  session.turns.forEach((turn, t) => {
    const at = session.moment + t * 60_000;
    if (context.evidence.has(turn.dia_id)) {
      if (!told && sheet)
        lines.push(...writer.lineAt(at, `Tell the \`${sheet}\` sheet: what was said here that matters later, in your own words.`));
      told = true;
    } else lines.push(...writer.lineAt(at, `You say: "${turnWords(turn, context.persona)}"`));
  });
  const day = new Date(session.moment).toISOString().slice(0, 10);
  return [
    `# Session ${session.number}`,
    '',
    `${safeText(context.persona, 60)} tells the assistant about her talk with ${safeText(context.other, 60)}.`,
    '',
    ...phasesText({ title: `Session ${session.number}: ${day}`, lines, newSession: s > 0, ...(sheet ? { sheet } : {}) }),
    '',
  ].join('\n');
}

function questionsChapter(item: LocomoItem, writer: AnchorWriter, asked: number): { text: string; categories: Map<string, number> } {
  const perCategory = new Map<number, number>();
  const categories = new Map<string, number>();
  const checks = item.qa.flatMap((qa) => {
    const category = LOCOMO_CATEGORIES[qa.category]!;
    const k = (perCategory.get(qa.category) ?? 0) + 1;
    perCategory.set(qa.category, k);
    categories.set(category.name, (categories.get(category.name) ?? 0) + 1);
    const given = safeText(String(qa.answer ?? ''), MAX_QUESTION_CHARS);
    const ended = /[.!?]$/.test(given) ? given : `${given}.`;
    const wrong = qa.adversarial_answer === undefined ? '' : ` (not: ${safeText(qa.adversarial_answer, MAX_QUESTION_CHARS)})`;
    const answer = category.check === 'VOID' ? `you never told me${wrong}.` : ended;
    return [`❓ ${qa.category}.${k} [${category.check}] ${safeText(qa.question, MAX_QUESTION_CHARS)}`, `     Correct answer: ${answer}`];
  });
  const ask =
    'Say openly that you would like to check what the assistant remembers of everything you told it. ' +
    'Ask the questions below one at a time and grade each answer.';
  const text = [
    '# The questions',
    '',
    ...phasesText({ title: 'The questions', lines: writer.lineAt(asked, ask), newSession: true, after: ['', ...checks] }),
    '',
  ];
  return { text: text.join('\n'), categories };
}

function instructions(persona: string, other: string): string {
  const [me, them] = [safeText(persona, 60), safeText(other, 60)];
  return [
    `You are ${me}. Over these weeks you talk with your friend ${them}, and you tell your personal assistant about it, on the`,
    'days it happens. Each timed line gives in quotes what to tell it ("You say: …"): your own words, or what your friend',
    `told you ("${them} told me: …"). Say each in your own words, as one message, keeping every name, number, date and`,
    'detail. When a line asks you to tell a sheet, tell its facts the same way. Reply briefly when the assistant asks',
    'something, but add nothing the lines do not give. Never mention a test or a dataset until the last phase, where you ask',
    'the questions and grade the answers.',
    '',
  ].join('\n');
}
