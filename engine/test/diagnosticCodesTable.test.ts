/** The table of diagnostic codes in docs/format-notes.md is the one generated from `DIAGNOSTIC_CODES`. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DIAGNOSTIC_CODES } from '../../scenario/src';
import { DIAGNOSTIC_CODES_TABLE_START, diagnosticCodesTable, withDiagnosticCodesTable } from '../src/diagnosticCodesTable';
import { markdownTableCell } from '../src/generatedBlock';
import { ROOT } from './helpers';

test('docs/format-notes.md has the table of diagnostic codes generated from DIAGNOSTIC_CODES (run `npm run schemas`)', () => {
  const notes = readFileSync(join(ROOT, 'docs', 'format-notes.md'), 'utf8');
  assert.ok(notes.includes(DIAGNOSTIC_CODES_TABLE_START), 'docs/format-notes.md keeps the diagnostic-codes markers');
  assert.equal(notes, withDiagnosticCodesTable(notes), 'docs/format-notes.md is out of date: run `npm run schemas`');
  const rows = [...notes.matchAll(/^\| `([a-z-]+)` \| (error|warning) \| (.*) \|$/gm)].map((m) => `${m[1]} ${m[2]} ${m[3]}`);
  const expected = Object.entries(DIAGNOSTIC_CODES).map(([code, row]) => `${code} ${row.severity} ${markdownTableCell(row.summary)}`);
  assert.deepEqual(rows, expected, 'one row per code, with its severity and its description word for word, and no other');
});

test('the generated table replaces only what stands between its markers, and a document without them is refused', () => {
  const document = `before\n${DIAGNOSTIC_CODES_TABLE_START}\n| stale |\n<!-- /diagnostic-codes -->\nafter\n`;
  assert.equal(withDiagnosticCodesTable(document), `before\n${diagnosticCodesTable()}\nafter\n`);
  assert.equal(withDiagnosticCodesTable('no markers here'), undefined);
});
