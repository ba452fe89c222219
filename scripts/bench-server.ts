/**
 * The language server's latency: from a `didChange` to the `publishDiagnostics` for that file,
 * over a real stdio connection, for a benchmark the size of Max (20 chapters) and one ten times
 * larger. Goal: under 50 ms for Max, growing no faster than the benchmark. Prints figures only.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection, DidChangeTextDocumentNotification, DidOpenTextDocumentNotification, InitializeRequest, InitializedNotification,
  PublishDiagnosticsNotification, StreamMessageReader, StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';
import { generate } from './generate';

async function measure(chapters: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'mmb-lsp-bench-'));
  const folder = join(dir, 'bench');
  mkdirSync(folder);
  for (const [name, text] of generate(chapters)) writeFileSync(join(folder, name), text);
  const server = spawn(process.execPath, [join(__dirname, '..', 'dist', 'server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
  const uri = pathToFileURL(join(folder, 'chapter3.md')).toString();
  let waiting: (() => void) | undefined;
  connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
    if (p.uri === uri) waiting?.();
  });
  connection.listen();
  await connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {}, workspaceFolders: null });
  await connection.sendNotification(InitializedNotification.type, {});
  const text = generate(chapters).get('chapter3.md') ?? '';
  const published = () => new Promise<void>((resolve) => { waiting = resolve; });
  let done = published();
  await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'markdown', version: 1, text } });
  await done;
  const times: number[] = [];
  for (let i = 0; i < 30; i++) {
    done = published();
    const t = performance.now();
    const edited = text.replace('Say that you want', i % 2 ? 'Say that you want' : 'Say that you would like');
    await connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: i + 2 }, contentChanges: [{ text: edited }] });
    await done;
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(`${String(chapters).padStart(8)} chapters: median ${times[15]!.toFixed(1)} ms, slowest ${times.at(-1)!.toFixed(1)} ms from didChange to publishDiagnostics`);
  connection.dispose();
  server.kill();
  rmSync(dir, { recursive: true, force: true });
}

void (async () => {
  console.log('\nlanguage server: one edit in a chapter, over stdio');
  await measure(20);
  await measure(200);
  // The protocol connection keeps the event loop alive after its server is gone.
  process.exit(0);
})();
