/**
 * A generated world in the editor, over a real LSP connection: the bundled month opens with no
 * diagnostic, its outline lists the days, a trap's fact reference hovers with the fact and jumps
 * to the sheet's line, and a trap's target jumps to its check, as on a hand-written benchmark.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { DefinitionRequest, DocumentSymbolRequest, HoverRequest } from 'vscode-languageserver-protocol/node';
import type { DocumentSymbol, Hover, Location, MarkupContent } from 'vscode-languageserver-protocol/node';
import { filesUnder, InMemoryServer, ROOT, uriOf } from './harness';
import { join } from 'node:path';

const MONTH = '/ws/benchmarks/month';
const files = filesUnder(join(ROOT, 'benchmarks', 'month'), MONTH);
const server = InMemoryServer.start(files, ['/ws']);
after(async () => (await server).close());

/** The first trap line of the month that names a fact, with its week file and line. */
function firstNamedTrap(): { file: string; line: number; text: string } {
  for (const week of ['week1.md', 'week2.md', 'week3.md', 'week4.md', 'week5.md']) {
    const lines = (files[`${MONTH}/${week}`] ?? '').split('\n');
    const line = lines.findIndex((text) => /^🪤 [A-Z-]+ [a-z-]+#\d+\.\d+/u.test(text));
    if (line >= 0) return { file: `${MONTH}/${week}`, line, text: lines[line]! };
  }
  return assert.fail('the month has no trap that names a fact');
}

test('the bundled month opens clean, outlines its days, and navigates like a hand-written benchmark', async () => {
  const session = await server;
  const trap = firstNamedTrap();
  await session.open(trap.file);
  await session.until(() => session.published.has(uriOf(trap.file)));
  assert.deepEqual(session.codes(trap.file), []);

  const symbols = (await session.client.sendRequest(DocumentSymbolRequest.type, {
    textDocument: { uri: uriOf(trap.file) },
  })) as DocumentSymbol[];
  assert.ok(symbols.some((symbol) => /^Day \d+/.test(symbol.name) || symbol.children?.some((child) => /^Day \d+/.test(child.name))));

  const [, sheet, id] = /^🪤 [A-Z-]+ ([a-z-]+)#(\d+\.\d+)/u.exec(trap.text)!;
  const at = { line: trap.line, character: trap.text.indexOf('#') + 1 };
  const hover = (await session.client.sendRequest(HoverRequest.type, { textDocument: { uri: uriOf(trap.file) }, position: at })) as Hover;
  const factLine = (files[`${MONTH}/${sheet}.md`] ?? '').split('\n').findIndex((text) => text.startsWith(`${id} `));
  const factText = (files[`${MONTH}/${sheet}.md`] ?? '').split('\n')[factLine]!.slice(id!.length + 1);
  assert.ok((hover.contents as MarkupContent).value.includes(factText), (hover.contents as MarkupContent).value);

  const toFact = (await session.client.sendRequest(DefinitionRequest.type, {
    textDocument: { uri: uriOf(trap.file) },
    position: at,
  })) as Location[];
  assert.deepEqual(
    toFact.map((location) => [location.uri, location.range.start.line]),
    [[uriOf(`${MONTH}/${sheet}.md`), factLine]],
  );

  const target = /→ (\d+\.\d+)/u.exec(trap.text)![1]!;
  const targetAt = { line: trap.line, character: trap.text.indexOf(`→ ${target}`) + 3 };
  const toCheck = (await session.client.sendRequest(DefinitionRequest.type, {
    textDocument: { uri: uriOf(trap.file) },
    position: targetAt,
  })) as Location[];
  assert.equal(toCheck.length, 1);
  const checkLine = (files[toCheck[0]!.uri.replace('file://', '')] ?? '').split('\n')[toCheck[0]!.range.start.line] ?? '';
  assert.ok(checkLine.startsWith(`❓ ${target} `), checkLine);
});
