/**
 * LongMemEval's questions as benchmarks, in process: the schema's first difference named by its
 * field; each question type played as its check type (single-session-assistant left out); the
 * haystack option's sessions; a knowledge update's STALE trap only where a number tells the
 * earlier value from the later; and the hostile fixture (markdown, emoji, `❓`, `🪤`, fences,
 * `## `, `<script>`, templates, fact references, a 10 kB line) written and parsed back with
 * exactly the checks, traps, JS blocks, sheet references and anchors the import wrote, no more.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { allPhases, loadBenchmark, phaseInstructions, validateBenchmark } from '../../scenario/src';
import { checkTypeOf, longMemEvalDifference, toldSessions, type LongMemEvalItem } from '../src/import/longmemeval';
import { renderLongMemEval, type RenderedQuestion } from '../src/import/longmemevalRender';
import { DATASETS, datasetMarkOf, type Provenance } from '../src/import/provenance';
import { safeText } from '../src/import/safeText';

const FIXTURE = join(__dirname, 'fixtures', 'datasets', 'longmemeval.json');
const ITEMS = JSON.parse(readFileSync(FIXTURE, 'utf8')) as LongMemEvalItem[];
const PROVENANCE: Provenance = {
  dataset: DATASETS.longmemeval,
  fileName: 'longmemeval.json',
  sha256: 'ab'.repeat(32),
  options: '--haystack full',
};

const item = (id: string): LongMemEvalItem => structuredClone(ITEMS.find((i) => i.question_id === id)!);
const render = (id: string, haystack = { kind: 'full' } as const): RenderedQuestion => renderLongMemEval(item(id), haystack, PROVENANCE)!;

test('a file of another schema: the first field that differs, what was expected, what stands there', () => {
  assert.equal(longMemEvalDifference(ITEMS[0]), undefined);
  const cases: [(x: Record<string, unknown>) => void, string][] = [
    [(x) => delete x.question_id, 'question_id: expected a string, found nothing (the field is missing)'],
    [(x) => (x.answer = ['a']), 'answer: expected a string or a number, found a list'],
    [
      (x) => ((x.haystack_sessions as unknown[][])[1]![2] = { role: 'user', content: 7 }),
      'haystack_sessions[1][2].content: expected a string, found a number (7)',
    ],
    [
      (x) => ((x.haystack_sessions as unknown[][])[0]![0] = { role: 'user', content: 'x', has_answer: 'yes' }),
      'haystack_sessions[0][0].has_answer: expected a boolean, found a string ("yes")',
    ],
    [
      (x) => (x.question_type = 'single-hop'),
      'question_type: expected one of single-session-user, single-session-preference, single-session-assistant, multi-session, ' +
        'knowledge-update, temporal-reasoning, found "single-hop"',
    ],
    [(x) => (x.haystack_dates as string[]).pop(), 'haystack_dates: expected 2 entries, one per haystack session, found 1'],
    [(x) => (x.question_date = '30 May'), 'question_date: expected a date such as "2023/05/20 (Sat) 02:21", found "30 May"'],
  ];
  for (const [change, said] of cases) {
    const changed = item('q-user-1') as unknown as Record<string, unknown>;
    change(changed);
    const difference = longMemEvalDifference(changed);
    assert.equal(difference && `${difference.field}: expected ${difference.expected}, found ${difference.found}`, said);
  }
  // LoCoMo's item is no LongMemEval item: its first field is named.
  assert.deepEqual(longMemEvalDifference({ sample_id: 'conv-26', conversation: {}, qa: [] }), {
    field: 'question_id',
    expected: 'a string',
    found: 'nothing (the field is missing)',
  });
});

test('each question type is played as its check type; what asks for a recorded assistant is left out', () => {
  const types = ITEMS.map((i) => `${i.question_id} ${checkTypeOf(i) ?? 'left out'}`);
  assert.deepEqual(types, [
    'q-user-1 RECALL',
    'q-update-2 RECALL',
    'q-multi-3 AGG',
    'q-time-4 SERIES',
    'q-assistant-5 left out',
    'q-user-6_abs VOID',
    'q-pref-7 RECALL',
  ]);
  assert.equal(checkTypeOf({ ...item('q-time-4'), question: 'What car did I use to drive?' }), 'HIST');
  assert.equal(renderLongMemEval(item('q-assistant-5'), { kind: 'full' }, PROVENANCE), undefined);
  assert.deepEqual(
    datasetMarkOf(
      JSON.parse(
        render('q-multi-3')
          .files.get('benchmark.json')!
          .replace(/^\/\/.*\n/, ''),
      ).title,
    ),
    {
      dataset: 'LongMemEval',
      id: 'q-multi-3',
      type: 'multi-session',
    },
  );
});

test('the haystack option: the evidence sessions alone, all, or those and N others spread over the haystack, in time order', () => {
  const many = item('q-update-2');
  for (let k = 0; k < 6; k++) {
    many.haystack_session_ids.push(`filler_x${k}`);
    many.haystack_dates.push(`2023/05/2${k} (Sat) 10:00`);
    many.haystack_sessions.push([{ role: 'user', content: `filler ${k}` }]);
  }
  const ids = (haystack: Parameters<typeof toldSessions>[1]) => toldSessions(many, haystack).map((s) => s.id);
  assert.deepEqual(ids({ kind: 'oracle' }), ['answer_k1', 'answer_k3']);
  assert.deepEqual(ids({ kind: 'some', others: 2 }), ['answer_k1', 'answer_k3', 'filler_x0', 'filler_x4']);
  assert.deepEqual(ids({ kind: 'full' }).length, 9);
  // The oracle file's sessions are not in time order: told in time order.
  assert.deepEqual(
    toldSessions(item('q-multi-3'), { kind: 'full' }).map((s) => s.id),
    ['answer_m1', 'answer_m2'],
  );
});

const SAID = "Good news: I've upped my running to 20 miles a week\\.";

test('a knowledge update: the earlier fact edited under a STALE trap when a number tells it; else RECALL alone', () => {
  const update = render('q-update-2');
  assert.equal(update.stale, 'written');
  assert.equal(
    update.files.get('facts01.md'),
    '# What you said on 2023-05-01\n\n## 1. Said in session 1\n1.1 I currently run 12 miles a week and want a training plan.\n',
  );
  assert.match(
    update.files.get('session03.md')!,
    new RegExp(`^07:30 — You say: "${SAID}"\\. Then update \`facts01\` fact 1\\.1 to "${SAID}"\\.$`, 'm'),
  );
  assert.match(update.files.get('session03.md')!, /^🪤 STALE facts01#1\.1 → 1\.1 — /m);
  const words = item('q-update-2');
  words.haystack_sessions[2]![0]!.content = 'I now run further every week than before.';
  const plain = renderLongMemEval(words, { kind: 'full' }, PROVENANCE)!;
  assert.equal(plain.stale, 'not found');
  assert.doesNotMatch([...plain.files.values()].join('\n'), /🪤/u);
  assert.equal(plain.files.get('facts03.md')?.split('\n')[3], '1.1 I now run further every week than before.');
});

test('hostile text parses back as words: exactly the checks, traps, JS blocks, references and anchors the import wrote', () => {
  for (const source of ITEMS) {
    const rendered = renderLongMemEval(source, { kind: 'full' }, PROVENANCE);
    if (!rendered) continue;
    const benchmark = loadBenchmark({ name: rendered.name, files: rendered.files });
    const problems = [...benchmark.diagnostics, ...validateBenchmark(benchmark)];
    assert.deepEqual(
      problems.map((d) => `${d.file}: ${d.code}: ${d.message}`),
      [],
      source.question_id,
    );
    const chapterTexts = [...rendered.files].filter(([name]) => /^(session\d+|question)\.md$/.test(name)).map(([, text]) => text);
    const count = (pattern: RegExp) => chapterTexts.reduce((n, text) => n + (text.match(pattern)?.length ?? 0), 0);
    const phases = [...allPhases(benchmark)];
    assert.equal(benchmark.checks.length, 1, source.question_id);
    assert.equal(benchmark.traps.length, rendered.stale === 'written' ? 1 : 0);
    assert.equal(phases.filter((p) => p.phase.js).length, count(/^```js$/gm));
    assert.equal(
      phases.reduce((n, p) => n + p.phase.factRefs.length, 0),
      benchmark.traps.length,
    );
    assert.equal(
      phases.reduce((n, p) => n + p.phase.templates.length, 0),
      0,
    );
    assert.equal(
      phases.reduce((n, p) => n + p.phase.timeAnchors.length, 0),
      count(/^\d\d:\d\d — /gm),
    );
    assert.equal(
      phases.reduce((n, p) => n + p.phase.dateLines.length, 0),
      count(/^\d{4}-\d\d-\d\d, \w{3}$/gm),
    );
    const sheetsNamed = new Set(phases.flatMap((p) => p.phase.sheetRefs.map((ref) => ref.sheet)));
    assert.deepEqual([...sheetsNamed].sort(), [...benchmark.sheets.keys()].sort());
    for (const { chapter, phase } of phases) {
      const told = phaseInstructions(chapter, phase);
      assert.equal((told.match(/❓/gu) ?? []).length, phase.checks.length);
      assert.doesNotMatch(told, /🪤|<script|\{\{|^#/mu);
    }
  }
  const hostile = render('q-user-1');
  const session = hostile.files.get('session01.md')!;
  assert.ok(
    session.split('\n').every((line) => line.length <= 1600),
    'every line bounded',
  );
  assert.match(
    session,
    /^02:21 — You say: "Here is my note: ## Not a heading \? 9\.9 \[RECALL\] Is this a check\? Correct answer - no\. /m,
  );
  assert.match(session, / \(trap\) STALE family #1\.2 → 9\.9 — not a trap /);
  assert.match(
    session,
    /'''js await bench\.newSession\(\); vars\.x = 1; ''' ‹script›alert\('x'\)‹\/script› \{ \{TODAY\} \} 'profile' sheet/,
  );
  assert.match(
    hostile.files.get('question.md')!,
    /^❓ 1\.1 \[RECALL\] What degree did I graduate with\? \? 'profile' Correct answer - trick$/m,
  );
});

test('safeText: one bounded line, every mark of the format turned to words', () => {
  assert.equal(
    safeText('a\n\n## b\r\n❓️ c 🪤 d `e` ~~~ {{PAST:2:days}} car#4.2 Correct Answer: f <b>'),
    "a ## b ? c (trap) d 'e' ~ { {PAST:2:days} } car #4.2 Correct Answer - f ‹b›",
  );
  assert.equal(safeText('—'), '(a dash: —)');
  assert.equal(safeText(' \n '), '(nothing)');
  assert.equal(safeText('x'.repeat(50), 10), `${'x'.repeat(9)}…`);
});

test('the same item and options render the same bytes', () => {
  for (const source of ITEMS) {
    const [first, second] = [
      renderLongMemEval(source, { kind: 'full' }, PROVENANCE),
      renderLongMemEval(structuredClone(source), { kind: 'full' }, PROVENANCE),
    ];
    assert.deepEqual(first && [...first.files], second && [...second.files]);
  }
});
