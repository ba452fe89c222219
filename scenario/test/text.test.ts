import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LineIndex } from '../src';

test('LineIndex maps offsets to UTF-16 positions across LF, CRLF and CR', () => {
  const idx = new LineIndex('a\r\nbc\rd\n🪤x');
  assert.equal(idx.lineCount, 4);
  assert.deepEqual(
    [0, 1, 2, 3].map((l) => idx.lineText(l)),
    ['a', 'bc', 'd', '🪤x'],
  );
  assert.deepEqual(idx.positionAt(3), { line: 1, character: 0 });
  assert.deepEqual(idx.positionAt(idx.text.length), { line: 3, character: 3 });
  assert.equal(idx.offsetAt({ line: 3, character: 2 }), idx.text.indexOf('x'));
});

test('positions never point inside a line break or past the end', () => {
  const idx = new LineIndex('ab\r\ncd');
  assert.deepEqual(idx.positionAt(3), { line: 0, character: 2 });
  assert.deepEqual(idx.positionAt(99), { line: 1, character: 2 });
  assert.deepEqual(idx.positionAt(-5), { line: 0, character: 0 });
});
