/** Outline and folding through the language server, started in-process on an in-memory file system. */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { DocumentSymbolRequest, FoldingRangeRequest, type DocumentSymbol, type FoldingRange } from 'vscode-languageserver-protocol/node';
import { InMemoryServer, uriOf } from './harness';
import { inSample, SAMPLE_FILES } from './sample';

const server = InMemoryServer.start(SAMPLE_FILES);
after(async () => (await server).close());

const symbols = async (file: string) =>
  (await (
    await server
  ).client.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: uriOf(inSample(file)) } })) as DocumentSymbol[];

test('outline and folding: phases with their checks; categories with their facts', async () => {
  assert.deepEqual(
    (await symbols('chapter2.md')).map((s) => [s.name, s.children?.map((c) => c.name)]),
    [['Exam', ['❓ 20.1 [HIST]', '❓ 20.2']]],
  );
  assert.deepEqual(
    (await symbols('family.md')).map((s) => [s.name, s.children?.map((c) => c.name)]),
    [
      ['1. Lena', ['1.1', '1.2']],
      ['2. Anna', ['2.1']],
    ],
  );
  const folds = (await (
    await server
  ).client.sendRequest(FoldingRangeRequest.type, { textDocument: { uri: uriOf(inSample('chapter1.md')) } })) as FoldingRange[];
  assert.deepEqual(
    folds.map((f) => [f.startLine, f.endLine]),
    [
      [2, 9],
      [10, 13],
    ],
  );
});

test('a document outside any benchmark folder has no outline', async () => {
  assert.deepEqual(
    await (await server).client.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: uriOf('/elsewhere/notes.md') } }),
    [],
  );
});
