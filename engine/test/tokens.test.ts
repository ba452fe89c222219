/** Token counts line by line, each line counted once: always the count of the whole text. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { countTextTokens, countWhole } from '../src/models/tokens';
import { seededRandom } from '../src/random';
import { ROOT } from './helpers';

/** Characters that decide where the tokenizer splits: line feeds, slashes, white space, punctuation, contractions. */
const PIECES = [
  '\n',
  '\n',
  '\n\n',
  '\r\n',
  ' ',
  '  ',
  '\t',
  '/',
  '//',
  '.',
  '-',
  '- ',
  '(',
  ')',
  ':',
  "'s",
  "'ll",
  '’',
  '£',
  '€',
  'é',
  'Göreme',
  '🪤',
  '\u00a0',
  '\u2028',
  '12',
  '1,290',
  '3.5',
  'word',
  'Word',
  'WORD',
  'x'.repeat(300),
  ' '.repeat(300),
  '\n'.repeat(3),
  '<|endoftext|>',
  '*',
  '#',
  '##',
];

function randomText(next: () => number, parts: number): string {
  let text = '';
  for (let i = 0; i < parts; i++) text += PIECES[Math.floor(next() * PIECES.length)];
  return text;
}

test('counted line by line or whole, the count is the same: every markdown file of the benchmarks and docs, notes, random text', () => {
  const files = ['benchmarks', 'docs'].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.md'))
      .map((f) => join(ROOT, dir, f)),
  );
  assert.ok(files.length > 20, `${files.length} files`);
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    assert.equal(countTextTokens(text), countWhole(text), file);
  }
  const notes = Array.from({ length: 120 }, (_, i) => {
    const minute = String(i % 60).padStart(2, '0');
    return `- (Tuesday 1 December 2026, 20:${minute}) The movers quoted £${1000 + i} for the flat/the van; it's ${i} km.`;
  }).join('\n');
  assert.equal(countTextTokens(notes), countWhole(notes), 'a note of dated lines');
  assert.equal(countTextTokens(`${notes}\n- one more line`), countWhole(`${notes}\n- one more line`), 'the same note grown by a line');
  const next = seededRandom(17);
  for (let i = 0; i < 400; i++) {
    const text = randomText(next, 20 + Math.floor(next() * 200));
    assert.equal(countTextTokens(text), countWhole(text), JSON.stringify(text.slice(0, 200)));
  }
});

test('a line that looks like a pre-token start still counts as in the whole: a line feed before a slash, white space or nothing', () => {
  const cases = [
    'a.\n/b and more text to make the line long enough to be cut here',
    'first line of the text, long enough to be cut at its end.\n  indented',
    'the end of a line that is long enough to be cut at its feed\n',
    'x'.repeat(60) + '\n\n\n' + 'y'.repeat(60),
  ];
  for (const text of cases) assert.equal(countTextTokens(text), countWhole(text), JSON.stringify(text));
});

test('a special token in a message is counted as the text it is, never thrown on', () => {
  const text = 'The agent replied <|endoftext|> and then <|endofprompt|> again.';
  assert.ok(countTextTokens(text) > countTextTokens('The agent replied and then again.') + 6, 'each written out in several tokens');
  assert.equal(
    countTextTokens(`${'a line long enough to be counted on its own, and cached.\n'.repeat(3)}<|endoftext|>`),
    countWhole(`${'a line long enough to be counted on its own, and cached.\n'.repeat(3)}<|endoftext|>`),
  );
});
