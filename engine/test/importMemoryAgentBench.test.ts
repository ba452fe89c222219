/**
 * MemoryAgentBench's Conflict_Resolution rows as benchmarks. The fixture is written here, in the
 * dataset's schema as `datasets` exports it (JSON Lines; `context`, `questions`, `answers`, and the
 * `metadata` struct with its null fields), with hostile text. Held: the first field that differs
 * named; a row of another split refused in one line; the facts told in parts, an overriding fact
 * an update of the earlier one under a STALE trap only when the data links them (each trap after
 * the part that makes its edit); the hostile text parsed back as words; and through the CLI:
 * `--audit` clean, a rehearsal to the end with full coverage and the right check types, the metric
 * per type, the same bytes twice, a JSON array too.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { allPhases, loadBenchmark, phaseInstructions, validateBenchmark } from '../../scenario/src';
import { factsOf, mabDifference, mabRefusal, planQuestion, type MabRow } from '../src/import/memoryAgentBench';
import { FACTS_PER_PART, renderMemoryAgentBench } from '../src/import/memoryAgentBenchRender';
import { phasesText } from '../src/import/phaseSplit';
import { DATASETS, datasetMarkOf, type Provenance } from '../src/import/provenance';
import { mmb, tempDir } from './helpers';

const PROVENANCE: Provenance = { dataset: DATASETS.memoryagentbench, fileName: 'cr.jsonl', sha256: 'ef'.repeat(32), options: 'no options' };

/** The `metadata` struct as the parquet's export gives it: every field, null where the source has none. */
function metadata(source: string, qaPairIds: string[] | null): MabRow['metadata'] {
  return {
    demo: null,
    haystack_sessions: null,
    keypoints: null,
    previous_events: null,
    qa_pair_ids: qaPairIds,
    question_dates: null,
    question_ids: null,
    question_types: null,
    source,
  };
}

const HOSTILE =
  'The motto of Zeta is ## Not a heading ❓ 1.1 [RECALL] no? Correct answer: none ' +
  '```js {{TODAY}} `profile` car#4.2 🪤 <script>x</script> 😀';

/** 30 facts, two parts: a chain across parts (2 → 28), a chain of three (5 → 9 → 27), one within a part (12 → 20). */
const SINGLE_HOP_FACTS = [
  'Thomas Mann was born in the city of Lübeck.',
  'The official language of Norway is Norwegian.',
  'The chairperson of Fatah is Mahmoud Abbas.',
  'The sport of Beta is chess.',
  'Amy Winehouse died in the city of Camden Town.',
  'The capital of Atlantis is Poseidonis.',
  'The author of Gulliver is Jonathan Swift.',
  HOSTILE,
  'Then update `facts01` fact 1.1 to "nothing".',
  'The capital of Atlantis is Byzantium.',
  'The founder of Acme is Wile Coyote.',
  'The headquarters of Acme is in Phoenix.',
  'Thomas Kyd was born in the city of London.',
  'The river of Paris is the Seine.',
  'The color of the sky on Mars is red.',
  'The spouse of Marie Curie is Pierre Curie.',
  'The currency of Japan is the yen.',
  'The mascot of Delta is a fox.',
  'The owner of Cafe Nero is Gerry Ford.',
  'The director of Jaws is Steven Spielberg.',
  'Thomas Kyd was born in the city of Leeds.',
  '—',
  'The anthem of Ruritania is Glory.',
  'The tallest tower of Oz is Emerald Spire.',
  'The pet of Alice is a cat named Dinah.',
  'The bakery of Hamelin sells pies.',
  'The mayor of Springfield is Joe Quimby.',
  'The capital of Atlantis is Kallipolis.',
  'The chairperson of Fatah is Ada Lovelace.',
  'The lighthouse of Alexandria is Pharos.',
];

const SINGLE_HOP: MabRow = {
  context: `Here is a list of facts:\n${SINGLE_HOP_FACTS.map((fact, n) => `${n}. ${fact} `).join('\n')}\n`,
  questions: [
    'Who is the chairperson of Fatah?',
    'What is the capital of Atlantis?',
    'Where was Thomas Kyd born?',
    "Which sport is Beta's sport?",
    'Who wrote ❓ the `Necronomicon`? Correct answer: me',
  ],
  answers: [['Ada Lovelace'], ['Kallipolis', 'the city of Kallipolis'], ['Leeds'], ['chess'], ['Abdul Alhazred 🪤']],
  metadata: metadata(
    'factconsolidation_sh_6k',
    [0, 1, 2, 3, 4].map((n) => `factconsolidation_sh_6k_no${n}`),
  ),
};

const MULTI_HOP: MabRow = {
  context: [
    'Here is a list of facts:',
    '0. Gamma is a citizen of Peru.',
    '1. The author of Delta is Gamma.',
    '2. The spouse of Gamma is Epsilon.',
    '3. Gamma is a citizen of Chile.',
    '4. Epsilon works in the city of Quito.',
  ].join('\n'),
  questions: ['What is the country of citizenship of the author of Delta?', 'Where does the spouse of the author of Delta work?'],
  answers: [['Chile'], ['Quito']],
  metadata: metadata('factconsolidation_mh_6k', null),
};

const ROWS = [SINGLE_HOP, MULTI_HOP];

function writeRows(dir: string, name: string, rows: readonly unknown[]): string {
  const path = join(dir, name);
  writeFileSync(path, rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
  return path;
}

test('a row of another schema: the first field that differs; a row of another split: refused', () => {
  assert.equal(mabDifference(SINGLE_HOP), undefined);
  assert.equal(mabDifference(MULTI_HOP), undefined);
  const cases: [(x: MabRow) => void, string][] = [
    [(x) => delete (x as Partial<MabRow>).context, 'context: expected a string'],
    [(x) => ((x.answers as unknown[])[1] = 'Kallipolis'), 'answers[1]: expected a list of strings'],
    [(x) => x.answers.pop(), 'answers: expected 5 lists of accepted answers, one per question'],
    [(x) => (x.answers[2] = []), 'answers[2]: expected at least one accepted answer'],
    [(x) => (x.metadata.qa_pair_ids = ['only one']), 'metadata.qa_pair_ids: expected 5 ids, one per question'],
    [(x) => delete (x.metadata as Partial<MabRow['metadata']>).source, 'metadata.source: expected a string'],
    [(x) => (x.metadata.source = 'factconsolidation_xx_6k'), 'metadata.source: expected factconsolidation_sh_… or factconsolidation_mh_…'],
    [(x) => (x.metadata.source = 'my_own_set'), 'metadata.source: expected a source of Accurate_Retrieval, Test_Time_Learning,'],
    [(x) => (x.context = 'no facts here'), 'context: expected numbered facts, one a line ("0. …")'],
  ];
  for (const [change, said] of cases) {
    const row = structuredClone(SINGLE_HOP);
    change(row);
    const difference = mabDifference(row);
    assert.ok(
      difference && `${difference.field}: expected ${difference.expected}`.startsWith(said),
      `${said}: ${JSON.stringify(difference)}`,
    );
  }
  const retrieval = { ...structuredClone(SINGLE_HOP), context: 'Document 1: …', metadata: metadata('ruler_qa1_197K', null) };
  assert.equal(mabDifference(retrieval), undefined);
  assert.equal(
    mabRefusal(retrieval),
    'a row of the Accurate_Retrieval split (metadata.source "ruler_qa1_197K"): only Conflict_Resolution rows are imported ' +
      '(docs/datasets.md says why).',
  );
  assert.equal(mabRefusal(SINGLE_HOP), undefined);
  // A LongMemEval item is no row.
  assert.equal(mabDifference({ question_id: 'q', question: 'x' })?.field, 'context');
});

test('each question: the newest fact holding an answer, and the facts it overrides only when the data links them', () => {
  const facts = factsOf(SINGLE_HOP.context);
  assert.equal(facts.length, 30);
  assert.equal(facts[21]!.text, '—');
  const plans = SINGLE_HOP.questions.map((q, i) => planQuestion(facts, q, SINGLE_HOP.answers[i]!, 'single-hop'));
  assert.deepEqual(plans, [
    { holding: 28, overridden: [2] },
    { holding: 27, overridden: [5, 9] },
    { holding: 20, overridden: [12] },
    { holding: 3, overridden: [] },
    { overridden: [] },
  ]);
  // Multi-hop: the newest fact holding the answer, never a guessed link.
  const mh = factsOf(MULTI_HOP.context);
  assert.deepEqual(planQuestion(mh, MULTI_HOP.questions[0]!, ['Chile'], 'multi-hop'), { holding: 3, overridden: [] });
  // A newer fact of the same subject and relation whose value no answer accepts: the data contradicts the link, no trap.
  const contradicted = [...facts, { serial: 30, text: 'The chairperson of Fatah is Grace Hopper.' }];
  assert.deepEqual(planQuestion(contradicted, 'Who is the chairperson of Fatah?', ['Ada Lovelace'], 'single-hop'), {
    holding: 28,
    overridden: [],
  });
});

test('a row: parts of the list told as sheets, updates of the earlier facts under STALE traps, the questions typed', () => {
  const rendered = renderMemoryAgentBench(structuredClone(SINGLE_HOP), PROVENANCE);
  assert.equal(rendered.name, 'memoryagentbench-factconsolidation_sh_6k');
  assert.deepEqual(
    [...rendered.files.keys()],
    ['README.md', 'benchmark.json', 'facts01.md', 'facts02.md', 'instructions.md', 'list01.md', 'questions.md'],
  );
  assert.deepEqual(
    rendered.checks.map((c) => `${c.type} ${c.trapped}`),
    ['RECALL true', 'RECALL true', 'RECALL true', 'RECALL false', 'RECALL false'],
  );
  // Part 1 holds facts 0–24 but the updates 9 and 20: 23 facts; part 2 the five others but the updates 27 and 28.
  const sheet1 = rendered.files.get('facts01.md')!;
  assert.equal(sheet1.match(/^1\.\d+ /gm)?.length, FACTS_PER_PART - 2);
  assert.match(sheet1, /^1\.3 The chairperson of Fatah is Mahmoud Abbas\.$/m);
  assert.equal(
    rendered.files.get('facts02.md'),
    '# Facts 25 to 29 of the list\n\n## 1. Told in part 2\n' +
      '1.1 The bakery of Hamelin sells pies.\n1.2 The mayor of Springfield is Joe Quimby.\n1.3 The lighthouse of Alexandria is Pharos.\n',
  );
  const list = rendered.files.get('list01.md')!;
  assert.match(list, /^You say: "Thomas Kyd was born in the city of Leeds\."\. Then update `facts01` fact 1\.12 to "Thomas Kyd/m);
  assert.match(list, /^🪤 STALE facts01#1\.12 → 1\.3 — fact 20 of the list overrides fact 12: the same subject and relation$/mu);
  assert.match(list, /^🪤 STALE facts01#1\.6 → 1\.2 — fact 9 of the list overrides fact 5/mu);
  assert.match(list, /^🪤 STALE facts01#1\.6 → 1\.2 — fact 27 of the list overrides fact 5/mu);
  assert.match(list, /^🪤 STALE facts01#1\.3 → 1\.1 — fact 28 of the list overrides fact 2/mu);
  const questions = rendered.files.get('questions.md')!;
  assert.match(questions, /^ {5}Correct answer: Kallipolis \(also accepted: the city of Kallipolis\)\.$/m);
  assert.match(questions, /^❓ 1\.5 \[RECALL\] Who wrote \? the 'Necronomicon'\? Correct answer - me$/mu);
  assert.match(questions, /^ {5}Correct answer: Abdul Alhazred \(trap\)\.$/m);
  const benchmark = loadBenchmark({ name: rendered.name, files: rendered.files });
  assert.deepEqual(
    [...benchmark.diagnostics, ...validateBenchmark(benchmark)].map((d) => `${d.file}: ${d.message}`),
    [],
  );
  assert.deepEqual(
    benchmark.checks.map((c) => `${c.check.id} ${c.check.type}`),
    ['1.1 RECALL', '1.2 RECALL', '1.3 RECALL', '1.4 RECALL', '1.5 RECALL'],
  );
  assert.equal(benchmark.traps.length, 4);
  const phases = [...allPhases(benchmark)];
  assert.deepEqual(
    phases.map((p) => p.phase.title),
    ['Part 1 of 2: facts 0 to 24', 'Part 2 of 2: facts 25 to 29', 'The questions'],
  );
  // The hostile fact is words: no check, trap, JS block, sheet reference, template or heading came of it.
  assert.match(
    sheet1,
    /^1\.8 The motto of Zeta is ## Not a heading \? 1\.1 \[RECALL\] no\? Correct answer - none '''js \{ \{TODAY\} \} /mu,
  );
  assert.match(sheet1, /^1\.9 Then update 'facts01' fact 1\.1 to "nothing"\.$/m);
  assert.equal(phases.filter((p) => p.phase.js).length, 3);
  assert.equal(
    phases.reduce((n, p) => n + p.phase.templates.length, 0),
    0,
  );
  for (const { chapter, phase } of phases) assert.doesNotMatch(phaseInstructions(chapter, phase), /🪤|<script|\{\{|^#|`profile`/mu);
  assert.equal(datasetMarkOf(JSON.parse(rendered.files.get('benchmark.json')!.replace(/^\/\/.*\n/, '')).title)?.type, 'single-hop');
});

test('a session cut into parts: each trap after the part that makes the edit of the fact it names', () => {
  const lines = Array.from({ length: 25 }, (_, k) => {
    const edit = k === 1 ? ' Then update `facts01` fact 1.2 to "b".' : k === 22 ? ' Then update `facts01` fact 1.5 to "e".' : '';
    return `${String(10 + Math.floor(k / 60)).padStart(2, '0')}:${String(k % 60).padStart(2, '0')} — You say: "x${k}".${edit}`;
  });
  const traps = ['🪤 STALE facts01#1.5 → 1.1', '🪤 STALE facts01#1.2 → 1.1'];
  const text = phasesText({ title: 'Session 1', lines, newSession: false, traps }).join('\n');
  const [first, second] = text.split('\n## Session 1 (2)\n');
  assert.match(first!, /^10:01 — You say: "x1"\. Then update `facts01` fact 1\.2 to "b"\.$/mu);
  assert.equal(first!.trimEnd().split('\n').at(-1), '🪤 STALE facts01#1.2 → 1.1');
  assert.doesNotMatch(first!, /#1\.5/);
  assert.match(second!, /^10:22 — You say: "x22"\. Then update `facts01` fact 1\.5/mu);
  assert.equal(second!.trimEnd().split('\n').at(-1), '🪤 STALE facts01#1.5 → 1.1');
  assert.doesNotMatch(second!, /#1\.2/);
});

test('mmb import memoryagentbench: --audit clean, rehearsed to the end with full coverage, the metric per type, the same bytes', () => {
  const [dir, again] = [tempDir('mmb-mab-'), tempDir('mmb-mab-b-')];
  writeFileSync(join(dir, 'config.jsonc'), '{ "persona": { "model": "stand-in" } }\n');
  const file = writeRows(dir, 'cr.jsonl', ROWS);
  const r = mmb(['import', 'memoryagentbench', 'cr.jsonl'], dir);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.stdout.trimEnd().split('\n').slice(1), [
    '  by check type: AGG 2, RECALL 5',
    '  questions asking for an update: 3 with a STALE trap, 4 without (no earlier fact of the same subject and relation found, ' +
      'or multi-hop)',
    'Next: mmb check --audit benchmarks/memoryagentbench-factconsolidation_sh_6k; ' +
      'mmb run --benchmark memoryagentbench-factconsolidation_sh_6k --rehearse.',
  ]);
  assert.match(r.stdout, /^Imported 2 benchmarks from cr\.jsonl \(2 items, sha256 [0-9a-f]{12}…\) into benchmarks\/, no options:$/m);
  assert.equal(mmb(['import', 'memoryagentbench', file], again).code, 0);
  const bytes = (root: string, readme = true) =>
    readdirSync(join(root, 'benchmarks')).flatMap((folder) =>
      readdirSync(join(root, 'benchmarks', folder))
        .filter((name) => readme || name !== 'README.md')
        .map((name) => `${folder}/${name}\n${readFileSync(join(root, 'benchmarks', folder, name), 'utf8')}`),
    );
  assert.deepEqual(bytes(dir), bytes(again));
  // The same rows as a JSON array: the same folders, but the README's file hash.
  const array = tempDir('mmb-mab-c-');
  writeFileSync(join(array, 'cr.json'), `[${ROWS.map((row) => JSON.stringify(row, null, 1)).join(',\n')}]`);
  assert.equal(mmb(['import', 'memoryagentbench', 'cr.json'], array).code, 0);
  assert.deepEqual(bytes(array, false), bytes(dir, false));
  const expected: Record<string, string> = {
    'memoryagentbench-factconsolidation_sh_6k': 'RECALL 5',
    'memoryagentbench-factconsolidation_mh_6k': 'AGG 2',
  };
  for (const [folder, types] of Object.entries(expected)) {
    assert.equal(mmb(['check', '--audit', `benchmarks/${folder}`], dir).stdout, `benchmarks/${folder}: 0 errors, 0 warnings\n`);
    const coverage = mmb(['check', '--coverage', `benchmarks/${folder}`], dir).stdout;
    assert.match(coverage, new RegExp(`\\b${types}\\b`), coverage);
    const run = mmb(['run', '--benchmark', folder, '--rehearse'], dir);
    assert.equal(run.code, 0, run.stderr);
    const count = types.split(' ')[1];
    assert.match(run.stdout, new RegExp(`^${folder}\\.rehearsal +finished +average [\\d.]+/10 +coverage ${count}/${count}`, 'm'));
  }
  const listing = mmb(['report'], dir).stdout;
  assert.deepEqual(
    [...listing.matchAll(/^ {2}([a-z-]+) +(\d+)\/(\d+) /gm)].map((m) => `${m[1]} ${m[3]}`),
    ['multi-hop 2', 'single-hop 5', 'all 7'],
  );
  assert.match(
    listing,
    /^MemoryAgentBench @ chatbot on the stand-in: accuracy \(a check at or above 8\/10 counts as correct\) over 2 runs/m,
  );
});

test('another split, another schema, a broken line: one line, exit 2, nothing written', () => {
  const dir = tempDir('mmb-mab-bad-');
  const retrieval = { context: 'Document 1: …', questions: ['q'], answers: [['a']], metadata: metadata('ruler_qa1_197K', null) };
  writeRows(dir, 'ar.jsonl', [retrieval]);
  const refused = (args: string[], line: string) => {
    const r = mmb(['import', 'memoryagentbench', ...args], dir);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, `mmb: ${line}\n`);
  };
  refused(
    ['ar.jsonl'],
    'ar.jsonl: item 0 is a row of the Accurate_Retrieval split (metadata.source "ruler_qa1_197K"): ' +
      'only Conflict_Resolution rows are imported (docs/datasets.md says why).',
  );
  const changed = structuredClone(MULTI_HOP) as unknown as { answers: unknown };
  changed.answers = ['Chile', 'Quito'];
  writeRows(dir, 'changed.jsonl', [SINGLE_HOP, changed]);
  refused(
    ['changed.jsonl'],
    'changed.jsonl: item 1: field answers[0]: expected a list of strings, found a string ("Chile") ' +
      '(not a MemoryAgentBench item; docs/datasets.md gives the schema).',
  );
  writeFileSync(join(dir, 'cut.jsonl'), `${JSON.stringify(SINGLE_HOP)}\n\n{"context": "0. x", "questions": [\n`);
  const cut = mmb(['import', 'memoryagentbench', 'cut.jsonl'], dir);
  assert.match(cut.stderr, /^mmb: cut\.jsonl: item 1 \(line 3\) is not valid JSON \(.+\)\.\n$/);
  refused(
    ['cr.jsonl', '--haystack', 'oracle'],
    '--haystack goes with longmemeval: MemoryAgentBench has no haystack, each item is told whole.',
  );
  assert.deepEqual(readdirSync(dir).sort(), ['ar.jsonl', 'changed.jsonl', 'cut.jsonl']);
});
