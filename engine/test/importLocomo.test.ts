/**
 * LoCoMo's conversations as benchmarks: the schema's first difference named (sessions and their
 * dates, categories); a conversation written as dated sessions told by the first speaker, the
 * evidence turns facts, each QA a check `C.K` of its category's type; the hostile fixture parsed
 * back with exactly what the import wrote; and through the CLI: `--audit` clean, a rehearsal with
 * full coverage, the metric per category, the same bytes twice.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { allPhases, loadBenchmark, phaseInstructions, validateBenchmark } from '../../scenario/src';
import { locomoDifference, type LocomoItem } from '../src/import/locomo';
import { renderLocomo } from '../src/import/locomoRender';
import { DATASETS, type Provenance } from '../src/import/provenance';
import { mmb, tempDir } from './helpers';

const FIXTURE = join(__dirname, 'fixtures', 'datasets', 'locomo.json');
const ITEMS = JSON.parse(readFileSync(FIXTURE, 'utf8')) as LocomoItem[];
const PROVENANCE: Provenance = { dataset: DATASETS.locomo, fileName: 'locomo.json', sha256: 'cd'.repeat(32), options: 'no options' };

test('a file of another schema: the first field that differs, sessions and categories included', () => {
  assert.equal(locomoDifference(ITEMS[0]), undefined);
  const cases: [(x: LocomoItem) => void, string][] = [
    [(x) => delete (x.conversation as Record<string, unknown>).speaker_b, 'conversation.speaker_b: expected a string'],
    [
      (x) => delete x.conversation.session_2_date_time,
      'conversation.session_2_date_time: expected a date such as "1:56 pm on 8 May, 2023"',
    ],
    [(x) => ((x.conversation.session_10 as { text: unknown }[])[1]!.text = ['x']), 'conversation.session_10[1].text: expected a string'],
    [(x) => (x.qa[3]!.category = 7), 'qa[3].category: expected a category from 1 to 5'],
    [(x) => (x.qa[0]!.evidence = 'D1:3' as unknown as string[]), 'qa[0].evidence: expected a list of strings'],
  ];
  for (const [change, said] of cases) {
    const item = structuredClone(ITEMS[0]!);
    change(item);
    const difference = locomoDifference(item);
    assert.equal(difference && `${difference.field}: expected ${difference.expected}`, said);
  }
  // A LongMemEval item is no LoCoMo item.
  assert.equal(locomoDifference({ question_id: 'q', question: 'x' })?.field, 'sample_id');
});

test('a conversation: sessions in order, her words and her friend’s, evidence as facts, a check per QA typed by its category', () => {
  const rendered = renderLocomo(structuredClone(ITEMS[0]!), PROVENANCE);
  assert.equal(rendered.name, 'locomo-conv-26');
  assert.deepEqual(
    [...rendered.files.keys()],
    [
      'README.md',
      'benchmark.json',
      'facts01.md',
      'facts02.md',
      'facts03.md',
      'instructions.md',
      'questions.md',
      'session01.md',
      'session02.md',
      'session03.md',
    ],
  );
  const questions = rendered.files.get('questions.md')!;
  assert.deepEqual(
    [...questions.matchAll(/^❓ (\S+) \[(\w+)\]/gmu)].map((m) => `${m[1]} ${m[2]}`),
    ['2.1 SERIES', '4.1 RECALL', '1.1 AGG', '3.1 RECALL', '5.1 VOID', '4.2 RECALL'],
  );
  assert.match(questions, /^ {5}Correct answer: you never told me \(not: Luna\)\.$/m);
  assert.match(questions, /^2023-07-21, Fri\n20:56 — Say openly/m);
  // session_10 comes after session_2.
  assert.match(rendered.files.get('session03.md')!, /^## Session 10: 2023-07-20$/m);
  assert.equal(
    rendered.files.get('facts03.md'),
    '# Session 3, 2023-07-20\n\n## 1. What was said\n1.1 Caroline: I adopted a kitten named Luna this week! (D10:1)\n',
  );
  assert.match(rendered.files.get('session01.md')!, /^13:56 — You say: "Hey Mel! How have you been\?"$/m);
  assert.match(
    rendered.files.get('session01.md')!,
    /^13:57 — You say: "Melanie told me: Swamped with the kids & work\. ## Not a heading \? 1\.1/m,
  );
  const benchmark = loadBenchmark({ name: rendered.name, files: rendered.files });
  assert.deepEqual(
    [...benchmark.diagnostics, ...validateBenchmark(benchmark)].map((d) => `${d.file}: ${d.message}`),
    [],
  );
  const phases = [...allPhases(benchmark)];
  assert.equal(benchmark.checks.length, 6);
  assert.equal(benchmark.traps.length, 0);
  const texts = [...rendered.files].filter(([name]) => /^(session\d+|questions)\.md$/.test(name)).map(([, text]) => text);
  assert.equal(phases.filter((p) => p.phase.js).length, texts.join('\n').match(/^```js$/gm)?.length);
  // The 50 days between the first two sessions are quiet steps, split so no phase holds more than 20 anchors.
  assert.deepEqual(
    phases.filter((p) => p.chapter.file === 'session02.md').map((p) => `${p.phase.title} ${p.phase.timeAnchors.length}`),
    ['Session 2: 2023-06-27 20', 'Session 2: 2023-06-27 (2) 20', 'Session 2: 2023-06-27 (3) 1'],
  );
  assert.equal(
    phases.reduce((n, p) => n + p.phase.factRefs.length + p.phase.templates.length, 0),
    0,
  );
  for (const { chapter, phase } of phases) assert.doesNotMatch(phaseInstructions(chapter, phase), /🪤|<script|\{\{|^#|`profile`/mu);
  assert.ok([...rendered.files.values()].every((text) => text.split('\n').every((line) => line.length <= 1700)));
});

test('mmb import locomo: --audit clean, a rehearsal with full coverage, the metric by category, the same bytes twice', () => {
  const [dir, again] = [tempDir('mmb-locomo-'), tempDir('mmb-locomo-b-')];
  writeFileSync(join(dir, 'config.jsonc'), '{ "persona": { "model": "stand-in" } }\n');
  const r = mmb(['import', 'locomo', FIXTURE], dir);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.stdout.trimEnd().split('\n').slice(1), [
    '  questions by category: adversarial 1, multi-hop 1, open-domain 1, single-hop 2, temporal 1',
    'Next: mmb check --audit benchmarks/locomo-conv-26; mmb run --benchmark locomo-conv-26 --rehearse.',
  ]);
  assert.match(r.stdout, /^Imported 1 benchmark from locomo\.json \(1 items, sha256 [0-9a-f]{12}…\) into benchmarks\/, no options:$/m);
  assert.equal(mmb(['import', 'locomo', FIXTURE], again).code, 0);
  const bytes = (root: string) =>
    readdirSync(join(root, 'benchmarks', 'locomo-conv-26')).map((name) =>
      readFileSync(join(root, 'benchmarks', 'locomo-conv-26', name), 'utf8'),
    );
  assert.deepEqual(bytes(dir), bytes(again));
  assert.equal(mmb(['check', '--audit', 'benchmarks/locomo-conv-26'], dir).stdout, 'benchmarks/locomo-conv-26: 0 errors, 0 warnings\n');
  const run = mmb(['run', '--benchmark', 'locomo-conv-26', '--rehearse'], dir);
  assert.match(run.stdout, /^locomo-conv-26\.rehearsal +finished +average [\d.]+\/10 +coverage 6\/6/m);
  const listing = mmb(['report'], dir).stdout;
  assert.deepEqual(
    [...listing.matchAll(/^ {2}([a-z-]+) +(\d+)\/(\d+) /gm)].map((m) => `${m[1]} ${m[3]}`),
    ['adversarial 1', 'multi-hop 1', 'open-domain 1', 'single-hop 2', 'temporal 1', 'all 6'],
  );
  const bad = mmb(['import', 'locomo', FIXTURE, '--types', 'temporal'], dir);
  assert.equal(bad.stderr, "mmb: --types goes with longmemeval: LoCoMo's items have no type.\n");
  assert.equal(
    mmb(['import', 'locomo', FIXTURE, '--haystack', 'oracle'], dir).stderr,
    'mmb: --haystack goes with longmemeval: LoCoMo has no haystack, each item is told whole.\n',
  );
});
