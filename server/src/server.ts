/**
 * The language server: each request looks up the document's benchmark and calls one feature.
 * An edit in any file re-validates its whole benchmark folder, so a change in a sheet reaches
 * every chapter that uses it, open or not.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkRunBenchmarks, parseConfig } from '../../scenario/src';
import {
  CodeActionKind, createConnection, DidChangeWatchedFilesNotification, ProposedFeatures, ResponseError, TextDocuments, TextDocumentSyncKind,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { getCodeActions } from './features/codeActions';
import { getCompletion } from './features/completion';
import { getDiagnostics, toLsp } from './features/diagnostics';
import { getHover } from './features/hover';
import { getDefinition, getReferences, getRename, prepareRename } from './features/navigation';
import { getDocumentSymbols, getFoldingRanges } from './features/structure';
import { BenchmarkWorkspace } from './workspace';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
const workspace = new BenchmarkWorkspace((uri) => documents.get(uri)?.getText());
let roots: string[] = [];

connection.onInitialize((params) => {
  roots = (params.workspaceFolders ?? []).map((f) => fileURLToPath(f.uri));
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      completionProvider: { triggerCharacters: ['#', '`', '[', '{', ':', '.', ' ', '>', '→', ','] },
      hoverProvider: true,
      definitionProvider: true,
      referencesProvider: true,
      renameProvider: { prepareProvider: true },
      documentSymbolProvider: true,
      foldingRangeProvider: true,
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
    },
  };
});

connection.onInitialized(() => {
  void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: '**/*.{md,json}' }] }).catch(() => undefined);
  for (const root of roots) {
    for (const dir of BenchmarkWorkspace.discover(root)) publish(dir);
    if (readText(join(root, 'config.jsonc')) !== undefined) publishConfig(pathToFileURL(join(root, 'config.jsonc')).toString());
  }
});

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function publish(dir: string): void {
  const uriOf = (file: string) => BenchmarkWorkspace.uriOf(dir, file);
  for (const [file, diagnostics] of getDiagnostics(workspace.get(dir), uriOf)) void connection.sendDiagnostics({ uri: uriOf(file), diagnostics });
}

/** config.jsonc: its own diagnostics, and runs naming benchmarks the workspace lacks. */
function publishConfig(uri: string): void {
  const text = documents.get(uri)?.getText() ?? readText(fileURLToPath(uri));
  if (text === undefined) return;
  const { config, diagnostics } = parseConfig(text);
  const known = BenchmarkWorkspace.discover(dirname(fileURLToPath(uri))).map((d) => basename(d));
  const all = [...diagnostics, ...checkRunBenchmarks(config, known)];
  void connection.sendDiagnostics({ uri, diagnostics: all.map((d) => toLsp(d, () => uri)) });
}

function changed(uri: string): void {
  if (uri.endsWith('/config.jsonc')) return publishConfig(uri);
  const dir = workspace.folderOf(uri);
  if (!dir) return;
  workspace.invalidate(dir);
  publish(dir);
}

documents.onDidOpen((e) => changed(e.document.uri));
documents.onDidChangeContent((e) => changed(e.document.uri));
documents.onDidClose((e) => changed(e.document.uri));
connection.onDidChangeWatchedFiles((e) => {
  for (const c of e.changes) if (c.uri.endsWith('/config.jsonc')) publishConfig(c.uri);
  for (const dir of new Set(e.changes.map((c) => workspace.folderOf(c.uri)).filter((d): d is string => !!d))) {
    workspace.invalidate(dir);
    publish(dir);
  }
});

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
connection.onCodeAction((p) => {
  const l = workspace.locate(p.textDocument.uri);
  return l ? getCodeActions(l.benchmark, l.file, p.context.diagnostics, l.uriOf) : [];
});

documents.listen(connection);
connection.listen();
