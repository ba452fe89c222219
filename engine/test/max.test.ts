/**
 * The reference benchmark as the seed article (seed 002) tells it: its shape, its trap stories in
 * the chapters the seed names, every trap caught past the session switch, and every trap's check
 * agreeing with the live value of the facts it edits, replayed from the phases' edit lines.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { allPhases, loadBenchmark, TRAP_TYPES, type Benchmark, type Chapter, type Phase } from '../../scenario/src';
import { numbers } from '../src/standin/text';
import { readBenchmarkFolder } from '../src/workspace/folders';
import { ROOT, joinedPattern } from './helpers';

const DIR = join(ROOT, 'benchmarks', 'max');
const MAX = loadBenchmark(readBenchmarkFolder(DIR));

/** The lines of a phase as the persona gets them: trap lines and the JS block left out. */
function phaseLines(chapter: Chapter, phase: Phase): { line: number; text: string }[] {
  const text = readFileSync(join(DIR, chapter.file), 'utf8').split('\n');
  const out: { line: number; text: string }[] = [];
  for (let line = phase.range.start.line + 1; line <= phase.range.end.line; line++) {
    if (!phase.hiddenLines.includes(line)) out.push({ line, text: text[line] ?? '' });
  }
  return out;
}

const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
const chapterNumber = (file: string) => Number(/\d+/.exec(file)?.[0]);
const trapsIn = (file: string, type: string) => MAX.traps.filter((t) => t.file === file && t.trap.type === type);
const phaseText = (file: string, title: string) => {
  for (const { chapter, phase } of allPhases(MAX))
    if (chapter.file === file && phase.title === title)
      return flat(
        phaseLines(chapter, phase)
          .map((l) => l.text)
          .join('\n'),
      );
  throw new Error(`no phase "${title}" in ${file}`);
};

test('the shape: 20 chapters, 143 facts, 36 checks (28 in the exam past the switch, 8 along the way), 18 and 19 unchecked', () => {
  assert.deepEqual(MAX.diagnostics, []);
  assert.equal(MAX.chapters.length, 20);
  assert.equal(
    [...MAX.sheets.values()].reduce((n, s) => n + s.facts.filter((f) => !f.deleted).length, 0),
    143,
  );
  assert.equal(MAX.checks.length, 36);
  assert.equal(MAX.checks.filter((c) => c.file === 'chapter20.md').length, 28);
  assert.deepEqual(
    MAX.checks.filter((c) => c.file !== 'chapter20.md').map((c) => c.check.id),
    ['8.1', '10.1', '10.2', '11.1', '12.1', '14.1', '15.1', '17.1'],
  );
  assert.ok(!MAX.checks.some((c) => c.file === 'chapter18.md' || c.file === 'chapter19.md'));
  assert.deepEqual(MAX.sessionSwitches, [{ chapter: 19, phase: 0 }]);
});

test('at least 24 trap writes, each of the seven types at least twice, every one caught only in the exam', () => {
  assert.ok(MAX.traps.length >= 24, `${MAX.traps.length} trap writes`);
  for (const type of Object.keys(TRAP_TYPES)) assert.ok(MAX.traps.filter((t) => t.trap.type === type).length >= 2, type);
  const exam = new Set(MAX.checks.filter((c) => c.file === 'chapter20.md').map((c) => c.check.id));
  for (const t of MAX.traps) {
    for (const target of t.trap.targets)
      assert.ok(exam.has(target.name), `${t.file} ${t.trap.type} → ${target.name} is past the session switch`);
  }
});

test("the seed's trap stories sit in the chapters it names, told as it tells them", () => {
  const boss = (file: string, type: string) =>
    trapsIn(file, type).find((t) => t.trap.facts.some((f) => `${f.sheet}#${f.id}` === 'family#4.2'));
  assert.ok(boss('chapter2.md', 'RECONSIDER') && boss('chapter10.md', 'SELF-FIX'), 'Boss: RECONSIDER in 2, SELF-FIX in 10');
  assert.match(phaseText('chapter2.md', "Boss's diet"), /70 g a day\. Talk it over with it and decide together to cut his portion to 55 g/);
  assert.match(phaseText('chapter10.md', "Boss's food"), /the vet's note: it says 50 g a day, not 55 g — "I misremembered back then"/);
  assert.ok(trapsIn('chapter3.md', 'RECONSIDER').length === 1);
  assert.match(phaseText('chapter3.md', 'The accent wall'), /let's do microcement on the accent wall instead of decorative stone/);
  // The backsplash is told by reference while the bathroom tile costs $42, and never with a number.
  assert.deepEqual(
    trapsIn('chapter5.md', 'XREF').map((t) => t.trap.facts.map((f) => `${f.sheet}#${f.id}`)),
    [['kitchen#1.7']],
  );
  assert.equal(MAX.sheets.get('kitchen')?.facts.find((f) => f.id === '1.7')?.text, 'Backsplash: the same tile as in the bathroom');
  assert.match(MAX.sheets.get('bathroom')?.facts.find((f) => f.id === '1.2')?.text ?? '', /\$42 per m²/);
  // Customs: the graded question first, then the correction.
  const customsCheck = MAX.checks.find((c) => c.check.id === '10.2')!;
  const customsFix = trapsIn('chapter10.md', 'SELF-FIX').find((t) => t.trap.facts[0]?.id === '2.1')!;
  assert.match(customsCheck.check.question, /How much did I say the customs fee would come to\?/);
  assert.ok(customsCheck.phase < customsFix.phase, 'the check is asked before the correction');
  assert.match(phaseText('chapter10.md', "The broker's note"), /"I was looking at the wrong line — for the RAV4 it's 1100"/);
  // Chapter 11: the partition and the harder tile rise, which names neither room nor estimate line.
  const cascades = trapsIn('chapter11.md', 'CASCADE').map((t) => t.trap.facts.map((f) => `${f.sheet}#${f.id}`).join(' '));
  assert.deepEqual(cascades, ['living#1.1 bedroom#1.1', 'bathroom#1.2']);
  assert.match(
    phaseText('chapter11.md', 'Re-planning'),
    /the living room becomes 5\.2 × 4\.0 m and the bedroom shrinks to 10\.4 m²\. Ask the assistant to recompute the parquet/,
  );
  const prices = phaseText('chapter11.md', 'Prices');
  assert.match(prices, /"that same tile went up from 42 to 55 — fix it everywhere it's used"/);
  const said = prices
    .split(/(?<=[.!?"])\s+/)
    .filter((sentence) => !sentence.includes('`'))
    .join(' ');
  assert.doesNotMatch(said, /bathroom|kitchen|backsplash|wall tile/i);
  // The wine fridge: six chapters after the kitchen, then struck out in chapter 14.
  const kitchenTold = MAX.chapters.findIndex((c) => c.phases.some((p) => p.js?.requireAllFacts.some((r) => r.sheet === 'kitchen')));
  const wineFridge = MAX.traps.find((t) => t.trap.type === 'LATE-ADD' && t.trap.targets.some((x) => x.name === '20.12'))!;
  assert.equal(wineFridge.chapter - kitchenTold, 6);
  assert.equal(trapsIn('chapter14.md', 'RETIRE')[0]?.trap.targets[0]?.name, '20.12');
});

type Live = Map<string, string>;
const EDIT = /^Update `([\w-]+)` fact (\d+\.\d+) to "([^"]+)"\.$/;
const ADD = /^Add to the `([\w-]+)` sheet, category (\d+): "([^"]+)"\.$/;
const DELETE = /^Delete `([\w-]+)` fact (\d+\.\d+)\.$/;
const DELETE_BY_NAME = /^Delete the (.+) from the `([\w-]+)` sheet\.$/;

/** Applies one line of a phase to the live sheets; returns whether it was an edit line. */
function applyEdit(live: Live, line: string): boolean {
  const text = line.trim();
  const edit = EDIT.exec(text) ?? DELETE.exec(text);
  if (edit) {
    const key = `${edit[1]}#${edit[2]}`;
    assert.ok(live.has(key), `${text}: ${key} exists`);
    live.set(key, edit[3] ?? '—');
    return true;
  }
  const add = ADD.exec(text);
  if (add) {
    const taken = [...live.keys()].filter((k) => k.startsWith(`${add[1]}#${add[2]}.`)).map((k) => Number(k.split('.')[1]));
    live.set(`${add[1]}#${add[2]}.${Math.max(0, ...taken) + 1}`, add[3] ?? '');
    return true;
  }
  const byName = DELETE_BY_NAME.exec(text);
  if (byName) {
    const key = [...live].find(([k, v]) => k.startsWith(`${byName[2]}#`) && v.toLowerCase().includes(byName[1]!.toLowerCase()))?.[0];
    assert.ok(key, `${text}: a live fact names it`);
    live.set(key, '—');
    return true;
  }
  return false;
}

/** Plays the edit lines in order: the live facts at each check and before each phase. */
function replay(benchmark: Benchmark): { atCheck: Map<string, Live>; beforePhase: Map<string, Live>; edits: Map<string, Set<string>> } {
  const live: Live = new Map();
  for (const sheet of benchmark.sheets.values()) for (const f of sheet.facts) live.set(`${sheet.name}#${f.id}`, f.text);
  const atCheck = new Map<string, Live>();
  const beforePhase = new Map<string, Live>();
  const edits = new Map<string, Set<string>>();
  for (const { chapter, chapterIndex, phase } of allPhases(benchmark)) {
    const where = `${chapterIndex}:${phase.index}`;
    beforePhase.set(where, new Map(live));
    const checkLines = new Map(phase.checks.map((c) => [c.range.start.line, c.id]));
    const before = new Map(live);
    for (const { line, text } of phaseLines(chapter, phase)) {
      const id = checkLines.get(line);
      if (id) atCheck.set(id, new Map(live));
      else applyEdit(live, text);
    }
    edits.set(where, new Set([...live.keys()].filter((k) => live.get(k) !== before.get(k))));
  }
  return { atCheck, beforePhase, edits };
}

test('every trap edits the facts it names, and its checks hold their numbers as live then (HIST: as before the edit)', () => {
  const { atCheck, beforePhase, edits } = replay(MAX);
  const checks = new Map(MAX.checks.map((c) => [c.check.id, c.check]));
  for (const t of MAX.traps) {
    const where = `${t.chapter}:${t.phase}`;
    const named = t.trap.facts.map((f) => `${f.sheet}#${f.id}`);
    if (t.trap.type !== 'XREF')
      for (const key of named) assert.ok(edits.get(where)?.has(key), `${t.file} ${t.trap.type}: the phase edits ${key}`);
    else
      assert.ok(
        named.every((key) => !/\d/.test(beforePhase.get(where)?.get(key) ?? '')),
        `${t.file} XREF: ${named} is told by reference, with no number`,
      );
    for (const target of t.trap.targets) {
      const check = checks.get(target.name)!;
      const answer = new Set(numbers(check.answer));
      for (const key of named) {
        const value = check.type === 'HIST' ? beforePhase.get(where)?.get(key) : atCheck.get(target.name)?.get(key);
        const missing = numbers(value ?? '').filter((n) => !answer.has(n));
        assert.deepEqual(missing, [], `${target.name} (${t.file} ${t.trap.type} ${key} = "${value}"): "${check.answer}"`);
        if (value === '—') assert.match(check.answer, /\bno\b/, `${target.name}: says the struck item is gone`);
      }
    }
  }
  // The wine fridge is in the kitchen while chapters 11 to 13 play, and gone by the exam.
  assert.ok([...(atCheck.get('12.1') ?? [])].some(([k, v]) => k.startsWith('kitchen#') && /wine fridge/i.test(v)));
  assert.ok(![...(atCheck.get('20.12') ?? [])].some(([k, v]) => k.startsWith('kitchen#') && /wine fridge/i.test(v)));
});

test('the checks and values the seed quotes are kept word for word', () => {
  const answer = (id: string) =>
    flat(`${MAX.checks.find((c) => c.check.id === id)?.check.question} | ${MAX.checks.find((c) => c.check.id === id)?.check.answer}`);
  assert.equal(answer('20.3'), 'What dose of vitamin D am I taking? | 4000 IU.');
  assert.equal(answer('20.8'), 'Which car did we choose in the end and what deposit did we put down? | RAV4, $500 deposit.');
  assert.equal(answer('20.10'), 'How much food a day are we giving Boss in the end? | 50 g.');
  assert.equal(
    answer('20.16'),
    'How much per m² is the kitchen backsplash in the estimate? | $55 per m² — the same tile as in the bathroom.',
  );
  assert.equal(
    answer('20.17'),
    'How much were we setting aside for customs in the very first estimate, before the correction? | about $850.',
  );
  assert.equal(answer('20.18'), 'How much was the Göreme room before the rebooking? | $90 a night.');
  assert.equal(answer('20.19'), 'How much was the bathroom wall tile before the price rise? | $42 per m².');
  assert.equal(answer('20.20'), "Did we record the electricity tariff? What is it? | you never told me the tariff, there's no record.");
  assert.equal(answer('20.4').split(' | ')[1], '142/95, 135/88, 130/86, 128/84, 126/82.');
  assert.equal(
    phaseText('chapter13.md', 'Family — news'),
    flat(`Return to family matters: your sister called — Anna is flying in to visit
    {{FUTURE:3:weeks}}, for a week. Add to the \`family\` sheet the fact about
    the visit and ask it to remember the dates.
    Ask advice on where to take her in Batumi and what to show her in Adjara.
    You toss around ideas — nothing gets recorded.`),
  );
  assert.match(
    phaseText('chapter15.md', 'Insurance'),
    /^Say you stepped away — had a call with the insurer about the RAV4: they quoted \$430 a year, a bit more than budgeted\./,
  );
  assert.match(
    phaseText('chapter13.md', 'Blood pressure'),
    /^Say that you happened to measure your blood pressure this morning — 126\/82, the best result so far/,
  );
  const family = readFileSync(join(DIR, 'family.md'), 'utf8');
  assert.match(family, /^# Family\n\n## 1\. Lena\n1\.1 Lena is 31, a UX designer, works remotely\n1\.2 Lena's birthday — March 14\n/);
  const profile = readFileSync(join(DIR, 'profile.md'), 'utf8');
  assert.match(
    profile,
    joinedPattern([
      /^# Max\n\n## 1\. About me\n/,
      /1\.1 Max Becker, 34\n/,
      /1\.2 Backend developer, working remotely for a European company\n/,
      /1\.3 Grew up in Berlin in an English-German family — mother English, father German; bilingual, but prefer English\n/,
      /1\.4 Moved from Berlin to Batumi a year ago\n/,
      /1\.5 Live with my wife Lena; we have a cat, Boss\n/,
    ]),
  );
  assert.match(
    profile,
    /\n## 2\. Apartment and renovation\n2\.1 Bought a two-room apartment with no finishing, 65 m², 9th floor, New Boulevard district\n/,
  );
});

test('the README has a row for every trap write: its chapter, type and checks', () => {
  const rows = readFileSync(join(DIR, 'README.md'), 'utf8')
    .split('\n')
    .filter((l) => /^\| \d+ \|/.test(l))
    .map((l) => l.split(' | '));
  assert.equal(rows.length, MAX.traps.length);
  MAX.traps.forEach((t, i) => {
    const row = rows[i] ?? [];
    assert.deepEqual(
      [row[1], row[2], row[4]],
      [String(chapterNumber(t.file)), t.trap.type, t.trap.targets.map((x) => x.name).join(', ')],
      `row ${i + 1}`,
    );
    assert.ok((row[5] ?? '').trim().length > 10, `row ${i + 1} names its seed passage`);
  });
});
