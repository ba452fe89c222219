/**
 * The language server: publishes the validator's diagnostics for every benchmark folder that
 * holds an open document. Completion, hover and navigation come with issue #4.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createConnection, DiagnosticSeverity, ProposedFeatures, TextDocuments, TextDocumentSyncKind, type Diagnostic as LspDiagnostic } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { loadBenchmark, validateBenchmark, MANIFEST_FILE, type Diagnostic } from '../../scenario/src';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
const published = new Map<string, Set<string>>();

connection.onInitialize(() => ({ capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental } }));
documents.onDidOpen((e) => validateFolderOf(e.document.uri));
documents.onDidChangeContent((e) => validateFolderOf(e.document.uri));

function validateFolderOf(uri: string): void {
  if (!uri.startsWith('file:')) return;
  const dir = dirname(fileURLToPath(uri));
  const files = readFolder(dir);
  if (!files.has(MANIFEST_FILE)) return;
  const diagnostics = validateBenchmark(loadBenchmark({ name: basename(dir), files }));
  const byFile = new Map<string, LspDiagnostic[]>([...files.keys()].map((f) => [f, []]));
  for (const d of diagnostics) byFile.get(d.file)?.push(toLsp(d, dir));
  const before = published.get(dir) ?? new Set();
  for (const [file, list] of byFile) {
    if (list.length || before.has(file)) connection.sendDiagnostics({ uri: pathToFileURL(join(dir, file)).toString(), diagnostics: list });
  }
  published.set(dir, new Set([...byFile].filter(([, l]) => l.length).map(([f]) => f)));
}

/** The folder's files, with open editors' unsaved text in place of what is on disk. */
function readFolder(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return files;
  }
  for (const name of names.filter((n) => n === MANIFEST_FILE || n.endsWith('.md'))) {
    const open = documents.get(pathToFileURL(join(dir, name)).toString());
    try {
      files.set(name, open?.getText() ?? readFileSync(join(dir, name), 'utf8'));
    } catch {
      // A file that vanished between listing and reading is simply not part of the folder.
    }
  }
  return files;
}

function toLsp(d: Diagnostic, dir: string): LspDiagnostic {
  return {
    range: d.range,
    severity: d.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    code: d.code,
    source: 'mmb',
    message: d.message,
    relatedInformation: d.related?.map((r) => ({ location: { uri: pathToFileURL(join(dir, r.file)).toString(), range: r.range }, message: r.message })),
  };
}

documents.listen(connection);
connection.listen();
