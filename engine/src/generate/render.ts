/**
 * A simulated world written as a benchmark folder a person could have written: the manifest, the
 * persona's instructions and profile, one sheet per topic, and the chapters (single-day) or weeks of
 * days on virtual time (multi-day), each phase in the words and edit forms the persona reads, with
 * trap lines and checks marked as in Max. Pure: the same world gives the same bytes.
 */
import { factText, type LiveSheet } from './facts';
import { dateLine, type Slot } from './layout';
import type { TopicModel } from './model';
import { midSentence } from './phrasing';
import type { World } from './world';
import type { Happening, PhaseLine } from './simulate';
import { renderReadme, renderSpecFile } from './renderReadme';

export interface RenderedPhase {
  title: string;
  js: string[];
  /** The phase's text lines after its JS block. */
  body: string[];
}

/** The most characters of days a multi-day chapter file holds before the week goes on in a next part. */
export const MAX_CHAPTER_CHARS = 12_000;

const EXAM_WORDS = [
  'Say you would like to check what the assistant remembers of everything you told it. ' +
    'Ask the questions below one at a time and grade each answer.',
  'Tell the assistant you want to see how well it kept track of it all. Ask each question below on its own and grade the answer.',
  'Say it is time for a check-up of its memory. Ask the questions below one by one and grade every answer.',
];
const QUICK_WORDS = [
  'Change the subject for a moment and ask the assistant a few things. Ask the questions below one at a time and grade each answer.',
  'In passing, check what the assistant remembers. Ask each question below on its own and grade the answer.',
  'Before moving on, ask the assistant a couple of questions. Ask them one at a time and grade each answer.',
];

export function renderWorld(world: World): Map<string, string> {
  const files = new Map<string, string>();
  const slots = world.blocks.flatMap((block) => block.layout.slots);
  const happenings = world.blocks.flatMap((block) => block.happenings);
  const bySlot = new Map<number, Happening[]>(slots.map((slot) => [slot.number, []]));
  for (const happening of happenings) bySlot.get(happening.slot.number)?.push(happening);
  const chapters: string[] = [];
  const chapterText = new Map<string, string[]>();
  // A dense week is split into parts of at most MAX_CHAPTER_CHARS (whole days each): a file stays one an
  // author reads in one sitting, and one the language server re-parses within its keystroke goal.
  const partOf = new Map<string, { file: string; chars: number; part: number }>();
  for (const slot of slots) {
    const here = bySlot.get(slot.number) ?? [];
    const phases = world.spec.shape === 'multi-day' ? dayPhases(slot, here) : chapterPhases(slot, here);
    const lines = phases.flatMap(phaseText);
    const chars = lines.reduce((n, line) => n + line.length + 1, 0);
    let current = partOf.get(slot.file);
    if (!current || (current.chars > 0 && current.chars + chars > MAX_CHAPTER_CHARS && world.spec.shape === 'multi-day')) {
      const part = (current?.part ?? 0) + 1;
      const file = part === 1 ? slot.file : slot.file.replace(/\.md$/, `-${part}.md`);
      current = { file, chars: 0, part };
      partOf.set(slot.file, current);
      chapters.push(file);
      chapterText.set(file, [`# ${chapterTitle(world, slot)}${part > 1 ? `, part ${part}` : ''}`, '']);
    }
    current.chars += chars;
    chapterText.get(current.file)!.push(...lines);
  }
  files.set('benchmark.json', manifest(world, chapters));
  files.set('instructions.md', instructions(world));
  files.set('profile.md', profile(world));
  for (const sheet of world.initial) files.set(`${sheet.name}.md`, sheetText(sheet));
  for (const [file, lines] of chapterText) files.set(file, `${lines.join('\n').trimEnd()}\n`);
  files.set('README.md', renderReadme(world, files));
  files.set('world.jsonc', renderSpecFile(world));
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function chapterTitle(world: World, slot: Slot): string {
  if (world.spec.shape === 'multi-day') return `Week ${Math.ceil(slot.number / 7)}`;
  return `Chapter ${slot.number}${slot.exam ? ': the exam' : ''}`;
}

function phaseText(phase: RenderedPhase): string[] {
  const out = [`## ${phase.title}`];
  if (phase.js.length) out.push('```js', ...phase.js, '```');
  out.push(...phase.body, '');
  return out;
}

const HELLO = 'Say hello and introduce yourself: tell the `profile` sheet over a few messages.';

function jsOf(slot: Slot, happenings: readonly Happening[], first: boolean): string[] {
  const js: string[] = [];
  if (first && slot.newSession) js.push('await bench.newSession();');
  const required = [...(first && slot.number === 1 ? ['profile'] : []), ...happenings.flatMap((h) => (h.require ? [h.require] : []))];
  if (required.length === 1) js.push(`vars.require_all_facts = ${JSON.stringify(required[0])};`);
  if (required.length > 1) js.push(`vars.require_all_facts = ${JSON.stringify(required)};`);
  return js;
}

function trapLines(happenings: readonly Happening[]): string[] {
  const lines: string[] = [];
  for (const { trap } of happenings) {
    if (!trap) continue;
    const facts = trap.facts.length ? ` ${trap.facts.join(' ')}` : '';
    lines.push(`🪤 ${trap.type}${facts} → ${trap.edit.checks.map((check) => check.id).join(', ')} — ${trap.note}`);
  }
  return lines.length ? ['', ...lines] : [];
}

function checkLines(happenings: readonly Happening[]): string[] {
  return happenings.flatMap(({ check }) => {
    if (!check) return [];
    const answer = /[.!?]$/.test(check.answer) ? check.answer : `${check.answer}.`;
    return [`❓ ${check.item.id} [${check.type}] ${check.question}`, `     Correct answer: ${answer}`];
  });
}

function said(line: PhaseLine): string[] {
  return [line.text, ...line.edits];
}

/** Single-day: a phase per intro, trap, filler and topic's events; the slot's checks in one phase. */
function chapterPhases(slot: Slot, happenings: readonly Happening[]): RenderedPhase[] {
  const phases: RenderedPhase[] = [];
  const titles = new Set<string>();
  const title = (wanted: string) => {
    let name = wanted;
    for (let n = 2; titles.has(name); n++) name = `${wanted} (${n})`;
    titles.add(name);
    return name;
  };
  const talk = happenings.filter((h) => !h.check);
  if (slot.number === 1) phases.push({ title: title('About me'), js: jsOf(slot, [], true), body: [HELLO] });
  for (const happening of talk) {
    const topic = topicOf(happening);
    const name = happening.item.kind === 'events' ? `${topic.title}: ${midSentence(topic.series.title)}` : topic.title;
    phases.push({
      title: title(name),
      js: jsOf(slot, [happening], phases.length === 0),
      body: [...happening.lines.flatMap(said), ...trapLines([happening])],
    });
  }
  const checks = happenings.filter((h) => h.check);
  if (checks.length) {
    const words = slot.exam ? EXAM_WORDS : QUICK_WORDS;
    phases.push({
      title: title(slot.exam ? 'Exam' : 'A quick check'),
      js: jsOf(slot, [], phases.length === 0),
      body: [words[slot.number % words.length]!, '', ...checkLines(checks)],
    });
  }
  if (phases.length === 0)
    phases.push({ title: 'A quiet moment', js: jsOf(slot, [], true), body: ['Chat briefly about your day; nothing new to tell.'] });
  return phases;
}

/**
 * Multi-day: a day is a phase with its date line and each happening at a time of the day; a trap
 * write takes a phase of its own on the same day, so that the answer audit reads what each trap
 * changed apart from the day's other news. Talk runs from 08:00, checks at 19:30: anchors of
 * neighbouring days are never more than 36 hours apart, the longest the persona may wait at once.
 */
function dayPhases(slot: Slot, happenings: readonly Happening[]): RenderedPhase[] {
  const talk = happenings.filter((h) => !h.check);
  const checks = happenings.filter((h) => h.check);
  const groups: Happening[][] = [[]];
  for (const happening of talk) {
    if (happening.trap) groups.push([happening], []);
    else groups[groups.length - 1]!.push(happening);
  }
  const filled = groups.filter((group) => group.length > 0);
  const parts = filled.length ? filled : [[]];
  const lineCount = talk.reduce((n, h) => n + h.lines.length, slot.number === 1 ? 1 : 0);
  const step = Math.max(1, Math.min(40, Math.floor((11 * 60) / Math.max(1, lineCount))));
  let minute = 8 * 60;
  const phases = parts.map((group, index) => {
    const body = [dateLine(slot.day)];
    const lines = [...(slot.number === 1 && index === 0 ? [{ text: HELLO, edits: [] }] : []), ...group.flatMap((h) => h.lines)];
    for (const line of lines) {
      body.push(`${clock(minute)} — ${line.text}`, ...line.edits);
      minute += step;
    }
    body.push(...trapLines(group));
    const topic = group[0] ? topicOf(group[0]).title : '';
    return {
      title: index === 0 ? `Day ${slot.number}` : `Day ${slot.number}: ${topic} (${index})`,
      js: jsOf(slot, group, index === 0),
      body,
    };
  });
  const first = phases[0]!;
  const last = phases[phases.length - 1]!;
  if (slot.offline) first.body.push(`${clock(9 * 60)} — You are away all day with no signal: send nothing today.`);
  if (checks.length) {
    const words = slot.exam ? EXAM_WORDS : QUICK_WORDS;
    last.body.push(`${clock(19 * 60 + 30)} — ${words[slot.number % words.length]}`, '', ...checkLines(checks));
  }
  if (first.body.length === 1) first.body.push(`${clock(12 * 60)} — Chat briefly about your day; nothing new to tell.`);
  return phases;
}

/** The topic a happening is about (a check's, its subject's). */
function topicOf(happening: Happening): TopicModel {
  const item = happening.item;
  if (item.kind === 'edit') return item.plan.topic;
  if (item.kind !== 'check') return item.topic;
  const subject = item.subject;
  return subject.on === 'fact' ? subject.plan.topic : subject.on === 'before' ? subject.edit.plan.topic : subject.topic;
}

const clock = (minutes: number): string => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

function manifest(world: World, chapters: readonly string[]): string {
  const multiDay = world.spec.shape === 'multi-day';
  const body: Record<string, unknown> = { title: `Generated: ${world.persona.name}'s world (seed ${world.seed})`, chapters };
  if (multiDay) Object.assign(body, { time_master: true, time_gate: true, start_time: `${world.spec.start.slice(0, 10)} 07:00` });
  const comment = '// A generated world: world.jsonc holds its spec and seed; README.md says how to regenerate or extend it.';
  return `${comment}\n${JSON.stringify(body, null, 2)}\n`;
}

function instructions(world: World): string {
  const { persona, topics } = world;
  const family = persona.family.map((member) => `your ${member.relation} ${member.name}`).join(', ');
  const about = topics.map((topic) => topic.about).join('; ');
  return [
    `You are ${persona.name}, ${persona.age}, ${persona.job} in ${persona.city}, and you live with ${family || 'no one'}.`,
    'You talk to your personal assistant the way busy people do: short messages, a fact or two at a time, jumping',
    `between the parts of your life: ${about}. When something changes you say why, in passing, and you sometimes`,
    'correct a number you gave from memory. You never mention that this is a test until you say openly that you want',
    'to check what the assistant remembers.',
    '',
  ].join('\n');
}

function profile(world: World): string {
  const { persona } = world;
  const lines = [
    '# Profile',
    '',
    '## 1. About me',
    `1.1 ${persona.name}, ${persona.age}`,
    `1.2 ${persona.job}`,
    `1.3 Lives in ${persona.city}`,
  ];
  if (persona.family.length) {
    lines.push('', '## 2. Family');
    persona.family.forEach((member, index) => lines.push(`2.${index + 1} ${member.relation}: ${member.name}`));
  }
  return `${lines.join('\n')}\n`;
}

function sheetText(sheet: LiveSheet): string {
  const lines = [`# ${sheet.title}`];
  for (const category of sheet.categories) {
    lines.push('', `## ${category.number}. ${category.title}`);
    for (const fact of category.facts) lines.push(`${fact.id} ${factText(fact)}`);
  }
  return `${lines.join('\n')}\n`;
}
