/**
 * The run view's rows at 1000 px (issue #33 item 7): a long run id is cut in its middle, so the status
 * and score after it stay in view; both ends of the id are kept, and a short one is shown whole.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shortenMiddle } from '../../scenario/src/plainText';
import { RUN_LABEL_MAX, runLabel } from '../src/runInfo';

test('shortenMiddle keeps a quarter from the start and the rest from the end, "…" between, never half an emoji', () => {
  assert.equal(shortenMiddle('abcdefghij', 7), 'a…fghij');
  assert.equal(shortenMiddle('abcdefghijklm', 10), 'ab…ghijklm');
  assert.equal(shortenMiddle('abcdefg', 7), 'abcdefg');
  assert.equal(shortenMiddle('abcdefghij', 1), 'a…j', 'max below 3 is 3');
  assert.equal(shortenMiddle('ab😀cdefghijklmnopq', 13), 'ab…ijklmnopq', 'the emoji before the cut is dropped whole');
  assert.equal(shortenMiddle('abcdefg😀hijk', 7), 'a…hijk', 'and the one after it');
});

test('a run row: a short id whole, a long one cut in its middle to RUN_LABEL_MAX, its phase kept', () => {
  assert.equal(RUN_LABEL_MAX, 18);
  assert.equal(runLabel('notes'), 'notes');
  assert.equal(runLabel('max.from-chapter1-1.rehearsal'), 'max.…1-1.rehearsal');
  assert.equal(runLabel('starter.phase-chapter3-1.rehearsal'), 'star…3-1.rehearsal');
  assert.notEqual(runLabel('starter.phase-chapter2-1.rehearsal'), runLabel('starter.phase-chapter3-1.rehearsal'), 'two phases told apart');
});
