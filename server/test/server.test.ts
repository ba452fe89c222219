/** The real language server over a real stdio LSP connection. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import {
  createProtocolConnection, InitializeRequest, PublishDiagnosticsNotification, StreamMessageReader, StreamMessageWriter,
  DidOpenTextDocumentNotification, DidChangeTextDocumentNotification, CompletionRequest, DefinitionRequest, type PublishDiagnosticsParams,
  type CompletionItem, type Location,
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

test('unsaved edits are validated as typed, and fixed problems disappear', async () => {
  const fixed = readFileSync(join(PLANTED, 'chapter3.md'), 'utf8').replace('❓ 3.1 [HIST]', '❓ 3.2 [RECALL]');
  await connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: uri('chapter3.md'), version: 2 }, contentChanges: [{ text: fixed }] });
  await until(() => codes('chapter3.md').length === 0);
  assert.deepEqual(codes('chapter3.md'), []);
  assert.ok(codes('chapter2.md').includes('9 trap-target-missing'));
});

test('completion of fact ids and a jump to a definition, over the connection', async () => {
  const text = readFileSync(join(PLANTED, 'chapter1.md'), 'utf8').replace('Mention famliy#1.1', 'Mention family#1.2 and family#');
  await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: uri('chapter1.md'), languageId: 'markdown', version: 1, text } });
  const line = text.split('\n').findIndex((l) => l.includes('Mention family#'));
  const column = (text.split('\n')[line] ?? '').lastIndexOf('family#') + 'family#'.length;
  const items = await connection.sendRequest(CompletionRequest.type, { textDocument: { uri: uri('chapter1.md') }, position: { line, character: column } }) as CompletionItem[];
  assert.deepEqual(items.map((i) => [i.label, i.detail]), [
    ['1.2', 'Lena\'s birthday — March 14'], ['1.1', 'Lena works remotely'], ['2.1', 'Sister, 37, a doctor in Hamburg'],
  ]);
  const at = (text.split('\n')[line] ?? '').indexOf('family#1.2');
  assert.ok(at > 0);
  const defs = await connection.sendRequest(DefinitionRequest.type, { textDocument: { uri: uri('chapter1.md') }, position: { line, character: at + 8 } }) as Location[];
  assert.deepEqual(defs.map((d) => [d.uri, d.range.start.line]), [[uri('family.md'), 4]]);
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
