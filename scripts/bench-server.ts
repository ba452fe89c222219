/**
 * The language server's latency over a real stdio connection to the built `dist/server.js`, for
 * Max (20 chapters) and generated benchmarks 10× and 100× larger (200 and 2,000 chapters): from a
 * keystroke to every file's diagnostics (the edited file's publish comes last), ten keystrokes
 * 50 ms apart at 2,000 chapters (the last one to its diagnostics), completion sent right after a
 * keystroke; and, in-process, how many files a keystroke reads from disk. Medians with min–max.
 * Prints figures; asserts nothing.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import {
  CompletionRequest,
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import { NodeFileSystem } from '../server/src/nodeFileSystem';
import { startServer } from '../server/src/startServer';
import { generate } from './generate';
import { summary } from './benchStats';

const MAX = join(__dirname, '..', 'benchmarks', 'max');

/** A benchmark's files on disk in a fresh folder: Max's own, or a generated one. */
function benchmarkOnDisk(chapters: number | 'max'): string {
  const folder = join(mkdtempSync(join(tmpdir(), 'mmb-lsp-bench-')), 'bench');
  mkdirSync(folder);
  const files =
    chapters === 'max' ? new Map(readdirSync(MAX).map((name) => [name, readFileSync(join(MAX, name), 'utf8')])) : generate(chapters);
  for (const [name, text] of files) writeFileSync(join(folder, name), text);
  return folder;
}

interface Session {
  connection: ProtocolConnection;
  uri: string;
  text: string;
  version: number;
  /** Resolves at the next publish of `uri` with the given version. */
  publishedAt(version: number): Promise<void>;
  /** Sends a keystroke: a space typed at the end of the file, or taken back. */
  keystroke(): Promise<void>;
  close(): void;
}

async function open(folder: string, connection: ProtocolConnection, close: () => void): Promise<Session> {
  const uri = pathToFileURL(join(folder, 'chapter3.md')).toString();
  const waiting = new Map<number, () => void>();
  connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
    if (p.uri === uri && p.version !== undefined) waiting.get(p.version)?.();
  });
  connection.listen();
  await connection.sendRequest(InitializeRequest.type, { processId: null, rootUri: null, capabilities: {}, workspaceFolders: null });
  await connection.sendNotification(InitializedNotification.type, {});
  const text = readFileSync(join(folder, 'chapter3.md'), 'utf8');
  const session: Session = {
    connection,
    uri,
    text,
    version: 1,
    close,
    publishedAt: (version) => new Promise<void>((resolve) => waiting.set(version, resolve)),
    async keystroke() {
      session.version++;
      const lines = text.split('\n');
      const end = { line: lines.length - 1, character: (lines.at(-1) ?? '').length };
      const change =
        session.version % 2 === 0
          ? { range: { start: end, end }, text: ' ' }
          : { range: { start: end, end: { line: end.line, character: end.character + 1 } }, text: '' };
      await connection.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version: session.version },
        contentChanges: [change],
      });
    },
  };
  const first = session.publishedAt(1);
  await connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: 'markdown', version: 1, text },
  });
  await first;
  return session;
}

/** The built server over stdio, as the extension starts it. */
async function stdioSession(folder: string): Promise<Session> {
  const server = spawn(process.execPath, [join(__dirname, '..', 'dist', 'server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
  return open(folder, connection, () => {
    connection.dispose();
    server.kill();
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function editToDiagnostics(session: Session, rounds: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const done = session.publishedAt(session.version + 1);
    const started = performance.now();
    await session.keystroke();
    await done;
    times.push(performance.now() - started);
    await pause(20);
  }
  return times;
}

async function burst(session: Session, rounds: number): Promise<number[]> {
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < 9; i++) {
      await session.keystroke();
      await pause(50);
    }
    const done = session.publishedAt(session.version + 1);
    const started = performance.now();
    await session.keystroke();
    await done;
    times.push(performance.now() - started);
    await pause(200);
  }
  return times;
}

async function completionAfterKeystroke(session: Session, rounds: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const done = session.publishedAt(session.version + 1);
    await session.keystroke();
    const started = performance.now();
    await session.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri: session.uri },
      position: { line: 0, character: 0 },
    });
    times.push(performance.now() - started);
    await done;
    await pause(20);
  }
  return times;
}

/** The server in this process on the disk, with every read counted: what one keystroke reads. */
async function readsPerKeystroke(folder: string): Promise<{ reads: number; files: number }> {
  let reads = 0;
  const disk = new NodeFileSystem();
  const counted = new NodeFileSystem();
  counted.readText = (path) => {
    reads++;
    return disk.readText(path);
  };
  counted.readBenchmarkFile = (dir, name) => {
    reads++;
    return disk.readBenchmarkFile(dir, name);
  };
  counted.readBenchmarkFiles = (dir, openText) => {
    const read = disk.readBenchmarkFiles(dir, openText);
    reads += read.files.size;
    return read;
  };
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const serverConnection = createConnection(ProposedFeatures.all, new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
  startServer(serverConnection, counted);
  const session = await open(folder, createProtocolConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer)), () =>
    serverConnection.dispose(),
  );
  const before = reads;
  for (let i = 0; i < 10; i++) {
    const done = session.publishedAt(session.version + 1);
    await session.keystroke();
    await done;
  }
  session.close();
  return { reads: (reads - before) / 10, files: readdirSync(folder).length };
}

void (async () => {
  console.log('\nlanguage server over stdio (dist/server.js): a keystroke in chapter3.md');
  for (const [label, size] of [
    ['Max (20 chapters)', 'max'],
    ['11× (200 chapters)', 200],
    ['112× (2,000 chapters)', 2000],
  ] as const) {
    const folder = benchmarkOnDisk(size);
    const session = await stdioSession(folder);
    await editToDiagnostics(session, 5);
    console.log(`  ${label.padEnd(22)} keystroke → every file's diagnostics: ${summary(await editToDiagnostics(session, 30))}`);
    if (size === 2000) {
      console.log(`  ${label.padEnd(22)} 10 keystrokes 50 ms apart, the last → its diagnostics: ${summary(await burst(session, 5))}`);
      console.log(`  ${label.padEnd(22)} completion sent right after a keystroke: ${summary(await completionAfterKeystroke(session, 20))}`);
      const { reads, files } = await readsPerKeystroke(folder);
      console.log(`  ${label.padEnd(22)} files read from disk per keystroke: ${reads} (the folder has ${files})`);
    }
    session.close();
    rmSync(join(folder, '..'), { recursive: true, force: true });
  }
  // The protocol connection keeps the event loop alive after its server is gone.
  process.exit(0);
})();
