/** Diagnostics through the language server, started in-process on an in-memory copy of the CLI tests' workspace. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DidChangeWatchedFilesNotification } from 'vscode-languageserver-protocol/node';
import { loadBenchmark, parseConfig, validateBenchmark } from '../../scenario/src';
import { filesUnder, FIXTURE_WORKSPACE, InMemoryServer, uriOf } from './harness';
import { FAMILY_SHEET } from './sample';

const WORKSPACE = '/ws';
const PLANTED = `${WORKSPACE}/benchmarks/planted`;
const CLEAN = `${WORKSPACE}/benchmarks/clean`;
const FILES = filesUnder(FIXTURE_WORKSPACE, WORKSPACE);
const planted = (file: string) => `${PLANTED}/${file}`;

async function withServer(workspaceFolders: string[], body: (server: InMemoryServer) => Promise<void>): Promise<void> {
  const server = await InMemoryServer.start(FILES, workspaceFolders);
  try {
    await body(server);
  } finally {
    server.close();
  }
}

test('on start, every benchmark folder of the workspace and its config.jsonc get their diagnostics, nothing opened', async () => {
  await withServer([WORKSPACE], async (server) => {
    const config = `${WORKSPACE}/config.jsonc`;
    await server.until(
      () =>
        server.published.has(uriOf(config)) &&
        server.published.has(uriOf(planted('family.md'))) &&
        server.published.has(uriOf(`${CLEAN}/day1.md`)),
    );
    assert.deepEqual(server.codes(config), ['6 invalid-config'], 'the run naming "plantd" is flagged');
    assert.match(
      String(server.published.get(uriOf(config))?.diagnostics[0]?.message),
      /no benchmarks\/plantd\/benchmark\.json .*Did you mean `planted`\?$/,
    );
    assert.deepEqual(server.codes(planted('family.md')), ['4 duplicate-fact-id', '6 duplicate-fact-id', '10 malformed-fact-line']);
    assert.deepEqual(
      server.registrations.map((r) => r.method),
      [DidChangeWatchedFilesNotification.method],
      'the server asks to hear of changes on disk',
    );
  });
});

test('a typo in config.jsonc, as typed, gets the very diagnostic mmb check reports: an error with its suggestion', async () => {
  await withServer([WORKSPACE], async (server) => {
    const config = `${WORKSPACE}/config.jsonc`;
    await server.open(config);
    const typo = (FILES[config] ?? '').replace('"agent": "chatbot" }', '"agent": "chatbot", "agent_modle": { "model": "stand-in" } }');
    assert.notEqual(typo, FILES[config]);
    await server.edit(config, typo);
    await server.until(() => server.codes(config).some((code) => code.endsWith('unknown-config-key')));
    const expected = parseConfig(typo, 'config.jsonc').diagnostics.find((d) => d.code === 'unknown-config-key');
    const published = server.published.get(uriOf(config))?.diagnostics.find((d) => d.code === 'unknown-config-key');
    assert.match(String(expected?.message), /has no key `agent_modle`; .*Did you mean `agent_model`\?$/);
    assert.equal(published?.message, expected?.message);
    assert.equal(published?.severity, 1, 'an error, as in mmb check');
    assert.deepEqual(published?.range, expected?.range);
    assert.deepEqual(published?.data, { suggestions: ['"agent_model"'] }, 'the quick fix offers the right key');
  });
});

test('the server publishes exactly what the validator finds, file by file', async () => {
  await withServer([WORKSPACE], async (server) => {
    const files = new Map(
      Object.entries(FILES)
        .filter(([path]) => path.startsWith(`${PLANTED}/`))
        .map(([path, text]) => [path.slice(PLANTED.length + 1), text]),
    );
    const expected = validateBenchmark(loadBenchmark({ name: 'planted', files }))
      .map((d) => `${d.file} ${d.range.start.line + 1} ${d.code}`)
      .sort();
    assert.ok(expected.length >= 10, `planted problems: ${expected.length}`);
    const publishedAll = () => [...files.keys()].flatMap((file) => server.codes(planted(file)).map((c) => `${file} ${c}`)).sort();
    await server.until(() => publishedAll().length === expected.length);
    assert.deepEqual(publishedAll(), expected);
  });
});

test('unsaved edits are validated as typed, and fixed problems disappear in every file at once', async () => {
  await withServer([], async (server) => {
    await server.open(planted('chapter3.md'));
    await server.until(() => server.published.has(uriOf(planted('chapter3.md'))) && server.published.has(uriOf(planted('family.md'))));
    assert.deepEqual(server.codes(planted('chapter3.md')), ['5 duplicate-check-id', '6 duplicate-check-id', '6 hist-without-trap']);
    const fixed = (FILES[planted('chapter3.md')] ?? '').replace('❓ 3.1 [HIST]', '❓ 3.2 [RECALL]');
    await server.edit(planted('chapter3.md'), fixed);
    await server.until(() => server.codes(planted('chapter3.md')).length === 0);
    assert.deepEqual(server.codes(planted('chapter3.md')), []);
    assert.ok(server.codes(planted('chapter2.md')).includes('9 trap-target-missing'));
    assert.equal(server.fileSystem.readText(planted('chapter3.md')), FILES[planted('chapter3.md')], 'the file itself is untouched');
  });
});

test("a file changed on disk re-validates its folder; an open file keeps the editor's text", async () => {
  await withServer([], async (server) => {
    await server.open(planted('chapter3.md'));
    await server.until(() => server.codes(planted('family.md')).length === 3);
    await server.writeOnDisk(planted('family.md'), FAMILY_SHEET);
    await server.until(() => server.codes(planted('family.md')).length === 0);
    assert.deepEqual(server.codes(planted('chapter3.md')), ['5 duplicate-check-id', '6 duplicate-check-id', '6 hist-without-trap']);
    const before = server.published.get(uriOf(planted('chapter3.md')));
    await server.writeOnDisk(planted('chapter3.md'), '## Gone\n');
    await server.until(() => server.published.get(uriOf(planted('chapter3.md'))) !== before);
    assert.deepEqual(
      server.codes(planted('chapter3.md')),
      ['5 duplicate-check-id', '6 duplicate-check-id', '6 hist-without-trap'],
      "the editor's text wins over the disk",
    );
  });
});

test("a benchmark's grading.jsonl, even a broken one, is not the server's: its chapters get the same diagnostics", async () => {
  const files = { ...FILES, [`${CLEAN}/grading.jsonl`]: '{"key": \n[1, 2]\n' + 'x'.repeat(100_000) };
  const server = await InMemoryServer.start(files, [WORKSPACE]);
  try {
    await server.until(() => server.published.has(uriOf(`${CLEAN}/day1.md`)));
    assert.deepEqual(server.codes(`${CLEAN}/day1.md`), []);
    assert.ok(!server.published.has(uriOf(`${CLEAN}/grading.jsonl`)), 'nothing is published for the grading set');
  } finally {
    server.close();
  }
});
