/**
 * The server's work per change, in-process on an in-memory file system that counts its reads: a
 * keystroke reads nothing from disk, a file-watch event reads the one file it names, opening a
 * file validates once, completion answers from the latest text before the validation of it, and
 * an edit that changes what other files read reaches them, as `mmb check` would report them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CompletionRequest,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  type CompletionItem,
} from 'vscode-languageserver-protocol/node';
import { loadBenchmark, validateBenchmark } from '../../scenario/src';
import { filesUnder, FIXTURE_WORKSPACE, InMemoryServer, uriOf } from './harness';
import { FAMILY_SHEET } from './sample';

const PLANTED = '/ws/benchmarks/planted';
const planted = (file: string) => `${PLANTED}/${file}`;
const FILES = filesUnder(FIXTURE_WORKSPACE, '/ws');

async function withServer(body: (server: InMemoryServer) => Promise<void>): Promise<void> {
  const server = await InMemoryServer.start(FILES);
  try {
    await body(server);
  } finally {
    server.close();
  }
}

/** Lets the server drain its queue and settle: a few event-loop turns and a little time. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

test('keystrokes read nothing from disk; a file-watch event reads only the file it names, and its change reaches every file', async () => {
  await withServer(async (server) => {
    const chapter = planted('chapter3.md');
    await server.open(chapter);
    await server.until(() => server.codes(planted('family.md')).length === 3);
    const readsAfterOpen = server.fileSystem.reads;
    const text = server.fileSystem.readText(chapter) ?? '';
    server.fileSystem.reads = readsAfterOpen;
    for (let i = 0; i < 5; i++) await server.edit(chapter, `${text}\nTyped ${i}.\n`);
    await server.edit(chapter, text.replace('❓ 3.1 [HIST]', '❓ 3.2 [RECALL]'));
    await server.until(() => server.codes(chapter).length === 0);
    assert.equal(server.fileSystem.reads, readsAfterOpen, 'no file was read for the keystrokes');
    assert.ok(server.codes(planted('chapter2.md')).includes('9 trap-target-missing'), 'the edit re-validated the other chapters');

    // Behind the editor's back: the sheet is fixed on disk and the watcher says so.
    server.fileSystem.write(planted('family.md'), FAMILY_SHEET);
    const before = server.fileSystem.reads;
    await server.client.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: uriOf(planted('family.md')), type: FileChangeType.Changed }],
    });
    await server.until(() => server.codes(planted('family.md')).length === 0);
    assert.equal(server.fileSystem.reads - before, 1, 'one file read: the one the event named');

    // A listed chapter deleted on disk: the manifest's missing-chapter appears; created again, it goes.
    const missing = () => server.codes(planted('benchmark.json')).filter((c) => c.endsWith('missing-chapter')).length;
    const missingBefore = missing();
    const removed = server.fileSystem.readText(planted('chapter2.md')) ?? '';
    server.fileSystem.remove(planted('chapter2.md'));
    await server.client.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: uriOf(planted('chapter2.md')), type: FileChangeType.Deleted }],
    });
    await server.until(() => missing() === missingBefore + 1);
    await settle();
    assert.deepEqual(server.codes(planted('chapter2.md')), [], "the deleted file's diagnostics are cleared");
    server.fileSystem.write(planted('chapter2.md'), removed);
    await server.client.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: uriOf(planted('chapter2.md')), type: FileChangeType.Created }],
    });
    await server.until(() => missing() === missingBefore);
    await settle();
    assert.ok(server.codes(planted('chapter2.md')).includes('9 trap-target-missing'));
  });
});

test("opening a file validates its folder once: one publish per file, the opened one with the editor's version", async () => {
  await withServer(async (server) => {
    await server.open(planted('chapter3.md'));
    await server.until(() => server.published.has(uriOf(planted('chapter3.md'))));
    await settle();
    const counts = new Map<string, number>();
    for (const p of server.log) counts.set(p.uri, (counts.get(p.uri) ?? 0) + 1);
    assert.ok(counts.size >= 5, `every file of the folder is published: ${[...counts.keys()].join(', ')}`);
    assert.deepEqual([...new Set(counts.values())], [1], `each file once: ${JSON.stringify([...counts])}`);
    assert.equal(server.published.get(uriOf(planted('chapter3.md')))?.version, 1);
  });
});

test('an edit publishes only the files whose diagnostics changed, and the edited one, last', async () => {
  await withServer(async (server) => {
    const chapter = planted('chapter3.md');
    await server.open(chapter);
    await server.until(() => server.published.has(uriOf(chapter)));
    await settle();
    server.log.length = 0;
    await server.edit(chapter, `${server.fileSystem.readText(chapter) ?? ''}\nOne more line of prose.\n`);
    await server.until(() => server.log.length > 0);
    await settle();
    assert.deepEqual(
      server.log.map((p) => [p.uri, p.version]),
      [[uriOf(chapter), 2]],
      'nothing else changed, so nothing else is sent',
    );
    server.log.length = 0;
    await server.edit(chapter, (server.fileSystem.readText(chapter) ?? '').replace('❓ 3.1 [HIST]', '❓ 3.2 [RECALL]'));
    await server.until(() => server.codes(chapter).length === 0);
    await settle();
    assert.equal(server.log.at(-1)?.uri, uriOf(chapter), 'the edited file comes last');
    assert.ok(
      server.log.some((p) => p.uri === uriOf(planted('chapter2.md'))),
      'a file whose diagnostics changed is sent',
    );
  });
});

test("completion right after a keystroke answers from the new text, before that text's diagnostics are published", async () => {
  await withServer(async (server) => {
    const path = planted('chapter1.md');
    const original = server.fileSystem.readText(path) ?? '';
    await server.open(path);
    await server.until(() => server.published.has(uriOf(path)));
    await settle();
    const order: string[] = [];
    const before = server.log.length;
    const text = original.replace('Mention famliy#1.1', 'Mention family#');
    const line = text.split('\n').findIndex((l) => l.includes('Mention family#'));
    const character = (text.split('\n')[line] ?? '').indexOf('family#') + 'family#'.length;
    const published = server.until(() => server.log.length > before).then(() => order.push('diagnostics'));
    await server.edit(path, text);
    const items = (await server.client.sendRequest(CompletionRequest.type, {
      textDocument: { uri: uriOf(path) },
      position: { line, character },
    })) as CompletionItem[];
    order.push('completion');
    await published;
    assert.deepEqual(order, ['completion', 'diagnostics']);
    assert.ok(
      items.some((i) => i.label === '1.1'),
      `the fact ids of the text just typed: ${items.map((i) => i.label).join(', ')}`,
    );
  });
});

test('an edit that changes what other files read reaches them at once, and every file then shows what mmb check reports', async () => {
  await withServer(async (server) => {
    const files = ['benchmark.json', 'car.md', 'chapter1.md', 'chapter2.md', 'chapter3.md', 'chapter4.md', 'family.md', 'instructions.md'];
    const texts = new Map(files.map((f) => [f, server.fileSystem.readText(planted(f)) ?? '']));
    const published = (file: string) =>
      (server.published.get(uriOf(planted(file)))?.diagnostics ?? []).map(
        (d) => `${d.range.start.line + 1} ${String(d.code)} ${d.message}`,
      );
    const checked = () => {
      const all = validateBenchmark(loadBenchmark({ name: 'planted', files: texts }));
      return (file: string) => all.filter((d) => d.file === file).map((d) => `${d.range.start.line + 1} ${d.code} ${d.message}`);
    };
    const sameAsCheck = () => {
      const expected = checked();
      return files.every((f) => JSON.stringify(published(f)) === JSON.stringify(expected(f)));
    };
    const edit = async (file: string, text: string) => {
      texts.set(file, text);
      await server.edit(planted(file), text);
      await server.until(sameAsCheck);
    };
    await server.open(planted('chapter3.md'));
    await server.open(planted('family.md'));
    await server.until(sameAsCheck);
    assert.ok(server.codes(planted('car.md')).includes('1 sheet-never-told'));

    // A chapter starts telling the car sheet: the sheet's warning goes; the chapter's edit is all that changed.
    const chapter3 = texts.get('chapter3.md') ?? '';
    await edit('chapter3.md', `${chapter3}Tell the \`car\` sheet.\n`);
    assert.deepEqual(server.codes(planted('car.md')), []);
    await edit('chapter3.md', chapter3);
    assert.ok(server.codes(planted('car.md')).includes('1 sheet-never-told'));

    // A fact deleted in place: the suggestions of another chapter's broken reference change with it.
    const family = texts.get('family.md') ?? '';
    const before = published('chapter1.md').find((d) => d.includes('family#3.1'));
    await edit('family.md', family.replace('2.1 Sister, 37, a doctor in Hamburg', '2.1 —'));
    assert.notEqual(
      published('chapter1.md').find((d) => d.includes('family#3.1')),
      before,
    );
    await edit('family.md', family);
    assert.equal(
      published('chapter1.md').find((d) => d.includes('family#3.1')),
      before,
    );
  });
});
