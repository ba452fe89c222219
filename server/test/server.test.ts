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
  CompletionRequest, createProtocolConnection, InitializeRequest, PublishDiagnosticsNotification, StreamMessageReader, StreamMessageWriter,
  DidOpenTextDocumentNotification, type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';

const ROOT = join(__dirname, '..', '..');
const PLANTED = join(ROOT, 'engine', 'test', 'fixtures', 'workspace', 'benchmarks', 'planted');

const server = spawn(process.execPath, [join(ROOT, 'dist', 'server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
const connection = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
const published = new Map<string, PublishDiagnosticsParams>();
const waiters: (() => void)[] = [];
connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
  published.set(p.uri, p);
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
    await new Promise<void>((resolve) => { waiters.push(resolve); setTimeout(resolve, 200); });
  }
}

const uri = (file: string) => pathToFileURL(join(PLANTED, file)).toString();
const codes = (file: string) => (published.get(uri(file))?.diagnostics ?? []).map((d) => `${d.range.start.line + 1} ${String(d.code)}`);

test('opening a chapter publishes the validator\'s diagnostics for every file of its benchmark', async () => {
  await connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {}, workspaceFolders: null });
  const text = readFileSync(join(PLANTED, 'chapter3.md'), 'utf8');
  await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: uri('chapter3.md'), languageId: 'markdown', version: 1, text } });
  await until(() => published.has(uri('chapter3.md')) && published.has(uri('family.md')));
  assert.deepEqual(codes('chapter3.md'), ['6 duplicate-check-id', '6 hist-without-trap']);
  assert.deepEqual(codes('family.md'), ['6 duplicate-fact-id', '10 malformed-fact-line']);
  const dup = published.get(uri('chapter3.md'))?.diagnostics[0];
  assert.equal(dup?.relatedInformation?.[0]?.location.uri, uri('chapter3.md'));
  assert.equal(dup?.relatedInformation?.[0]?.location.range.start.line, 4);
});

test('a folder with a link out of it gets the unsafe-file diagnostic, never the link\'s text, and the server keeps answering', async () => {
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
  await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: at('chapter1.md'), languageId: 'markdown', version: 1, text: chapter } });
  // The editor shows a link's target as the document's text: an open link is refused all the same.
  await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: at('profile.md'), languageId: 'markdown', version: 1, text: readFileSync(join(root, 'outside.md'), 'utf8') } });
  await until(() => (published.get(at('profile.md'))?.diagnostics ?? []).some((d) => d.code === 'unsafe-file'));
  const refused = published.get(at('profile.md'))?.diagnostics ?? [];
  assert.deepEqual(refused.map((d) => [d.code, d.severity, d.range.start.line]), [['unsafe-file', 1, 0]]);
  assert.match(String(refused[0]?.message ?? ''), /link that leads out of its folder/);
  assert.ok(![...published.values()].some((p) => JSON.stringify(p).includes(canary)));
  const items = await connection.sendRequest(CompletionRequest.type, { textDocument: { uri: at('chapter1.md') }, position: { line: 1, character: 0 } });
  assert.ok(Array.isArray(items));
  assert.ok(!JSON.stringify(items).includes(canary));
});
