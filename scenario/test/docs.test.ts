import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DIAGNOSTIC_CODES } from '../src';

test('every diagnostic code is documented with its severity, and no other', () => {
  const notes = readFileSync(join(__dirname, '..', '..', 'docs', 'format-notes.md'), 'utf8');
  const rows = [...notes.matchAll(/^\| `([a-z-]+)` \| (error|warning) \|/gm)].map((m) => `${m[1]} ${m[2]}`);
  assert.deepEqual(rows.sort(), Object.entries(DIAGNOSTIC_CODES).map(([code, d]) => `${code} ${d.severity}`).sort());
});
