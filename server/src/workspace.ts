/**
 * The benchmark folders the server serves: each one loaded from disk with the editor's unsaved
 * text in place of the files it has open, parsed once per change of a file's text, and cached
 * until something in the folder changes.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadBenchmark, MANIFEST_FILE, type Benchmark, type ParseCache } from '../../scenario/src';

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
    entry.benchmark ??= loadBenchmark({ name: basename(dir), files: this.read(dir) }, entry.cache);
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

  private read(dir: string): Map<string, string> {
    const files = new Map<string, string>();
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return files;
    }
    for (const name of names.filter((n) => n === MANIFEST_FILE || /\.md$/i.test(n))) {
      const path = join(dir, name);
      const open = this.openText(pathToFileURL(path).toString());
      if (open !== undefined) files.set(name, open);
      else if (isFile(path)) {
        try {
          files.set(name, readFileSync(path, 'utf8'));
        } catch {
          // Unreadable right now (being written, permissions): the next change reads it again.
        }
      }
    }
    return files;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
