import assert from 'node:assert/strict';
import { test } from 'node:test';
import { markdownLimit, parseChapter, phaseInstructions, type Diagnostic } from '../src';

const CHAPTER = `# Chapter 13

Notes for authors: not sent.

## Family — news
\`\`\`js
vars.require_all_facts = ["family", 'car'];
await bench.newSession();
bench.log("switched");
\`\`\`
Return to family matters: Anna is flying in {{FUTURE:3:weeks}}, for a week. Add to the
\`family\` sheet the fact about the visit; see family#2.1 and car#4.2.

🪤 LATE-ADD family#2.1 car#4.2 → 20.5, 20.6 — a top-up eleven chapters later
❓ 13.1 [RECALL] When does Anna arrive? Correct answer: {{FUTURE:3:weeks}}.
❓ 13.2 How much food a day are we giving Boss
     in the end?
     Correct answer: 50 g.

Setext phase
------------
2026-03-10, Tue
08:00 — same route as yesterday, 7 km in 40:50.
18:30 – office day.
`;

test('a chapter splits into preamble and ## phases, setext headings included', () => {
  const c = parseChapter(CHAPTER, 'chapter13.md');
  assert.deepEqual(c.diagnostics, []);
  assert.deepEqual(c.preamble, { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } });
  assert.deepEqual(
    c.phases.map((p) => [p.title, p.headingRange.start.line, p.range.end.line]),
    [
      ['Family — news', 4, 18],
      ['Setext phase', 19, 24],
    ],
  );
});

test('the leading JS block: sheets required, session switch, bench members, all located', () => {
  const js = parseChapter(CHAPTER, 'c.md').phases[0]?.js;
  assert.ok(js);
  assert.equal(js.newSession, true);
  assert.deepEqual(
    js.benchMembers.map((m) => [m.name, m.range.start.line, m.range.start.character]),
    [
      ['newSession', 7, 12],
      ['log', 8, 6],
    ],
  );
  assert.deepEqual(
    js.requireAllFacts.map((r) => [r.sheet, r.range]),
    [
      ['family', { start: { line: 6, character: 27 }, end: { line: 6, character: 33 } }],
      ['car', { start: { line: 6, character: 37 }, end: { line: 6, character: 40 } }],
    ],
  );
  assert.deepEqual(js.range, { start: { line: 5, character: 0 }, end: { line: 9, character: 3 } });
});

test('checks: id, type, question, answer and continuation lines, with UTF-16 columns after ❓', () => {
  const [first, second] = parseChapter(CHAPTER, 'c.md').phases[0]?.checks ?? [];
  assert.ok(first && second);
  assert.equal(first.id, '13.1');
  assert.deepEqual(first.idRange, { start: { line: 14, character: 2 }, end: { line: 14, character: 6 } });
  assert.equal(first.type, 'RECALL');
  assert.deepEqual(first.typeRange, { start: { line: 14, character: 8 }, end: { line: 14, character: 14 } });
  assert.equal(first.question, 'When does Anna arrive?');
  assert.equal(first.answer, '{{FUTURE:3:weeks}}.');
  assert.equal(second.id, '13.2');
  assert.equal(second.type, undefined);
  assert.equal(second.question, 'How much food a day are we giving Boss in the end?');
  assert.equal(second.answer, '50 g.');
  assert.deepEqual(second.range, { start: { line: 15, character: 0 }, end: { line: 17, character: 26 } });
  assert.deepEqual(second.answerRange?.start, { line: 17, character: 5 });
});

test('trap lines: type, fact refs, targets and note; 🪤 counts two UTF-16 units', () => {
  const trap = parseChapter(CHAPTER, 'c.md').phases[0]?.traps[0];
  assert.ok(trap);
  assert.equal(trap.type, 'LATE-ADD');
  assert.deepEqual(trap.typeRange, { start: { line: 13, character: 3 }, end: { line: 13, character: 11 } });
  assert.deepEqual(
    trap.facts.map((f) => `${f.sheet}#${f.id}@${f.range.start.character}`),
    ['family#2.1@12', 'car#4.2@23'],
  );
  assert.deepEqual(
    trap.targets.map((t) => [t.name, t.range.start.character]),
    [
      ['20.5', 33],
      ['20.6', 39],
    ],
  );
  assert.equal(trap.note, 'a top-up eleven chapters later');
});

test('trap lines accept -> and -- as authors type them', () => {
  const c = parseChapter('## P\n🪤 RETIRE kitchen#2.5 -> 20.12 -- the wine fridge does not fit\n', 'c.md');
  assert.deepEqual(c.diagnostics, []);
  const trap = c.phases[0]?.traps[0];
  assert.deepEqual(
    [trap?.type, trap?.facts[0]?.id, trap?.targets[0]?.name, trap?.note],
    ['RETIRE', '2.5', '20.12', 'the wine fridge does not fit'],
  );
});

test('a trap may name no facts', () => {
  const trap = parseChapter('## P\n🪤 XREF → 20.16\n', 'c.md').phases[0]?.traps[0];
  assert.deepEqual([trap?.facts.length, trap?.targets.map((t) => t.name)], [0, ['20.16']]);
});

test('fact refs and backticked sheet names anywhere in a phase', () => {
  const p = parseChapter(CHAPTER, 'c.md').phases[0];
  assert.deepEqual(
    p?.factRefs.map((r) => `${r.sheet}#${r.id} ${r.range.start.line}:${r.range.start.character}`),
    ['family#2.1 11:45', 'car#4.2 11:60', 'family#2.1 13:12', 'car#4.2 13:23'],
  );
  const ticks = p?.sheetRefs.filter((r) => r.via === 'backticks');
  assert.deepEqual(
    ticks?.map((r) => [r.sheet, r.sheetWordFollows, r.range.start.line, r.range.start.character]),
    [['family', true, 11, 1]],
  );
});

test('date templates are located and parsed', () => {
  const p = parseChapter(CHAPTER, 'c.md').phases[0];
  assert.deepEqual(
    p?.templates.map((t) => [t.keyword, t.amount, t.unit, t.range.start.line, t.range.start.character, t.range.end.character]),
    [
      ['FUTURE', 3, 'weeks', 10, 44, 62],
      ['FUTURE', 3, 'weeks', 14, 55, 73],
    ],
  );
  const units = parseChapter('## P\n{{PAST:1:day}} {{TODAY}} {{FUTURE:90:minutes}}\n', 'c.md').phases[0]?.templates;
  assert.deepEqual(
    units?.map((t) => `${t.keyword}:${t.amount}:${t.unit}`),
    ['PAST:1:days', 'TODAY:0:days', 'FUTURE:90:minutes'],
  );
});

test('date lines and time anchors carry the date to later phases of the chapter', () => {
  const c = parseChapter(CHAPTER + '\n## Later\n21:00 — bed\n', 'c.md');
  const [, setext, later] = c.phases;
  assert.deepEqual(
    setext?.dateLines.map((d) => [d.date, d.range.start.line]),
    [['2026-03-10', 21]],
  );
  assert.deepEqual(
    setext?.timeAnchors.map((a) => [a.time, a.minutes, a.date, a.range.start.line]),
    [
      ['08:00', 480, '2026-03-10', 22],
      ['18:30', 1110, '2026-03-10', 23],
    ],
  );
  assert.deepEqual(
    later?.timeAnchors.map((a) => [a.time, a.date]),
    [['21:00', '2026-03-10']],
  );
});

test('code blocks and HTML comments hide what looks like checks', () => {
  const c = parseChapter(
    '## P\n```\n❓ 1.1 not a check\n```\n<!--\n❓ 1.2 commented out\n-->\n❓ 1.3 Real? Correct answer: yes.\n',
    'c.md',
  );
  assert.deepEqual(
    c.phases[0]?.checks.map((k) => k.id),
    ['1.3'],
  );
});

test('the persona gets the phase without its JS block and trap lines', () => {
  const c = parseChapter(CHAPTER, 'c.md');
  const text = phaseInstructions(c, c.phases[0]!);
  assert.ok(!text.includes('bench.'));
  assert.ok(!text.includes('🪤'));
  assert.ok(text.startsWith('Return to family matters'));
  assert.ok(text.includes('❓ 13.1 [RECALL] When does Anna arrive?'));
});

test('a ❓ followed by the emoji variation selector still parses', () => {
  const c = parseChapter('## P\n❓\uFE0F 1.1 Q? Correct answer: A.\n🪤\uFE0F STALE → 1.1\n', 'c.md');
  assert.deepEqual(c.diagnostics, []);
  assert.deepEqual(c.phases[0]?.checks[0]?.idRange.start.character, 3);
  assert.equal(c.phases[0]?.traps[0]?.type, 'STALE');
});

function codes(text: string): string[] {
  return parseChapter(text, 'c.md').diagnostics.map(
    (d: Diagnostic) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code}`,
  );
}

test('malformed checks: no id, no answer, empty answer', () => {
  assert.deepEqual(codes('## P\n❓ What is it? Correct answer: x\n❓ 1.1 What is it?\n❓ 1.2 Q? Correct answer:\n'), [
    '2:1 malformed-check',
    '3:1 malformed-check',
    '4:10 malformed-check',
  ]);
});

test('unknown check and trap types point at the type', () => {
  assert.deepEqual(codes('## P\n❓ 1.1 [RECAL] Q? Correct answer: x\n🪤 SELFFIX → 1.1\n'), [
    '2:8 unknown-check-type',
    '3:4 unknown-trap-type',
  ]);
});

test('malformed traps: no type, no arrow, no target, junk refs, bad ids', () => {
  assert.deepEqual(codes('## P\n🪤\n🪤 STALE car#1.1\n🪤 STALE car#1.1 →\n🪤 STALE car 1.1 → 2.1\n🪤 STALE → twenty\n🪤 car#1.1 → 2.1\n'), [
    '2:1 malformed-trap',
    '3:1 malformed-trap',
    '4:1 malformed-trap',
    '5:9 malformed-trap',
    '6:12 malformed-trap',
    '7:1 malformed-trap',
  ]);
});

test('JS syntax errors are found by a real parser, at the line of the error', () => {
  assert.deepEqual(codes('## P\n```js\nvars.a = 1;\nvars.b = ;\n```\n'), ['4:10 js-syntax-error']);
  const d = parseChapter('## P\n```js\nvars.a = 1;\nvars.b = ;\n```\n', 'c.md').diagnostics[0];
  assert.match(d?.message ?? '', /Unexpected token/);
});

test('unknown bench members are found in the syntax tree, not in strings or comments', () => {
  assert.deepEqual(
    codes('## P\n```js\n// bench.nope() in a comment\nbench.log("bench.alsoNope()");\nawait bench.newSesion();\nbench["reset"]();\n```\n'),
    ['5:13 unknown-bench-api', '6:7 unknown-bench-api'],
  );
});

test('malformed templates: keyword, number, unit, unclosed', () => {
  assert.deepEqual(codes('## P\n{{NEXT:3:weeks}} {{FUTURE:three:weeks}} {{PAST:2:fortnights}}\n{{FUTURE:3}} {{TODAY\n'), [
    '2:1 malformed-template',
    '2:18 malformed-template',
    '2:41 malformed-template',
    '3:1 malformed-template',
    '3:14 malformed-template',
  ]);
});

test('malformed time anchors: impossible dates, wrong weekday, bad times', () => {
  assert.deepEqual(codes('## P\n2026-02-30\n2026-03-10, Wed\n2026-03-10, Tue, rainy\n7:30 — run\n24:10 — late\n08:61 — odd\n'), [
    '2:1 malformed-time-anchor',
    '3:1 malformed-time-anchor',
    '4:1 malformed-time-anchor',
    '5:1 malformed-time-anchor',
    '6:1 malformed-time-anchor',
    '7:1 malformed-time-anchor',
  ]);
});

test('a JS block later in the phase never runs and says so; preamble checks too', () => {
  assert.deepEqual(codes('❓ 1.1 Q? Correct answer: x\n## P\nText.\n```js\nbench.log("x")\n```\n'), [
    '1:1 outside-phase',
    '4:1 js-block-not-first',
  ]);
});

test('markdown bounds: line length, container markers and indentation, counted the way remark nests', () => {
  assert.equal(markdownLimit(`## P\n${'a'.repeat(10_000)}\n`), undefined);
  assert.equal(markdownLimit(`## P\n${'a'.repeat(10_001)}\n`)?.line, 1);
  assert.equal(markdownLimit(`${'> '.repeat(32)}x`), undefined);
  assert.match(markdownLimit(`ok\r\n${'- 1. > '.repeat(11)}x`)?.message ?? '', /^Line 2 opens 33 nested quotes or lists/);
  // Fact lines, dates and thematic breaks are not list markers.
  assert.equal(markdownLimit(`1.1 x\n2026-03-10, Tue\n${'-'.repeat(5000)}\n${'1.'.repeat(40)}`), undefined);
  assert.match(markdownLimit(`${' '.repeat(257)}x`)?.message ?? '', /indented by 257 columns/);
  const chapter = parseChapter(`## P\n❓ 1.1 q? Correct answer: a\n${'> '.repeat(40)}x\n`, 'c.md');
  assert.deepEqual(chapter.phases, []);
  assert.deepEqual(
    chapter.diagnostics.map((d) => `${d.range.start.line} ${d.code}`),
    ['2 over-limit'],
  );
});
