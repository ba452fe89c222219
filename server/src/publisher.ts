/**
 * Diagnostics of whole benchmark folders and of config.jsonc, sent as they change. A change only
 * marks its folder; the folder is validated once the burst of changes has settled, so versions
 * that a newer one already replaced are dropped, never validated nor published, however fast the
 * keystrokes come. Every file whose diagnostics changed is published, and the files a change
 * named always are (with the editor's version of an open document), last.
 */
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BenchmarkValidation,
  checkRunBenchmarks,
  CONFIG_FILE,
  diagnostic,
  lineRange,
  parseConfig,
  type Diagnostic,
} from '../../scenario/src';
import type { Connection, Diagnostic as LspDiagnostic } from 'vscode-languageserver';
import { toLsp } from './features/diagnostics';
import { BenchmarkWorkspace } from './workspace';

/** Past this long a validation is slow, and it waits for `QUIET_MS` without a change before it starts. */
const SLOW_VALIDATION_MS = 20;
const QUIET_MS = 5;

interface FolderState {
  validation: BenchmarkValidation;
  lists: Map<string, readonly Diagnostic[]>;
  uris: Map<string, string>;
}

export class DiagnosticsPublisher {
  /** Benchmark folders and config.jsonc files to validate when the changes settle. */
  private readonly dirtyFolders = new Set<string>();
  private readonly dirtyConfigs = new Set<string>();
  /** The URIs a change named: published even when their diagnostics stay the same. */
  private readonly named = new Set<string>();
  /** What each URI was last sent, as JSON. */
  private readonly sent = new Map<string, string>();
  /** Per folder: its validation, the list last published per file (to skip by identity, and to clear a file gone), and its URIs. */
  private readonly folders = new Map<string, FolderState>();
  /** Every change counts here: validation waits for an event-loop turn in which none came. */
  private changes = 0;
  private lastChangeAt = 0;
  private settling = false;
  /** How long the last validation took: a slow one waits for a quiet moment, so requests sent with a keystroke come first. */
  private lastFlushMs = 0;
  /** Benchmark folders under each workspace root, for config.jsonc: found again when a manifest comes or goes. */
  private readonly discovered = new Map<string, string[]>();

  constructor(
    private readonly connection: Connection,
    private readonly workspace: BenchmarkWorkspace,
    private readonly versionOf: (uri: string) => number | undefined,
  ) {}

  /** A folder to validate, and the URI that changed in it (if one did). */
  folderChanged(dir: string, uri?: string): void {
    this.dirtyFolders.add(dir);
    if (uri) this.named.add(uri);
    this.schedule();
  }

  configChanged(uri: string): void {
    this.dirtyConfigs.add(uri);
    this.schedule();
  }

  /** A folder that is no longer a benchmark (its manifest is gone): its files' diagnostics are cleared. */
  folderGone(dir: string): void {
    for (const file of this.folders.get(dir)?.lists.keys() ?? []) this.send(BenchmarkWorkspace.uriOf(dir, file), []);
    this.folders.delete(dir);
    this.dirtyFolders.delete(dir);
  }

  /** A manifest appeared or went: config.jsonc's view of which benchmarks exist is found again. */
  forgetDiscovered(): void {
    this.discovered.clear();
  }

  /**
   * Waits until an event-loop turn passes with no new change, then validates. The connection
   * handles one queued message per turn, so a burst of keystrokes already received is all
   * applied before the folder is validated, once, on the last version.
   */
  private schedule(): void {
    this.changes++;
    this.lastChangeAt = performance.now();
    if (this.settling) return;
    this.settling = true;
    this.settle(-1);
  }

  private settle(seen: number): void {
    setImmediate(() => {
      if (this.changes !== seen) {
        this.settle(this.changes);
        return;
      }
      // A validation that blocks for long lets an editor's completion, sent with the keystroke, go first.
      const quiet = this.lastFlushMs > SLOW_VALIDATION_MS ? QUIET_MS - (performance.now() - this.lastChangeAt) : 0;
      if (quiet > 0) {
        setTimeout(() => this.settle(-1), quiet);
        return;
      }
      this.settling = false;
      const started = performance.now();
      this.flush();
      this.lastFlushMs = performance.now() - started;
    });
  }

  private flush(): void {
    const configs = [...this.dirtyConfigs];
    const folders = [...this.dirtyFolders];
    this.dirtyConfigs.clear();
    this.dirtyFolders.clear();
    for (const uri of configs) this.publishConfig(uri);
    for (const dir of folders) this.publishFolder(dir);
    this.named.clear();
  }

  /**
   * One folder: validated incrementally (`BenchmarkValidation`), so a file whose diagnostics
   * could not have changed comes back as the very list last published and is skipped unread;
   * only the others are turned into LSP form and compared with what was sent.
   */
  private publishFolder(dir: string): void {
    let state = this.folders.get(dir);
    if (!state) {
      state = { validation: new BenchmarkValidation(), lists: new Map(), uris: new Map() };
      this.folders.set(dir, state);
    }
    const { lists, uris } = state;
    const uriOf = (file: string) => {
      let uri = uris.get(file);
      if (uri === undefined) {
        uri = BenchmarkWorkspace.uriOf(dir, file);
        uris.set(file, uri);
      }
      return uri;
    };
    const { byFile, touched } = state.validation.validate(this.workspace.get(dir));
    const last: [string, LspDiagnostic[]][] = [];
    const publish = (file: string, diagnostics: readonly Diagnostic[]) => {
      const uri = uriOf(file);
      const named = this.named.has(uri);
      if (lists.get(file) === diagnostics && !named) return;
      lists.set(file, diagnostics);
      const lsp = diagnostics.map((d) => toLsp(d, uriOf));
      if (named) last.push([uri, lsp]);
      else if (this.sent.get(uri) !== JSON.stringify(lsp)) this.send(uri, lsp);
    };
    if (touched) {
      for (const file of touched) publish(file, byFile.get(file) ?? []);
      // A file a change named whose diagnostics stayed (an open that changed no text) is answered with its version all the same.
      for (const uri of this.named) {
        const path = fileURLToPath(uri);
        const list = dirname(path) === dir ? byFile.get(basename(path)) : undefined;
        if (list && !touched.has(basename(path))) publish(basename(path), list);
      }
    } else {
      for (const [file, diagnostics] of byFile) publish(file, diagnostics);
      for (const file of [...lists.keys()]) {
        if (byFile.has(file)) continue;
        lists.delete(file);
        this.send(uriOf(file), []);
      }
    }
    for (const [uri, diagnostics] of last) this.send(uri, diagnostics);
  }

  /** config.jsonc: its own diagnostics, and runs naming benchmarks the workspace lacks. */
  private publishConfig(uri: string): void {
    const text = this.workspace.textOf(uri);
    if (text === undefined) return;
    // Bytes that `mmb check` and `mmb run` refuse are refused here with their line, whatever the editor decoded them to.
    const refused = this.workspace.configFileProblem(uri);
    if (refused) {
      this.send(uri, [toLsp(diagnostic('invalid-config', CONFIG_FILE, lineRange(0, 0, 0), refused), () => uri)]);
      return;
    }
    const { config, diagnostics } = parseConfig(text);
    const root = dirname(fileURLToPath(uri));
    let known = this.discovered.get(root);
    if (!known) {
      known = this.workspace.discover(root).map((d) => basename(d));
      this.discovered.set(root, known);
    }
    const all = [...diagnostics, ...checkRunBenchmarks(config, known)];
    this.send(
      uri,
      all.map((d) => toLsp(d, () => uri)),
    );
  }

  private send(uri: string, diagnostics: LspDiagnostic[]): void {
    this.sent.set(uri, JSON.stringify(diagnostics));
    const version = this.versionOf(uri);
    void this.connection.sendDiagnostics(version === undefined ? { uri, diagnostics } : { uri, version, diagnostics });
  }
}
