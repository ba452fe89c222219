/**
 * The library of generated worlds: every topic holds the counts, labels and ranges the world relies
 * on; the Phraser gives varied, one-line, value-carrying English for every topic, trap and check
 * type; the persona pools draw the same persona for a seed and different ones across seeds.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHECK_TYPES, TRAP_TYPES, type CheckType, type TrapType } from '../../scenario/src';
import type { Range, TopicModel, UnitName } from '../src/generate/model';
import { firstPerson, nounPhrase, Phraser } from '../src/generate/phrasing';
import { swapsOf } from '../src/standin/sheetEdits';
import { CITIES, drawPersona, FEMALE_NAMES, JOBS, MALE_NAMES, SURNAMES } from '../src/generate/pools';
import { OWN_PRETEXTS } from '../src/generate/simulate';
import { TOPICS } from '../src/generate/topics';

/** The pretexts of logged events and details, kept apart from the topics': they become HIST questions too. */
const ownPretexts = Object.values(OWN_PRETEXTS).flatMap((byType) => Object.values(byType ?? {}).flat());
import { seededRandom } from '../src/random';

const TRAPS = Object.keys(TRAP_TYPES) as TrapType[];
const CHECKS = Object.keys(CHECK_TYPES) as CheckType[];
/** The library's order is part of every world's identity: a spec asking for N topics gets the first N. */
const ORDER = ['health', 'running', 'renovation', 'car', 'trip', 'family', 'work', 'pets', 'bills', 'shopping', 'course', 'garden'];
const FORBIDDEN = ['`', '#', '❓', '🪤', '{{'];
const MONEY: readonly UnitName[] = ['$', '€', '£'];
/** Sheet names a generated folder writes itself. */
const RESERVED_SHEETS = ['profile', 'instructions', 'readme', 'world', 'benchmark', 'exam', 'general'];
const CALLS = 50;

/** Every label a topic writes as a fact's label. */
function labelsOf(topic: TopicModel): string[] {
  return [
    ...topic.ledger.lines.map((line) => line.label),
    ...topic.details.facts.map((fact) => fact.label),
    topic.cascade.quantity.label,
    topic.cascade.rate.label,
    topic.series.event,
  ];
}

/** Every text of a topic the world copies into a folder. */
function textsOf(topic: TopicModel): string[] {
  const choices = topic.details.facts.flatMap((fact) => (fact.kind === 'name' ? fact.choices : []));
  const suffixes = topic.ledger.lines.flatMap((line) => (line.suffix ? [line.suffix] : []));
  const pretexts = Object.values(topic.pretexts).flat();
  return [topic.title, topic.about, topic.ledger.title, topic.ledger.total, topic.details.title, topic.cascade.derived].concat([
    topic.series.title,
    topic.series.recap,
    ...topic.unknowns,
    ...pretexts,
    ...choices,
    ...suffixes,
    ...labelsOf(topic),
  ]);
}

function rangesOf(topic: TopicModel): { name: string; range: Range; money: boolean }[] {
  const money = MONEY.includes(topic.ledger.unit);
  return [
    ...topic.ledger.lines.map((line) => ({ name: line.label, range: line, money })),
    ...topic.details.facts.flatMap((fact) => (fact.kind === 'count' ? [{ name: fact.label, range: fact, money: false }] : [])),
    { name: topic.cascade.quantity.label, range: topic.cascade.quantity, money: false },
    { name: topic.cascade.rate.label, range: topic.cascade.rate, money },
    { name: topic.series.title, range: topic.series, money: MONEY.includes(topic.series.unit) },
  ];
}

test('the library holds enough topics, with distinct valid sheet names, in a fixed order', () => {
  assert.ok(TOPICS.length >= 12, `${TOPICS.length} topics`);
  const sheets = TOPICS.map((topic) => topic.sheet);
  assert.equal(new Set(sheets).size, sheets.length);
  for (const sheet of sheets) {
    assert.match(sheet, /^[a-z][a-z0-9-]*$/);
    assert.ok(!RESERVED_SHEETS.includes(sheet) && !/^(chapter|week)\d/.test(sheet), sheet);
  }
  assert.deepEqual(sheets.slice(0, ORDER.length), ORDER);
});

test('every topic has its counts: ledger lines, details, names to choose from, unknowns, pretexts, a weekly series', () => {
  for (const topic of TOPICS) {
    const where = topic.sheet;
    assert.ok(topic.ledger.lines.length >= 14, `${where}: ${topic.ledger.lines.length} ledger lines`);
    assert.ok(topic.details.facts.length >= 4, `${where}: details`);
    assert.ok(topic.unknowns.length >= 4, `${where}: unknowns`);
    assert.equal(new Set(topic.unknowns).size, topic.unknowns.length, `${where}: unknowns repeat`);
    for (const fact of topic.details.facts) {
      if (fact.kind !== 'name') continue;
      assert.ok(new Set(fact.choices).size >= 4 && new Set(fact.choices).size === fact.choices.length, `${where}: ${fact.label}`);
    }
    for (const type of TRAPS) assert.ok(topic.pretexts[type].length >= 3, `${where}: ${type} pretexts`);
    assert.ok(Number.isInteger(topic.series.perWeek) && topic.series.perWeek >= 1, `${where}: perWeek`);
  }
});

test('labels are distinct in the library, never inside one another in a topic, with no digits, commas or colons', () => {
  const seen = new Map<string, string>();
  for (const topic of TOPICS) {
    const labels = labelsOf(topic).map((label) => label.toLowerCase());
    for (const label of labels) {
      assert.doesNotMatch(label, /[\d,:]/, `${topic.sheet}: ${label}`);
      assert.equal(label, label.trim(), `${topic.sheet}: ${label} has outer spaces`);
      assert.ok(!seen.has(label), `${label} in ${topic.sheet} and ${seen.get(label)}`);
      seen.set(label, topic.sheet);
      const inside = labels.filter((other) => other !== label && other.includes(label));
      assert.deepEqual(inside, [], `${topic.sheet}: "${label}" is inside ${inside.join(', ')}`);
    }
  }
});

test('no text of the library holds a character the format reads, and pretexts are digit-free clauses', () => {
  for (const topic of TOPICS) {
    for (const text of textsOf(topic)) {
      for (const bad of FORBIDDEN) assert.ok(!text.includes(bad), `${topic.sheet}: ${JSON.stringify(text)} holds ${bad}`);
      assert.ok(text.length > 0 && !text.includes('\n'), `${topic.sheet}: ${JSON.stringify(text)}`);
    }
    for (const pretext of [...Object.values(topic.pretexts).flat(), ...ownPretexts]) {
      assert.doesNotMatch(pretext, /\d/, `${topic.sheet}: ${pretext}`);
      assert.match(pretext, /^[a-z].*[a-z]$/, `${topic.sheet}: a pretext is a clause: ${pretext}`);
      // "you" only as a subject, so that a HIST question turns it into "I" (firstPerson).
      assert.doesNotMatch(pretext, /\b(for|with|to|at|from|about|of|by|than|like) you\b|\byou and\b/, `${topic.sheet}: ${pretext}`);
      const objectYou = /\byou( (a|an|the|one|into|to|for|with|about|on|in|it|that|this|some|his|her|their|back|up|off|out|better)\b|$)/;
      assert.doesNotMatch(pretext, objectYou, `${topic.sheet}: ${pretext}`);
    }
    for (const text of [...topic.unknowns, topic.about, topic.ledger.total, topic.cascade.derived]) {
      assert.match(text, /^[a-z]/, `${topic.sheet}: ${text} goes in the middle of a sentence`);
      assert.doesNotMatch(text, /[\d?.]|\b(delete|remove|strike)\b/i, `${topic.sheet}: ${text}`);
    }
  }
});

test('every range is a grid of positive values, money over 100 moves in steps of 5 at least', () => {
  for (const topic of TOPICS) {
    for (const { name, range, money } of rangesOf(topic)) {
      const where = `${topic.sheet}: ${name}`;
      assert.ok(range.min > 0 && range.min < range.max && range.step > 0, where);
      const steps = (range.max - range.min) / range.step;
      assert.ok(Math.abs(steps - Math.round(steps)) < 1e-9, `${where}: the step does not divide the range`);
      assert.ok(Math.round(steps) >= 3, `${where}: fewer than four values`);
      if (money) assert.ok(Number.isInteger(range.step) && (range.max <= 100 || range.step >= 5), `${where}: step ${range.step}`);
    }
  }
});

/** The phrase with every slot's words replaced by a marker: what is left is the frame. */
function frameOf(text: string, fills: readonly string[]): string {
  const longestFirst = [...fills].filter(Boolean).sort((a, b) => b.length - a.length);
  return longestFirst.reduce((out, fill) => out.split(fill).join('<>'), text);
}

function assertPhrase(text: string, where: string, options: { backtick: boolean }): void {
  assert.ok(!text.includes('\n') && text.length <= 400 && text.length > 0, `${where}: ${text}`);
  if (!options.backtick) assert.ok(!text.includes('`'), `${where}: a backtick: ${text}`);
  for (const bad of FORBIDDEN.slice(1)) assert.ok(!text.includes(bad), `${where}: ${bad} in ${text}`);
  assert.doesNotMatch(text, /^(#|\d|\d\d:\d\d —)/, `${where}: ${text}`);
}

function assertVaried(texts: readonly string[], fills: readonly string[], where: string): void {
  const frames = texts.map((text) => frameOf(text, fills));
  assert.ok(new Set(frames).size >= 5, `${where}: ${new Set(frames).size} frames`);
  frames.forEach((frame, index) => assert.notEqual(frame, frames[index - 1], `${where}: call ${index} repeats its neighbour`));
}

const VALUE = '$437 a year';
const OLD = '$399 a year';
const REFERENT = 'the bathroom wall tile';

test('trap phrasings: five frames at least for every topic and type, no neighbours alike, the value there (XREF: never)', () => {
  for (const topic of TOPICS) {
    for (const type of TRAPS) {
      const phraser = new Phraser(seededRandom(7));
      const label = topic.ledger.lines[1]!.label;
      const pretext = topic.pretexts[type][0]!;
      const slots = { topic, label, value: VALUE, old: OLD, pretext, referent: REFERENT };
      const texts = Array.from({ length: CALLS }, () => phraser.trap(type, slots));
      const where = `${topic.sheet} ${type}`;
      const capitalised = pretext.charAt(0).toUpperCase() + pretext.slice(1);
      const fills = [VALUE, OLD, REFERENT, pretext, capitalised, nounPhrase(label), topic.about, topic.cascade.derived];
      assertVaried(texts, fills, where);
      for (const text of texts) {
        assertPhrase(text, where, { backtick: false });
        assert.ok(text.toLowerCase().includes(label.toLowerCase()), `${where}: no label in ${text}`);
        if (type === 'XREF') {
          assert.ok(!text.includes('437') && text.includes(`the same as ${REFERENT}`), `${where}: ${text}`);
        } else {
          assert.ok(text.includes(VALUE), `${where}: no value in ${text}`);
        }
        if (['RECONSIDER', 'STALE', 'SELF-FIX', 'CASCADE'].includes(type)) assert.ok(text.includes(OLD), `${where}: ${text}`);
        // The stand-in reads "X instead of Y" as X replacing Y: a frame never says it the wrong way round.
        for (const swap of swapsOf(text)) assert.deepEqual(swap, { from: '399', to: '437' }, `${where}: ${text}`);
      }
    }
  }
});

function checkSlots(topic: TopicModel) {
  const pretext = topic.pretexts.STALE[1]!;
  return {
    topic,
    label: topic.ledger.lines[2]!.label,
    edit: `before ${pretext}`,
    total: topic.ledger.total,
    unknown: topic.unknowns[1]!,
    period: 'from 3 to 9 March',
  };
}

test('check questions: five frames at least for every topic and type, each naming what it asks about', () => {
  for (const topic of TOPICS) {
    for (const type of CHECKS) {
      const phraser = new Phraser(seededRandom(11));
      const slots = checkSlots(topic);
      const texts = Array.from({ length: CALLS }, () => phraser.question(type, slots));
      const where = `${topic.sheet} ${type}`;
      const series = topic.series.title.toLowerCase();
      const edit = firstPerson(slots.edit);
      const fills = [nounPhrase(slots.label), edit, slots.total, slots.unknown, series, topic.series.event.toLowerCase(), slots.period];
      assertVaried(texts, fills, where);
      const named: Record<CheckType, string> = {
        RECALL: slots.label,
        HIST: slots.label,
        AGG: slots.total,
        NEG: slots.total,
        VOID: slots.unknown,
        SERIES: slots.period,
      };
      for (const text of texts) {
        assertPhrase(text, where, { backtick: false });
        assert.ok(text.toLowerCase().includes(named[type].toLowerCase()), `${where}: ${text}`);
        if (type === 'HIST') assert.ok(text.includes(edit) && !/\byou\b/i.test(edit), `${where}: ${text}`);
        if (type === 'SERIES') assert.ok(text.includes(series) || text.includes(topic.series.event.toLowerCase()), `${where}: ${text}`);
      }
    }
  }
});

test('a recap (AGG over a period, no total) asks the question of the log over that period, in five frames at least', () => {
  for (const topic of TOPICS) {
    assert.match(topic.series.recap, /^[a-z].*\bthis month\?$/, `${topic.sheet}: ${topic.series.recap}`);
    const phraser = new Phraser(seededRandom(13));
    const texts = Array.from({ length: CALLS }, () => phraser.question('AGG', { topic, period: 'in March' }));
    const recap = topic.series.recap.replace('this month', 'in March');
    assertVaried(texts, [recap, topic.series.title.toLowerCase()], `${topic.sheet} recap`);
    for (const text of texts) {
      assertPhrase(text, 'recap', { backtick: false });
      assert.ok(text.endsWith(`how ${recap}`) || text === `How ${recap}`, text);
    }
  }
});

test('an AGG over the derived value asks for it in five frames at least, never counting lines', () => {
  for (const topic of TOPICS) {
    const phraser = new Phraser(seededRandom(17));
    const texts = Array.from({ length: CALLS }, () => phraser.question('AGG', { topic, total: topic.cascade.derived }));
    assertVaried(texts, [topic.cascade.derived], `${topic.sheet} derived`);
    for (const text of texts) {
      assertPhrase(text, 'derived', { backtick: false });
      assert.ok(text.includes(topic.cascade.derived) && !/\blines?\b/.test(text), text);
    }
  }
});

test('a bare pretext is dated with "before", and an XREF referent gets its article', () => {
  const topic = TOPICS[0]!;
  const phraser = new Phraser(seededRandom(2));
  const question = phraser.question('HIST', { topic, label: 'Eye test', edit: 'you checked the prescription again' });
  assert.ok(question.includes('the eye test before I checked the prescription again'), question);
  const slots = { topic, label: 'Eye test', value: '$60', pretext: 'the pharmacist said it matches', referent: 'flu jab' };
  const texts = Array.from({ length: 6 }, () => phraser.trap('XREF', slots));
  for (const text of texts) assert.ok(text.includes('the same as the flu jab') && !text.includes('60'), text);
});

test('tell names the sheet in backticks; filler has no backtick and no digit; an event holds its value and date', () => {
  for (const topic of TOPICS) {
    const phraser = new Phraser(seededRandom(3));
    const tells = Array.from({ length: CALLS }, () => phraser.tell(topic));
    const fillers = Array.from({ length: CALLS }, () => phraser.filler(topic));
    const events = Array.from({ length: CALLS }, () => phraser.event(topic, { value: '6.5 km', when: 'on 4 March' }));
    const fills = [topic.sheet, topic.about, topic.about.charAt(0).toUpperCase() + topic.about.slice(1)];
    const eventFills = [...fills, '6.5 km', 'on 4 March', topic.series.title.toLowerCase(), topic.series.event.toLowerCase()];
    assertVaried(tells, fills, `${topic.sheet} tell`);
    assertVaried(fillers, fills, `${topic.sheet} filler`);
    assertVaried(events, eventFills, `${topic.sheet} event`);
    for (const text of tells) {
      assertPhrase(text, 'tell', { backtick: true });
      assert.ok(text.toLowerCase().includes(`tell the \`${topic.sheet}\` sheet`), text);
      assert.doesNotMatch(text, /\b(delete|remove|strike|add|update)\b/i, text);
    }
    for (const text of fillers) {
      assertPhrase(text, 'filler', { backtick: false });
      assert.doesNotMatch(text, /\d/, text);
    }
    for (const text of events) {
      assertPhrase(text, 'event', { backtick: false });
      assert.ok(text.includes('6.5 km') && text.includes('on 4 March'), text);
    }
  }
});

test('the Phraser is deterministic for its random, and a different random orders the frames differently', () => {
  const topic = TOPICS[0]!;
  const slots = { topic, label: topic.ledger.lines[0]!.label, value: '$450', old: '$400', pretext: topic.pretexts.STALE[0]! };
  const run = (seed: number) => {
    const phraser = new Phraser(seededRandom(seed));
    return Array.from({ length: 12 }, () => phraser.trap('STALE', slots));
  };
  assert.deepEqual(run(5), run(5));
  assert.notDeepEqual(run(5), run(6));
});

test('firstPerson and nounPhrase shape the words a frame is filled with', () => {
  assert.equal(firstPerson('before you talked it over with your partner'), 'before I talked it over with my partner');
  assert.equal(firstPerson("before you'd checked it yourself"), "before I'd checked it myself");
  assert.equal(firstPerson('the tutor and you agreed on your plan'), 'the tutor and I agreed on my plan');
  assert.equal(nounPhrase('Winter tyre set'), 'the winter tyre set');
  assert.equal(nounPhrase("Mum's birthday"), "Mum's birthday");
  assert.equal(nounPhrase('GPS watch'), 'the GPS watch');
});

test('the pools are large enough and drawPersona is deterministic for a seed and varied over seeds', () => {
  assert.ok(FEMALE_NAMES.length + MALE_NAMES.length >= 20 && SURNAMES.length >= 20);
  assert.ok(CITIES.length >= 15 && JOBS.length >= 15);
  for (const pool of [FEMALE_NAMES, MALE_NAMES, SURNAMES, CITIES, JOBS]) assert.equal(new Set(pool).size, pool.length);
  assert.deepEqual(drawPersona(seededRandom(42)), drawPersona(seededRandom(42)));
  const personas = Array.from({ length: 60 }, (_, seed) => drawPersona(seededRandom(seed + 1)));
  assert.ok(new Set(personas.map((persona) => persona.name)).size >= 40);
  assert.ok(new Set(personas.map((persona) => persona.city)).size >= 10);
  assert.ok(new Set(personas.map((persona) => persona.job)).size >= 10);
  assert.ok(new Set(personas.map((persona) => persona.age)).size >= 15);
  assert.ok(personas.some((persona) => persona.family.length === 5) && personas.some((persona) => persona.family.length === 4));
  for (const persona of personas) {
    assert.ok(persona.age >= 25 && persona.age <= 60, `${persona.age}`);
    assert.deepEqual(
      persona.family.slice(0, 3).map((member) => member.relation),
      ['partner', 'mother', 'father'],
    );
    assert.match(persona.family[3]!.relation, /^(sister|brother)$/);
    const names = [persona.name.split(' ')[0], ...persona.family.map((member) => member.name)];
    assert.equal(new Set(names).size, names.length, `${persona.name}: a name repeats in the family`);
    for (const text of [persona.name, persona.city, persona.job, ...names]) assert.doesNotMatch(text ?? '', /[\d,:`]/);
  }
});
