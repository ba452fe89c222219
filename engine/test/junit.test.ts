/**
 * The JUnit writer on the fixture runs: the schema's shape (checked rule by rule from
 * windyroad/JUnit-Schema's JUnit.xsd by `xmlCheck.ts`, as there is no XSD validator here), one
 * case per check, failures exactly below the pass score, and hostile answers that stay text.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadBenchmark } from '../../scenario/src';
import { junitDocument } from '../src/report/junit';
import type { RunState } from '../src/state/runState';
import { readBenchmarkFolder } from '../src/workspace/folders';
import { REPORTS } from './helpers';
import { assertJunitShape, casesOf, parseXml } from './xmlCheck';

const multiday = loadBenchmark(readBenchmarkFolder(join(REPORTS, 'benchmarks', 'multiday')));

function fixtureState(run: string): RunState {
  return JSON.parse(readFileSync(join(REPORTS, 'runs', run, 'state.json'), 'utf8')) as RunState;
}

test('one suite per run, one case per check with its type and question, failing exactly below the pass score', () => {
  const state = fixtureState('chatbot-1');
  const [suite] = assertJunitShape(parseXml(junitDocument([{ kind: 'played', state, benchmark: multiday }], { hostname: 'ci-host' })));
  assert.ok(suite);
  assert.deepEqual(
    { ...suite.attributes },
    {
      name: 'chatbot-1',
      package: 'multiday',
      id: '0',
      timestamp: '2026-11-29T22:19:27',
      hostname: 'ci-host',
      tests: '10',
      failures: '8',
      errors: '0',
      skipped: '0',
      time: (state.activeMs / 1000).toFixed(3),
    },
  );
  const cases = casesOf(suite);
  assert.deepEqual(
    cases.map((c) => c.attributes.classname),
    ['multiday.week2', ...Array(9).fill('multiday.exam')],
  );
  assert.equal(cases[1]!.attributes.name, '15.1 [RECALL] Where did I run on Tuesday, 10 March?');
  assert.equal(cases[0]!.attributes.name, '12.1 How far did I run on Wednesday?', 'no type, no brackets');
  const failure = cases[1]!.children[0]!;
  assert.deepEqual({ ...failure.attributes }, { message: 'score 0/10 (pass from 8), 2nd attempt', type: 'below-pass-score' });
  assert.equal(failure.text, 'expected: around Ashton Court.\ngot: You never told me that.\ncomment: missing around, ashton, court');
  const properties = Object.fromEntries(suite.children[0]!.children.map((p) => [p.attributes.name, p.attributes.value]));
  assert.deepEqual(properties, { benchmark: 'multiday', agent: 'chatbot', status: 'finished', average: '2.00', pass_score: '8' });
  // A 10 passes at any pass score; at 0 everything passes, at 10 only the 10s.
  const atZero = assertJunitShape(parseXml(junitDocument([{ kind: 'played', state, benchmark: multiday }], { passScore: 0 })))[0]!;
  assert.equal(atZero.attributes.failures, '0');
  assert.equal(atZero.attributes.hostname, 'localhost', "the schema's value when the host is unknown");
});

test('checks never graded are skipped, a crash is an error case, a run that did not start is one error', () => {
  const state = fixtureState('chatbot-2');
  delete state.grades['15.4'];
  state.status = 'crashed';
  state.error = 'the chatbot\'s model failed: <boom> & "more"\u0000';
  const xml = junitDocument([
    { kind: 'played', state, benchmark: multiday },
    { kind: 'not-started', run: 'later', benchmark: 'multiday', problem: 'run "later" is already running (process 7)' },
  ]);
  const [crashed, notStarted] = assertJunitShape(parseXml(xml));
  assert.equal(crashed!.attributes.skipped, '1');
  assert.equal(crashed!.attributes.errors, '1');
  assert.equal(crashed!.attributes.tests, '11', 'ten checks and the crash');
  const cases = casesOf(crashed!);
  assert.equal(cases.find((c) => c.attributes.name?.startsWith('15.4 '))!.children[0]!.name, 'skipped');
  const error = cases.at(-1)!;
  assert.deepEqual(
    { name: error.attributes.name, classname: error.attributes.classname },
    { name: 'the run crashed', classname: 'multiday' },
  );
  assert.deepEqual({ ...error.children[0]!.attributes }, { message: 'the chatbot\'s model failed: <boom> & "more"', type: 'crashed' });
  assert.equal(notStarted!.attributes.id, '1');
  assert.deepEqual(
    casesOf(notStarted!).map((c) => [c.attributes.name, c.children[0]!.name, c.children[0]!.attributes.type]),
    [['the run did not start', 'error', 'not-started']],
  );
});

test('hostile answers stay well-formed text: CDATA ends, markup, entities, control characters, lone surrogates, endless answers', () => {
  const state = fixtureState('chatbot-3');
  const hostile = ']]></failure></testcase><testcase name="x"/><![CDATA[ & &amp; <b>\'q\'</b> \u0000\u0007\u001b[31m\ud800 \r\n\t end 😀';
  state.grades['15.1']!.at(-1)!.answer = hostile;
  state.grades['15.2']!.at(-1)!.answer = `😀${'x'.repeat(100_000)}`;
  state.grades['15.3']!.at(-1)!.comment = 'comment\ud83d';
  state.run = 'run "<x>" & \'y\'\nz';
  const xml = junitDocument([{ kind: 'played', state, benchmark: multiday }]);
  const [suite] = assertJunitShape(parseXml(xml));
  assert.equal(suite!.attributes.name, 'run "<x>" & \'y\' z', 'the run id escaped in an attribute, on one line');
  const cases = casesOf(suite!);
  assert.equal(cases.length, 10, 'no case was forged');
  const text = (id: string) => cases.find((c) => c.attributes.name?.startsWith(`${id} `))!.children[0]!.text;
  assert.equal(text('15.1').split('\n')[1], 'got: ]]></failure></testcase><testcase name="x"/><![CDATA[ & &amp; <b>\'q\'</b> [31m \r');
  assert.ok(text('15.1').includes('\t end 😀\ncomment:'), 'tab, line feed, carriage return and astral characters survive');
  assert.ok(text('15.2').length < 10_000, 'an endless answer is cut');
  assert.match(text('15.2'), /^expected: 8\.4 km\.\ngot: 😀x+…\ncomment: /);
  assert.match(text('15.3'), /comment: comment$/, 'a lone surrogate is removed');
});

test('the well-formedness check itself refuses what an unescaped writer would produce', () => {
  for (const broken of [
    '<a>]]></a>',
    '<a b="<"/>',
    '<a>&</a>',
    '<a>&nbsp;</a>',
    '<a>\u0001</a>',
    '<a>\ud800</a>',
    '<a><b></a></b>',
    '<a/><a/>',
    '<a b="1" b="2"/>',
    '<a>',
    '<a>&#0;</a>',
  ]) {
    assert.throws(() => parseXml(broken), Error, JSON.stringify(broken));
  }
  assert.equal(parseXml('<a b="x&#10;y&amp;">t&lt;&#x1F600;</a>').text, 't<😀');
});
