/**
 * The editor's results reader with one damaged run among whole ones (issue 28, item 5): the damaged
 * run is a row of its own saying what is damaged, offering a restart and no results; every other
 * run reads as before, and the latest grades of the Test Explorer and the marks come from them.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPORTS, tempDir } from '../../engine/test/helpers';
import { ResultsFolder } from '../src/results';
import { runRow } from '../src/runInfo';

test('a damaged run is a damaged row with what is wrong; the other runs and their grades read as before', () => {
  const dir = tempDir('mmb-ext-damaged-');
  cpSync(join(REPORTS, 'runs'), join(dir, 'results'), { recursive: true });
  const whole = new ResultsFolder(dir);
  const before = whole.runs().map((r) => [r.name, r.status, r.average]);
  const grades = [...whole.latestGrades('multiday')].map(([id, g]) => [id, g.run, g.grade.score]);
  mkdirSync(join(dir, 'results', 'bad'));
  const state = JSON.parse(readFileSync(join(REPORTS, 'runs', 'chatbot-1', 'state.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, 'results', 'bad', 'state.json'), JSON.stringify({ ...state, grades: [1] }));
  const folder = new ResultsFolder(dir);
  const runs = folder.runs();
  const bad = runs.find((r) => r.name === 'bad')!;
  assert.equal(bad.status, 'damaged');
  assert.equal(bad.error, 'damaged: bad/state.json: grades: an object expected, found an array');
  assert.deepEqual(
    runs.filter((r) => r.name !== 'bad').map((r) => [r.name, r.status, r.average]),
    before,
  );
  assert.deepEqual(
    [...folder.latestGrades('multiday')].map(([id, g]) => [id, g.run, g.grade.score]),
    grades,
    "the Test Explorer's grades come from the whole runs",
  );
  const row = runRow(bad, undefined);
  assert.equal(row.contextValue, 'run-damaged', 'a restart and the log, no report to open');
  assert.ok(row.tooltip.includes('damaged: bad/state.json: grades: an object expected, found an array'));
  writeFileSync(join(dir, 'results', 'bad', 'state.json'), 'null');
  assert.equal(
    new ResultsFolder(dir).runs().find((r) => r.name === 'bad')!.error,
    'damaged: bad/state.json: an object expected, found null',
  );
});
