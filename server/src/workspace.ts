/**
 * The benchmark folders the server serves. Each folder is read from its file system once, when a
 * request or a validation first needs it; after that the server keeps its texts itself: an open
 * document's text comes from the editor with each change, another file's from the disk when a
 * file-watch event names it. So a keystroke reads nothing from disk, and only the file whose text
 * changed is parsed again (the parse cache keeps the others).
 */
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MAX_FILE_BYTES } from '../../scenario/node/safeRead';
import { MANIFEST_FILE, updateBenchmark, type Benchmark, type ParseCache } from '../../scenario/src';
import type { BenchmarkFileSystem } from './fileSystem';

export interface Located {
  benchmark: Benchmark;
  dir: string;
  file: string;
  uriOf: (file: string) => string;
}

/** One benchmark folder as the server knows it. */
interface Folder {
  cache: ParseCache;
  /** The texts by file name: the editor's for open documents, the disk's for the others. */
  files: Map<string, string>;
  /** The files the reader refused, with why: an open document never un-refuses one. */
  refused: Map<string, string>;
  /** The benchmark of the current texts; dropped by a change, rebuilt on the next use from the last one. */
  benchmark?: Benchmark;
  /** The last benchmark built, and the files whose text or state changed since: the next one replaces only those. */
  previous?: Benchmark;
  changed: Set<string>;
}

export class BenchmarkWorkspace {
  private readonly folders = new Map<string, Folder>();
  /** Whether a folder holds benchmark.json, as last seen: a file-watch event on it asks again. */
  private readonly manifestSeen = new Map<string, boolean>();

  /** `openText` gives the editor's text of an open document, by URI. */
  constructor(
    private readonly fileSystem: BenchmarkFileSystem,
    private readonly openText: (uri: string) => string | undefined,
  ) {}

  /** The benchmark folder of a document (the folder holding benchmark.json), if it is in one. */
  folderOf(uri: string): string | undefined {
    if (!uri.startsWith('file:')) return undefined;
    const dir = dirname(fileURLToPath(uri));
    let seen = this.manifestSeen.get(dir);
    if (seen === undefined) {
      seen = this.fileSystem.isFile(join(dir, MANIFEST_FILE));
      this.manifestSeen.set(dir, seen);
    }
    return seen ? dir : undefined;
  }

  /** The benchmark and the file name a document stands for. */
  locate(uri: string): Located | undefined {
    const dir = this.folderOf(uri);
    if (!dir) return undefined;
    return { benchmark: this.get(dir), dir, file: basename(fileURLToPath(uri)), uriOf: (f) => BenchmarkWorkspace.uriOf(dir, f) };
  }

  static uriOf(dir: string, file: string): string {
    return pathToFileURL(join(dir, file)).toString();
  }

  /**
   * The folder's benchmark from its current texts: only files whose text changed are parsed
   * again, and a changed chapter or sheet is put into the last model in place (`updateBenchmark`).
   */
  get(dir: string): Benchmark {
    const folder = this.folder(dir);
    if (!folder.benchmark) {
      folder.benchmark = updateBenchmark(
        folder.previous,
        { name: basename(dir), files: folder.files, refused: folder.refused },
        folder.changed,
        folder.cache,
      );
      folder.previous = folder.benchmark;
      folder.changed.clear();
    }
    return folder.benchmark;
  }

  /**
   * An open document's text changed (opened, edited): it replaces the file's text. A file the
   * reader refused stays refused whatever the editor shows (a link's target is exactly what must
   * not be read). Returns the folder, or undefined when the document is in none.
   */
  edited(uri: string, text: string): string | undefined {
    const dir = this.folderOf(uri);
    if (!dir) return undefined;
    const name = basename(fileURLToPath(uri));
    if (!isServed(name)) return dir;
    const folder = this.folders.get(dir);
    // A folder not read yet reads the editor's text with the rest when it is first needed.
    if (!folder || folder.refused.has(name)) return dir;
    if (text.length > MAX_FILE_BYTES) {
      folder.files.delete(name);
      folder.refused.set(name, `it is larger than the ${MAX_FILE_BYTES / 1024 / 1024} MiB a benchmark file may have`);
    } else if (folder.files.get(name) !== text) folder.files.set(name, text);
    else return dir;
    folder.changed.add(name);
    delete folder.benchmark;
    return dir;
  }

  /**
   * A file changed on disk (created, changed, deleted), or an open document closed: the one file
   * is read again, unless the editor has it open (its text wins). A change of benchmark.json may
   * make or unmake a folder. Returns the folder, or undefined when the file is in none.
   */
  reread(uri: string): string | undefined {
    if (!uri.startsWith('file:')) return undefined;
    const path = fileURLToPath(uri);
    const dir = dirname(path);
    const name = basename(path);
    if (name === MANIFEST_FILE) this.manifestSeen.delete(dir);
    if (!this.folderOf(uri)) {
      this.folders.delete(dir);
      return undefined;
    }
    const folder = this.folders.get(dir);
    if (!folder || !isServed(name)) return dir;
    const open = this.openText(uri);
    folder.files.delete(name);
    folder.refused.delete(name);
    const read = this.fileSystem.readBenchmarkFile(dir, name);
    if (read && 'refused' in read) folder.refused.set(name, read.refused);
    else if (read) folder.files.set(name, open ?? read.text);
    folder.changed.add(name);
    delete folder.benchmark;
    return dir;
  }

  /** Every benchmark folder under a workspace root: `benchmarks/*` and the root's own children. */
  discover(root: string): string[] {
    const found: string[] = [];
    for (const parent of [join(root, 'benchmarks'), root]) {
      for (const n of this.fileSystem.list(parent) ?? [])
        if (this.folderOf(BenchmarkWorkspace.uriOf(join(parent, n), MANIFEST_FILE))) found.push(join(parent, n));
    }
    if (this.folderOf(BenchmarkWorkspace.uriOf(root, MANIFEST_FILE))) found.push(root);
    return [...new Set(found)];
  }

  /** Why config.jsonc on disk is refused before its keys are read (its bytes, not the editor's text); undefined when it is not. */
  configFileProblem(uri: string): string | undefined {
    return uri.startsWith('file:') ? this.fileSystem.configFileProblem?.(fileURLToPath(uri)) : undefined;
  }

  /** A file's text as the editor has it, else as the file system does. */
  textOf(uri: string): string | undefined {
    return this.openText(uri) ?? (uri.startsWith('file:') ? this.fileSystem.readText(fileURLToPath(uri)) : undefined);
  }

  /** The folder's texts, read from the file system (with the editor's open texts) the first time only. */
  private folder(dir: string): Folder {
    let folder = this.folders.get(dir);
    if (!folder) {
      const read = this.fileSystem.readBenchmarkFiles(dir, this.openText);
      folder = { cache: new Map(), files: read.files, refused: new Map(read.refused ?? []), changed: new Set() };
      this.folders.set(dir, folder);
    }
    return folder;
  }
}

/** The names a benchmark folder's reader serves: the manifest and the top-level markdown. */
function isServed(name: string): boolean {
  return name === MANIFEST_FILE || /\.md$/i.test(name);
}
