/**
 * The language server's wiring, given its connection and its file system: each request looks up
 * the document's benchmark (from the latest texts, without waiting for a validation) and calls
 * one feature. An edit in any file updates its benchmark folder's diagnostics once the keystrokes
 * settle (the files that read what it changed are validated again), so a change in a sheet
 * reaches every chapter that uses it, open or not.
 * Tests start it over in-memory streams with an in-memory file system; `server.ts` over stdio or
 * IPC with the disk.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MANIFEST_FILE } from '../../scenario/src';
import {
  CodeActionKind,
  DidChangeWatchedFilesNotification,
  ResponseError,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type InitializeResult,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { getCodeActions } from './features/codeActions';
import { getCompletion } from './features/completion';
import { getHover } from './features/hover';
import { getDefinition, getReferences, getRename, prepareRename, type RenameClient } from './features/navigation';
import { getSemanticTokens, SEMANTIC_TOKENS_LEGEND } from './features/semanticTokens';
import { getDocumentSymbols, getFoldingRanges } from './features/structure';
import type { BenchmarkFileSystem } from './fileSystem';
import { DiagnosticsPublisher } from './publisher';
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
  const publisher = new DiagnosticsPublisher(connection, workspace, (uri) => documents.get(uri)?.version);
  let roots: string[] = [];

  // What the editor said it supports, set at initialize, read by each rename.
  const renameClient: RenameClient = { changeAnnotationSupport: 'unsupported' };
  connection.onInitialize((params) => {
    roots = (params.workspaceFolders ?? []).map((f) => fileURLToPath(f.uri));
    const annotations = params.capabilities.workspace?.workspaceEdit?.changeAnnotationSupport !== undefined;
    renameClient.changeAnnotationSupport = annotations ? 'supported' : 'unsupported';
    return { capabilities: CAPABILITIES };
  });
  connection.onInitialized(() => {
    void connection.client
      .register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: '**/*.{md,json}' }] })
      .catch(() => undefined);
    for (const root of roots) {
      for (const dir of workspace.discover(root)) publisher.folderChanged(dir);
      if (fileSystem.isFile(join(root, CONFIG_FILE))) publisher.configChanged(pathToFileURL(join(root, CONFIG_FILE)).toString());
    }
  });
  // Opening a document fires both events: the publisher validates once for the two.
  const edited = (uri: string, text: string) => {
    if (uri.endsWith(`/${CONFIG_FILE}`)) return publisher.configChanged(uri);
    const dir = workspace.edited(uri, text);
    if (dir) publisher.folderChanged(dir, uri);
  };
  documents.onDidOpen((e) => edited(e.document.uri, e.document.getText()));
  documents.onDidChangeContent((e) => edited(e.document.uri, e.document.getText()));
  const diskChanged = (uri: string) => {
    if (uri.endsWith(`/${CONFIG_FILE}`)) return publisher.configChanged(uri);
    if (uri.endsWith(`/${MANIFEST_FILE}`)) publisher.forgetDiscovered();
    const dir = workspace.reread(uri);
    if (dir) publisher.folderChanged(dir, uri);
    else if (uri.endsWith(`/${MANIFEST_FILE}`)) publisher.folderGone(dirname(fileURLToPath(uri)));
  };
  documents.onDidClose((e) => diskChanged(e.document.uri));
  // Only the files named are read again; the editor's text wins for the ones it has open.
  connection.onDidChangeWatchedFiles((e) => {
    for (const change of e.changes) diskChanged(change.uri);
  });
  serveFeatures(connection, workspace, renameClient);
  documents.listen(connection);
  connection.listen();
}

/** Each request: the document's benchmark looked up, one feature called; outside a benchmark, the empty answer. */
function serveFeatures(connection: Connection, workspace: BenchmarkWorkspace, renameClient: RenameClient): void {
  connection.onCompletion((p) => {
    const l = workspace.locate(p.textDocument.uri);
    return l ? getCompletion(l.benchmark, l.file, p.position) : [];
  });
  connection.onHover((p) => {
    const l = workspace.locate(p.textDocument.uri);
    return l ? (getHover(l.benchmark, l.file, p.position) ?? null) : null;
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
    return l ? (prepareRename(l.benchmark, l.file, p.position) ?? null) : null;
  });
  connection.onRenameRequest((p) => {
    const l = workspace.locate(p.textDocument.uri);
    if (!l) return null;
    const edit = getRename(l.benchmark, l.file, p.position, p.newName, l.uriOf, renameClient);
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
