/**
 * Completion as typed in VS Code, through the in-process language server: each test types a line the way
 * the editor leaves it (after `[` the text is `[]` with the cursor between, after `{{` it is `{{}}`), asks
 * for completion, accepts an item the way VS Code does (its `textEdit`, or its text over the word at the
 * cursor) and types on; the line must read as a user would write it.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { CompletionRequest, type CompletionItem, type InsertReplaceEdit, type TextEdit } from 'vscode-languageserver-protocol/node';
import { folder, InMemoryServer, uriOf } from './harness';

const DIR = '/typing';
const CHAPTER = `${DIR}/chapter3.md`;
const PROLOGUE = '## Hallway\nTell the `hallway` sheet.\n❓ 3.1 [RECALL] Which floor? Correct answer: tiles.\n';
const server = InMemoryServer.start(
  folder(DIR, {
    'benchmark.json': '{ "chapters": ["chapter1.md", "chapter2.md", "chapter3.md"] }',
    'instructions.md': 'You are Max.',
    'hallway.md': '# Hallway\n\n## 1. Walls\n1.7 Accent wall: stone, $520\n',
    'chapter1.md': '## P\nHello.\n',
    'chapter2.md': '## P\nHello.\n',
    'chapter3.md': PROLOGUE,
  }),
);
after(async () => (await server).close());
const opened = server.then(async (session) => session.open(CHAPTER));

/**
 * A line typed after the prologue, as the editor holds it: `|` marks the cursor; what follows it is what the
 * editor auto-closed. Returns the items offered there and a way to accept one, giving the line's new text.
 */
async function typed(lineWithCursor: string): Promise<{ items: CompletionItem[]; accept: (label: string) => string }> {
  const session = await server;
  await opened;
  const cursor = lineWithCursor.indexOf('|');
  const line = lineWithCursor.replace('|', '');
  const lineIndex = PROLOGUE.split('\n').length - 1;
  await session.edit(CHAPTER, `${PROLOGUE}${line}\n`);
  const position = { line: lineIndex, character: cursor };
  const items = (await session.client.sendRequest(CompletionRequest.type, {
    textDocument: { uri: uriOf(CHAPTER) },
    position,
  })) as CompletionItem[];
  const accept = (label: string): string => {
    const item = items.find((i) => i.label === label);
    assert.ok(item, `${label} is offered at ${JSON.stringify(lineWithCursor)}: ${items.map((i) => i.label).join(', ')}`);
    const edit = item.textEdit as TextEdit | InsertReplaceEdit | undefined;
    const range = edit && 'range' in edit ? edit.range : edit?.replace;
    if (range) {
      assert.equal(range.start.line, lineIndex);
      assert.ok(range.start.character <= cursor && cursor <= range.end.character, 'the range holds the cursor, as VS Code requires');
      const text = (edit?.newText ?? '').replace(/\$\{\d+:([^}]*)\}/g, '$1').replace(/\$\{\d+\|([^,|]*)[^}]*\|\}/g, '$1');
      return line.slice(0, range.start.character) + text + line.slice(range.end.character);
    }
    // No edit: VS Code replaces the word before the cursor with the item's text.
    const word = /[\w-]*$/.exec(line.slice(0, cursor))?.[0] ?? '';
    return line.slice(0, cursor - word.length) + (item.insertText ?? item.label) + line.slice(cursor);
  };
  return { items, accept };
}

test('❓ then the next free id, with no space after it; then `[` auto-closed and a type gives `[RECALL] ` once', async () => {
  const id = await typed('❓ |');
  assert.deepEqual(
    id.items.map((i) => i.label),
    ['3.2'],
  );
  assert.equal(id.accept('3.2'), '❓ 3.2', 'no stray space: the user types the one before `[`');
  assert.equal((await typed('❓ 3.|')).accept('3.2'), '❓ 3.2', 'the digits typed are replaced, not doubled');
  const type = await typed('❓ 3.2 [|]');
  assert.deepEqual(
    type.items.map((i) => i.label),
    ['RECALL', 'AGG', 'NEG', 'VOID', 'HIST', 'SERIES'],
  );
  assert.equal(type.accept('RECALL'), '❓ 3.2 [RECALL] ', 'the auto-closed `]` is replaced, not left after');
  assert.equal((await typed('❓ 3.2 [RE|]')).accept('RECALL'), '❓ 3.2 [RECALL] ');
  assert.equal((await typed('❓ 3.2 [|')).accept('HIST'), '❓ 3.2 [HIST] ', 'without auto-closing, the `]` is added');
  assert.equal((await typed('❓ 3.2 [|] Which wall?')).accept('NEG'), '❓ 3.2 [NEG] Which wall?', 'one space before the question');
});

test('a trap line: a sheet name is inserted bare and `#` commits it, so the habitual `#` gives `hallway#`, then a fact id', async () => {
  const sheet = await typed('🪤 RECONSIDER hall|');
  assert.deepEqual(
    sheet.items.map((i) => [i.label, i.commitCharacters]),
    [['hallway', ['#']]],
  );
  // Accepting with Enter, then the habitual `#`; or typing `#`, which accepts the name and types itself.
  assert.equal(`${sheet.accept('hallway')}#`, '🪤 RECONSIDER hallway#');
  const fact = await typed('🪤 RECONSIDER hallway#|');
  assert.equal(fact.accept('1.7'), '🪤 RECONSIDER hallway#1.7');
  assert.equal((await typed('🪤 RECONSIDER hallway#1.|')).accept('1.7'), '🪤 RECONSIDER hallway#1.7', 'the typed part is replaced');
  assert.equal((await typed('Tell the `hall|`')).accept('hallway'), 'Tell the `hallway`', 'the auto-closed backtick is kept');
});

test('`{{` auto-closed to `{{}}`: a template keyword replaces the closing braces instead of doubling them', async () => {
  assert.equal((await typed('Anna visits {{|}}')).accept('TODAY'), 'Anna visits {{TODAY}}');
  assert.equal((await typed('Anna visits {{FU|}}')).accept('FUTURE'), 'Anna visits {{FUTURE:3:days}}');
  assert.equal(
    (await typed('Anna visits {{|')).accept('PAST'),
    'Anna visits {{PAST:2:days}}',
    'without auto-closing, the braces are added',
  );
});
