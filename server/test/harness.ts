/**
 * The language server started in this process over in-memory streams, on an in-memory file
 * system: the same `startServer` the built `dist/server.js` runs, with no build and no disk.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidOpenTextDocumentNotification,
  FileChangeType,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type Registration,
} from 'vscode-languageserver-protocol/node';
import { MemoryFileSystem } from '../src/fileSystem';
import { startServer } from '../src/startServer';

export const ROOT = join(__dirname, '..', '..');
/** The CLI tests' workspace: one clean benchmark, one with every diagnostic planted, a config.jsonc. */
export const FIXTURE_WORKSPACE = join(ROOT, 'engine', 'test', 'fixtures', 'workspace');

export const uriOf = (path: string) => pathToFileURL(path).toString();

/** A folder's files from disk, keyed by their path under `root` instead, for a `MemoryFileSystem`. */
export function filesUnder(folder: string, root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) Object.assign(files, filesUnder(join(folder, entry.name), join(root, entry.name)));
    else files[join(root, entry.name)] = readFileSync(join(folder, entry.name), 'utf8');
  }
  return files;
}

/** Inline files of one benchmark folder, keyed by their path under `dir`. */
export function folder(dir: string, files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([name, text]) => [join(dir, name), text]));
}

export class InMemoryServer {
  readonly published = new Map<string, PublishDiagnosticsParams>();
  /** Every publish, in the order it came. */
  readonly log: PublishDiagnosticsParams[] = [];
  readonly registrations: Registration[] = [];
  private readonly waiters: (() => void)[] = [];
  private readonly versions = new Map<string, number>();

  private constructor(
    readonly client: ProtocolConnection,
    private readonly server: { dispose(): void },
    readonly fileSystem: MemoryFileSystem,
  ) {
    client.onNotification(PublishDiagnosticsNotification.type, (params) => {
      this.published.set(params.uri, params);
      this.log.push(params);
      this.waiters.splice(0).forEach((wake) => wake());
    });
    client.onRequest(RegistrationRequest.type, (params) => {
      this.registrations.push(...params.registrations);
    });
  }

  /** Started and initialized, with `workspaceFolders` (paths) as the editor's open folders. */
  static async start(files: Record<string, string>, workspaceFolders: string[] = []): Promise<InMemoryServer> {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    const fileSystem = new MemoryFileSystem(files);
    // Readers and writers, not raw streams: given streams, the Node connection exits the process when they end.
    const serverConnection = createConnection(ProposedFeatures.all, new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
    startServer(serverConnection, fileSystem);
    const client = createProtocolConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
    const session = new InMemoryServer(client, serverConnection, fileSystem);
    client.listen();
    // No processId: the server would poll for it, and the interval would keep the tests alive.
    const folders = workspaceFolders.map((path) => ({ uri: uriOf(path), name: path }));
    await client.sendRequest(InitializeRequest.type, {
      processId: null,
      rootUri: null,
      capabilities: {},
      workspaceFolders: folders.length ? folders : null,
    });
    await client.sendNotification(InitializedNotification.type, {});
    return session;
  }

  /** Opens a file in the editor: its text on the file system unless another is given. */
  async open(path: string, text = this.fileSystem.readText(path) ?? ''): Promise<void> {
    this.versions.set(path, 1);
    await this.client.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: uriOf(path), languageId: 'markdown', version: 1, text },
    });
  }

  /** Replaces an open document's whole text, as typed and not saved. */
  async edit(path: string, text: string): Promise<void> {
    const version = (this.versions.get(path) ?? 1) + 1;
    this.versions.set(path, version);
    await this.client.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: uriOf(path), version },
      contentChanges: [{ text }],
    });
  }

  /** Writes a file behind the editor's back and tells the server, as the file watcher does. */
  async writeOnDisk(path: string, text: string): Promise<void> {
    this.fileSystem.write(path, text);
    await this.client.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: uriOf(path), type: FileChangeType.Changed }],
    });
  }

  /** The published diagnostics of a file as `line code`, lines 1-based. */
  codes(path: string): string[] {
    return (this.published.get(uriOf(path))?.diagnostics ?? []).map((d) => `${d.range.start.line + 1} ${String(d.code)}`);
  }

  /** Waits until the published diagnostics satisfy `predicate`, for up to 10 seconds. */
  async until(predicate: () => boolean): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error('no such diagnostics within 10 s');
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  close(): void {
    this.client.dispose();
    this.server.dispose();
  }
}
