/**
 * The dataset reader streams: a file many times its chunk yields its first item after one chunk,
 * every item parsed whole across chunk boundaries (strings holding brackets, commas, escaped
 * quotes, an emoji cut between chunks), and a file that is no array, is cut short, has text after
 * its array, a broken item or an item over the bound is one `DatasetFormatError` line naming
 * where; JSON Lines are read line by line the same way, a broken line named by its number.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DatasetFormatError, streamJsonArray, type ArrayStreamOptions } from '../src/import/jsonArrayStream';
import { tempDir } from './helpers';

async function readAll(text: string, options: ArrayStreamOptions = {}): Promise<unknown[]> {
  const path = join(tempDir('mmb-import-stream-'), 'data.json');
  writeFileSync(path, text);
  const items: unknown[] = [];
  for await (const { index, value } of streamJsonArray(path, 'data.json', options)) {
    assert.equal(index, items.length);
    items.push(value);
  }
  return items;
}

async function refusal(text: string, options: ArrayStreamOptions = {}): Promise<string> {
  try {
    await readAll(text, options);
  } catch (e) {
    assert.ok(e instanceof DatasetFormatError, String(e));
    return e.message;
  }
  assert.fail('the file was read without a refusal');
}

test('a file of 2,000 items, hundreds of chunks long, yields its first item after the first chunk and every item whole', async () => {
  const items = Array.from({ length: 2000 }, (_, i) => ({ id: `q${i}`, text: `item ${i}: [not] {a} "quoted", ${'x'.repeat(100)}` }));
  const text = JSON.stringify(items, null, 1);
  const path = join(tempDir('mmb-import-stream-'), 'big.json');
  writeFileSync(path, text);
  const chunks: number[] = [];
  let chunksAtFirstItem = -1;
  let count = 0;
  for await (const { value } of streamJsonArray(path, 'big.json', { chunkBytes: 1024, onChunk: (chunk) => chunks.push(chunk.length) })) {
    if (count === 0) chunksAtFirstItem = chunks.length;
    assert.deepEqual(value, items[count]);
    count++;
  }
  assert.equal(count, 2000);
  assert.equal(chunksAtFirstItem, 1, 'the first item came before the second chunk was read');
  assert.equal(chunks.length, Math.ceil(Buffer.byteLength(text) / 1024));
  assert.equal(Math.max(...chunks), 1024);
});

test('strings with brackets, commas, escapes and an emoji cut between two chunks are read as JSON reads them', async () => {
  const items = [{ a: 'x], {"y": [1,2]}, z' }, 'plain "quoted" \\ back', 42, null, [1, [2, [3]]], { e: '🪤❓ emoji 😀 here' }];
  const text = `\uFEFF  ${JSON.stringify(items)}  \n`;
  for (const chunkBytes of [1, 3, 7, 64]) assert.deepEqual(await readAll(text, { chunkBytes }), items, `chunks of ${chunkBytes}`);
  assert.deepEqual(await readAll(' [ ] '), []);
});

test('what is no array of items is one line naming where', async () => {
  assert.equal(await refusal('{"question_id": "x"}'), 'data.json: expected a JSON array of items ([ … ]), found "{" first.');
  assert.equal(await refusal('   '), 'data.json: expected a JSON array of items ([ … ]), found no "[".');
  assert.equal(await refusal('[{"a": 1}, {"b": '), 'data.json: the file ends inside its array (item 1): it is cut short.');
  assert.equal(await refusal('[1] [2]'), `data.json: text after the array's closing "]": the file holds more than one JSON value.`);
  assert.match(await refusal('[1, {"a": tru}]'), /^data\.json: item 1 is not valid JSON \(.+\)\.$/);
  assert.equal(
    await refusal(`[1, "${'y'.repeat(500)}"]`, { maxItemChars: 100, chunkBytes: 16 }),
    'data.json: item 1 is larger than 100 characters.',
  );
});

test('JSON Lines (what `datasets` writes): an item a line across chunks, blank lines skipped, a bad line named by its number', async () => {
  const items = [{ context: '0. a [fact], {b}', questions: ['x?'] }, { e: '🪤❓ emoji 😀 "quoted" \\ here' }, { n: 3 }];
  const text = `\uFEFF${JSON.stringify(items[0])}\n\n${JSON.stringify(items[1])}\r\n${JSON.stringify(items[2])}`;
  for (const chunkBytes of [1, 5, 64])
    assert.deepEqual(await readAll(text, { chunkBytes, jsonLines: true }), items, `chunks of ${chunkBytes}`);
  assert.deepEqual(await readAll(`${text}\n`, { jsonLines: true }), items);
  assert.match(
    await refusal('{"a": 1}\n\n{"b": tru}\n', { jsonLines: true }),
    /^data\.json: item 1 \(line 3\) is not valid JSON \(.+\)\.$/,
  );
  assert.equal(
    await refusal(`{"a": 1}\n{"b": "${'y'.repeat(500)}"}\n`, { jsonLines: true, maxItemChars: 100, chunkBytes: 16 }),
    'data.json: item 1 (line 2) is larger than 100 characters.',
  );
  assert.equal(
    await refusal('x, y', { jsonLines: true }),
    'data.json: expected a JSON array of items ([ … ]) or JSON Lines (an item a line), found "x" first.',
  );
  assert.equal(
    await refusal('  \n', { jsonLines: true }),
    'data.json: expected a JSON array of items ([ … ]) or JSON Lines (an item a line), found nothing.',
  );
  // Without the option, a file of lines is still no array.
  assert.equal(await refusal('{"a": 1}\n'), 'data.json: expected a JSON array of items ([ … ]), found "{" first.');
});
