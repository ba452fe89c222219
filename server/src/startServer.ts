/**
 * The language server's wiring, given its connection and its file system: each request looks up
 * the document's benchmark and calls one feature. An edit in any file re-validates its whole
 * benchmark folder, so a change in a sheet reaches every chapter that uses it, open or not.
 * Tests start it over in-memory streams with an in-memory file system; `server.ts` over stdio or
 * IPC with the disk.
 */
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkRunBenchmarks, parseConfig } from '../../scenario/src';
import {
  CodeActionKind, DidChangeWatchedFilesNotification, ResponseError, TextDocuments, TextDocumentSyncKind, type Connection, type InitializeResult,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { getCodeActions } from './features/codeActions';
import { getCompletion } from './features/completion';
import { getDiagnostics, toLsp } from './features/diagnostics';
import { getHover } from './features/hover';
import { getDefinition, getReferences, getRename, prepareRename } from './features/navigation';
import { getSemanticTokens, SEMANTIC_TOKENS_LEGEND } from './features/semanticTokens';
import { getDocumentSymbols, getFoldingRanges } from './features/structure';
import type { BenchmarkFileSystem } from './fileSystem';
import { BenchmarkWorkspace } from './workspace';

const CONFIG_FILE = 'config.jsonc';

const CAPABILITIES: InitializeResult['capabilities'] = {
  textDocumentSync: TextDocumentSyncKind.Incremental,
  completionProvider: { triggerCharacters: ['#', '`', '[', '{', ':', '.', ' ', '>', '→', ','] },
  hoverProvider: true,
  definitionProvider: true,
  referencesProvider: true,
  renameProvider: { prepareProvider: true },
  documentSymbolProvider: true,
  foldingRangeProvider: true,
  codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
  semanticTokensProvider: { legend: SEMANTIC_TOKENS_LEGEND, full: true },
};

/** Serves benchmarks on `connection` until it closes; the file system is read for every file the editor has not opened. */
export function startServer(connection: Connection, fileSystem: BenchmarkFileSystem): void {
  const documents = new TextDocuments(TextDocument);
  const workspace = new BenchmarkWorkspace(fileSystem, (uri) => documents.get(uri)?.getText());
  const publisher = new DiagnosticsPublisher(connection, workspace);
  let roots: string[] = [];

  connection.onInitialize((params) => {
    roots = (params.workspaceFolders ?? []).map((f) => fileURLToPath(f.uri));
    return { capabilities: CAPABILITIES };
  });
  connection.onInitialized(() => {
    void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: '**/*.{md,json}' }] }).catch(() => undefined);
    for (const root of roots) {
      for (const dir of workspace.discover(root)) publisher.publish(dir);
      if (fileSystem.readText(join(root, CONFIG_FILE)) !== undefined) publisher.publishConfig(pathToFileURL(join(root, CONFIG_FILE)).toString());
    }
  });
  documents.onDidOpen((e) => publisher.changed(e.document.uri));
  documents.onDidChangeContent((e) => publisher.changed(e.document.uri));
  documents.onDidClose((e) => publisher.changed(e.document.uri));
  connection.onDidChangeWatchedFiles((e) => publisher.filesChanged(e.changes.map((c) => c.uri)));
  serveFeatures(connection, workspace);
  documents.listen(connection);
  connection.listen();
}

/** Diagnostics of whole benchmark folders and of config.jsonc, sent as they change. */
class DiagnosticsPublisher {
  constructor(private readonly connection: Connection, private readonly workspace: BenchmarkWorkspace) {}

  publish(dir: string): void {
    const uriOf = (file: string) => BenchmarkWorkspace.uriOf(dir, file);
    for (const [file, diagnostics] of getDiagnostics(this.workspace.get(dir), uriOf)) void this.connection.sendDiagnostics({ uri: uriOf(file), diagnostics });
  }

  /** config.jsonc: its own diagnostics, and runs naming benchmarks the workspace lacks. */
  publishConfig(uri: string): void {
    const text = this.workspace.textOf(uri);
    if (text === undefined) return;
    const { config, diagnostics } = parseConfig(text);
    const known = this.workspace.discover(dirname(fileURLToPath(uri))).map((d) => basename(d));
    const all = [...diagnostics, ...checkRunBenchmarks(config, known)];
    void this.connection.sendDiagnostics({ uri, diagnostics: all.map((d) => toLsp(d, () => uri)) });
  }

  /** A document opened, edited or closed in the editor. */
  changed(uri: string): void {
    if (uri.endsWith(`/${CONFIG_FILE}`)) return this.publishConfig(uri);
    const dir = this.workspace.folderOf(uri);
    if (!dir) return;
    this.workspace.invalidate(dir);
    this.publish(dir);
  }

  /** Files changed on disk: each folder touched is re-validated once, however many of its files changed. */
  filesChanged(uris: readonly string[]): void {
    for (const uri of uris) if (uri.endsWith(`/${CONFIG_FILE}`)) this.publishConfig(uri);
    for (const dir of new Set(uris.map((uri) => this.workspace.folderOf(uri)).filter((d): d is string => !!d))) {
      this.workspace.invalidate(dir);
      this.publish(dir);
    }
  }
}

/** Each request: the document's benchmark looked up, one feature called; outside a benchmark, the empty answer. */
function serveFeatures(connection: Connection, workspace: BenchmarkWorkspace): void {
  connection.onCompletion((p) => {
    const l = workspace.locate(p.textDocument.uri);
    return l ? getCompletion(l.benchmark, l.file, p.position) : [];
  });
  connection.onHover((p) => {
    const l = workspace.locate(p.textDocument.uri);
    return l ? getHover(l.benchmark, l.file, p.position) ?? null : null;
  });
  connection.onDefinition((p) => {
    const l = workspace.locate(p.textDocument.uri);
    return l ? getDefinition(l.benchmark, l.file, p.position, l.uriOf) : [];
  });
  connection.onReferences((p) => {
    const l = workspace.locate(p.textDocument.uri);
    return l ? getReferences(l.benchmark, l.file, p.position, p.context.includeDeclaration, l.uriOf) : [];
  });
  connection.onPrepareRename((p) => {
    const l = workspace.locate(p.textDocument.uri);
    return l ? prepareRename(l.benchmark, l.file, p.position) ?? null : null;
  });
  connection.onRenameRequest((p) => {
    const l = workspace.locate(p.textDocument.uri);
    if (!l) return null;
    const edit = getRename(l.benchmark, l.file, p.position, p.newName, l.uriOf);
    if ('error' in edit) throw new ResponseError(0, String(edit.error));
    return edit;
  });
  connection.onDocumentSymbol((p) => {
    const l = workspace.locate(p.textDocument.uri);
    return l ? getDocumentSymbols(l.benchmark, l.file) : [];
  });
  connection.onFoldingRanges((p) => {
    const l = workspace.locate(p.textDocument.uri);
    return l ? getFoldingRanges(l.benchmark, l.file) : [];
  });
  connection.languages.semanticTokens.on((p) => {
    const l = workspace.locate(p.textDocument.uri);
    return l ? getSemanticTokens(l.benchmark, l.file) : { data: [] };
  });
  connection.onCodeAction((p) => {
    const l = workspace.locate(p.textDocument.uri);
    return l ? getCodeActions(l.benchmark, l.file, p.context.diagnostics, l.uriOf) : [];
  });
}
