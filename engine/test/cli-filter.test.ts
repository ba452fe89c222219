/**
 * `mmb run --filter` through the built CLI on the stand-in, and the filter on the starter
 * benchmark in memory: which phases are played, which checks the persona is given, how the run is
 * named, marked (state.json, summary.json, report.md, `mmb report`) and resumed, and the terms refused.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { playOrder } from '../src/run/phases';
import { filterBenchmark, parseFilter } from '../src/protocol/runFilter';
import { phaseInstructions } from '../../scenario/src';
import { starter, workspace, mmb } from './helpers';

const played = (filter: string) =>
  playOrder(filterBenchmark(starter(), parseFilter(filter))).map((p) => `${p.chapter.file}:${p.phase.index + 1}`);

test('the filter picks chapters where, checks and types what; the persona is given only the picked checks', () => {
  assert.deepEqual(played('chapter1'), ['chapter1.md:1', 'chapter1.md:2'], 'a chapter: all its phases, also those without checks');
  assert.deepEqual(played('CHAPTER2.md'), ['chapter2.md:1', 'chapter2.md:2', 'chapter2.md:3'], 'case and .md do not matter');
  assert.deepEqual(played('HIST'), ['chapter3.md:1'], 'a type: the phases holding its checks');
  assert.deepEqual(played('chapter1,chapter3'), ['chapter1.md:1', 'chapter1.md:2', 'chapter3.md:1']);
  const filtered = filterBenchmark(starter(), parseFilter('hist, 3.5'));
  assert.deepEqual(
    filtered.checks.map((c) => c.check.id),
    ['3.3', '3.5'],
  );
  assert.equal(filtered.chapters.length, starter().chapters.length, 'chapters stay, so saved positions index the whole benchmark');
  const exam = filtered.chapters[2]!;
  const text = phaseInstructions(exam, exam.phases[0]!);
  assert.match(text, /❓ 3\.3 \[HIST\]/);
  assert.match(text, /Correct answer: £380/, 'a picked check keeps its continuation line');
  assert.doesNotMatch(text, /❓ 3\.(1|2|4)|£1,290|Leeds Lift/, 'the checks left out are hidden, continuation lines and all');
  assert.match(text, /^Say openly that you would like to check/, 'the rest of the phase stays');
  assert.throws(() => filterBenchmark(starter(), parseFilter('chapter1,HIST')), /--filter chapter1,HIST picks no phase of starter/);
});

test('mmb run --filter: a partial run <run>.filter-…, marked in state, summary, report.md and mmb report, resumable by its name', () => {
  const dir = workspace({ persona: { model: 'stand-in' }, runs: { a: { benchmark: 'starter', agent: 'chatbot' } } });
  const r = mmb(['run', 'a', '--filter', 'HIST,3.5'], dir);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^a\.filter-HIST_3\.5: started \(1 chapters, 1 phases, 2 checks\)$/m);
  assert.match(r.stdout, /^a\.filter-HIST_3\.5 +finished +average 5\.00\/10 +coverage 2\/2/m);
  const results = join(dir, 'results', 'a.filter-HIST_3.5');
  const state = JSON.parse(readFileSync(join(results, 'state.json'), 'utf8'));
  assert.equal(state.filter, 'HIST,3.5');
  assert.deepEqual(state.phases, {
    from: { chapter: 'chapter3.md', chapterIndex: 2, phase: 0 },
    to: { chapter: 'chapter3.md', chapterIndex: 2, phase: 0 },
  });
  assert.deepEqual(Object.keys(state.grades).sort(), ['3.3', '3.5'], 'only the picked checks were asked');
  const summary = JSON.parse(readFileSync(join(results, 'summary.json'), 'utf8'));
  assert.deepEqual(summary.partial, { from: 'chapter3.md:1', to: 'chapter3.md:1', filter: 'HIST,3.5' });
  assert.deepEqual(summary.coverage, { graded: 2, planned: 2, missing: [] });
  assert.match(
    readFileSync(join(dir, 'results', 'report.md'), 'utf8'),
    /^- 🧩 Partial run: chapter3\.md:1 to chapter3\.md:1, filter HIST,3\.5$/m,
  );
  const list = mmb(['report'], dir);
  assert.match(list.stdout, /^run +benchmark +agent +status +average +coverage +scope$/m);
  assert.match(
    list.stdout,
    /^a\.filter-HIST_3\.5 +starter +chatbot +finished +5\.00 +2\/2 +filter$/m,
    'coverage from the state, as planned by the filter',
  );
  const json = JSON.parse(mmb(['report', 'a.filter-HIST_3.5', '--json'], dir).stdout);
  assert.deepEqual(json.runs[0].coverage, summary.coverage);
  const again = mmb(['run', 'a.filter-HIST_3.5'], dir);
  assert.equal(again.code, 0, again.stderr);
  assert.match(
    again.stdout,
    /^a\.filter-HIST_3\.5: finished already \(phase 1\/1, checks 2\/2\)$/m,
    'resumed with its filter from run.json',
  );
  const repeats = mmb(['run', 'a.filter-HIST_3.5', '--repeat', '2'], dir);
  assert.equal(repeats.code, 0, repeats.stderr);
  assert.match(
    repeats.stdout,
    /^a\.filter-HIST_3\.5#2 +finished +average 5\.00\/10 +coverage 2\/2/m,
    'a repeat of a filtered run is filtered too',
  );
  assert.match(mmb(['run', 'a.filter-HIST_3.5#2'], dir).stdout, /^a\.filter-HIST_3\.5#2: finished already/m, 'and resumes by its id');
  const rehearsal = mmb(['run', '--benchmark', 'starter', '--filter', 'chapter1', '--rehearse'], dir);
  assert.equal(rehearsal.code, 0, rehearsal.stderr);
  assert.match(rehearsal.stdout, /^starter\.filter-chapter1\.rehearsal +finished +average — ?\/10 +coverage 0\/0/m);
});

test('mmb run --filter: terms that name nothing, or that go with --from or --only, exit 2 with one line', () => {
  const dir = workspace({ persona: { model: 'stand-in' }, runs: { a: { benchmark: 'starter', agent: 'chatbot' } } });
  const cases: [string[], RegExp][] = [
    [
      ['run', 'a', '--filter', 'chapter9'],
      new RegExp(
        String.raw`^mmb: --filter: starter has no chapter chapter9\.md; its chapters: chapter1\.md, chapter2\.md, chapter3\.md\. ` +
          String.raw`Did you mean \`chapter1\.md\` or \`chapter2\.md\` or \`chapter3\.md\`\?$`,
        'm',
      ),
    ],
    [['run', 'a', '--filter', '3.9'], /^mmb: --filter: starter has no check 3\.9\. Did you mean/m],
    [['run', 'a', '--filter', 'NEG'], /^mmb: --filter: starter has no check of type NEG; its checks' types: RECALL, HIST, AGG, VOID\.$/m],
    [['run', 'a', '--filter', 'HSIT'], /^mmb: --filter: HSIT is not a check type; its checks' types: /m],
    [
      ['run', 'a', '--filter', '../x'],
      /^mmb: --filter: "\.\.\/x" is neither a chapter \(chapter3\), a check id \(20\.16\) nor a check type \(HIST\)\.$/m,
    ],
    [['run', 'a', '--filter', ','], /^mmb: --filter needs a term/m],
    [['run', 'a', '--filter', 'HIST', '--from', 'chapter1.md:1'], /^mmb: --filter and --from do not go together/m],
    [['run', 'a', '--filter', 'HIST', '--only'], /^mmb: --only goes with --from/m],
    [['run', '--filter', 'HIST'], /^mmb: --filter needs the run to take the agent from: mmb run <run-id> --filter HIST/m],
  ];
  for (const [args, message] of cases) {
    const r = mmb(args, dir);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, message, args.join(' '));
    assert.equal(r.stderr.split('\n').length, 2, `${args.join(' ')}: one line`);
    assert.equal(r.stdout, '', args.join(' '));
  }
  assert.equal(existsSync(join(dir, 'results')), false, 'nothing ran, nothing was created');
});
