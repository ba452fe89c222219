/** Definition, references and rename through the language server, started in-process on an in-memory file system. */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import {
  DefinitionRequest,
  PrepareRenameRequest,
  ReferencesRequest,
  RenameRequest,
  ResponseError,
  type Location,
  type Position,
  type TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver-protocol/node';
import { filesUnder, FIXTURE_WORKSPACE, InMemoryServer, uriOf } from './harness';
import { inSample, pos, SAMPLE_FILES } from './sample';
import { getRename, proseMentions } from '../src/features/navigation';
import { loadBenchmark } from '../../scenario/src';

const PLANTED = '/ws/benchmarks/planted';
const server = InMemoryServer.start({ ...SAMPLE_FILES, ...filesUnder(FIXTURE_WORKSPACE, '/ws') });
after(async () => (await server).close());

const document = (file: string) => ({ uri: uriOf(inSample(file)) });
const definition = async (file: string, position: Position) =>
  (await (await server).client.sendRequest(DefinitionRequest.type, { textDocument: document(file), position })) as Location[];
const references = async (file: string, position: Position, includeDeclaration: boolean) =>
  (
    (await (
      await server
    ).client.sendRequest(ReferencesRequest.type, { textDocument: document(file), position, context: { includeDeclaration } })) ?? []
  ).map((l) => `${l.uri.slice(8)}:${l.range.start.line}:${l.range.start.character}`);
const rename = async (file: string, position: Position, newName: string) =>
  (await (await server).client.sendRequest(RenameRequest.type, { textDocument: document(file), position, newName })) as WorkspaceEdit;

test('definition: fact ref to its line, sheet name to its file, trap target to its check', async () => {
  assert.deepEqual(await definition('chapter1.md', pos(11, 12)), [
    { uri: 'file:///b/family.md', range: { start: pos(4, 0), end: pos(4, 30) } },
  ]);
  assert.deepEqual(
    (await definition('chapter1.md', pos(11, 5))).map((l) => l.uri),
    ['file:///b/family.md'],
  );
  assert.deepEqual(
    (await definition('chapter1.md', pos(7, 11))).map((l) => l.uri),
    ['file:///b/family.md'],
  );
  assert.deepEqual(await definition('chapter1.md', pos(8, 25)), [
    { uri: 'file:///b/chapter2.md', range: { start: pos(4, 0), end: pos(4, 69) } },
  ]);
});

test("definition in the editor's unsaved text: a fact ref just typed jumps to its sheet", async () => {
  const path = `${PLANTED}/chapter1.md`;
  const text = ((await server).fileSystem.readText(path) ?? '').replace('Mention famliy#1.1', 'Mention family#1.2 and family#');
  await (await server).open(path, text);
  const line = text.split('\n').findIndex((l) => l.includes('Mention family#'));
  const at = (text.split('\n')[line] ?? '').indexOf('family#1.2');
  assert.ok(at > 0);
  const defs = (await (
    await server
  ).client.sendRequest(DefinitionRequest.type, {
    textDocument: { uri: uriOf(path) },
    position: { line, character: at + 8 },
  })) as Location[];
  assert.deepEqual(
    defs.map((d) => [d.uri, d.range.start.line]),
    [[uriOf(`${PLANTED}/family.md`), 4]],
  );
});

test('references: from a fact to every ref and trap; from a check to every trap aimed at it', async () => {
  assert.deepEqual(await references('car.md', pos(3, 1), true), ['b/car.md:3:0', 'b/chapter1.md:8:14']);
  assert.deepEqual(await references('chapter2.md', pos(4, 3), false), ['b/chapter1.md:8:24']);
});

test('rename: a check id and a fact id everywhere; bad names refused with the reason', async () => {
  assert.deepEqual(
    await (await server).client.sendRequest(PrepareRenameRequest.type, { textDocument: document('chapter1.md'), position: pos(8, 25) }),
    { start: pos(8, 24), end: pos(8, 28) },
  );
  assert.deepEqual((await rename('chapter1.md', pos(8, 25), '20.9')).changes, {
    'file:///b/chapter2.md': [{ range: { start: pos(4, 2), end: pos(4, 6) }, newText: '20.9' }],
    'file:///b/chapter1.md': [{ range: { start: pos(8, 24), end: pos(8, 28) }, newText: '20.9' }],
  });
  const fact = await rename('family.md', pos(4, 1), '1.5');
  assert.deepEqual(
    Object.entries(fact.changes ?? {}).map(([u, e]) => [u, (e as TextEdit[]).map((x) => x.range.start)]),
    [
      ['file:///b/family.md', [pos(4, 0)]],
      ['file:///b/chapter1.md', [pos(11, 11)]],
    ],
  );
  const refused = async (file: string, position: Position, newName: string) => {
    const error = await rename(file, position, newName).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof ResponseError, `a refusal, not ${String(error)}`);
    return error.message;
  };
  assert.equal(await refused('family.md', pos(4, 1), '2.5'), 'Fact 1.2 sits under category 1: its new id must start with 1.');
  assert.equal(await refused('chapter2.md', pos(4, 3), 'x'), '"x" is not an id: ids are N.M, such as 20.3.');
});

test("renaming a fact renames its bare id in a phase's words too: confirmed one by one where the editor can, else plainly", async () => {
  const files = {
    'benchmark.json': '{ "chapters": ["chapter1.md"] }',
    'instructions.md': 'You are Max.',
    'hallway.md': '# Hallway\n\n## 1. Walls\n1.7 Accent wall: stone, $520\n',
    'car.md': '# Car\n\n## 1. Costs\n1.7 Insurance $400\n',
    'chapter1.md': [
      '## The accent wall', //                                                           0
      'Update `hallway` fact 1.7 to "Accent wall: microcement, $380"; fact 1.70 stays.', // 1
      '🪤 RECONSIDER hallway#1.7 → 1.1 — microcement', //                                 2
      '❓ 1.1 What is the wall? Correct answer: microcement', //                          3
      '## Car', //                                                                       4
      'Update `car` fact 1.7, and the `car` sheet says fact 1.7 too.', //                5
      '',
    ].join('\n'),
  };
  const benchmark = loadBenchmark({ name: 'rename', files: new Map(Object.entries(files)) });
  assert.deepEqual(
    proseMentions(benchmark, 'hallway', '1.7').map((m) => `${m.file}:${m.range.start.line}:${m.range.start.character}`),
    ['chapter1.md:1:22'],
    "not 1.70, not the trap's ref, not the `car` sheet's fact 1.7",
  );
  const uriOfFile = (file: string) => `file:///r/${file}`;
  const confirmed = getRename(benchmark, 'hallway.md', pos(3, 1), '1.8', uriOfFile, { changeAnnotationSupport: 'supported' });
  assert.ok(!('error' in confirmed));
  assert.deepEqual(confirmed.documentChanges, [
    {
      textDocument: { uri: 'file:///r/hallway.md', version: null },
      edits: [{ range: { start: pos(3, 0), end: pos(3, 3) }, newText: '1.8' }],
    },
    {
      textDocument: { uri: 'file:///r/chapter1.md', version: null },
      edits: [
        { range: { start: pos(2, 22), end: pos(2, 25) }, newText: '1.8' },
        { range: { start: pos(1, 22), end: pos(1, 25) }, newText: '1.8', annotationId: 'prose' },
      ],
    },
  ]);
  assert.equal(confirmed.changeAnnotations?.['prose']?.needsConfirmation, true);
  assert.equal(confirmed.changeAnnotations?.['prose']?.label, 'Prose that names fact 1.7 of `hallway`');
  const plain = getRename(benchmark, 'hallway.md', pos(3, 1), '1.8', uriOfFile);
  assert.ok(!('error' in plain));
  assert.deepEqual(
    plain.changes?.['file:///r/chapter1.md']?.map((e) => e.range.start),
    [pos(2, 22), pos(1, 22)],
  );
});
