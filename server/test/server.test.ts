/**
 * The built language server (`dist/server.js`, what the extension starts) over a real stdio LSP
 * connection. Each feature's tests drive `startServer` in-process (diagnostics.test.ts, …); this
 * one proves the entry file, the bundle and the disk.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import {
  createProtocolConnection, InitializeRequest, PublishDiagnosticsNotification, StreamMessageReader, StreamMessageWriter,
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
