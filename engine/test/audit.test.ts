/** Issue #18, item 3: the stand-in plays the trap writes, and `mmb check --audit` compares the checks' answers with the live sheets. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadBenchmark } from '../../scenario/src';
import { auditBenchmark, auditRehearsal } from '../src/audit/answerAudit';
import { rehearse } from '../src/audit/rehearsal';
import { applySwaps, sheetEditsOf, swapsOf } from '../src/standin/sheetEdits';
import { readBenchmarkFolder } from '../src/workspace/folders';
import { CLI, ROOT } from './helpers';

const PLANTED = join(__dirname, 'fixtures', 'audit-planted');
const load = (path: string) => loadBenchmark(readBenchmarkFolder(path));

test('the trap writes a phase asks for are read into sheet edits: a quoted text, an "X, not Y", an addition, a deletion', () => {
  assert.deepEqual(sheetEditsOf('Update the `move` sheet: fact 2.1 becomes "The movers are Leeds Lift, £340 for the day".'), [
    { kind: 'edit', sheet: 'move', id: '2.1', text: 'The movers are Leeds Lift, £340 for the day' },
  ]);
  assert.deepEqual(sheetEditsOf('Say the keys are handed over at 11:00, not 10:00. Update `move` fact 1.3 accordingly.'), [
    { kind: 'replace', sheet: 'move', id: '1.3', swaps: [{ from: '10:00', to: '11:00' }] },
  ]);
  assert.deepEqual(sheetEditsOf('Add it to the `kitchen` sheet (category 1: "Wine fridge, $330") and ask for an estimate.'), [
    { kind: 'add', sheet: 'kitchen', category: 1, text: 'Wine fridge, $330' },
  ]);
  assert.deepEqual(sheetEditsOf('Update the `kitchen` sheet: delete the wine fridge.'), [
    { kind: 'delete', sheet: 'kitchen', words: ['win', 'fridg'] },
  ]);
  assert.deepEqual(sheetEditsOf('Add to the `family` sheet the fact about the visit.'), [], 'no text given: nothing is made up');
  assert.deepEqual(sheetEditsOf('Tell the `profile` sheet, a fact or two per message.'), []);
  assert.deepEqual(swapsOf('the broker says $1,100 for the RAV4, not $850; and 55 g a day instead of 70 g'), [
    { to: '1,100', from: '850' },
    { to: '55', from: '70' },
  ]);
  assert.equal(
    applySwaps('Customs clearance for the RAV4, $850', [{ from: '850', to: '1,100' }]),
    'Customs clearance for the RAV4, $1,100',
  );
  assert.equal(applySwaps('Room 1850, $85.50', [{ from: '850', to: '900' }]), 'Room 1850, $85.50', 'only the whole number is replaced');
});

test("a rehearsal on the stand-in makes the starter benchmark's sheet edits for real", async () => {
  const { state } = await rehearse(load(join(ROOT, 'benchmarks', 'starter')));
  assert.equal(state.status, 'finished', state.error);
  const move = new Map(state.sheets.move?.facts.map((f) => [f.id, f.text]));
  assert.equal(move.get('2.1'), 'The movers are Leeds Lift, £340 for the day');
  assert.equal(move.get('1.3'), "The keys are handed over on the 14th, at 11:00, at the letting agent's office");
});

test("the planted fixture: each kind of disagreement is a diagnostic at the check's line (or the trap's)", async () => {
  const found = (await auditBenchmark(load(PLANTED))).map(
    (d) => `${d.file}:${d.range.start.line + 1} ${d.code} ${d.message.split(':')[0]}`,
  );
  assert.deepEqual(found, [
    "chapter3.md:6 audit-missing-value 3.1's correct answer lacks 950",
    "chapter3.md:6 audit-stale-value 3.1's correct answer still holds 800",
    "chapter3.md:7 audit-missing-value 3.2's correct answer lacks 800",
    "chapter3.md:9 audit-missing-value 3.4's correct answer lacks 14",
    "chapter3.md:9 audit-stale-value 3.4's correct answer still holds 10",
    "chapter3.md:10 audit-stale-value 3.5's correct answer still holds 60",
    "chapter2.md:21 audit-not-edited the rehearsal did not change shop#1.3 in this trap's phase, so its checks were not compared",
  ]);
});

test('a check the rehearsal never graded is named, not passed', async () => {
  const benchmark = load(PLANTED);
  const rehearsal = await rehearse(benchmark);
  const atGrade = new Map(rehearsal.atGrade);
  atGrade.delete('3.3');
  const found = auditRehearsal(benchmark, { ...rehearsal, atGrade }).filter((d) => d.code === 'audit-not-graded');
  assert.deepEqual(
    found.map((d) => `${d.file}:${d.range.start.line + 1}`),
    ['chapter3.md:8'],
  );
  assert.match(found[0]?.message ?? '', /^the rehearsal never graded 3\.3, which the trap at chapter2\.md:6 aims at/);
});

/** Every bundled benchmark but Max, which branch max19 rewrites: its findings are in the report of issue #18. */
const BUNDLED = readdirSync(join(ROOT, 'benchmarks'))
  .filter((name) => existsSync(join(ROOT, 'benchmarks', name, 'benchmark.json')))
  .sort();

for (const name of BUNDLED) {
  test(`the bundled benchmark ${name} passes the answer audit`, async () => {
    const diagnostics = await auditBenchmark(load(join(ROOT, 'benchmarks', name)));
    assert.deepEqual(
      diagnostics.map((d) => `${d.file}:${d.range.start.line + 1} ${d.code} ${d.message}`),
      [],
    );
  });
}

test('mmb check --audit through the built CLI: the planted errors with exit 1, a clean benchmark with exit 0', () => {
  const planted = spawnSync(process.execPath, [CLI, 'check', '--audit', '--json', PLANTED], { encoding: 'utf8' });
  assert.equal(planted.status, 1, planted.stderr);
  const codes = (JSON.parse(planted.stdout) as { diagnostics: { code: string; line: number }[] }).diagnostics.map(
    (d) => `${d.line} ${d.code}`,
  );
  assert.deepEqual(codes, [
    '6 audit-missing-value',
    '6 audit-stale-value',
    '7 audit-missing-value',
    '9 audit-missing-value',
    '9 audit-stale-value',
    '10 audit-stale-value',
    '21 audit-not-edited',
  ]);
  const clean = spawnSync(process.execPath, [CLI, 'check', '--audit', join(ROOT, 'benchmarks', 'starter')], { encoding: 'utf8' });
  assert.equal(clean.status, 0, clean.stdout + clean.stderr);
  assert.match(clean.stdout, /starter: 0 errors, 0 warnings\n$/);
});
