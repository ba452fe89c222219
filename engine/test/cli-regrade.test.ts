/**
 * `mmb regrade` as users run it: a rehearsal of the starter graded again by the stand-in judge and
 * the lenient chaos judge, side by side in the terminal, `mmb report`, `--json` and `--html`; the
 * persona's grades untouched; a hostile judge name and an unknown run one line each.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { judgeSlug } from '../src/protocol/layout';
import { mmb, workspace } from './helpers';

const LENIENT = 'stand-in:chaos?rate=1&behaviours=lenient-judge';
let dir: string;

before(() => {
  dir = workspace({ persona: { model: 'stand-in' }, runs: { rehearsal: { benchmark: 'starter', agent: 'chatbot' } } });
  const run = mmb(['run', 'rehearsal'], dir);
  assert.equal(run.code, 0, run.stderr);
});

test('mmb regrade shows each check graded by the persona and each judge side by side, hers untouched', () => {
  const state = readFileSync(join(dir, 'results', 'rehearsal', 'state.json'));
  const r = mmb(['regrade', 'rehearsal', '--judge', 'stand-in', '--judge', LENIENT], dir);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  assert.match(r.stdout, /^stand-in: \d+ graded now$/m);
  assert.match(r.stdout, /^judge +name +graded +no grade +average +exact +MAE +bias +κ$/m);
  assert.match(r.stdout, /^J1 +stand-in +\d+ +0 +[\d.]+ +1\.00 +0\.00 +\+0\.00/m);
  assert.match(r.stdout, /^J2 +stand-in:chaos\?rate=1&behaviours=lenient-judge +\d+ +0 +[\d.]+ +0\.\d\d +[\d.]+ +\+[1-9]/m);
  assert.match(r.stdout, /^Panel of 2 judges: average [\d.]+, spread [\d.]+$/m);
  assert.match(r.stdout, /^\d+ of \d+ checks where a judge and the persona differ by more than 2 points, first$/m);
  assert.match(r.stdout, /^check +type +persona +J1 +J2 +question$/m);
  assert.deepEqual(readFileSync(join(dir, 'results', 'rehearsal', 'state.json')), state);
  assert.deepEqual(
    readdirSync(join(dir, 'results', 'rehearsal', 'regrades')).sort(),
    [`${judgeSlug(LENIENT)}.jsonl`, 'stand-in.jsonl'].sort(),
  );
  const again = mmb(['regrade', 'rehearsal', '--judge', 'stand-in'], dir);
  assert.match(again.stdout, /^stand-in: 0 graded now, \d+ done before$/m, 'nothing graded twice');
});

test('the regrades show in mmb report, --json and --html', () => {
  mmb(['regrade', 'rehearsal', '--judge', 'stand-in'], dir);
  const text = mmb(['report', 'rehearsal'], dir);
  assert.match(text.stdout, /^Regrades \(each judge's grades beside the persona's, `mmb regrade`\):$/m);
  const json = JSON.parse(mmb(['report', '--json', 'rehearsal'], dir).stdout) as {
    runs: { regrades?: { judges: { judge: string; agreement: { exact: number } }[] } }[];
  };
  assert.equal(json.runs[0]!.regrades!.judges.find((judge) => judge.judge === 'stand-in')!.agreement.exact, 1);
  assert.equal(mmb(['report', 'rehearsal', '--html'], dir).code, 0);
  assert.match(readFileSync(join(dir, 'results', 'rehearsal', 'report.html'), 'utf8'), /<h2 id="regrades">/);
});

test('a hostile judge name or an unknown run is one line, exit 2', () => {
  const hostile = mmb(['regrade', 'rehearsal', '--judge', '../../x\u001b[31m'], dir);
  assert.equal(hostile.code, 2);
  assert.equal(hostile.stderr.trim().split('\n').length, 1, hostile.stderr);
  assert.ok(!hostile.stderr.includes(String.fromCharCode(27)), 'no escape character reaches the terminal');
  const unknown = mmb(['regrade', 'nope', '--judge', 'stand-in'], dir);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /^mmb: no results for run "nope"/);
  assert.equal(mmb(['regrade', 'rehearsal', '--repeat', '0'], dir).code, 2);
});
