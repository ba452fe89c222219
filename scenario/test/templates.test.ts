import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expandTemplate, expandTemplatesIn, startMoment } from '../src';

const start = startMoment('2026-07-29 16:10');

test('templates expand relative to the start, as a date a person reads', () => {
  assert.equal(expandTemplate({ keyword: 'FUTURE', amount: 3, unit: 'weeks' }, start), '19 August 2026');
  assert.equal(expandTemplate({ keyword: 'PAST', amount: 2, unit: 'days' }, start), '27 July 2026');
  assert.equal(expandTemplate({ keyword: 'TODAY', amount: 0, unit: 'days' }, start), '29 July 2026');
  assert.equal(expandTemplate({ keyword: 'FUTURE', amount: 6, unit: 'months' }, start), '29 January 2027');
  assert.equal(expandTemplate({ keyword: 'PAST', amount: 1, unit: 'years' }, start), '29 July 2025');
});

test('minute and hour offsets keep the time of day, across midnight', () => {
  assert.equal(expandTemplate({ keyword: 'FUTURE', amount: 90, unit: 'minutes' }, start), '29 July 2026, 17:40');
  assert.equal(expandTemplate({ keyword: 'FUTURE', amount: 8, unit: 'hours' }, start), '30 July 2026, 00:10');
});

test("a text reads with its templates written out: the run's own expansion first, then from the start, else as written", () => {
  const known = { '{{FUTURE:3:weeks}}': '20 August 2026' };
  assert.equal(
    expandTemplatesIn('Anna visits {{FUTURE:3:weeks}}, not {{PAST:2:days}}.', known, start),
    'Anna visits 20 August 2026, not 27 July 2026.',
  );
  assert.equal(expandTemplatesIn('on {{TODAY}}', {}, undefined), 'on {{TODAY}}', 'no start: as written');
  assert.equal(
    expandTemplatesIn('{{SOON}} and {{FUTURE:x:days}}', {}, start),
    '{{SOON}} and {{FUTURE:x:days}}',
    'not a template: as written',
  );
  assert.equal(expandTemplatesIn('{{__proto__}} {{TODAY}}', {}, start), '{{__proto__}} 29 July 2026', 'a prototype name is no expansion');
  assert.equal(expandTemplatesIn('{{FUTURE:99999:years}}', {}, start), '{{FUTURE:99999:years}}', 'past the bounds: as written');
});
