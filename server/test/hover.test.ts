/** Hover through the language server, started in-process on an in-memory file system. */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { HoverRequest, type Hover, type MarkupContent, type Position } from 'vscode-languageserver-protocol/node';
import { bench } from '../../scenario/test/helpers';
import { getHover } from '../src/features/hover';
import { InMemoryServer, uriOf } from './harness';
import { inSample, pos, SAMPLE_DIR, SAMPLE_FILES } from './sample';

const server = InMemoryServer.start(SAMPLE_FILES);
after(async () => (await server).close());

async function hover(file: string, position: Position): Promise<string> {
  const result = (await (
    await server
  ).client.sendRequest(HoverRequest.type, { textDocument: { uri: uriOf(inSample(file)) }, position })) as Hover | null;
  return (result?.contents as MarkupContent | undefined)?.value ?? '';
}

test("hover: a fact ref, a check with the traps aimed at it and their distance, a template's dates", async () => {
  assert.equal(await hover('chapter1.md', pos(11, 12)), "**family#1.2** — Lena's birthday — March 14\n\nFamily › 1. Lena (`family.md`)");
  const check = await hover('chapter2.md', pos(4, 3));
  assert.match(check, /^\*\*Check 20\.1\*\* · HIST: a value before an edit/);
  assert.match(check, /\*\*Correct answer:\*\* \$400\./);
  assert.match(check, /- RECONSIDER car#1\.1 in `chapter1\.md` line 9: 1 chapter before, across a session switch/);
  assert.match(await hover('chapter1.md', pos(7, 62)), /→ \*\*19 August 2026\*\* from this benchmark's start_time 2026-07-29 16:10/);
  // The date of a run starting now depends on today, so it is asserted on the feature with a fixed now.
  const sample = bench(Object.fromEntries(Object.entries(SAMPLE_FILES).map(([path, text]) => [path.slice(SAMPLE_DIR.length + 1), text])));
  const template =
    (getHover(sample, 'chapter1.md', pos(7, 62), new Date(2026, 0, 1, 9, 0))?.contents as MarkupContent | undefined)?.value ?? '';
  assert.match(template, /→ \*\*22 January 2026\*\* for a run starting now/);
});

test('hover on plain text is null', async () => {
  const result = await (
    await server
  ).client.sendRequest(HoverRequest.type, { textDocument: { uri: uriOf(inSample('chapter1.md')) }, position: pos(0, 3) });
  assert.equal(result, null);
});

test("a check whose answer holds a template shows it expanded from the benchmark's start_time", () => {
  const b = bench({
    'benchmark.json': '{ "chapters": ["chapter1.md"], "start_time": "2026-07-29 16:10" }',
    'chapter1.md': '## P\n❓ 1.1 When? Correct answer: {{FUTURE:3:weeks}}.\n',
  });
  const value = (getHover(b, 'chapter1.md', pos(1, 3))?.contents as MarkupContent | undefined)?.value ?? '';
  assert.match(
    value,
    /\*\*Correct answer:\*\* \{\{FUTURE:3:weeks\}\}\.\n\n→ \*\*19 August 2026\.\*\* from this benchmark's start_time 2026-07-29 16:10/,
  );
});
