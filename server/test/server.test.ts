/**
 * The built language server (`dist/server.js`, what the extension starts) over a real stdio LSP
 * connection. Each feature's tests drive `startServer` in-process (diagnostics.test.ts, …); this
 * one proves the entry file, the bundle and the disk.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import {
  CompletionRequest,
  createProtocolConnection,
  InitializeRequest,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidOpenTextDocumentNotification,
  FileChangeType,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { configFileProblem } from '../../scenario/src';

const ROOT = join(__dirname, '..', '..');
const PLANTED = join(ROOT, 'engine', 'test', 'fixtures', 'workspace', 'benchmarks', 'planted');

const server = spawn(process.execPath, [join(ROOT, 'dist', 'server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
const connection = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
const published = new Map<string, PublishDiagnosticsParams>();
/** Every publish in the order it came. */
const log: PublishDiagnosticsParams[] = [];
const waiters: (() => void)[] = [];
connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
  published.set(p.uri, p);
  log.push(p);
  waiters.splice(0).forEach((w) => w());
});
connection.listen();
after(() => {
  connection.dispose();
  server.kill();
  // Once the tests are done nothing of the child may keep this process alive, however slowly it
  // exits on a loaded machine (one whole run hung here after its test had passed).
  server.stdin.destroy();
  server.stdout.destroy();
  server.unref();
});

async function until(predicate: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('no such diagnostics within 10 s');
    await new Promise<void>((resolve) => {
      waiters.push(resolve);
      setTimeout(resolve, 200);
    });
  }
}

const uri = (file: string) => pathToFileURL(join(PLANTED, file)).toString();
const codes = (file: string) => (published.get(uri(file))?.diagnostics ?? []).map((d) => `${d.range.start.line + 1} ${String(d.code)}`);

test("opening a chapter publishes the validator's diagnostics for every file of its benchmark", async () => {
  await connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {}, workspaceFolders: null });
  const text = readFileSync(join(PLANTED, 'chapter3.md'), 'utf8');
  await connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: uri('chapter3.md'), languageId: 'markdown', version: 1, text },
  });
  await until(() => published.has(uri('chapter3.md')) && published.has(uri('family.md')));
  assert.deepEqual(codes('chapter3.md'), ['5 duplicate-check-id', '6 duplicate-check-id', '6 hist-without-trap']);
  assert.deepEqual(codes('family.md'), ['4 duplicate-fact-id', '6 duplicate-fact-id', '10 malformed-fact-line']);
  const dup = published.get(uri('chapter3.md'))?.diagnostics[1];
  assert.equal(dup?.relatedInformation?.[0]?.location.uri, uri('chapter3.md'));
  assert.equal(dup?.relatedInformation?.[0]?.location.range.start.line, 4);
});

test("a folder with a link out of it gets the unsafe-file diagnostic, never the link's text, and the server keeps answering", async () => {
  const root = mkdtempSync(join(tmpdir(), 'mmb-server-hostile-'));
  const canary = `canary-${process.pid}-server`;
  writeFileSync(join(root, 'outside.md'), `# Out\n\n## 1. X\n1.1 ${canary}\n`);
  const dir = join(root, 'bench');
  mkdirSync(dir);
  writeFileSync(join(dir, 'benchmark.json'), '{ "chapters": ["chapter1.md"] }');
  writeFileSync(join(dir, 'instructions.md'), 'You are Lena.');
  const chapter = '## Start\nTell the `profile` sheet: profile#1.1.\n';
  writeFileSync(join(dir, 'chapter1.md'), chapter);
  symlinkSync(join(root, 'outside.md'), join(dir, 'profile.md'));
  const at = (file: string) => pathToFileURL(join(dir, file)).toString();
  await connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: at('chapter1.md'), languageId: 'markdown', version: 1, text: chapter },
  });
  // The editor shows a link's target as the document's text: an open link is refused all the same.
  await connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: at('profile.md'), languageId: 'markdown', version: 1, text: readFileSync(join(root, 'outside.md'), 'utf8') },
  });
  await until(() => (published.get(at('profile.md'))?.diagnostics ?? []).some((d) => d.code === 'unsafe-file'));
  const refused = published.get(at('profile.md'))?.diagnostics ?? [];
  assert.deepEqual(
    refused.map((d) => [d.code, d.severity, d.range.start.line]),
    [['unsafe-file', 1, 0]],
  );
  assert.match(String(refused[0]?.message ?? ''), /link that leads out of its folder/);
  assert.ok(![...published.values()].some((p) => JSON.stringify(p).includes(canary)));
  const items = await connection.sendRequest(CompletionRequest.type, {
    textDocument: { uri: at('chapter1.md') },
    position: { line: 1, character: 0 },
  });
  assert.ok(Array.isArray(items));
  assert.ok(!JSON.stringify(items).includes(canary));
});

/** A benchmark folder on disk for one test: a manifest, instructions, a sheet and one chapter. */
function diskBenchmark(prefix: string, chapter: string): { dir: string; at: (file: string) => string } {
  const dir = join(mkdtempSync(join(tmpdir(), prefix)), 'bench');
  mkdirSync(dir);
  writeFileSync(join(dir, 'benchmark.json'), '{ "chapters": ["chapter1.md"] }');
  writeFileSync(join(dir, 'instructions.md'), 'You are Lena.');
  writeFileSync(join(dir, 'family.md'), '# Family\n\n## 1. Lena\n1.1 Lena is 31\n');
  writeFileSync(join(dir, 'chapter1.md'), chapter);
  return { dir, at: (file: string) => pathToFileURL(join(dir, file)).toString() };
}

test("a burst of keystrokes: stale versions are dropped unpublished; what is published is the last version's diagnostics", async () => {
  const chapter = '## Start\nTell the `family` sheet.\n';
  const { at } = diskBenchmark('mmb-server-burst-', chapter);
  await connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: at('chapter1.md'), languageId: 'markdown', version: 1, text: chapter },
  });
  await until(() => published.get(at('chapter1.md'))?.version === 1);
  const from = log.length;
  // Ten keystrokes in one write, as an editor sends them while the server is busy: each types
  // one more character of a fact ref; every version but the last points at a fact that is not there.
  const typed = 'family#1.1';
  const frames = [...typed]
    .map((character, i) =>
      JSON.stringify({
        jsonrpc: '2.0',
        method: DidChangeTextDocumentNotification.method,
        params: {
          textDocument: { uri: at('chapter1.md'), version: i + 2 },
          contentChanges: [{ range: { start: { line: 2, character: i }, end: { line: 2, character: i } }, text: character }],
        },
      }),
    )
    .map((json) => `Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`)
    .join('');
  assert.ok(Buffer.byteLength(frames) < 4096, 'one pipe write, read at once');
  server.stdin.write(frames);
  const last = typed.length + 1;
  await until(() => published.get(at('chapter1.md'))?.version === last);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const mine = log.slice(from).filter((p) => p.uri === at('chapter1.md'));
  assert.deepEqual(
    mine.map((p) => p.version),
    [last],
    'only the last version is published',
  );
  assert.deepEqual(mine[0]?.diagnostics, [], 'and its diagnostics are those of the whole ref: none');
});

test('file-watch events: a sheet changed on disk re-validates the chapters that use it; a chapter created on disk is read', async () => {
  const chapter = '## Start\nTell the `family` sheet: family#1.2.\n';
  const { dir, at } = diskBenchmark('mmb-server-watch-', chapter);
  await connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: at('chapter1.md'), languageId: 'markdown', version: 1, text: chapter },
  });
  await until(() => (published.get(at('chapter1.md'))?.diagnostics ?? []).some((d) => d.code === 'unknown-fact'));
  writeFileSync(join(dir, 'family.md'), "# Family\n\n## 1. Lena\n1.1 Lena is 31\n1.2 Lena's birthday — March 14\n");
  await connection.sendNotification(DidChangeWatchedFilesNotification.type, {
    changes: [{ uri: at('family.md'), type: FileChangeType.Changed }],
  });
  await until(() => (published.get(at('chapter1.md'))?.diagnostics ?? []).length === 0);
  writeFileSync(join(dir, 'benchmark.json'), '{ "chapters": ["chapter1.md", "chapter2.md"] }');
  await connection.sendNotification(DidChangeWatchedFilesNotification.type, {
    changes: [{ uri: at('benchmark.json'), type: FileChangeType.Changed }],
  });
  await until(() => (published.get(at('benchmark.json'))?.diagnostics ?? []).some((d) => d.code === 'missing-chapter'));
  writeFileSync(join(dir, 'chapter2.md'), '## Later\nAsk about family#1.9.\n');
  await connection.sendNotification(DidChangeWatchedFilesNotification.type, {
    changes: [{ uri: at('chapter2.md'), type: FileChangeType.Created }],
  });
  await until(() => (published.get(at('chapter2.md'))?.diagnostics ?? []).some((d) => d.code === 'unknown-fact'));
  assert.deepEqual(published.get(at('benchmark.json'))?.diagnostics, [], 'the listed chapter exists now');
});

test('config.jsonc bytes mmb check and run refuse (two BOMs, UTF-16, not UTF-8) get their line, whatever the editor decoded', async () => {
  const run = '"runs": { "a": { "benchmark": "starter", "agent": "chatbot" } }';
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  const cases: [string, Buffer, RegExp][] = [
    ['two BOMs', Buffer.concat([bom, bom, Buffer.from(`{ ${run} }`)]), /^config\.jsonc starts with more than one byte order mark/],
    [
      'UTF-16',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`{ ${run} }`, 'utf16le')]),
      /^config\.jsonc is not read: it is saved as UTF-16/,
    ],
    [
      'Latin-1',
      Buffer.from(`{ "runs": { "caf\xe9": {} } }`, 'latin1'),
      /^config\.jsonc is not read: it is not UTF-8 text \(byte 17 is not valid UTF-8\)/,
    ],
  ];
  for (const [what, bytes, message] of cases) {
    const root = mkdtempSync(join(tmpdir(), 'mmb-server-config-'));
    writeFileSync(join(root, 'config.jsonc'), bytes);
    const at = pathToFileURL(join(root, 'config.jsonc')).toString();
    // As VS Code sends it: decoded by its guess of the encoding, one BOM dropped.
    const text = `{ ${run} }`;
    await connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: at, languageId: 'jsonc', version: 1, text },
    });
    await until(() => published.has(at));
    const diagnostics = published.get(at)?.diagnostics ?? [];
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character]),
      [['invalid-config', 0, 0]],
      what,
    );
    assert.match(String(diagnostics[0]?.message), message, what);
    assert.equal(diagnostics[0]?.message, configFileProblem(bytes, 'config.jsonc'), `${what}: the line mmb check and mmb run print`);
  }
});
