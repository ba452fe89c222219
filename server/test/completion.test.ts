/** Completion through the language server, started in-process on an in-memory file system. */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { CompletionRequest, type CompletionItem, type Position } from 'vscode-languageserver-protocol/node';
import { filesUnder, FIXTURE_WORKSPACE, folder, InMemoryServer, uriOf } from './harness';
import { inSample, pos, SAMPLE_FILES } from './sample';

const PLANTED = '/ws/benchmarks/planted';
const UNITS = '/units';
const ORDER = '/order';
const server = InMemoryServer.start({
  ...SAMPLE_FILES,
  ...filesUnder(FIXTURE_WORKSPACE, '/ws'),
  ...folder(UNITS, {
    'benchmark.json': '{ "chapters": ["chapter1.md"] }',
    'instructions.md': 'You are Max.',
    'chapter1.md': '## P\n{{FUTURE:3:',
  }),
  ...folder(ORDER, {
    'benchmark.json': '{ "chapters": ["chapter1.md", "chapter2.md"] }',
    'instructions.md': 'You are Max.',
    'car.md': '# Car\n\n## 1. Costs\n1.1 Insurance $400 a year\n',
    'family.md': '# Family\n\n## 1. Lena\n1.1 Lena is 31\n',
    'chapter1.md': [
      '## Early',
      '❓ 1.1 An early check? Correct answer: a',
      '## Trap',
      '🪤 STALE ',
      '❓ 1.2 Same phase, before the next trap? Correct answer: b',
      '🪤 XREF car#1.1 → ',
      '❓ 1.3 Same phase, after it? Correct answer: d',
      '',
    ].join('\n'),
    'chapter2.md': '## Exam\n❓ 2.1 The exam? Correct answer: c\n',
  }),
});
after(async () => (await server).close());

async function complete(path: string, position: Position): Promise<CompletionItem[]> {
  return (await (
    await server
  ).client.sendRequest(CompletionRequest.type, { textDocument: { uri: uriOf(path) }, position })) as CompletionItem[];
}
const labels = async (path: string, position: Position) => (await complete(path, position)).map((i) => i.label);

test('completion: fact ids with text, sheet names, trap/check types, check ids, templates, bench members, the next check id', async () => {
  const facts = await complete(inSample('chapter1.md'), pos(11, 26));
  assert.deepEqual(
    facts.map((i) => [i.label, i.detail]),
    [
      ['1.1', 'Lena is 31, a UX designer'],
      ['1.2', "Lena's birthday — March 14"],
      ['2.1', 'Sister, 37, a doctor in Hamburg'],
    ],
  );
  assert.deepEqual((await labels(inSample('chapter1.md'), pos(7, 10))).sort(), ['car', 'family']);
  assert.deepEqual(await labels(inSample('chapter1.md'), pos(12, 3)), [
    'RECONSIDER',
    'STALE',
    'SELF-FIX',
    'XREF',
    'CASCADE',
    'LATE-ADD',
    'RETIRE',
  ]);
  assert.deepEqual(
    (await complete(inSample('chapter1.md'), pos(13, 23))).map((i) => [i.label, i.detail]),
    [
      ['20.1', 'How much was the insurance first?'],
      ['20.2', '['],
    ],
  );
  assert.deepEqual(await labels(inSample('chapter2.md'), pos(5, 8)), ['RECALL', 'AGG', 'NEG', 'VOID', 'HIST', 'SERIES']);
  assert.deepEqual(await labels(inSample('chapter2.md'), pos(6, 2)), ['20.3']);
  assert.deepEqual(await labels(inSample('chapter1.md'), pos(5, 6)), ['newSession', 'log']);
  assert.deepEqual(await labels(`${UNITS}/chapter1.md`, pos(1, 12)), ['minutes', 'hours', 'days', 'weeks', 'months', 'years']);
  assert.deepEqual(await labels(`${UNITS}/chapter1.md`, pos(1, 2)), ['TODAY', 'FUTURE', 'PAST']);
});

test('a trap line offers the sheets after its type, and the checks after it first, nearest first', async () => {
  const sheets = await complete(`${ORDER}/chapter1.md`, pos(3, 9));
  assert.deepEqual(sheets.map((i) => [i.label, i.textEdit?.newText, i.commitCharacters]).sort(), [
    ['car', 'car', ['#']],
    ['family', 'family', ['#']],
  ]);
  const targets = await complete(`${ORDER}/chapter1.md`, pos(5, 17));
  assert.deepEqual(
    targets.map((i) => [i.label, i.labelDetails?.description ?? '']),
    [
      ['1.3', ''],
      ['2.1', ''],
      ['1.1', 'before the trap'],
      ['1.2', 'before the trap'],
    ],
  );
  assert.deepEqual(
    targets.map((i) => i.sortText),
    ['00000', '00001', '00002', '00003'],
    'the editor keeps this order',
  );
});

test("completion of fact ids in the editor's unsaved text, not the file's", async () => {
  const path = `${PLANTED}/chapter1.md`;
  const text = ((await server).fileSystem.readText(path) ?? '').replace('Mention famliy#1.1', 'Mention family#1.2 and family#');
  await (await server).open(path, text);
  const line = text.split('\n').findIndex((l) => l.includes('Mention family#'));
  const column = (text.split('\n')[line] ?? '').lastIndexOf('family#') + 'family#'.length;
  assert.deepEqual(
    (await complete(path, { line, character: column })).map((i) => [i.label, i.detail]),
    [
      ['1.2', "Lena's birthday — March 14"],
      ['1.1', 'Lena works remotely'],
      ['2.1', 'Sister, 37, a doctor in Hamburg'],
    ],
  );
});

test('outside a benchmark folder there is nothing to complete', async () => {
  assert.deepEqual(await complete('/elsewhere/notes.md', pos(0, 0)), []);
});
