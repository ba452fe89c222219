import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isNumberToken, oneLine, shorten, STOP_WORDS, words } from '../src/plainText';

test('words: lower case, NFKC, letters of any script, numbers with one decimal or time part', () => {
  assert.deepEqual(words('Don’t call Zoë at 10:30 — ＡＢＣ 3.5kg, well-known 1,290?'), [
    'don',
    't',
    'call',
    'zoë',
    'at',
    '10:30',
    'abc',
    '3.5',
    'kg',
    'well',
    'known',
    '1,290',
  ]);
  assert.deepEqual(words(''), []);
  assert.deepEqual(words('🪤 -- !!'), []);
  assert.deepEqual(words('1.2.3'), ['1.2', '3']);
  assert.equal(isNumberToken('10:30'), true);
  assert.equal(isNumberToken('zoë'), false);
});

test("STOP_WORDS: the function words, and no word of one caller's own (manners, requests)", () => {
  for (const word of ['the', 'she', 'these', 'through', 'ours', 'doing', 'please', 'a', 'i'])
    assert.equal(STOP_WORDS.has(word), true, word);
  for (const word of ['thanks', 'okay', 'search', 'notes', 'memory', 'tell', 'birthday']) assert.equal(STOP_WORDS.has(word), false, word);
  assert.equal(STOP_WORDS.size, 108);
});

test('shorten: at most max units, "…" last when cut, never half an emoji', () => {
  assert.equal(shorten('abcdef', 4), 'abc…');
  assert.equal(shorten('abcd', 4), 'abcd');
  assert.equal(shorten('', 4), '');
  assert.equal(shorten('ab😀cd', 4), 'ab…');
  assert.equal(shorten('ab😀cd', 5), 'ab😀…');
  assert.equal(shorten('xy', 0), '…');
  assert.equal(shorten('xy', -3), '…');
  assert.equal(shorten('x', 0), 'x');
  assert.equal(shorten('abcdef', 3.9), 'ab…');
  const long = 'k'.repeat(1_000_000);
  assert.equal(shorten(long, 80), `${'k'.repeat(79)}…`);
});

test('oneLine: white space, control characters and line separators become one space; ends trimmed', () => {
  assert.equal(oneLine(' a\r\n\tb\u0085c\u2028 d \u001b[31m\u2029 '), 'a b c d [31m');
  assert.equal(oneLine('\n\n'), '');
  assert.equal(oneLine('one  two'), 'one two');
});

test('plainText.ts is a leaf: it imports nothing, so every folder may import it without a cycle', () => {
  const source = readFileSync(join(__dirname, '..', 'src', 'plainText.ts'), 'utf8');
  assert.doesNotMatch(source, /^\s*(import|export)\b[^\n]*\bfrom\b|\brequire\(|\bimport\(/m);
});
