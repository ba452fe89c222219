/**
 * `mmb regrade` as users run it: a run of Max on the stand-in graded again by the stand-in judge and
 * the lenient and harsh chaos judges, side by side in the terminal, `mmb report`, `--json` and
 * `--html`; the persona's grades untouched; a hostile judge name and an unknown run one line each.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { judgeSlug } from '../src/protocol/layout';
import { mmb, ROOT, workspace } from './helpers';

const MAX = join(ROOT, 'benchmarks', 'max');

const LENIENT = 'stand-in:chaos?rate=1&behaviours=lenient-judge';
const HARSH = 'stand-in:chaos?rate=1&behaviours=harsh-judge';
let dir: string;

before(() => {
  dir = workspace({ persona: { model: 'stand-in' }, runs: { rehearsal: { benchmark: 'max', agent: 'chatbot' } } }, { max: MAX });
  const run = mmb(['run', 'rehearsal'], dir);
  assert.equal(run.code, 0, run.stderr);
});

test('mmb regrade shows each check graded by the persona and each judge side by side, hers untouched', () => {
  const state = readFileSync(join(dir, 'results', 'rehearsal', 'state.json'));
  const r = mmb(['regrade', 'rehearsal', '--judge', 'stand-in', '--judge', LENIENT, '--judge', HARSH], dir);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  assert.match(r.stdout, /^stand-in: \d+ graded now$/m);
  assert.match(r.stdout, /^judge +name +graded +no grade +average +exact +MAE +bias +κ$/m);
  assert.match(r.stdout, /^J1 +stand-in +\d+ +0 +[\d.]+ +1\.00 +0\.00 +\+0\.00 +1\.00$/m);
  assert.match(r.stdout, /^J2 +stand-in:chaos\?rate=1&behaviours=lenien… +\d+ +0 +[\d.]+ +0\.\d\d +[\d.]+ +\+0\.[1-9]/m, 'lenient');
  assert.match(r.stdout, /^J3 +stand-in:chaos\?rate=1&behaviours=harsh-… +\d+ +0 +[\d.]+ +0\.\d\d +[\d.]+ +-0\.[1-9]/m, 'harsh');
  assert.match(r.stdout, /^Panel of 3 judges: average [\d.]+, spread [\d.]+$/m);
  const differing = /^(\d+) of \d+ checks where a judge and the persona differ by more than 2 points, first$/m.exec(r.stdout);
  const disagreements = Number(differing?.[1]);
  assert.ok(disagreements > 0, r.stdout);
  const rows = r.stdout
    .slice(r.stdout.search(/^check +type +persona +J1 +J2 +J3 +question$/m))
    .split('\n')
    .slice(1);
  // The disagreements come first: in each, the lenient or the harsh judge is more than 2 points from her, the stand-in never.
  for (const row of rows.slice(0, disagreements)) {
    const [persona, rule, lenient, harsh] = row
      .split(/ +/)
      .slice(2, 6)
      .map((cell) => parseFloat(cell));
    assert.equal(rule, persona, row);
    assert.ok(Math.abs(lenient! - persona!) > 2 || Math.abs(harsh! - persona!) > 2, row);
  }
  assert.deepEqual(readFileSync(join(dir, 'results', 'rehearsal', 'state.json')), state);
  const files = ['stand-in', LENIENT, HARSH].map((judge) => `${judgeSlug(judge)}.jsonl`);
  assert.deepEqual(readdirSync(join(dir, 'results', 'rehearsal', 'regrades')).sort(), files.sort());
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

test("a judge's endpoint that fails is one line, exit 1; what was graded is kept", () => {
  const dead = { model: 'x', base_url: 'http://127.0.0.1:9/v1' };
  writeFileSync(join(dir, 'dead.jsonc'), JSON.stringify({ persona: { model: 'stand-in' }, judges: { dead }, runs: {} }));
  const r = mmb(['regrade', 'rehearsal', '--judge', 'stand-in', '--judge', 'dead', '--config', 'dead.jsonc'], dir);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^mmb: a judge failed: .*ECONNREFUSED.*; run mmb regrade again to resume\.\n$/);
  assert.match(r.stdout, /^stand-in: 0 graded now, \d+ done before$/m);
});
