/**
 * No diagnostic message has a hole: every line of real and planted benchmarks, cut at every
 * character (as while typing, with and without the bracket an editor auto-closes), is validated,
 * and no message may quote an empty name ("``", '""') or stop after a colon.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadBenchmark, validateBenchmark } from '../src';

const ROOT = join(import.meta.dirname, '..', '..');
const FOLDERS = [join(ROOT, 'engine', 'test', 'fixtures', 'workspace', 'benchmarks', 'planted'), join(ROOT, 'benchmarks', 'starter')];

/** What a message must never look like: an empty quote, or a sentence cut after its colon. */
export function messageHole(message: string): string | undefined {
  if (message.includes('``')) return 'an empty `` quote';
  if (message.includes('""')) return 'an empty "" quote';
  if (/:\s*$/.test(message)) return 'ends after a colon';
  if (/\(\s*\)/.test(message)) return 'an empty ()';
  return undefined;
}

function readFolder(folder: string): Map<string, string> {
  return new Map(readdirSync(folder).map((name) => [name, readFileSync(join(folder, name), 'utf8')]));
}

/** Each way of typing a line: cut after each character, and cut with `]`, `}}`, `` ` `` auto-closed after the cursor. */
function typedPrefixes(line: string): string[] {
  const out: string[] = [];
  const chars = [...line];
  for (let i = 0; i <= chars.length; i++) {
    const prefix = chars.slice(0, i).join('');
    out.push(prefix);
    const closer = prefix.endsWith('[') ? ']' : prefix.endsWith('{{') ? '}}' : prefix.endsWith('`') ? '`' : '';
    if (closer) out.push(prefix + closer);
  }
  return out;
}

test('messages never quote an empty name nor stop after a colon, on every line of a benchmark cut as while typing', () => {
  let validated = 0;
  for (const folder of FOLDERS) {
    const files = readFolder(folder);
    for (const [file, text] of files) {
      if (!file.endsWith('.md')) continue;
      const lines = text.split('\n');
      lines.forEach((line, index) => {
        for (const typed of typedPrefixes(line)) {
          const edited = new Map(files).set(file, [...lines.slice(0, index), typed, ...lines.slice(index + 1)].join('\n'));
          for (const d of validateBenchmark(loadBenchmark({ name: 'typed', files: edited }))) {
            const hole = messageHole(d.message);
            assert.equal(hole, undefined, `${file}:${index + 1} typed as ${JSON.stringify(typed)}: ${d.code} has ${hole}: ${d.message}`);
          }
          validated++;
        }
      });
    }
  }
  assert.ok(validated > 2000, `${validated} typed lines`);
});

test('the empty check type says what to type, with every type', () => {
  const files = new Map([
    ['benchmark.json', '{ "chapters": ["chapter1.md"] }'],
    ['instructions.md', 'You are Max.'],
    ['chapter1.md', '## P\n❓ 3.1 []\n'],
  ]);
  const [empty] = validateBenchmark(loadBenchmark({ name: 'x', files })).filter((d) => d.code === 'unknown-check-type');
  assert.equal(
    empty?.message,
    "This check's type is empty: write one of RECALL, AGG, NEG, VOID, HIST, SERIES between the brackets, or remove them.",
  );
  assert.deepEqual(empty?.range, { start: { line: 1, character: 7 }, end: { line: 1, character: 7 } });
});

test('a hole is caught: the check that guards every message', () => {
  assert.equal(messageHole('`` is not a check type: use one of RECALL.'), 'an empty `` quote');
  assert.equal(messageHole('Use one of: '), 'ends after a colon');
  assert.equal(messageHole('`RECAL` is not a check type.'), undefined);
});
