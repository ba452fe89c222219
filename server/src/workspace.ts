/**
 * The benchmark folders the server serves: each one loaded from its file system with the editor's
 * unsaved text in place of the files it has open, parsed once per change of a file's text, and
 * cached until something in the folder changes.
 */
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadBenchmark, MANIFEST_FILE, type Benchmark, type ParseCache } from '../../scenario/src';
import type { BenchmarkFileSystem } from './fileSystem';

export interface Located {
  benchmark: Benchmark;
  dir: string;
  file: string;
  uriOf: (file: string) => string;
}

export class BenchmarkWorkspace {
  private readonly folders = new Map<string, { cache: ParseCache; benchmark?: Benchmark }>();

  /** `openText` gives the editor's text of an open document, by URI. */
  constructor(private readonly fileSystem: BenchmarkFileSystem, private readonly openText: (uri: string) => string | undefined) {}

  /** The benchmark folder of a document (the folder holding benchmark.json), if it is in one. */
  folderOf(uri: string): string | undefined {
    if (!uri.startsWith('file:')) return undefined;
    const dir = dirname(fileURLToPath(uri));
    return this.fileSystem.isFile(join(dir, MANIFEST_FILE)) ? dir : undefined;
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

  get(dir: string): Benchmark {
    let entry = this.folders.get(dir);
    if (!entry) {
      entry = { cache: new Map() };
      this.folders.set(dir, entry);
    }
    if (!entry.benchmark) {
      const read = this.fileSystem.readBenchmarkFiles(dir, this.openText);
      entry.benchmark = loadBenchmark({ name: basename(dir), files: read.files, ...(read.refused ? { refused: read.refused } : {}) }, entry.cache);
    }
    return entry.benchmark;
  }

  /** Forgets the folder's benchmark (its parsed files stay cached by text). */
  invalidate(dir: string): void {
    const entry = this.folders.get(dir);
    if (entry) delete entry.benchmark;
  }

  /** Every benchmark folder under a workspace root: `benchmarks/*` and the root's own children. */
  discover(root: string): string[] {
    const found: string[] = [];
    for (const parent of [join(root, 'benchmarks'), root]) {
      for (const n of this.fileSystem.list(parent) ?? []) if (this.fileSystem.isFile(join(parent, n, MANIFEST_FILE))) found.push(join(parent, n));
    }
    if (this.fileSystem.isFile(join(root, MANIFEST_FILE))) found.push(root);
    return [...new Set(found)];
  }

  /** A file's text as the editor has it, else as the file system does. */
  textOf(uri: string): string | undefined {
    return this.openText(uri) ?? (uri.startsWith('file:') ? this.fileSystem.readText(fileURLToPath(uri)) : undefined);
  }
}
