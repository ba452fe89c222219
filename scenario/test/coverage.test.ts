import assert from 'node:assert/strict';
import { test } from 'node:test';
import { coverage } from '../src';
import { bench, FAMILY } from './helpers';

test('coverage counts facts, where sheets are told, checks and traps by type, and distances', () => {
  const c = coverage(
    bench({
      'chapter1.md': [
        '## Family',
        '```js',
        'vars.require_all_facts = "family";',
        '```',
        'Tell the `family` sheet.',
        '## Edit',
        '🪤 SELF-FIX family#1.2 → 1.9, 3.2',
        '❓ 1.9 [RECALL] Q? Correct answer: a',
        '',
      ].join('\n'),
      'chapter2.md': '## More\nBack to the `family` sheet.\n',
      'chapter3.md': '## Exam\n```js\nawait bench.newSession();\n```\n❓ 3.1 Q? Correct answer: a\n❓ 3.2 [HIST] Q? Correct answer: b\n',
      'family.md': `${FAMILY}2.2 —\n`,
    }),
  );
  assert.equal(c.chapters, 3);
  assert.equal(c.phases, 4);
  assert.deepEqual(c.sheets, [
    {
      name: 'family',
      facts: 3,
      toldIn: [
        { file: 'chapter1.md', line: 1, phase: 'Family' },
        { file: 'chapter2.md', line: 1, phase: 'More' },
      ],
    },
  ]);
  assert.deepEqual(c.checks, { total: 3, byType: { RECALL: 1, AGG: 0, NEG: 0, VOID: 0, HIST: 1, SERIES: 0, untyped: 1 } });
  assert.equal(c.traps.byType['SELF-FIX'], 1);
  assert.deepEqual(c.traps.list, [
    {
      type: 'SELF-FIX',
      file: 'chapter1.md',
      line: 7,
      facts: ['family#1.2'],
      checks: [
        { id: '1.9', found: true, chapters: 0, sessionSwitch: false },
        { id: '3.2', found: true, chapters: 2, sessionSwitch: true },
      ],
    },
  ]);
});
