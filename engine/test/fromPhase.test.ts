/**
 * A `--from` typed wrong is one line naming what is wrong and ending with the nearest whole value
 * to type (`Did you mean \`chapter2.md:3\`?`): no phase number, a phase out of range, no `.md`, a
 * chapter typed wrong or not there, and hostile text pasted into it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fromPhase } from '../src/cli/fromPhase';
import { UsageError } from '../src/errors';
import { starter } from './helpers';

/** The refusal of `--from <typed>` on the starter (chapter1.md: 2 phases, chapter2.md: 3, chapter3.md: 1). */
function refusal(typed: string): string {
  try {
    fromPhase(typed, starter(), 'starter');
  } catch (e) {
    assert.ok(e instanceof UsageError, `${typed}: ${String(e)}`);
    return e.message;
  }
  assert.fail(`--from ${typed} was taken`);
}

test('--from names a phase: its chapter, its number and its index in play order', () => {
  assert.deepEqual(fromPhase('chapter1.md:1', starter(), 'starter'), { chapter: 'chapter1.md', phase: 1, index: 0 });
  assert.deepEqual(fromPhase('chapter2.md:3', starter(), 'starter'), { chapter: 'chapter2.md', phase: 3, index: 4 });
  assert.deepEqual(fromPhase('chapter3.md:1', starter(), 'starter'), { chapter: 'chapter3.md', phase: 1, index: 5 });
});

test('--from typed wrong: what is wrong, and the nearest valid value', () => {
  const needs = '--from needs a chapter file and a phase number, as in --from chapter2.md:1';
  const cases: [string, string][] = [
    ['chapter2.md:x', `${needs} (got "chapter2.md:x"). Did you mean \`chapter2.md:1\`?`],
    ['chapter2.md', `${needs} (got "chapter2.md"). Did you mean \`chapter2.md:1\`?`],
    ['chapter2.md:', `${needs} (got "chapter2.md:"). Did you mean \`chapter2.md:1\`?`],
    ['chapter2.md:-2', `${needs} (got "chapter2.md:-2"). Did you mean \`chapter2.md:1\`?`],
    ['chapter2:2', `${needs} (got "chapter2:2"). Did you mean \`chapter2.md:2\`?`],
    ['chapter2', `${needs} (got "chapter2"). Did you mean \`chapter2.md:1\`?`],
    ['chaptr2.md:x', `${needs} (got "chaptr2.md:x"). Did you mean \`chapter2.md:1\`?`],
    ['chapter2.md:9', 'chapter2.md has 3 phases; --from chapter2.md:9 is not one of them. Did you mean `chapter2.md:3`?'],
    ['chapter2.md:0', 'chapter2.md has 3 phases; --from chapter2.md:0 is not one of them. Did you mean `chapter2.md:1`?'],
    ['chapter3.md:2', 'chapter3.md has 1 phase; --from chapter3.md:2 is not one of them. Did you mean `chapter3.md:1`?'],
    [
      'chaptr2.md:1',
      'starter has no chapter chaptr2.md; its chapters: chapter1.md, chapter2.md, chapter3.md. Did you mean `chapter2.md:1`?',
    ],
    // The typed phase is kept where the chapter meant has it, else the nearest it has.
    [
      'Chapter1.md:3',
      'starter has no chapter Chapter1.md; its chapters: chapter1.md, chapter2.md, chapter3.md. Did you mean `chapter1.md:2`?',
    ],
    [
      'chapter9.md:2',
      'starter has no chapter chapter9.md; its chapters: chapter1.md, chapter2.md, chapter3.md. ' +
        'Did you mean `chapter1.md:2` or `chapter2.md:2` or `chapter3.md:1`?',
    ],
    ['notes.md:1', 'starter has no chapter notes.md; its chapters: chapter1.md, chapter2.md, chapter3.md.'],
    ['everything', `${needs} (got "everything").`],
  ];
  for (const [typed, message] of cases) assert.equal(refusal(typed), message, typed);
});

test('--from with hostile text: one short line, whatever was pasted', () => {
  const pasted = `## 🪤 Trap\n\`\`\`js\nbench.x()\n\`\`\`\n❓ ${'chapter2.md '.repeat(400)}:1`;
  for (const typed of [pasted, `${pasted}.md:1`, `chapter2.md:1\n\u001b[31mred`, `chapter2.md:${'9'.repeat(40)}`]) {
    const message = refusal(typed);
    assert.ok(![...message].some((c) => c < ' '), `one line, no control character: ${JSON.stringify(message)}`);
    assert.ok(message.length < 300, `short: ${message.length} characters`);
  }
});
