/**
 * The benchmark folders the server serves: each one loaded from disk with the editor's unsaved
 * text in place of the files it has open, parsed once per change of a file's text, and cached
 * until something in the folder changes.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadBenchmark, MANIFEST_FILE, type Benchmark, type BenchmarkFiles, type ParseCache } from '../../scenario/src';
import { isBenchmarkFileName } from '../../engine/src/workspace/folders';
import { readBenchmarkFiles } from '../../engine/src/workspace/safeRead';

export interface Located {
  benchmark: Benchmark;
  dir: string;
  file: string;
  uriOf: (file: string) => string;
}

export class BenchmarkWorkspace {
  private readonly folders = new Map<string, { cache: ParseCache; benchmark?: Benchmark }>();

  /** `openText` gives the editor's text of an open document, by URI. */
  constructor(private readonly openText: (uri: string) => string | undefined) {}

  /** The benchmark folder of a document (the folder holding benchmark.json), if it is in one. */
  folderOf(uri: string): string | undefined {
    if (!uri.startsWith('file:')) return undefined;
    const dir = dirname(fileURLToPath(uri));
    return isFile(join(dir, MANIFEST_FILE)) ? dir : undefined;
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
    entry.benchmark ??= loadBenchmark(this.read(dir), entry.cache);
    return entry.benchmark;
  }

  /** Forgets the folder's benchmark (its parsed files stay cached by text). */
  invalidate(dir: string): void {
    const entry = this.folders.get(dir);
    if (entry) delete entry.benchmark;
  }

  /** Every benchmark folder under a workspace root: `benchmarks/*` and the root's own children. */
  static discover(root: string): string[] {
    const found: string[] = [];
    for (const parent of [join(root, 'benchmarks'), root]) {
      let names: string[];
      try {
        names = readdirSync(parent);
      } catch {
        continue;
      }
      for (const n of names) if (isFile(join(parent, n, MANIFEST_FILE))) found.push(join(parent, n));
    }
    if (isFile(join(root, MANIFEST_FILE))) found.push(root);
    return [...new Set(found)];
  }

  /**
   * The folder's files by the engine's rule (nothing outside the folder, no FIFOs, nothing over
   * the size cap), with the editor's text in place of the open ones that pass it.
   */
  private read(dir: string): BenchmarkFiles {
    return readServedFolder(dir, (path) => this.openText(pathToFileURL(path).toString()));
  }
}

/**
 * Self-contained so that it can move with the reading part of the server. A refused file stays
 * refused even when it is open in the editor: the editor shows a link's target, which is exactly
 * what must not be read. A folder that cannot be listed right now reads as empty; the next change
 * reads it again.
 */
export function readServedFolder(dir: string, openText: (path: string) => string | undefined): BenchmarkFiles {
  try {
    const read = readBenchmarkFiles(dir, isBenchmarkFileName, openText);
    return { name: basename(dir), files: read.files, refused: read.refused };
  } catch {
    return { name: basename(dir), files: new Map() };
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
