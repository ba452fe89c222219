/**
 * `mmb regrade`'s parts on a run made on the stand-in: the items from the transcript, the judges'
 * grades appended beside the persona's (hers unchanged), the lenient judge's disagreements, a resume
 * after a kill that grades nothing twice, and hostile names and files read as one line each.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import type { Benchmark } from '../../scenario/src';
import { gradeItems } from '../src/cli/regradeRun';
import type { Judge, JudgeOutcome } from '../src/judge/judge';
import { judgeSlug, regradeFile, regradesDir } from '../src/protocol/layout';
import { readRegrades, REGRADE_LINE } from '../src/report/regradeFiles';
import { exchangeOf, regradeItems, type RegradeItem } from '../src/report/regradeItems';
import { regradeMarkdown, regradeText } from '../src/report/regradeText';
import { regradeView, runRegrades, DISAGREEMENT_POINTS } from '../src/report/regradeView';
import { runView } from '../src/report/runView';
import { renderRunReport } from '../src/report/html/runPage';
import { renderComparison } from '../src/report/html/comparePage';
import { compareRuns, comparisonText, withRegrades } from '../src/report/compare';
import { gradeByRule } from '../src/standin/grading';
import type { RunState } from '../src/state/runState';
import { problemOf } from '../src/protocol/shape';
import { runOnStandIn, starter, tempDir } from './helpers';

const USAGE = { promptTokens: 10, completionTokens: 2 };

/** A judge in memory: grades by `score`, counting what it was asked. */
function fakeJudge(name: string, score: (item: RegradeItem) => number, asked: string[] = []): Judge {
  return {
    name,
    async grade(item) {
      asked.push(item.key);
      const outcome: JudgeOutcome = { kind: 'graded', score: score(item as RegradeItem), comment: 'fake', raw: '', usage: USAGE };
      return outcome;
    },
  };
}

/** The stand-in's own rule, as a judge: it should agree with the stand-in persona. */
const ruleJudge = (asked: string[] = []) =>
  fakeJudge('stand-in', (item) => gradeByRule(item.check.type, item.check.answer, item.answer).score, asked);
/** Passes everything. */
const lenientJudge = () => fakeJudge('lenient', () => 10);

let run: { state: RunState; dir: string; benchmark: Benchmark };

before(async () => {
  const benchmark = starter();
  const { state, dir } = await runOnStandIn(benchmark);
  run = { state, dir, benchmark };
});

test("each item holds her question and the agent's answer from the transcript, not her quote", () => {
  const items = regradeItems(run.state, run.benchmark);
  const graded = Object.keys(run.state.grades);
  assert.equal(items.length, graded.length);
  assert.ok(
    items.some((item) => item.attempt === 2),
    'the starter run has a second attempt (after its session switch)',
  );
  for (const item of items) {
    const grade = run.state.grades[item.key]!.at(-1)!;
    const check = run.benchmark.checks.find((c) => c.check.id === item.key)!.check;
    assert.ok(item.found, item.key);
    // The stand-in persona asks the check's question as written, and quotes the whole reply she graded.
    assert.equal(item.check.question, check.question, item.key);
    assert.equal(item.answer, grade.answer === '(no reply)' ? '' : grade.answer, item.key);
    assert.equal(item.attempt, grade.attempt);
    assert.deepEqual(item.persona, { score: grade.score, effective: grade.effective, attempt: grade.attempt });
  }
});

test("a judge's grades go beside the persona's, hers unchanged; the rule judge agrees and the lenient one does not", async () => {
  const stateBefore = readFileSync(join(run.dir, 'state.json'));
  const items = regradeItems(run.state, run.benchmark);
  const dir = tempCopy();
  await gradeItems(dir, items, [ruleJudge(), lenientJudge()], 1);
  assert.deepEqual(readFileSync(join(run.dir, 'state.json')), stateBefore);
  const regrades = readRegrades(dir);
  assert.deepEqual(regrades.problems, []);
  assert.deepEqual(regrades.files.map((file) => file.slug).sort(), ['lenient', 'stand-in']);
  const view = regradeView(run.state, run.benchmark, regrades)!;
  const [lenient, rule] = view.judges;
  assert.equal(rule!.judge, 'stand-in');
  assert.equal(rule!.agreement.exact, 1, 'the rule judge grades as the stand-in persona does');
  const failed = items.filter((item) => item.persona.effective < 10 - DISAGREEMENT_POINTS).map((item) => item.key);
  assert.ok(failed.length > 0, 'the starter run fails some checks');
  assert.deepEqual(
    view.checks
      .filter((check) => check.disagrees)
      .map((check) => check.id)
      .sort(),
    [...failed].sort(),
  );
  assert.deepEqual(
    view.checks.slice(0, failed.length).map((check) => check.disagrees),
    failed.map(() => true),
    'disagreements first',
  );
  assert.ok(lenient!.agreement.bias! > 0, 'lenient');
  const halved = items.filter((item) => item.attempt === 2).length;
  assert.equal(
    lenient!.average,
    Math.round((((items.length - halved) * 10 + halved * 5) / items.length) * 100) / 100,
    '10 for all, halved on a 2nd attempt',
  );
  assert.ok(view.panel && view.panel.spread! > 0);
  assert.match(regradeText(view), /^J2 +stand-in +\d+ +0 +[\d.]+ +1\.00 +0\.00 +\+0\.00/m);
});

test('a kill mid-way resumes with what is left: no item is graded twice, a cut last line is graded again', async () => {
  const items = regradeItems(run.state, run.benchmark);
  const dir = tempCopy();
  let calls = 0;
  const dying: Judge = {
    name: 'stand-in',
    async grade(item) {
      if (++calls > 3) throw new Error('503 from http://judge/chat/completions');
      return ruleJudge().grade(item);
    },
  };
  await assert.rejects(gradeItems(dir, items, [dying], 2), /503/);
  const file = regradeFile(dir, 'stand-in');
  const kept = readFileSync(file, 'utf8').trim().split('\n').length;
  assert.equal(kept, 3);
  appendFileSync(file, '{"judge": "stand-in", "check": "1.'); // a line cut by a kill
  const asked: string[] = [];
  const [tally] = await gradeItems(dir, items, [ruleJudge(asked)], 2);
  assert.equal(asked.length, items.length * 2 - kept);
  assert.equal(tally!.before, kept);
  const lines = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { check: string; repeat: number });
  const keys = lines.map((line) => `${line.check}#${line.repeat}`);
  assert.equal(new Set(keys).size, keys.length, 'no item twice');
  assert.equal(keys.length, items.length * 2);
  assert.deepEqual(await gradeItems(dir, items, [ruleJudge(asked)], 2).then((t) => t[0]!.asked), 0, 'all done: nothing asked again');
});

test('judge names are slugged into plain file names: no path, no control character, no two names in one file', () => {
  const hostile = [
    '../../etc/passwd',
    'a/b',
    'x\u0000y\u001b[31m',
    '..',
    '.',
    '',
    'A'.repeat(500),
    'stand-in:chaos?rate=1&behaviours=lenient-judge',
  ];
  const slugs = hostile.map(judgeSlug);
  for (const slug of slugs) {
    assert.match(slug, /^[a-z0-9][a-z0-9._-]*$/, slug);
    assert.ok(slug.length <= 64, slug);
    assert.ok(!slug.includes('..'), slug);
  }
  assert.equal(new Set(slugs).size, slugs.length);
  assert.notEqual(judgeSlug('Stand-In'), judgeSlug('stand-in'), 'names that differ only in case stay apart on a case-blind disk');
  assert.equal(judgeSlug('stand-in'), 'stand-in');
  assert.equal(judgeSlug('gpt-4o-mini'), 'gpt-4o-mini');
  const dir = tempDir();
  assert.equal(regradeFile(dir, '../../x').startsWith(regradesDir(dir)), true);
});

test('damaged regrade files are one line each, never a crash; the rest is read', async () => {
  const items = regradeItems(run.state, run.benchmark);
  const dir = tempCopy();
  await gradeItems(dir, items, [ruleJudge()], 1);
  const file = regradeFile(dir, 'stand-in');
  const good = readFileSync(file, 'utf8').trim().split('\n');
  writeFileSync(file, [good[0], 'not json at all', '{"judge": 3}', '["a"]', ...good.slice(1), ''].join('\n'));
  const folder = regradesDir(dir);
  symlinkSync('/etc/passwd', join(folder, 'linked.jsonl'));
  execFileSync('mkfifo', [join(folder, 'fifo.jsonl')]);
  mkdirSync(join(folder, 'folder.jsonl'));
  const regrades = readRegrades(dir);
  assert.equal(regrades.problems.length, 4, regrades.problems.join('\n'));
  for (const problem of regrades.problems) assert.doesNotMatch(problem, /\n/);
  assert.match(regrades.problems.join('\n'), /stand-in\.jsonl: 3 lines skipped \(line 2 is not JSON\)/);
  const view = regradeView(run.state, run.benchmark, regrades)!;
  assert.equal(view.judges.find((judge) => judge.slug === 'stand-in')!.graded, items.length);
  // Grading into a link is refused with one line; a damaged line's item is graded again.
  await assert.rejects(gradeItems(dir, items, [fakeJudge('linked', () => 1)], 1), /linked\.jsonl: a link where a file goes.*remove it/);
  assert.deepEqual(readdirSync(folder).sort(), ['fifo.jsonl', 'folder.jsonl', 'linked.jsonl', 'stand-in.jsonl']);
});

test('a line of the shape is what the grading writes', async () => {
  const items = regradeItems(run.state, run.benchmark);
  const dir = tempCopy();
  const noGrade: Judge = {
    name: 'mute',
    grade: async () => ({ kind: 'no-grade', reason: 'no record_grade call', raw: '{"content":"hi"}', usage: USAGE }),
  };
  const [tally] = await gradeItems(dir, items.slice(0, 2), [noGrade], 1);
  assert.equal(tally!.noGrade, 2);
  for (const line of readFileSync(regradeFile(dir, 'mute'), 'utf8').trim().split('\n'))
    assert.equal(problemOf(REGRADE_LINE, JSON.parse(line)), undefined);
  const view = regradeView(run.state, run.benchmark, readRegrades(dir))!;
  assert.equal(view.judges[0]!.noGrade, 2);
  assert.equal(view.judges[0]!.graded, 0);
});

/** A fresh folder to grade into, as a run's folder. */
function tempCopy(): string {
  return tempDir('mmb-regrade-');
}

test('her question is found among several asked before the grades, and a second attempt answers her follow-up', () => {
  const position = { chapter: 'c.md', chapterIndex: 0, phase: 0 };
  const entry = (from: 'persona' | 'agent', text: string, second: number) => ({
    from,
    text,
    at: `2026-03-01T09:00:${String(second).padStart(2, '0')}.000Z`,
    position,
  });
  const transcript = [
    entry('persona', 'How far is the lake from the house?', 1),
    entry('agent', 'About 8 km.', 2),
    entry('persona', "What is my sister's name?", 3),
    entry('agent', 'I do not know.', 4),
    entry('persona', "Could you search your notes? What is my sister's name?", 5),
    entry('agent', 'Anna.', 6),
    entry('persona', 'What is the weather like?', 8),
  ];
  const grade = (attempt: 1 | 2, second: number, turn?: number) => ({
    score: 10,
    effective: attempt === 2 ? 5 : 10,
    attempt,
    answer: 'quoted',
    comment: '',
    at: `2026-03-01T09:00:0${second}.000Z`,
    position,
    ...(turn !== undefined ? { turn } : {}),
  });
  assert.deepEqual(exchangeOf(transcript, grade(1, 7, 6), 'How far is the lake?'), {
    question: 'How far is the lake from the house?',
    answer: 'About 8 km.',
  });
  assert.deepEqual(exchangeOf(transcript, grade(2, 7, 6), "What's my sister called? (her name)"), {
    question: "What is my sister's name?",
    answer: 'Anna.',
  });
  // An older state without `turn`: the transcript up to the grade's time.
  assert.deepEqual(exchangeOf(transcript, grade(2, 7), 'sister name'), { question: "What is my sister's name?", answer: 'Anna.' });
  assert.equal(exchangeOf(transcript.slice(1, 2), grade(1, 7), 'lake'), undefined, 'she asked nothing');
});

test('the regrades reach report.md, the HTML report and the comparison', async () => {
  const items = regradeItems(run.state, run.benchmark);
  const dir = tempCopy();
  await gradeItems(dir, items, [ruleJudge(), lenientJudge()], 1);
  const view = runRegrades(dir, run.state, run.benchmark)!;
  const markdown = regradeMarkdown(view);
  assert.match(markdown, /^\| judge \| name \| graded \| no grade \| average \| exact \| MAE \| bias \| κ \|$/m);
  assert.match(markdown, /^\| J2 \| stand-in \| \d+ \| 0 \| [\d.]+ \| 1\.00 \| 0\.00 \| \+0\.00 \|/m);
  const first = view.checks[0]!;
  assert.ok(first.disagrees);
  assert.ok(markdown.includes(`| ${first.id} | ${first.type} |`));
  const html = renderRunReport(runView(run.state, run.benchmark, { regrades: view }));
  assert.match(html, /<h2 id="regrades">/);
  assert.equal(html.match(/<tr class="differs" data-check=/g)?.length, view.disagreements);
  assert.ok(!renderRunReport(runView(run.state, run.benchmark)).includes('id="regrades"'), 'no section without regrades');
  const comparison = withRegrades(compareRuns([run.state, run.state], run.benchmark), (index) => (index === 0 ? view : null));
  assert.match(comparisonText(comparison), /^judge +[\d.]+ +— +lenient$/m);
  assert.match(renderComparison(comparison), /Averages under the judges/);
});

test("blind: a judge gets the item alone, never the persona's grade or her comment", async () => {
  const items = regradeItems(run.state, run.benchmark);
  const seen: unknown[] = [];
  const recording: Judge = {
    name: 'recording',
    grade: async (item) => {
      seen.push(item);
      return { kind: 'graded', score: 1, comment: '', raw: '', usage: USAGE };
    },
  };
  await gradeItems(tempCopy(), items, [recording], 1);
  assert.equal(seen.length, items.length);
  for (const item of seen) {
    assert.deepEqual(Object.keys(item as object).sort(), ['answer', 'attempt', 'check', 'key']);
    assert.deepEqual(
      Object.keys((item as RegradeItem).check).filter((key) => !['id', 'type', 'question', 'answer', 'stale'].includes(key)),
      [],
    );
  }
});

test('--repeat: each judge grades each item N times; a judge that wavers shows in its retest and its cells', async () => {
  const items = regradeItems(run.state, run.benchmark);
  const dir = tempCopy();
  let calls = 0;
  const wavering = fakeJudge('wavering', () => (calls++ % 2 === 0 ? 10 : 0));
  const [tally] = await gradeItems(dir, items, [wavering], 3);
  assert.equal(tally!.asked, items.length * 3);
  const view = runRegrades(dir, run.state, run.benchmark)!;
  const judge = view.judges[0]!;
  assert.equal(judge.retest?.items, items.length);
  assert.ok(judge.retest!.changed > 0);
  assert.ok(view.checks.some((check) => check.judges[0]!.repeats === 3 && check.judges[0]!.spread > 0));
  assert.match(regradeText(view), /^J1 over its repeats: \d+ of \d+ grades changed, mean spread [\d.]+$/m);
  assert.match(regradeText(view), /~/);
});
