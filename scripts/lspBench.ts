/**
 * The language server driven as an editor drives it, for the benches: a session over stdio with the
 * built `dist/server.js` (or in this process, with every disk read counted) on a benchmark folder,
 * and the latencies an author feels: a keystroke to its diagnostics, a burst of keystrokes,
 * completion and hover sent right after a keystroke. Shared by bench-server.ts and bench-generate.ts.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import {
  CompletionRequest,
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
  type Position,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import { NodeFileSystem } from '../server/src/nodeFileSystem';
import { startServer } from '../server/src/startServer';

export interface Session {
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

async function open(folder: string, file: string, connection: ProtocolConnection, close: () => void): Promise<Session> {
  const uri = pathToFileURL(join(folder, file)).toString();
  const waiting = new Map<number, () => void>();
  connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
    if (p.uri === uri && p.version !== undefined) waiting.get(p.version)?.();
  });
  connection.listen();
  await connection.sendRequest(InitializeRequest.type, { processId: null, rootUri: null, capabilities: {}, workspaceFolders: null });
  await connection.sendNotification(InitializedNotification.type, {});
  const text = readFileSync(join(folder, file), 'utf8');
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

/** The built server over stdio, as the extension starts it, with `file` of `folder` open. */
export async function stdioSession(folder: string, file: string): Promise<Session> {
  const server = spawn(process.execPath, [join(__dirname, '..', 'dist', 'server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
  return open(folder, file, connection, () => {
    connection.dispose();
    server.kill();
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Each keystroke's time to the edited file's diagnostics (published last, after every other file's). */
export async function editToDiagnostics(session: Session, rounds: number): Promise<number[]> {
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

/** Ten keystrokes 50 ms apart, as one types: the time from the last one to its diagnostics. */
export async function burst(session: Session, rounds: number): Promise<number[]> {
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

/** A request sent right after a keystroke, so that it waits behind the keystroke's work as in an editor. */
async function requestAfterKeystroke(session: Session, rounds: number, request: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const done = session.publishedAt(session.version + 1);
    await session.keystroke();
    const started = performance.now();
    await request();
    times.push(performance.now() - started);
    await done;
    await pause(20);
  }
  return times;
}

export function completionAfterKeystroke(
  session: Session,
  rounds: number,
  position: Position = { line: 0, character: 0 },
): Promise<number[]> {
  return requestAfterKeystroke(session, rounds, () =>
    session.connection.sendRequest(CompletionRequest.type, { textDocument: { uri: session.uri }, position }),
  );
}

/** Hover at `position` (a fact reference, say) right after a keystroke; throws if the server has nothing to show there. */
export function hoverAfterKeystroke(session: Session, rounds: number, position: Position): Promise<number[]> {
  return requestAfterKeystroke(session, rounds, async () => {
    const hover = await session.connection.sendRequest(HoverRequest.type, { textDocument: { uri: session.uri }, position });
    if (!hover) throw new Error(`no hover at ${session.uri}:${position.line + 1}:${position.character + 1}`);
  });
}

/** The server in this process on the disk, with every read counted: what one keystroke in `file` reads. */
export async function readsPerKeystroke(folder: string, file: string): Promise<{ reads: number; files: number }> {
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
  const client = createProtocolConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
  const session = await open(folder, file, client, () => serverConnection.dispose());
  const before = reads;
  for (let i = 0; i < 10; i++) {
    const done = session.publishedAt(session.version + 1);
    await session.keystroke();
    await done;
  }
  session.close();
  return { reads: (reads - before) / 10, files: readdirSync(folder).length };
}
